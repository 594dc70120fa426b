//! The trigonometric functions of Go's `math` package, which `@ytt:math` calls: Cephes'
//! polynomials after a reduction by π/4 (Cody-Waite below 2^29, Payne-Hanek with the bits of
//! 4/π above), and `atan` by Cephes' rational function, from which `asin`, `acos` and `atan2`
//! are made. The C library rounds a quarter of its results the other way in the last bit
//! (`sin(2.5)`, `cos(1e20)`); these agree with ytt bit for bit. Pure Go on amd64, no fused
//! multiply-add.

// The coefficients and constants as published, with all their digits.
#![allow(clippy::excessive_precision)]

use std::f64::consts::PI;

/// Above this, arguments are reduced with [`trig_reduce`].
const REDUCE_THRESHOLD: f64 = (1u64 << 29) as f64;

/// π/4 in three parts, for the Cody-Waite reduction.
const PI4A: f64 = 7.853_981_256_484_985_351_56e-1;
const PI4B: f64 = 3.774_894_707_930_798_176_68e-8;
const PI4C: f64 = 2.695_151_429_079_059_526_45e-15;

/// Cephes' coefficients of sin and cos on [-π/4, π/4].
const SIN: [f64; 6] = [
    1.589_623_015_765_465_680_60e-10,
    -2.505_074_776_285_780_728_66e-8,
    2.755_731_362_138_572_452_13e-6,
    -1.984_126_982_958_953_859_96e-4,
    8.333_333_333_322_118_588_78e-3,
    -1.666_666_666_666_663_072_95e-1,
];
const COS: [f64; 6] = [
    -1.135_853_652_138_768_173_00e-11,
    2.087_570_084_197_473_167_78e-9,
    -2.755_731_417_929_673_881_12e-7,
    2.480_158_728_885_170_453_48e-5,
    -1.388_888_888_887_305_641_16e-3,
    4.166_666_666_666_659_292_18e-2,
];

/// The binary digits of 4/π, 64 to a word: 4/π = Σ `M_PI4[i]` × 2^(-64 i).
const M_PI4: [u64; 20] = [
    0x0000_0000_0000_0001,
    0x45f3_06dc_9c88_2a53,
    0xf84e_afa3_ea69_bb81,
    0xb6c5_2b32_7887_2083,
    0xfca2_c757_bd77_8ac3,
    0x6e48_dc74_849b_a5c0,
    0x0c92_5dd4_13a3_2439,
    0xfc3b_d639_6253_4e7d,
    0xd104_6bea_5d76_8909,
    0xd338_e04d_68be_fc82,
    0x7323_ac73_06a6_73e9,
    0x3908_bf17_7bf2_5076,
    0x3ff1_2fff_bc0b_301f,
    0xde5e_2316_b414_da3e,
    0xda6c_fd9e_4f96_136e,
    0x9e8c_7ecd_3cbf_d45a,
    0xea4f_758f_d7cb_e2f6,
    0x7a0e_73ef_14a5_25d4,
    0xd7f6_bf62_3f1a_ba10,
    0xac06_608d_f8f6_d757,
];

