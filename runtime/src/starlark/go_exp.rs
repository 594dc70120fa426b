//! `exp` as Go's amd64 `math.Exp` computes it, which `@ytt:math` calls, and the hyperbolic
//! functions Go makes from it. Go's amd64 `Exp` is its own method (Shibata's, from SLEEF):
//! x = k ln 2 + r, a Taylor series of e^(r/16) - 1 taken to the 16th power by four
//! squarings of (1 + t), times 2^k; with fused multiply-adds where the processor has them
//! (AVX2 and FMA, as Go checks at run time), so its last bit depends on the machine — ytt warns
//! of that, and schemac does what ytt does on the same machine. A result below 2^-1022 is
//! subnormal, scaled in two steps as Go does; below 2^-1074 (x below about -745.13) it is 0.
//! The C library's `exp` rounds some results the other way (`exp(8.03)`).

// The coefficients and constants as published, with all their digits.
#![allow(clippy::excessive_precision)]

/// ln 2 in two parts, the first with its low bits zero.
const LN2_HI: f64 = 0.693_147_180_559_662_956_511_601_805_686_950_683_593_75;
const LN2_LO: f64 = 0.282_352_905_630_315_771_225_884_481_750_134_360_255_254_120_68e-12;
const LOG2E: f64 = std::f64::consts::LOG2_E;
/// Above this, e^x is infinite.
const OVERFLOW: f64 = 7.097_827_128_933_84e2;
/// 1/n! for n = 7 down to 2.
const TAYLOR: [f64; 6] = [
    2.480_158_730_158_730_158_7e-5,
    1.984_126_984_126_984_127_0e-4,
    1.388_888_888_888_888_888_9e-3,
    8.333_333_333_333_333_333_3e-3,
    4.166_666_666_666_666_666_7e-2,
    1.666_666_666_666_666_666_7e-1,
];

