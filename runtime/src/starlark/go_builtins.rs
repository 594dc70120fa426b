//! Builtins that behave as in starlark-go, which ytt embeds, where the `starlark` crate's differ.

use std::sync::OnceLock;

use starlark::environment::{Globals, GlobalsBuilder};
use starlark::eval::Evaluator;

/// The global function every index expression `x[i]` calls (see [`super::source_guard::guard_source`]).
pub(super) const INDEX: &str = "__schemac_at";

/// The global functions every `a << b` and `a >> b` of a program calls (see
/// [`super::budget::guard_repetition`]).
pub(super) const SHIFT_LEFT: &str = "__schemac_shl";
pub(super) const SHIFT_RIGHT: &str = "__schemac_shr";

/// The global functions every `a in b`, `a not in b` and `a | b` of a program calls (see
/// [`super::budget::guard_repetition`]).
pub(super) const IN: &str = "__schemac_in";
pub(super) const NOT_IN: &str = "__schemac_not_in";
pub(super) const BIT_OR: &str = "__schemac_or";

/// The function the right side of `OBJ[INDEX] = VALUE` passes through (see
/// [`super::go_mutation::element_assignment`]).
pub(super) const ASSIGNING: &str = "__schemac_assigning";

/// The global function the value of every `**` argument of a call passes through (see
/// [`super::source_guard::guard_source`]).
pub(super) const KWARGS: &str = "__schemac_kwargs";

/// The global function the value of every `*` argument of a call passes through (see
/// [`super::source_guard::guard_source`]).
pub(super) const ARGS: &str = "__schemac_args";

