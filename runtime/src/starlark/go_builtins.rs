//! Builtins that behave as in starlark-go, which ytt embeds, where the `starlark` crate's differ.

use std::sync::OnceLock;

use starlark::environment::{Globals, GlobalsBuilder};
use starlark::eval::Evaluator;

/// The global function every index expression `x[i]` calls (see [`super::budget::guard_source`]).
pub(super) const INDEX: &str = "__schemac_at";

/// The global functions every `a << b` and `a >> b` of a program calls (see
/// [`super::budget::guard_repetition`]).
pub(super) const SHIFT_LEFT: &str = "__schemac_shl";
pub(super) const SHIFT_RIGHT: &str = "__schemac_shr";

/// starlark-go's checks of the count of an int shift: an int of 32 bits, not negative, under
/// 512 to the left.
fn shift_count(
    left: bool,
    x: starlark::values::Value,
    y: starlark::values::Value,
) -> anyhow::Result<()> {
    if x.get_type() != "int" {
        return Ok(());
    }
    let n = match y.unpack_i32() {
        Some(n) => n,
        None if y.get_type() == "int" => anyhow::bail!("{} out of range", y.to_repr()),
        None => anyhow::bail!("got {}, want int", y.get_type()),
    };
    if n < 0 {
        anyhow::bail!("negative shift count: {n}");
    }
    if left && n >= 512 {
        anyhow::bail!("shift count too large: {n}");
    }
    Ok(())
}

/// Builtins that behave as in starlark-go, which ytt embeds.
#[starlark::starlark_module]
pub(super) fn go_compatible(builder: &mut GlobalsBuilder) {
    /// `a << b` with starlark-go's checks of the count ([`shift_count`]).
    fn __schemac_shl<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        #[starlark(require = pos)] y: starlark::values::Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        shift_count(true, x, y).map_err(starlark::Error::new_other)?;
        super::int_budget::shift_fits(x, y)?;
        x.left_shift(y, heap)
    }

    /// `a >> b` with starlark-go's checks of the count ([`shift_count`]).
    fn __schemac_shr<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        #[starlark(require = pos)] y: starlark::values::Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        shift_count(false, x, y).map_err(starlark::Error::new_other)?;
        x.right_shift(y, heap)
    }

    /// `len` counts the bytes of a string, as in starlark-go (`len("é") == 2`).
    fn len<'v>(#[starlark(require = pos)] x: starlark::values::Value<'v>) -> anyhow::Result<i32> {
        if let Some(s) = x.unpack_str() {
            return Ok(s.len() as i32);
        }
        x.length()
            .map_err(|_| anyhow::anyhow!("len: value of type {} has no len", x.get_type()))
    }

    /// `str(v)`: a string itself, anything else as [`go_repr`] (floats as starlark-go writes them).
    fn str<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
    ) -> anyhow::Result<String> {
        match x.unpack_str() {
            Some(s) => Ok(s.to_string()),
            None => super::try_go_repr(x),
        }
    }

    /// `type(v)` as starlark-go names types (`builtin_function_or_method`).
    fn r#type<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
    ) -> anyhow::Result<&'static str> {
        Ok(super::go_type(x))
    }

    /// `dir(v)`: a string's methods are starlark-go's (see [`go_attrs`]).
    fn dir<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
    ) -> anyhow::Result<Vec<String>> {
        Ok(go_attrs(x))
    }

    /// `hasattr(v, name)`, with a string's methods as starlark-go's (see [`go_attrs`]).
    fn hasattr<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        #[starlark(require = pos)] attr: &str,
        heap: starlark::values::Heap<'v>,
    ) -> anyhow::Result<bool> {
        Ok(if x.get_type() == "string" {
            go_attrs(x).iter().any(|a| a == attr)
        } else {
            x.has_attr(attr, heap)
        })
    }

    /// `repr(v)` with floats as starlark-go writes them.
    fn repr<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
    ) -> anyhow::Result<String> {
        super::try_go_repr(x)
    }

    /// `dict(v)` of a map fragment copies its items, as ytt's fragments are mappings; anything
    /// else goes to the standard `dict`.
    fn dict<'v>(
        #[starlark(args)] args: starlark::values::tuple::UnpackTuple<starlark::values::Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            starlark::values::Value<'v>,
        >,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        let heap = eval.heap();
        let pos: Vec<_> = args
            .items
            .into_iter()
            .map(|v| super::convert::map_fragment_items(v, heap).unwrap_or(v))
            .collect();
        if let [pairs] = pos[..] {
            super::go_methods::update_pairs("dict", pairs, heap)?;
        }
        let named = super::named_args(&kwargs);
        eval.eval_function(standard("dict"), &pos, &named)
    }

    /// `int(x[, base])`, refused when `x` is a string of more significant digits than the
    /// integer budget allows ([`super::int_budget::int_text_fits`]): parsing takes time quadratic
    /// in the digits (ten million took minutes). Anything else goes to the standard `int`.
    fn int<'v>(
        #[starlark(args)] args: starlark::values::tuple::UnpackTuple<starlark::values::Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            starlark::values::Value<'v>,
        >,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        let named = super::named_args(&kwargs);
        if let Some(text) = args.items.first().and_then(|x| x.unpack_str()) {
            let base = args
                .items
                .get(1)
                .or_else(|| named.iter().find(|(k, _)| *k == "base").map(|(_, v)| v))
                .and_then(|b| b.unpack_i32());
            super::int_budget::int_text_fits(text, base)?;
        }
        eval.eval_function(standard("int"), &args.items, &named)
    }

    /// `x[i]` (every index expression of a program calls it; see
    /// [`super::budget::guard_source`]): the interpreter's indexing, with starlark-go's error for
    /// an index out of a string's, list's or tuple's range (`list index 2 out of range [-2:1]`,
    /// `index 0 out of range: empty string`), which names the type and the range.
    fn __schemac_at<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        #[starlark(require = pos)] i: starlark::values::Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        let indexed = matches!(x.get_type(), "string" | "list" | "tuple" | "range");
        if indexed && i.unpack_i32().is_none() && i.get_type() != "int" {
            let message = format!("{} index: got {}, want int", x.get_type(), i.get_type());
            return Err(starlark::Error::new_other(anyhow::anyhow!(message)));
        }
        if let Some(message) = out_of_range(x, i) {
            return Err(starlark::Error::new_other(anyhow::anyhow!(message)));
        }
        x.at(i, heap)
    }
}