/// Whether Go's `Exp` takes its fused path here.
fn fused() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static FUSED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *FUSED.get_or_init(|| {
            std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `a * b + c`, rounded once where Go's path fuses it, else twice.
fn mul_add(fused: bool, a: f64, b: f64, c: f64) -> f64 {
    if fused {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

pub(super) fn exp(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == f64::NEG_INFINITY {
        return 0.0;
    }
    if x > OVERFLOW {
        return f64::INFINITY;
    }
    let fused = fused();
    // The power of two, rounded to the nearest (an x far below -709 saturates, as the
    // conversion instruction does, and the result is 0).
    let scaled = (x * LOG2E).round_ties_even();
    let k = if scaled >= f64::from(i32::MIN) {
        scaled as i32
    } else {
        i32::MIN
    };
    let kf = f64::from(k);
    let r = mul_add(fused, -kf, LN2_HI, x);
    let r = mul_add(fused, -kf, LN2_LO, r) * 0.0625;
    let mut p = TAYLOR[0];
    for c in &TAYLOR[1..] {
        p = mul_add(fused, p, r, *c);
    }
    p = mul_add(fused, p, r, 0.5);
    p = mul_add(fused, p, r, 1.0);
    let mut t = r * p;
    for _ in 0..3 {
        t *= t + 2.0;
    }
    let fraction = if fused {
        t.mul_add(t + 2.0, 1.0)
    } else {
        t * (t + 2.0) + 1.0
    };
    let biased = k.saturating_add(0x3ff);
    if biased >= 0x7ff {
        return f64::INFINITY;
    }
    if biased > 0 {
        return fraction * f64::from_bits((biased as u64) << 52);
    }
    if biased < -52 {
        return 0.0;
    }
    // A subnormal result: Go scales by 2^(k + 1022), then by 2^-1022, rounding twice.
    fraction * f64::from_bits(((biased + 0x3fe) as u64) << 52) * f64::from_bits(1 << 52)
}

/// `|x|` as Go's functions take it, `if x < 0 { x = -x }`: -0 stays -0 (so that `sinh(-0)`,
/// `asinh(-0)`, `atanh(-0)` are -0, as in Go).
pub(super) fn go_abs(x: f64) -> f64 {
    if x < 0.0 {
        -x
    } else {
        x
    }
}

pub(super) fn sinh(x: f64) -> f64 {
    const P: [f64; 4] = [
        -0.630_767_364_049_771_699_118_478_725_1e6,
        -0.899_127_202_203_950_935_539_801_351_1e5,
        -0.289_421_135_598_956_380_728_466_036_6e4,
        -0.263_056_321_339_749_706_281_948_900_0e2,
    ];
    const Q: [f64; 3] = [
        -0.630_767_364_049_771_699_121_207_727_7e6,
        0.152_151_737_879_001_907_069_648_517_6e5,
        -0.173_678_953_558_233_699_533_450_911e3,
    ];
    let a = go_abs(x);
    let y = if a > 21.0 {
        exp(a) * 0.5
    } else if a > 0.5 {
        let e = exp(a);
        (e - 1.0 / e) * 0.5
    } else {
        let sq = a * a;
        (((P[3] * sq + P[2]) * sq + P[1]) * sq + P[0]) * a / (((sq + Q[2]) * sq + Q[1]) * sq + Q[0])
    };
    if x < 0.0 {
        -y
    } else {
        y
    }
}

pub(super) fn cosh(x: f64) -> f64 {
    let a = x.abs();
    if a > 21.0 {
        return exp(a) * 0.5;
    }
    let e = exp(a);
    (e + 1.0 / e) * 0.5
}

pub(super) fn tanh(x: f64) -> f64 {
    const P: [f64; 3] = [
        -9.643_991_794_250_522_386_28e-1,
        -9.928_772_310_019_185_865_64e1,
        -1.614_687_684_417_084_479_52e3,
    ];
    const Q: [f64; 3] = [
        1.128_116_784_916_329_314_02e2,
        2.235_488_390_601_004_485_83e3,
        4.844_063_053_251_254_860_48e3,
    ];
    const MAXLOG: f64 = 8.802_969_193_111_305_429_598_8e1;
    let a = x.abs();
    if a > 0.5 * MAXLOG {
        return if x < 0.0 { -1.0 } else { 1.0 };
    }
    if a >= 0.625 {
        let s = exp(2.0 * a);
        let z = 1.0 - 2.0 / (s + 1.0);
        return if x < 0.0 { -z } else { z };
    }
    if x == 0.0 {
        return x;
    }
    let s = x * x;
    x + x * s * ((P[0] * s + P[1]) * s + P[2]) / (((s + Q[0]) * s + Q[1]) * s + Q[2])
}

/// `x` as a fraction in [0.5, 1) and a power of two (Go's `Frexp`, subnormals normalized).
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || x.is_nan() || x.is_infinite() {
        return (x, 0);
    }
    let (x, mut e) = if x.abs() < f64::MIN_POSITIVE {
        (x * (1u64 << 52) as f64, -52)
    } else {
        (x, 0)
    };
    let bits = x.to_bits();
    e += ((bits >> 52) & 0x7ff) as i32 - 1022;
    (f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52)), e)
}

/// `frac` × 2^`exp` (Go's `Ldexp`: a subnormal result is rounded once, by the last multiply).
fn ldexp(frac: f64, exp: i32) -> f64 {
    if frac == 0.0 || frac.is_nan() || frac.is_infinite() {
        return frac;
    }
    let (frac, e) = frexp(frac);
    // frexp's fraction has the exponent -1: as a float of exponent field 1022.
    let mut exp = exp.saturating_add(e).saturating_sub(1);
    if exp < -1075 {
        return 0f64.copysign(frac);
    }
    if exp > 1023 {
        return f64::INFINITY.copysign(frac);
    }
    let mut m = 1.0;
    if exp < -1022 {
        exp += 53;
        m = 1.0 / (1u64 << 53) as f64;
    }
    let bits = (frac * 2.0).to_bits() & !(0x7ff << 52);
    m * f64::from_bits(bits | (((exp + 1023) as u64) << 52))
}

/// Whether `y` is an odd integer (below 2^53).
fn odd_int(y: f64) -> bool {
    y.abs() < (1u64 << 53) as f64 && y.fract() == 0.0 && (y as i64) & 1 == 1
}

/// x^y for an infinite (or huge even) `y`: 1 for x = -1, else 0 or infinity.
fn unbounded_power(x: f64, y: f64) -> f64 {
    if x == -1.0 {
        1.0
    } else if (x.abs() < 1.0) == (y > 0.0) {
        0.0
    } else {
        f64::INFINITY
    }
}

/// x^y as Go's `math.Pow`: x^frac(y) by `Exp(frac(y) Log(x))`, the integer part of y by
/// repeated squaring of x's fraction with its exponent kept apart.
pub(super) fn pow(x: f64, y: f64) -> f64 {
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if y == 1.0 {
        return x;
    }
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 {
        let odd = x.is_sign_negative() && odd_int(y);
        return match (y < 0.0, odd) {
            (true, true) => f64::NEG_INFINITY,
            (true, false) => f64::INFINITY,
            (false, true) => x,
            (false, false) => 0.0,
        };
    }
    if y.is_infinite() {
        return unbounded_power(x, y);
    }
    if x.is_infinite() {
        if x < 0.0 {
            return pow(1.0 / x, -y);
        }
        return if y < 0.0 { 0.0 } else { f64::INFINITY };
    }
    if y == 0.5 {
        return x.sqrt();
    }
    if y == -0.5 {
        return 1.0 / x.sqrt();
    }
    let (mut yi, mut yf) = (y.abs().trunc(), y.abs().fract());
    if yf != 0.0 && x < 0.0 {
        return f64::NAN;
    }
    if yi >= 9.223_372_036_854_775_808e18 {
        // A huge even power: as the infinite one.
        return unbounded_power(x, y);
    }
    let mut a1 = 1.0;
    let mut ae: i64 = 0;
    if yf != 0.0 {
        if yf > 0.5 {
            yf -= 1.0;
            yi += 1.0;
        }
        a1 = exp(yf * super::math_module::ln(x));
    }
    let (mut x1, xe) = frexp(x);
    let mut xe = i64::from(xe);
    let mut i = yi as i64;
    while i != 0 {
        if !(-(1 << 12)..=(1 << 12)).contains(&xe) {
            ae += xe;
            break;
        }
        if i & 1 == 1 {
            a1 *= x1;
            ae += xe;
        }
        x1 *= x1;
        xe <<= 1;
        if x1 < 0.5 {
            x1 += x1;
            xe -= 1;
        }
        i >>= 1;
    }
    if y < 0.0 {
        a1 = 1.0 / a1;
        ae = -ae;
    }
    ldexp(
        a1,
        ae.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
    )
}