/// The octant of a positive `x` and `x` reduced into [-π/4, π/4] (Payne-Hanek: `x`'s
/// mantissa times the 192 bits of 4/π that matter at its exponent).
fn trig_reduce(x: f64) -> (u64, f64) {
    const SHIFT: u32 = 52;
    const BIAS: i64 = 1023;
    if x < PI / 4.0 {
        return (0, x);
    }
    let bits = x.to_bits();
    let exp = ((bits >> SHIFT) & 0x7ff) as i64 - BIAS - i64::from(SHIFT);
    let mantissa = (bits & ((1 << SHIFT) - 1)) | (1 << SHIFT);
    let (digit, bitshift) = (((exp + 61) / 64) as usize, ((exp + 61) % 64) as u32);
    let word =
        |i: usize| (M_PI4[i] << bitshift) | M_PI4[i + 1].checked_shr(64 - bitshift).unwrap_or(0);
    let (z0, z1, z2) = (word(digit), word(digit + 1), word(digit + 2));
    let mul = |a: u64, b: u64| {
        let p = u128::from(a) * u128::from(b);
        ((p >> 64) as u64, p as u64)
    };
    let (z2hi, _) = mul(z2, mantissa);
    let (z1hi, z1lo) = mul(z1, mantissa);
    let z0lo = z0.wrapping_mul(mantissa);
    let (lo, carry) = z1lo.overflowing_add(z2hi);
    let hi = z0lo.wrapping_add(z1hi).wrapping_add(u64::from(carry));
    let mut j = hi >> 61;
    let hi = (hi << 3) | (lo >> 61);
    let lz = hi.leading_zeros();
    let e = (BIAS as u64).wrapping_sub(u64::from(lz) + 1);
    let hi = ((hi << (lz + 1)) | lo.checked_shr(64 - (lz + 1)).unwrap_or(0)) >> (64 - SHIFT);
    let mut z = f64::from_bits(hi | (e << SHIFT));
    if j & 1 == 1 {
        j = (j + 1) & 7;
        z -= 1.0;
    }
    (j, z * (PI / 4.0))
}

/// The octant of a positive `x` and `x` reduced into [-π/4, π/4], an odd octant moved to the
/// next so that zeros land at the origin.
fn reduce(x: f64) -> (u64, f64) {
    if x >= REDUCE_THRESHOLD {
        return trig_reduce(x);
    }
    let mut j = (x * (4.0 / PI)) as u64;
    let mut y = j as f64;
    if j & 1 == 1 {
        j += 1;
        y += 1.0;
    }
    (j & 7, ((x - y * PI4A) - y * PI4B) - y * PI4C)
}

fn sin_poly(z: f64, zz: f64) -> f64 {
    z + z
        * zz
        * (((((SIN[0] * zz + SIN[1]) * zz + SIN[2]) * zz + SIN[3]) * zz + SIN[4]) * zz + SIN[5])
}

fn cos_poly(zz: f64) -> f64 {
    1.0 - 0.5 * zz
        + zz * zz
            * (((((COS[0] * zz + COS[1]) * zz + COS[2]) * zz + COS[3]) * zz + COS[4]) * zz + COS[5])
}

pub(super) fn sin(x: f64) -> f64 {
    if x == 0.0 || x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        return f64::NAN;
    }
    let (mut j, z) = reduce(x.abs());
    let mut negative = x < 0.0;
    if j > 3 {
        negative = !negative;
        j -= 4;
    }
    let zz = z * z;
    let y = if j == 1 || j == 2 {
        cos_poly(zz)
    } else {
        sin_poly(z, zz)
    };
    if negative {
        -y
    } else {
        y
    }
}

pub(super) fn cos(x: f64) -> f64 {
    if x.is_nan() || x.is_infinite() {
        return f64::NAN;
    }
    let (mut j, z) = reduce(x.abs());
    let mut negative = false;
    if j > 3 {
        j -= 4;
        negative = !negative;
    }
    if j > 1 {
        negative = !negative;
    }
    let zz = z * z;
    let y = if j == 1 || j == 2 {
        sin_poly(z, zz)
    } else {
        cos_poly(zz)
    };
    if negative {
        -y
    } else {
        y
    }
}

