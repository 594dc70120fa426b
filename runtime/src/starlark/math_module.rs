//! `@ytt:math`: starlark-go's math module as ytt embeds it, with its three ways of checking
//! arguments (see [`Arity`]) and its error words. Every call marks the run as one that used the
//! module (ytt then warns on stderr), even a call that fails.

use super::{go_exp, go_hyperbolic, go_trig};
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{Heap, StringValue, Value};
use std::f64::consts::PI;

type Kwargs<'v> = SmallMap<StringValue<'v>, Value<'v>>;

/// How a math function checks its arguments, each with starlark-go's words.
#[derive(Clone, Copy)]
enum Arity {
    /// `ceil`, `floor`: `ceil: ceil: got 2 arguments, want 1`; keywords refused.
    Positional(usize),
    /// The other one-argument functions: `sin: expected exactly one argument`, positional
    /// arguments counted, keywords ignored.
    Unary,
    /// The two-argument functions: `pow: expected exactly two arguments`, keywords ignored.
    Binary,
}

/// The Go type of a value in starlark-go, as `expected float value, but was T` names it.
fn go_type(v: Value) -> String {
    crate::rules::go_type(super::go_type(v))
}

use super::go_format::as_float as number;

fn float_error(prefix: &str, v: Value) -> anyhow::Error {
    anyhow::anyhow!("{prefix}expected float value, but was {}", go_type(v))
}

/// The arguments of the function `name` as floats, checked as `arity` says.
fn args_of(name: &str, args: &[Value], kwargs: &Kwargs, arity: Arity) -> anyhow::Result<Vec<f64>> {
    crate::cli::MATH_USED.store(true, std::sync::atomic::Ordering::Relaxed);
    match arity {
        Arity::Positional(want) => {
            if !kwargs.is_empty() {
                anyhow::bail!("{name}: {name}: unexpected keyword arguments");
            }
            if args.len() != want {
                anyhow::bail!("{name}: {name}: got {} arguments, want {want}", args.len());
            }
        }
        Arity::Unary if args.len() != 1 => {
            anyhow::bail!("{name}: expected exactly one argument")
        }
        Arity::Binary if args.len() != 2 => {
            anyhow::bail!("{name}: expected exactly two arguments")
        }
        Arity::Unary | Arity::Binary => {}
    }
    args.iter()
        .map(|&v| number(v).ok_or_else(|| float_error(&format!("{name}: "), v)))
        .collect()
}

/// `math.floor`/`math.ceil` as starlark-go has them: an int argument is returned as it is; a
/// float is rounded by `round` and converted exactly to an int of any size (`1e23` gives
/// `99999999999999991611392`); infinities and NaN are an error.
fn to_int<'v>(
    name: &str,
    args: &[Value<'v>],
    kwargs: &Kwargs<'v>,
    heap: Heap<'v>,
    round: fn(f64) -> f64,
) -> anyhow::Result<Value<'v>> {
    let x = args_of(name, args, kwargs, Arity::Positional(1))?;
    if args[0].get_type() == "int" {
        return Ok(args[0]);
    }
    let rounded = round(x[0]);
    if rounded.is_nan() {
        anyhow::bail!("{name}: cannot convert float NaN to integer");
    }
    if rounded.is_infinite() {
        anyhow::bail!("{name}: cannot convert float infinity to integer");
    }
    if rounded.abs() < 9.0e18 {
        return Ok(heap.alloc(rounded as i64));
    }
    let big = <num_bigint::BigInt as num_traits::FromPrimitive>::from_f64(rounded)
        .ok_or_else(|| anyhow::anyhow!("{name}: cannot convert float {rounded} to integer"))?;
    Ok(heap.alloc(big))
}

/// The IEEE 754 remainder of Go's `math.Remainder`: `x - n*y` with `n` the integer nearest
/// `x/y`, ties to even, computed without rounding.
fn remainder(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 {
        return f64::NAN;
    }
    if y.is_infinite() {
        return x;
    }
    let negative = x.is_sign_negative();
    let (mut x, y) = (x.abs(), y.abs());
    if x == y {
        return if negative { -0.0 } else { 0.0 };
    }
    if y <= f64::MAX / 2.0 {
        x %= y + y; // now x < 2y
    }
    if y < 2.0 * f64::MIN_POSITIVE {
        if x + x > y {
            x -= y;
            if x + x >= y {
                x -= y;
            }
        }
    } else {
        let half = 0.5 * y;
        if x > half {
            x -= y;
            if x >= half {
                x -= y;
            }
        }
    }
    if negative {
        -x
    } else {
        x
    }
}

/// `x`'s exponent field as a power of two and its fraction with the exponent of [0.5, 1), as
/// Go's amd64 `math.Log` splits a float: a subnormal is not normalized first, so its logarithm
/// comes out near -709 (`log(1e-310)` is -709.085...) as in ytt.
fn split_exponent(x: f64) -> (f64, i32) {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32 - 1022;
    let fraction = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (fraction, exponent)
}

