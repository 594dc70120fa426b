//! The inverse hyperbolic functions of Go's `math` package, which `@ytt:math` calls: fdlibm's
//! formulas over Go's `Log` (the amd64 one, [`super::math_module`]'s `ln`) and `Log1p`. The C
//! library rounds a tenth of its results the other way in the last bit (`asinh(-0.85)`); these
//! agree with ytt bit for bit.

// The coefficients and constants as published, with all their digits.
#![allow(clippy::excessive_precision)]

const LN2: f64 = std::f64::consts::LN_2;
const LN2_HI: f64 = 6.931_471_803_691_238_164_90e-1;
const LN2_LO: f64 = 1.908_214_929_270_587_700_02e-10;
/// 2^28 and 2^-28, where the formulas change.
const LARGE: f64 = (1u64 << 28) as f64;
const NEAR_ZERO: f64 = 1.0 / LARGE;

/// ln(1 + x), fdlibm's `log1p` as Go has it.
fn log1p(x: f64) -> f64 {
    const SQRT2_M1: f64 = 4.142_135_623_730_950_488_017e-1;
    const SQRT2_HALF_M1: f64 = -2.928_932_188_134_524_755_992e-1;
    const SMALL: f64 = 1.0 / (1u64 << 29) as f64;
    const TINY: f64 = 1.0 / (1u64 << 54) as f64;
    const TWO53: f64 = (1u64 << 53) as f64;
    const LP: [f64; 7] = [
        6.666_666_666_666_735_130e-1,
        3.999_999_999_940_941_908e-1,
        2.857_142_874_366_239_149e-1,
        2.222_219_843_214_978_396e-1,
        1.818_357_216_161_805_012e-1,
        1.531_383_769_920_937_332e-1,
        1.479_819_860_511_658_591e-1,
    ];
    if x < -1.0 || x.is_nan() {
        return f64::NAN;
    }
    if x == -1.0 {
        return f64::NEG_INFINITY;
    }
    if x == f64::INFINITY {
        return x;
    }
    let absx = x.abs();
    let mut f = 0.0;
    let mut iu: u64 = 0;
    let mut k: i64 = 1;
    if absx < SQRT2_M1 {
        if absx < SMALL {
            if absx < TINY {
                return x;
            }
            return x - x * x * 0.5;
        }
        if x > SQRT2_HALF_M1 {
            k = 0;
            f = x;
            iu = 1;
        }
    }
    let mut c = 0.0;
    if k != 0 {
        let mut u;
        if absx < TWO53 {
            u = 1.0 + x;
            iu = u.to_bits();
            k = (iu >> 52) as i64 - 1023;
            c = if k > 0 { 1.0 - (u - x) } else { x - (u - 1.0) };
            c /= u;
        } else {
            u = x;
            iu = u.to_bits();
            k = (iu >> 52) as i64 - 1023;
        }
        iu &= 0x000f_ffff_ffff_ffff;
        if iu < 0x0006_a09e_667f_3bcd {
            u = f64::from_bits(iu | 0x3ff0_0000_0000_0000);
        } else {
            k += 1;
            u = f64::from_bits(iu | 0x3fe0_0000_0000_0000);
            iu = (0x0010_0000_0000_0000 - iu) >> 2;
        }
        f = u - 1.0;
    }
    let hfsq = 0.5 * f * f;
    let kf = k as f64;
    if iu == 0 {
        if f == 0.0 {
            if k == 0 {
                return 0.0;
            }
            c += kf * LN2_LO;
            return kf * LN2_HI + c;
        }
        let r = hfsq * (1.0 - 0.666_666_666_666_666_66 * f);
        if k == 0 {
            return f - r;
        }
        return kf * LN2_HI - ((r - (kf * LN2_LO + c)) - f);
    }
    let s = f / (2.0 + f);
    let z = s * s;
    let r = z
        * (LP[0] + z * (LP[1] + z * (LP[2] + z * (LP[3] + z * (LP[4] + z * (LP[5] + z * LP[6]))))));
    if k == 0 {
        return f - (hfsq - s * (hfsq + r));
    }
    kf * LN2_HI - ((hfsq - (s * (hfsq + r) + (kf * LN2_LO + c))) - f)
}

pub(super) fn asinh(x: f64) -> f64 {
    if x.is_nan() || x.is_infinite() {
        return x;
    }
    let a = super::go_exp::go_abs(x);
    let y = if a > LARGE {
        super::math_module::ln(a) + LN2
    } else if a > 2.0 {
        super::math_module::ln(2.0 * a + 1.0 / ((a * a + 1.0).sqrt() + a))
    } else if a < NEAR_ZERO {
        a
    } else {
        log1p(a + a * a / (1.0 + (1.0 + a * a).sqrt()))
    };
    if x < 0.0 {
        -y
    } else {
        y
    }
}

pub(super) fn acosh(x: f64) -> f64 {
    if x < 1.0 || x.is_nan() {
        return f64::NAN;
    }
    if x == 1.0 {
        return 0.0;
    }
    if x >= LARGE {
        return super::math_module::ln(x) + LN2;
    }
    if x > 2.0 {
        return super::math_module::ln(2.0 * x - 1.0 / (x + (x * x - 1.0).sqrt()));
    }
    let t = x - 1.0;
    log1p(t + (2.0 * t + t * t).sqrt())
}

pub(super) fn atanh(x: f64) -> f64 {
    if !(-1.0..=1.0).contains(&x) || x.is_nan() {
        return f64::NAN;
    }
    if x == 1.0 || x == -1.0 {
        return f64::INFINITY.copysign(x);
    }
    let a = super::go_exp::go_abs(x);
    let y = if a < NEAR_ZERO {
        a
    } else if a < 0.5 {
        let t = a + a;
        0.5 * log1p(t + t * a / (1.0 - a))
    } else {
        0.5 * log1p((a + a) / (1.0 - a))
    };
    if x < 0.0 {
        -y
    } else {
        y
    }
}