/// Builtins that behave as in starlark-go, which ytt embeds.
#[starlark::starlark_module]
pub(super) fn go_compatible(builder: &mut GlobalsBuilder) {
    /// `fail(*args, sep=" ")`: the arguments as `str` writes them, joined by `sep`.
    fn fail<'v>(
        #[starlark(args)] args: starlark::values::tuple::UnpackTuple<starlark::values::Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            starlark::values::Value<'v>,
        >,
    ) -> starlark::Result<starlark::values::none::NoneType> {
        let mut sep = " ";
        for (k, v) in super::named_args(&kwargs) {
            match (k, v.unpack_str()) {
                ("sep", Some(s)) => sep = s,
                ("sep", None) => {
                    let message = format!(
                        "fail: for parameter \"sep\": got {}, want string",
                        v.get_type()
                    );
                    return Err(go_error(message));
                }
                _ => {
                    return Err(go_error(format!(
                        "fail: unexpected keyword argument \"{k}\""
                    )))
                }
            }
        }
        let mut bytes: Vec<u8> = Vec::new();
        for (i, x) in args.items.iter().enumerate() {
            if i > 0 {
                bytes.extend_from_slice(sep.as_bytes());
            }
            match super::go_bytes::string_bytes(*x) {
                Some(text) => bytes.extend_from_slice(text),
                None => bytes.extend_from_slice(super::go_repr(*x).as_bytes()),
            }
        }
        // The interpreter's own `fail` starts its message with a blank, which the text of the
        // error (`fail: MSG`) relies on.
        let message = format!(" {}", super::go_bytes::go_text(&bytes));
        let error = super::go_bytes::quoting_bytes(message, &bytes, anyhow::Error::msg);
        Err(starlark::Error::new_kind(starlark::ErrorKind::Fail(error)))
    }

    /// `len` counts the bytes of a string, as in starlark-go (`len("é") == 2`).
    fn len<'v>(#[starlark(require = pos)] x: starlark::values::Value<'v>) -> anyhow::Result<i32> {
        if let Some(s) = x.unpack_str() {
            return Ok(s.len() as i32);
        }
        x.length()
            .map_err(|_| anyhow::anyhow!("len: value of type {} has no len", x.get_type()))
    }

    /// `ord(s)` as starlark-go answers it: the code point of a string of one, a string that
    /// is not UTF-8 included (a byte that is no UTF-8 is U+FFFD to Go, one of its own: `"é"[0]`
    /// is 65533; the crate refused such a string as no string).
    fn ord<'v>(#[starlark(require = pos)] x: starlark::values::Value<'v>) -> anyhow::Result<i32> {
        let Some(bytes) = super::go_bytes::string_bytes(x) else {
            return Err(anyhow::anyhow!(
                "ord: got {}, want string",
                super::go_type(x)
            ));
        };
        let text = super::go_bytes::go_text(bytes);
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c as i32),
            _ => Err(anyhow::anyhow!(
                "ord: string encodes {} Unicode code points, want 1",
                text.chars().count()
            )),
        }
    }

    /// `str(v)`: a string itself (bytes or not), anything else as [`go_repr`] (floats as
    /// starlark-go writes them).
    fn str<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> anyhow::Result<starlark::values::Value<'v>> {
        if x.get_type() == "string" {
            return Ok(x);
        }
        Ok(heap.alloc(super::try_go_repr(x)?))
    }

    /// `print(*args, sep=" ")` as starlark-go prints, to stderr: strings as they are, other
    /// values as `str` writes them (`1.0` is `1`).
    fn print<'v>(
        #[starlark(args)] args: starlark::values::tuple::UnpackTuple<starlark::values::Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            starlark::values::Value<'v>,
        >,
    ) -> starlark::Result<starlark::values::none::NoneType> {
        let mut sep = " ";
        for (k, x) in super::named_args(&kwargs) {
            if k != "sep" {
                return Err(go_error(format!(
                    "print: unexpected keyword argument \"{k}\""
                )));
            }
            sep = x.unpack_str().ok_or_else(|| {
                go_error(format!(
                    "print: for parameter \"sep\": got {}, want string",
                    super::go_type(x)
                ))
            })?;
        }
        let mut line = String::new();
        for (i, x) in args.items.iter().enumerate() {
            if i > 0 {
                line.push_str(sep);
            }
            if x.get_type() == "string" {
                line.push_str(&x.to_str());
            } else {
                line.push_str(&super::try_go_repr(*x).map_err(starlark::Error::new_other)?);
            }
        }
        eprintln!("{line}");
        Ok(starlark::values::none::NoneType)
    }

    /// `min(...)` (see [`super::go_sort::min_or_max`]).
    fn min<'v>(
        #[starlark(args)] args: starlark::values::tuple::UnpackTuple<starlark::values::Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            starlark::values::Value<'v>,
        >,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        super::go_sort::min_or_max("min", &args.items, &kwargs, eval)
    }

    /// `max(...)` (see [`super::go_sort::min_or_max`]).
    fn max<'v>(
        #[starlark(args)] args: starlark::values::tuple::UnpackTuple<starlark::values::Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            starlark::values::Value<'v>,
        >,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        super::go_sort::min_or_max("max", &args.items, &kwargs, eval)
    }

    /// `type(v)` as starlark-go names types (`builtin_function_or_method`).
    fn r#type<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
    ) -> anyhow::Result<&'static str> {
        Ok(super::go_type(x))
    }

    /// `dir(v)`: a string's methods are starlark-go's (see [`go_attrs`]); a struct's field
    /// names, those that are not UTF-8 too, sorted by their bytes.
    fn dir<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> anyhow::Result<Vec<starlark::values::Value<'v>>> {
        Ok(match super::ytt_struct::sorted_names(x, heap) {
            Some(names) => names,
            None => go_attrs(x).into_iter().map(|a| heap.alloc(a)).collect(),
        })
    }

    /// `hasattr(v, name)`, with a string's and a set's methods as starlark-go's (see
    /// [`go_attrs`]). A
    /// name that is not UTF-8 is only a struct's field.
    fn hasattr<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        #[starlark(require = pos)] attr: either::Either<
            &str,
            starlark::values::ValueTyped<'v, super::go_bytes::GoBytes>,
        >,
        heap: starlark::values::Heap<'v>,
    ) -> anyhow::Result<bool> {
        let attr = match attr {
            either::Either::Left(attr) => attr,
            either::Either::Right(bytes) => {
                return Ok(super::ytt_struct::fields(x)
                    .is_some_and(|f| f.iter().any(|(k, _)| *k == bytes.as_ref().bytes())));
            }
        };
        Ok(if matches!(x.get_type(), "string" | "set") {
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

    /// `hash(s)`: starlark-go's `javaStringHash`, `h = 31 * h + r` in 32 bits over the runes of
    /// the string as Go reads it (each bad byte U+FFFD; a character past U+FFFF is one rune,
    /// where the crate's Java hash of the UTF-16 took its two surrogates: `hash("😀")` is
    /// 128512). It takes nothing else.
    fn hash<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        match super::go_bytes::string_bytes(x) {
            Some(bytes) => {
                let runes = super::go_bytes::go_text(bytes);
                let h = runes
                    .chars()
                    .fold(0i32, |h, r| h.wrapping_mul(31).wrapping_add(r as i32));
                Ok(eval.heap().alloc(h))
            }
            None => {
                let message = format!(
                    "hash: for parameter 1: got {}, want string",
                    super::go_type(x)
                );
                Err(go_error(message))
            }
        }
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
            super::go_mutation::update_pairs("dict", pairs, heap)?;
        }
        let named = super::named_args(&kwargs);
        eval.eval_function(standard("dict"), &pos, &named)
    }

    /// `int(x[, base])`: a string is read as starlark-go reads it ([`go_numbers::int_digits`]:
    /// `int("0X1F")` and `int("1_000")` are refused) and refused when it has more significant
    /// digits than the integer budget allows ([`super::int_budget::int_text_fits`]): parsing
    /// takes time quadratic in the digits (ten million took minutes). Anything else goes to the
    /// standard `int`.
    fn int<'v>(
        #[starlark(args)] args: starlark::values::tuple::UnpackTuple<starlark::values::Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            starlark::values::Value<'v>,
        >,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        let mut named = super::named_args(&kwargs);
        let mut pos = args.items;
        // starlark-go takes the keywords in order, refusing an unknown one (before it misses
        // `x`: `int(a=1)`) or one a positional argument gave (`int("7", x=1)`).
        if pos.len() <= 2 {
            for (k, _) in &named {
                let slot = match *k {
                    "x" => 0,
                    "base" => 1,
                    _ => {
                        let message = format!("int: unexpected keyword argument \"{k}\"");
                        return Err(go_error(message));
                    }
                };
                if slot < pos.len() {
                    let message = format!("int: got multiple values for keyword argument \"{k}\"");
                    return Err(go_error(message));
                }
            }
        }
        // `int(x="1")`: starlark-go's parameters have names.
        if let Some(at) = named.iter().position(|(k, _)| *k == "x") {
            if pos.is_empty() {
                pos.push(named.remove(at).1);
            }
        }
        let Some(&x) = pos.first() else {
            return Err(go_error("int: missing argument for x".into()));
        };
        let Some(text) = x.unpack_str() else {
            use starlark::values::{float::StarlarkFloat, ValueLike};
            let finite = x
                .downcast_ref::<StarlarkFloat>()
                .filter(|f| f.0.is_finite());
            if let (Some(f), [_], []) = (finite, &pos[..], &named[..]) {
                return Ok(eval.heap().alloc(super::go_numbers::float_to_int(f.0)));
            }
            return eval.eval_function(standard("int"), &pos, &named);
        };
        let base = match pos.get(1).copied() {
            Some(b) => Some(b),
            None => named.iter().find(|(k, _)| *k == "base").map(|(_, v)| *v),
        };
        if pos.len() > 2 {
            let message = format!("int: got {} arguments, want at most 2", pos.len());
            return Err(go_error(message));
        }
        if named.iter().any(|(k, _)| *k != "base") {
            return eval.eval_function(standard("int"), &pos, &named);
        }
        let base = match base.map(|b| b.unpack_i32()) {
            None => 10,
            Some(Some(b)) if b == 0 || (2..=36).contains(&b) => b as u32,
            Some(_) => {
                return Err(go_error(
                    "int: base must be an integer >= 2 && <= 36".into(),
                ))
            }
        };
        let (negative, digits, base) =
            super::go_numbers::int_digits(text, base).map_err(go_error)?;
        super::int_budget::int_text_fits(digits, Some(base as i32))?;
        let text = format!("{}{digits}", if negative { "-" } else { "" });
        let heap = eval.heap();
        let args = [heap.alloc(text), heap.alloc(base as i32)];
        eval.eval_function(standard("int"), &args, &[])
    }

    /// `chr(i)`: a surrogate (U+D800 to U+DFFF, no character) is U+FFFD, as Go writes such a
    /// rune; anything else goes to the standard `chr`.
    fn chr<'v>(
        #[starlark(args)] args: starlark::values::tuple::UnpackTuple<starlark::values::Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            starlark::values::Value<'v>,
        >,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        let named = super::named_args(&kwargs);
        if let ([i], []) = (args.items.as_slice(), named.as_slice()) {
            if i.unpack_i32()
                .is_some_and(|n| (0xD800..=0xDFFF).contains(&n))
            {
                return Ok(eval.heap().alloc("\u{FFFD}"));
            }
        }
        eval.eval_function(standard("chr"), &args.items, &named)
    }

    /// `range(...)`: starlark-go reads each bound as an int of 32 bits, in order, and names
    /// the first that is no int or past them; the standard `range` makes the range (and
    /// refuses a count of arguments).
    fn range<'v>(
        #[starlark(args)] args: starlark::values::tuple::UnpackTuple<starlark::values::Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            starlark::values::Value<'v>,
        >,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        let named = super::named_args(&kwargs);
        let bounds: &[starlark::values::Value] = if named.is_empty() && args.items.len() <= 3 {
            &args.items[..]
        } else {
            &[]
        };
        for (i, bound) in bounds.iter().enumerate() {
            let n = i + 1;
            if bound.get_type() != "int" {
                let ty = super::go_type(*bound);
                return Err(go_error(format!(
                    "range: for parameter {n}: got {ty}, want int"
                )));
            }
            if bound.unpack_i32().is_none() {
                return Err(go_error(format!(
                    "range: for parameter {n}: {bound} out of range"
                )));
            }
        }
        eval.eval_function(standard("range"), &args.items, &named)
    }

    /// `float(x)`: a string is read as Go's `strconv.ParseFloat` reads it
    /// ([`go_numbers::parse_float`]); anything else goes to the standard `float`.
    fn float<'v>(
        #[starlark(args)] args: starlark::values::tuple::UnpackTuple<starlark::values::Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            starlark::values::Value<'v>,
        >,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        let named = super::named_args(&kwargs);
        if let ([x], true) = (&args.items[..], named.is_empty()) {
            if let Some(text) = x.unpack_str() {
                let f = super::go_numbers::parse_float(text).map_err(go_error)?;
                return Ok(eval.heap().alloc(f));
            }
        }
        eval.eval_function(standard("float"), &args.items, &named)
    }

    /// `enumerate(x[, start])`: starlark-go takes no keyword arguments.
    fn enumerate<'v>(
        #[starlark(args)] args: starlark::values::tuple::UnpackTuple<starlark::values::Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            starlark::values::Value<'v>,
        >,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        if !kwargs.is_empty() {
            return Err(go_error("enumerate: unexpected keyword arguments".into()));
        }
        if args.items.is_empty() {
            return Err(go_error(
                "enumerate: got 0 arguments, want at least 1".into(),
            ));
        }
        eval.eval_function(standard("enumerate"), &args.items, &[])
    }

    /// `sorted(iterable, key=None, reverse=False)` with starlark-go's parameters: each may be
    /// given by position or by name, `key` must be callable and `reverse` a bool.
    fn sorted<'v>(
        #[starlark(args)] args: starlark::values::tuple::UnpackTuple<starlark::values::Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            starlark::values::Value<'v>,
        >,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        let named = super::named_args(&kwargs);
        let params = ["iterable", "key", "reverse"];
        let mut given: [Option<(starlark::values::Value, bool)>; 3] = [None; 3];
        if args.items.len() > 3 {
            let n = args.items.len();
            return Err(go_error(format!(
                "sorted: got {n} arguments, want at most 3"
            )));
        }
        // starlark-go checks each argument as it binds it: the positional ones, then the
        // keywords in order (`sorted(x, reverse=1, foo=2)` is the error of `reverse`).
        let checked = |i: usize, x: starlark::values::Value, by_name: bool| {
            // starlark-go quotes the name of a parameter given by name.
            let param = |name: &str| match by_name {
                true => format!("\"{name}\""),
                false => name.to_string(),
            };
            let data = [
                "NoneType", "bool", "int", "float", "string", "list", "dict", "tuple",
            ];
            let message = match i {
                1 if data.contains(&x.get_type()) => format!(
                    "sorted: for parameter {}: got {}, want callable",
                    param("key"),
                    super::go_type(x)
                ),
                2 if x.unpack_bool().is_none() => format!(
                    "sorted: for parameter {}: got {}, want bool",
                    param("reverse"),
                    super::go_type(x)
                ),
                _ => return Ok(()),
            };
            Err(go_error(message))
        };
        for (i, x) in args.items.iter().enumerate() {
            checked(i, *x, false)?;
            given[i] = Some((*x, false));
        }
        for (k, x) in &named {
            let Some(i) = params.iter().position(|p| p == k) else {
                return Err(go_error(format!(
                    "sorted: unexpected keyword argument \"{k}\""
                )));
            };
            if given[i].is_some() {
                return Err(go_error(format!(
                    "sorted: got multiple values for parameter \"{k}\""
                )));
            }
            checked(i, *x, true)?;
            given[i] = Some((*x, true));
        }
        let Some((iterable, _)) = given[0] else {
            return Err(go_error("sorted: missing argument for iterable".into()));
        };
        let mut pass = Vec::new();
        if let Some((key, _)) = given[1] {
            pass.push(("key", key));
        }
        if let Some((reverse, _)) = given[2] {
            pass.push(("reverse", reverse));
        }
        let key = given[1].map(|(key, _)| key).filter(|key| !key.is_none());
        let reverse = given[2].is_some_and(|(reverse, _)| reverse.to_bool());
        match iterable.iterate(eval.heap()) {
            Ok(items) => {
                let items = items.collect();
                // starlark-go takes every item before it calls `key`: an iterable cut at the
                // budget (`ITERATE`; a range's cut owes the error once its items are taken)
                // fails here, after the argument checks.
                super::statement_hook::settle_iterations()?;
                // starlark-go iterates until it returns: `key` cannot change the iterable.
                let _iterating = iterable.iterate(eval.heap());
                super::go_sort::sorted(items, key, reverse, eval)
            }
            // The interpreter's error for what it cannot iterate.
            Err(_) => eval.eval_function(standard("sorted"), &[iterable], &pass),
        }
    }
}