/// The natural logarithm by fdlibm's method, which Go's `math.Log` follows (the C library's
/// `log` rounds some results the other way: `log(7) / log(3)`).
pub(super) fn ln(x: f64) -> f64 {
    const LN2_HI: u64 = 0x3fe6_2e42_fee0_0000;
    const LN2_LO: u64 = 0x3dea_39ef_3579_3c76;
    const L: [u64; 7] = [
        0x3fe5_5555_5555_5593,
        0x3fd9_9999_9997_fa04,
        0x3fd2_4924_9422_9359,
        0x3fcc_71c5_1d8e_78af,
        0x3fc7_4664_96cb_03de,
        0x3fc3_9a09_d078_c69f,
        0x3fc2_f112_df3e_5244,
    ];
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    let l = L.map(f64::from_bits);
    let (mut f1, mut ki) = split_exponent(x);
    if f1 < std::f64::consts::SQRT_2 / 2.0 {
        f1 *= 2.0;
        ki -= 1;
    }
    let f = f1 - 1.0;
    let k = f64::from(ki);
    let s = f / (2.0 + f);
    let s2 = s * s;
    let s4 = s2 * s2;
    let t1 = s2 * (l[0] + s4 * (l[2] + s4 * (l[4] + s4 * l[6])));
    let t2 = s4 * (l[1] + s4 * (l[3] + s4 * l[5]));
    let r = t1 + t2;
    let hfsq = 0.5 * f * f;
    k * f64::from_bits(LN2_HI) - ((hfsq - (s * (hfsq + r) + k * f64::from_bits(LN2_LO))) - f)
}

/// Go's `math.Hypot`: the larger magnitude times `sqrt(1 + (smaller/larger)²)`.
fn hypot(p: f64, q: f64) -> f64 {
    if p.is_infinite() || q.is_infinite() {
        return f64::INFINITY;
    }
    if p.is_nan() || q.is_nan() {
        return f64::NAN;
    }
    let (p, q) = (p.abs(), q.abs());
    let (p, q) = if p < q { (q, p) } else { (p, q) };
    if p == 0.0 {
        return 0.0;
    }
    let q = q / p;
    p * (1.0 + q * q).sqrt()
}

/// Γ(x) by the Cephes method that Go's `math.Gamma` follows: Stirling's series above 33, else
/// a shift into [2, 3) and a rational approximation there.
#[allow(clippy::excessive_precision)] // the coefficients as published
fn gamma(x: f64) -> f64 {
    const EULER: f64 = 0.577_215_664_901_532_9;
    const P: [f64; 7] = [
        1.601_195_224_767_518_5e-4,
        1.191_351_470_065_863_8e-3,
        1.042_137_975_617_615_7e-2,
        4.763_678_004_571_372e-2,
        2.074_482_276_484_359_8e-1,
        4.942_148_268_014_971e-1,
        1.0,
    ];
    const Q: [f64; 8] = [
        -2.315_818_733_241_201_4e-5,
        5.396_055_804_933_034e-4,
        -4.456_419_138_517_972_4e-3,
        1.181_397_852_220_604_3e-2,
        3.582_363_986_054_986_5e-2,
        -2.345_917_957_182_433_5e-1,
        7.143_049_170_302_73e-2,
        1.0,
    ];
    let negative_int = x < 0.0 && x == x.floor();
    if negative_int || x == f64::NEG_INFINITY || x.is_nan() {
        return f64::NAN;
    }
    if x == f64::INFINITY {
        return f64::INFINITY;
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    let q = x.abs();
    let p = q.floor();
    if q > 33.0 {
        if x >= 0.0 {
            let (y1, y2) = stirling(x);
            return y1 * y2;
        }
        let sign = if (p as i64) & 1 == 0 { -1.0 } else { 1.0 };
        let mut z = q - p;
        if z > 0.5 {
            z = q - (p + 1.0);
        }
        z = q * go_trig::sin(std::f64::consts::PI * z);
        if z == 0.0 {
            return sign * f64::INFINITY;
        }
        let (s1, s2) = stirling(q);
        let absz = z.abs();
        let d = absz * s1 * s2;
        let z = if d.is_infinite() {
            std::f64::consts::PI / absz / s1 / s2
        } else {
            std::f64::consts::PI / d
        };
        return sign * z;
    }
    let (mut x, mut z) = (x, 1.0);
    while x >= 3.0 {
        x -= 1.0;
        z *= x;
    }
    let small = |x: f64, z: f64| {
        if x == 0.0 {
            f64::INFINITY
        } else {
            z / ((1.0 + EULER * x) * x)
        }
    };
    while x < 0.0 {
        if x > -1e-9 {
            return small(x, z);
        }
        z /= x;
        x += 1.0;
    }
    while x < 2.0 {
        if x < 1e-9 {
            return small(x, z);
        }
        z /= x;
        x += 1.0;
    }
    if x == 2.0 {
        return z;
    }
    let x = x - 2.0;
    let p = P.iter().fold(0.0, |acc, c| acc * x + c);
    let q = Q.iter().fold(0.0, |acc, c| acc * x + c);
    z * p / q
}

/// Stirling's formula for Γ(x), x > 33, as two factors (their product may overflow).
fn stirling(x: f64) -> (f64, f64) {
    const S: [f64; 5] = [
        7.873_113_957_930_937e-4,
        -2.295_499_616_133_781_3e-4,
        -2.681_326_178_057_812_4e-3,
        3.472_222_216_054_586_6e-3,
        8.333_333_333_334_822e-2,
    ];
    const SQRT_TWO_PI: f64 = 2.506_628_274_631_000_7;
    const MAX_STIRLING: f64 = 143.01608;
    if x > 200.0 {
        return (f64::INFINITY, 1.0);
    }
    let w = 1.0 / x;
    let w = 1.0 + w * S.iter().fold(0.0, |acc, c| acc * w + c);
    let mut y1 = go_exp::exp(x);
    let mut y2 = 1.0;
    if x > MAX_STIRLING {
        let v = go_exp::pow(x, 0.5 * x - 0.25);
        (y1, y2) = (v, v / y1);
    } else {
        y1 = go_exp::pow(x, x - 0.5) / y1;
    }
    (y1, SQRT_TWO_PI * w * y2)
}

/// Defines the one-argument functions `name = f` and the two-argument functions
/// `name = "name in errors", f` of the module, each in a module of its name.
macro_rules! float_functions {
    ($builder:ident; unary: $($u:ident = $uf:expr),*; binary: $($b:ident = $bname:literal, $bf:expr),*) => {
        $(
            mod $u {
                use super::*;
                #[starlark_module]
                pub(super) fn member(builder: &mut GlobalsBuilder) {
                    fn $u<'v>(
                        #[starlark(args)] args: UnpackTuple<Value<'v>>,
                        #[starlark(kwargs)] kwargs: Kwargs<'v>,
                    ) -> anyhow::Result<f64> {
                        let x = args_of(stringify!($u), &args.items, &kwargs, Arity::Unary)?;
                        let f: fn(f64) -> f64 = $uf;
                        Ok(f(x[0]))
                    }
                }
            }
            $u::member($builder);
        )*
        $(
            mod $b {
                use super::*;
                #[starlark_module]
                pub(super) fn member(builder: &mut GlobalsBuilder) {
                    fn $b<'v>(
                        #[starlark(args)] args: UnpackTuple<Value<'v>>,
                        #[starlark(kwargs)] kwargs: Kwargs<'v>,
                    ) -> anyhow::Result<f64> {
                        let x = args_of($bname, &args.items, &kwargs, Arity::Binary)?;
                        let f: fn(f64, f64) -> f64 = $bf;
                        Ok(f(x[0], x[1]))
                    }
                }
            }
            $b::member($builder);
        )*
    };
}