/// starlark-go's error for `x[i]` when `i` is an int outside the range of a string (its bytes),
/// list or tuple `x`.
fn out_of_range(x: starlark::values::Value, i: starlark::values::Value) -> Option<String> {
    let ty = x.get_type();
    let len = match ty {
        "string" => x.unpack_str()?.len() as i64,
        "list" | "tuple" | "range" => x.length().ok()? as i64,
        _ => return None,
    };
    let i = i.unpack_i32()? as i64;
    if (-len..len).contains(&i) {
        return None;
    }
    Some(if len == 0 {
        format!("index {i} out of range: empty {ty}")
    } else {
        format!("{ty} index {i} out of range [{}:{}]", -len, len - 1)
    })
}

/// The attributes of `v`: a string's are starlark-go's methods (without the crate's
/// `removeprefix`/`removesuffix`, with `elem_ords`/`codepoint_ords`, which
/// [`super::go_methods`] answers).
fn go_attrs(v: starlark::values::Value) -> Vec<String> {
    if v.get_type() == "string" {
        return super::go_methods::STRING_METHODS
            .iter()
            .map(|m| m.to_string())
            .collect();
    }
    v.dir_attr()
}

/// The interpreter's own builtin `name` (`dict`, `int`), which [`go_compatible`] wraps.
fn standard<'v>(name: &str) -> starlark::values::Value<'v> {
    static STANDARD: OnceLock<Globals> = OnceLock::new();
    STANDARD
        .get_or_init(Globals::standard)
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.to_value())
        .expect("the standard globals have the builtins wrapped here")
}