/// The functions a guarded program calls (see [`super::guard_names`]), under their canonical
/// names: bound in each program's module, not among the globals.
#[starlark::starlark_module]
pub(super) fn go_guards(builder: &mut GlobalsBuilder) {
    /// `VALUE`, once `OBJ[INDEX] = VALUE` is known not to change a frozen or iterated
    /// container ([`super::go_mutation::element_assignment`]).
    fn __schemac_assigning<'v>(
        #[starlark(require = pos)] obj: starlark::values::Value<'v>,
        #[starlark(require = pos)] index: starlark::values::Value<'v>,
        #[starlark(require = pos)] value: starlark::values::Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        super::go_mutation::element_assignment(obj, index, value, heap)
    }

    /// `a << b` with starlark-go's checks of the count ([`super::go_operators::shift_count`]).
    fn __schemac_shl<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        #[starlark(require = pos)] y: starlark::values::Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        super::go_operators::shift_count(true, x, y).map_err(starlark::Error::new_other)?;
        super::int_budget::shift_fits(x, y)?;
        // starlark-rust shifts an int of 32 bits within 32 bits, losing the bits shifted out
        // (`1 << 31` is -2147483648 there, 2147483648 in starlark-go); 64 bits hold any such
        // shift by less than 32.
        if let (Some(a), Some(n @ 0..32)) = (x.unpack_i32(), y.unpack_i32()) {
            return Ok(heap.alloc(i64::from(a) << n));
        }
        x.left_shift(y, heap)
    }

    /// `a >> b` with starlark-go's checks of the count ([`super::go_operators::shift_count`]).
    fn __schemac_shr<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        #[starlark(require = pos)] y: starlark::values::Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        super::go_operators::shift_count(false, x, y).map_err(starlark::Error::new_other)?;
        x.right_shift(y, heap)
    }

    /// `x in y` ([`super::go_operators::contains`]).
    fn __schemac_in<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        #[starlark(require = pos)] y: starlark::values::Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> starlark::Result<bool> {
        super::go_operators::contains(x, y, heap)
    }

    /// `x not in y` ([`super::go_operators::contains`]).
    fn __schemac_not_in<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        #[starlark(require = pos)] y: starlark::values::Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> starlark::Result<bool> {
        Ok(!super::go_operators::contains(x, y, heap)?)
    }

    /// `x | y`: starlark-go has it of two ints and two sets only (no union of dicts).
    fn __schemac_or<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        #[starlark(require = pos)] y: starlark::values::Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        // (the crate's `|` of other values makes types: `None | int`)
        match (x.get_type(), y.get_type()) {
            ("int", "int") | ("set", "set") => x.bit_or(y, heap),
            _ => Err(super::go_operators::unknown_binary_op("|", x, y)),
        }
    }

    /// The value of a `*` argument (every one of a program passes through it; see
    /// [`super::source_guard::guard_source`]), with starlark-go's error for one it does not
    /// iterate (a string among them).
    fn __schemac_args<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        if x.get_type() == "string" || x.iterate(heap).is_err() {
            let message = format!("argument after * must be iterable, not {}", x.get_type());
            return Err(go_error(message));
        }
        // The call takes every item into a vector of arguments first (`len(*range(10**9))`
        // asked for 8 GB at once): its items are charged, and its size to the heap budget.
        if let Ok(n) = x.length() {
            let item_bytes = std::mem::size_of::<starlark::values::Value>() as u128;
            super::budget::charge_items(n.max(0) as u64, item_bytes, heap)?;
        }
        Ok(x)
    }

    /// The value of a `**` argument (every one of a program passes through it; see
    /// [`super::source_guard::guard_source`]) as a dict: ytt takes a YAML fragment's map and a struct
    /// as well, with starlark-go's errors for anything else and for keys that are not strings.
    fn __schemac_kwargs<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        let heap = eval.heap();
        let (keys, dict) = if x.get_type() == "dict" {
            (x.iterate(heap)?.collect::<Vec<_>>(), x)
        } else if let Some(pairs) = super::convert::map_fragment_items(x, heap) {
            let keys = pairs
                .iterate(heap)?
                .map(|pair| pair.at(heap.alloc(0), heap))
                .collect::<starlark::Result<Vec<_>>>()?;
            (keys, eval.eval_function(standard("dict"), &[pairs], &[])?)
        } else if x.get_type() == "yamlfragment" {
            // ytt's Go panic, recovered by its evaluation of the template (no position).
            let message = format!(
                "yamlfragment.Items: Expected value to be a map, but was {}",
                super::text_modules::go_data_type(x)
            );
            return Err(starlark::Error::new_native(
                super::assertion::RecoveredPanic(message),
            ));
        } else {
            let message = format!("argument after ** must be a mapping, not {}", x.get_type());
            return Err(go_error(message));
        };
        if let Some(k) = keys.iter().find(|k| k.unpack_str().is_none()) {
            return Err(go_error(format!(
                "keywords must be strings, not {}",
                k.get_type()
            )));
        }
        Ok(dict)
    }

    /// `x[i]` (every index expression of a program calls it; see
    /// [`super::source_guard::guard_source`]): the interpreter's indexing, with starlark-go's error for
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
        // A key a dict lacks, written as starlark-go writes it (`<function lambda>`); a key
        // holding a NaN equals no key, itself included.
        if let Some(dict) = starlark::values::dict::DictRef::from_value(x) {
            let missing = i.get_hashed().is_ok()
                && (super::go_compare::holds_nan(i) || matches!(dict.get(i), Ok(None)));
            if missing {
                return Err(go_error(format!("key {} not in dict", super::go_repr(i))));
            }
        }
        match (super::go_bytes::string_bytes(x), i.unpack_i32()) {
            (Some(s), Some(i)) => Ok(super::go_slice::string_index(s, i, heap)),
            _ => x.at(i, heap),
        }
    }

    /// A string literal with escapes of bytes that are not UTF-8 (see
    /// [`super::go_literals::BYTES`]): the string of its bytes.
    fn __schemac_bytes<'v>(
        #[starlark(require = pos)] marked: &str,
        heap: starlark::values::Heap<'v>,
    ) -> anyhow::Result<starlark::values::Value<'v>> {
        let bytes = super::go_literals::marked_bytes(marked);
        Ok(super::go_bytes::string_value(bytes, heap))
    }

    /// `x[lo:hi:step]`, every part given (`None` for a missing one; see
    /// [`super::source_guard::guard_source`]), as starlark-go computes it.
    fn __schemac_slice<'v>(
        #[starlark(require = pos)] x: starlark::values::Value<'v>,
        #[starlark(require = pos)] lo: starlark::values::Value<'v>,
        #[starlark(require = pos)] hi: starlark::values::Value<'v>,
        #[starlark(require = pos)] step: starlark::values::Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> starlark::Result<starlark::values::Value<'v>> {
        super::go_slice::slice(x, lo, hi, step, heap)
    }
}