pub(super) fn tan(x: f64) -> f64 {
    const P: [f64; 3] = [
        -1.309_369_391_813_837_776_46e4,
        1.153_516_648_385_874_161_40e6,
        -1.795_652_519_764_848_779_88e7,
    ];
    const Q: [f64; 4] = [
        1.368_129_634_706_929_546_78e4,
        -1.320_892_344_402_109_674_47e6,
        2.500_838_018_233_579_158_39e7,
        -5.386_957_559_294_546_298_81e7,
    ];
    if x == 0.0 || x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        return f64::NAN;
    }
    let (j, z) = reduce(x.abs());
    let zz = z * z;
    let mut y = if zz > 1e-14 {
        z + z
            * (zz * ((P[0] * zz + P[1]) * zz + P[2])
                / ((((zz + Q[0]) * zz + Q[1]) * zz + Q[2]) * zz + Q[3]))
    } else {
        z
    };
    if j & 2 == 2 {
        y = -1.0 / y;
    }
    if x < 0.0 {
        -y
    } else {
        y
    }
}

/// Cephes' atan on [0, 0.66].
fn xatan(x: f64) -> f64 {
    const P: [f64; 5] = [
        -8.750_608_600_031_904_122_785e-1,
        -1.615_753_718_733_365_076_637e1,
        -7.500_855_792_314_704_667_340e1,
        -1.228_866_684_490_136_173_410e2,
        -6.485_021_904_942_025_371_773e1,
    ];
    const Q: [f64; 5] = [
        2.485_846_490_142_306_297_962e1,
        1.650_270_098_316_988_542_046e2,
        4.328_810_604_912_902_668_951e2,
        4.853_903_996_359_136_964_868e2,
        1.945_506_571_482_613_964_425e2,
    ];
    let z = x * x;
    let z = z * ((((P[0] * z + P[1]) * z + P[2]) * z + P[3]) * z + P[4])
        / (((((z + Q[0]) * z + Q[1]) * z + Q[2]) * z + Q[3]) * z + Q[4]);
    x * z + x
}

/// atan of a positive `x`, reduced to [0, 0.66].
fn satan(x: f64) -> f64 {
    const MOREBITS: f64 = 6.123_233_995_736_765_886_130e-17; // π/2 = PI/2 + MOREBITS
    const TAN3PIO8: f64 = 2.414_213_562_373_095_048_80;
    if x <= 0.66 {
        xatan(x)
    } else if x > TAN3PIO8 {
        PI / 2.0 - xatan(1.0 / x) + MOREBITS
    } else {
        PI / 4.0 + xatan((x - 1.0) / (x + 1.0)) + 0.5 * MOREBITS
    }
}

pub(super) fn atan(x: f64) -> f64 {
    if x == 0.0 {
        x
    } else if x > 0.0 {
        satan(x)
    } else {
        -satan(-x)
    }
}

pub(super) fn asin(x: f64) -> f64 {
    if x == 0.0 {
        return x;
    }
    let a = x.abs();
    if a > 1.0 {
        return f64::NAN;
    }
    let t = (1.0 - a * a).sqrt();
    let y = if a > 0.7 {
        PI / 2.0 - satan(t / a)
    } else {
        satan(a / t)
    };
    if x < 0.0 {
        -y
    } else {
        y
    }
}

pub(super) fn acos(x: f64) -> f64 {
    PI / 2.0 - asin(x)
}

pub(super) fn atan2(y: f64, x: f64) -> f64 {
    if y.is_nan() || x.is_nan() {
        return f64::NAN;
    }
    if y == 0.0 {
        return if x >= 0.0 && !x.is_sign_negative() {
            0f64.copysign(y)
        } else {
            PI.copysign(y)
        };
    }
    if x == 0.0 {
        return (PI / 2.0).copysign(y);
    }
    if x.is_infinite() {
        let angle = match (x > 0.0, y.is_infinite()) {
            (true, true) => PI / 4.0,
            (true, false) => 0.0,
            (false, true) => 3.0 * PI / 4.0,
            (false, false) => PI,
        };
        return angle.copysign(y);
    }
    if y.is_infinite() {
        return (PI / 2.0).copysign(y);
    }
    let q = atan(y / x);
    if x < 0.0 {
        if q <= 0.0 {
            q + PI
        } else {
            q - PI
        }
    } else {
        q
    }
}