#[starlark_module]
fn rounding_members(builder: &mut GlobalsBuilder) {
    fn ceil<'v>(
        heap: Heap<'v>,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
    ) -> anyhow::Result<Value<'v>> {
        to_int("ceil", &args.items, &kwargs, heap, f64::ceil)
    }

    fn floor<'v>(
        heap: Heap<'v>,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
    ) -> anyhow::Result<Value<'v>> {
        to_int("floor", &args.items, &kwargs, heap, f64::floor)
    }

    /// `log(x)` or `log(x, base)`, positional only; its type error has no `log:` prefix.
    fn log<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
    ) -> anyhow::Result<f64> {
        crate::cli::MATH_USED.store(true, std::sync::atomic::Ordering::Relaxed);
        if !kwargs.is_empty() {
            anyhow::bail!("log: unexpected keyword arguments");
        }
        match args.items.len() {
            0 => anyhow::bail!("log: got 0 arguments, want at least 1"),
            n if n > 2 => anyhow::bail!("log: got {n} arguments, want at most 2"),
            _ => {}
        }
        let x: Vec<f64> = args
            .items
            .iter()
            .map(|&v| number(v).ok_or_else(|| float_error("", v)))
            .collect::<anyhow::Result<_>>()?;
        Ok(match x[..] {
            [x, base] => ln(x) / ln(base),
            _ => ln(x[0]),
        })
    }
}

/// The members of `@ytt:math`.
pub(super) fn math_members(builder: &mut GlobalsBuilder) {
    builder.set("pi", PI);
    builder.set("e", std::f64::consts::E);
    rounding_members(builder);
    float_functions!(builder;
        unary: round = f64::round, fabs = f64::abs, sqrt = f64::sqrt, exp = go_exp::exp,
            sin = go_trig::sin, cos = go_trig::cos, tan = go_trig::tan, asin = go_trig::asin,
            acos = go_trig::acos, atan = go_trig::atan, sinh = go_exp::sinh, cosh = go_exp::cosh,
            tanh = go_exp::tanh,
            asinh = go_hyperbolic::asinh, acosh = go_hyperbolic::acosh,
            atanh = go_hyperbolic::atanh,
            degrees = |x| x * 180.0 / PI, radians = |x| x * PI / 180.0, gamma = gamma;
        // starlark-go names `mod` `round` in its errors.
        binary: pow = "pow", go_exp::pow, atan2 = "atan2", go_trig::atan2,
            copysign = "copysign", f64::copysign, hypot = "hypot", hypot,
            remainder = "remainder", remainder, r#mod = "round", |x, y| x % y
    );
}