/// An error with starlark-go's message.
pub(super) fn go_error(message: String) -> starlark::Error {
    starlark::Error::new_other(anyhow::anyhow!(message))
}

/// starlark-go's error for `x[i]` when `i` is an int outside the range of a string (its bytes),
/// list or tuple `x`, or outside 32 bits.
pub(super) fn out_of_range(
    x: starlark::values::Value,
    i: starlark::values::Value,
) -> Option<String> {
    let ty = x.get_type();
    let len = match ty {
        "string" => super::go_bytes::string_bytes(x)?.len() as i64,
        "list" | "tuple" | "range" => x.length().ok()? as i64,
        _ => return None,
    };
    // An int past 32 bits is starlark-go's `AsInt32` failing (`list index: 2147483648 out of
    // range`).
    let Some(i) = i.unpack_i32().map(i64::from) else {
        return (i.get_type() == "int")
            .then(|| format!("{ty} index: {} out of range", i.to_repr()));
    };
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
/// [`super::go_methods`] answers); a set's, `union` alone.
fn go_attrs(v: starlark::values::Value) -> Vec<String> {
    if v.get_type() == "string" {
        return super::go_methods::STRING_METHODS
            .iter()
            .map(|m| m.to_string())
            .collect();
    }
    if v.get_type() == "set" {
        return vec!["union".to_string()];
    }
    v.dir_attr()
}

/// The interpreter's own builtin `name` (`dict`, `int`), which [`go_compatible`] wraps.
pub(super) fn standard<'v>(name: &str) -> starlark::values::Value<'v> {
    static STANDARD: OnceLock<Globals> = OnceLock::new();
    STANDARD
        .get_or_init(Globals::standard)
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.to_value())
        .expect("the standard globals have the builtins wrapped here")
}
