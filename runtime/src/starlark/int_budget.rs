//! The integer budget: the size of the integers a Starlark program may make where one statement
//! can make them much larger (products, shifts, `int()` of a digit string).

use std::sync::OnceLock;

use starlark::values::{UnpackValue, Value};

use super::statement_hook::STOPPED;

/// The largest product of integers, in bits (`SCHEMAC_STARLARK_INT_BITS` raises it).
/// starlark-go's integers have no bound, but a product can double its digits statement by
/// statement (`x = x * x`), each product slower than the last: without a bound, a few such
/// statements run for hours long before the memory budget is reached. Other integer
/// operations grow by a bit (`+`) or at most 511 bits (`<<`, starlark-go's bound on the count)
/// a statement, which the memory budget stops; `<<` is held to this budget too.
const INT_BITS: crate::budget_vars::BudgetVar = crate::budget_vars::STARLARK_INT_BITS;

fn max_int_bits() -> u64 {
    static BITS: OnceLock<u64> = OnceLock::new();
    *BITS.get_or_init(|| INT_BITS.get())
}

/// Fails if `a << b` is an integer beyond the integer budget.
pub(super) fn shift_fits(a: Value, b: Value) -> starlark::Result<()> {
    let (Some(by), true) = (i32::unpack_value(b).ok().flatten(), a.get_type() == "int") else {
        return Ok(());
    };
    if by <= 0 || (by < 32 && i32::unpack_value(a).ok().flatten().is_some()) {
        return Ok(());
    }
    let bits = num_bigint::BigInt::unpack_value(a)
        .ok()
        .flatten()
        .map_or(0, |i| i.bits())
        + by as u64;
    let max = max_int_bits();
    if bits > max {
        return Err(starlark::Error::new_other(anyhow::anyhow!(
            "{STOPPED}: a shift to an integer of about {bits} bits is beyond the budget of {max} bits (raise it with SCHEMAC_STARLARK_INT_BITS)"
        )));
    }
    Ok(())
}

/// Fails if `a * b` is a product of integers beyond [`INT_BITS`] (or what the
/// environment raises it to).
pub(super) fn product_fits(a: Value, b: Value) -> starlark::Result<()> {
    let small = |v: Value| i32::unpack_value(v).ok().flatten().is_some();
    if a.get_type() != "int" || b.get_type() != "int" || (small(a) && small(b)) {
        return Ok(());
    }
    let bits = |v: Value| {
        num_bigint::BigInt::unpack_value(v)
            .ok()
            .flatten()
            .map_or(0, |i| i.bits())
    };
    let (bits, max) = (bits(a) + bits(b), max_int_bits());
    if bits > max {
        return Err(starlark::Error::new_other(anyhow::anyhow!(
            "{STOPPED}: a product of integers of about {bits} bits is beyond the budget of {max} bits (raise it with SCHEMAC_STARLARK_INT_BITS)"
        )));
    }
    Ok(())
}

/// Fails if `int(text, base)` would be an integer beyond the integer budget: its significant
/// digits (after a sign, a base prefix and leading zeros) carry at least `floor(log2(base))`
/// bits each (the least of the bases `int` may pick when `base` is 0 or not given).
pub(super) fn int_text_fits(text: &str, base: Option<i32>) -> starlark::Result<()> {
    let digits = text.trim().trim_start_matches(['+', '-']);
    let lower = digits.to_ascii_lowercase();
    let (digits, bits_per_digit) = match base {
        Some(b) if b >= 2 => (digits, (b as u32).ilog2() as u64),
        _ => match lower.get(..2) {
            Some("0x") => (&digits[2..], 4),
            Some("0o") => (&digits[2..], 3),
            Some("0b") => (&digits[2..], 1),
            _ => (digits, 3),
        },
    };
    let significant = digits.trim_start_matches('0').len() as u64;
    let (bits, max) = (significant.saturating_mul(bits_per_digit), max_int_bits());
    if bits > max {
        return Err(starlark::Error::new_other(anyhow::anyhow!(
            "{STOPPED}: int() of a number of at least {bits} bits is beyond the budget of {max} bits (raise it with SCHEMAC_STARLARK_INT_BITS)"
        )));
    }
    Ok(())
}
