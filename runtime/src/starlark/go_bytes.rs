//! Strings that are not UTF-8, as starlark-go holds them. starlark-go's strings are bytes: a
//! slice or an index that cuts a character (`"héllo"[0:2]`), an escape of a byte that spells
//! no UTF-8 (`"\xff"`) make strings ytt carries on and writes as `!!binary`. The crate's strings
//! are UTF-8, so such a string is a value of its own, [`GoBytes`], made only when the bytes are
//! not UTF-8 ([`string_value`]): a string that is UTF-8 is always the crate's, so a `GoBytes`
//! never equals one (as in Go, where equal strings have equal bytes). Its `type()` is `string`;
//! it has `len`, `+` (back into the crate's string when the bytes become UTF-8 again), `*`,
//! `==`, ordering and hashing by bytes, `in`, indexes and slices by bytes
//! ([`super::go_slice`]), `str`, `repr` (`"h\xc3"`) and `%s`, and a few methods on its bytes
//! ([`call_method`]); the others are refused by name.
//! In the data it becomes [`crate::value::Value::Bytes`], written `!!binary` in YAML.

use std::cmp::Ordering;
use std::fmt;
use std::hash::Hash;

use allocative::Allocative;
use starlark::collections::StarlarkHasher;
use starlark::values::{
    starlark_value, Heap, NoSerialize, ProvidesStaticType, StarlarkValue, Value, ValueLike,
};
use starlark::{starlark_simple_value, StarlarkPagable};

use super::go_builtins::go_error;

/// Bytes that are not UTF-8, as a Starlark string (see the module's doc).
#[derive(
    Debug, Clone, PartialEq, Eq, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable,
)]
pub struct GoBytes {
    bytes: Box<[u8]>,
}

starlark_simple_value!(GoBytes);

impl GoBytes {
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// The string of `bytes`: the crate's string when they are UTF-8, a [`GoBytes`] otherwise.
pub(crate) fn string_value(bytes: Vec<u8>, heap: Heap<'_>) -> Value<'_> {
    match String::from_utf8(bytes) {
        Ok(s) => heap.alloc(s),
        Err(e) => heap.alloc(GoBytes {
            bytes: e.into_bytes().into_boxed_slice(),
        }),
    }
}

/// The bytes of a string value, UTF-8 or not (`None`: `v` is no string).
pub(crate) fn string_bytes<'a>(v: Value<'a>) -> Option<&'a [u8]> {
    match v.unpack_str() {
        Some(s) => Some(s.as_bytes()),
        None => v.downcast_ref::<GoBytes>().map(|b| b.bytes()),
    }
}

/// `v` is a string that is not UTF-8.
pub(crate) fn is_go_bytes(v: Value) -> bool {
    v.downcast_ref::<GoBytes>().is_some()
}

/// Writes `bytes` quoted as starlark-go's `repr` quotes a string: its UTF-8 text as
/// [`super::go_quote`], each byte that is no UTF-8 as `\xNN`.
pub(crate) fn push_quoted_bytes(bytes: &[u8], out: &mut String) {
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        super::go_repr::push_quoted_text(chunk.valid(), out);
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('"');
}

/// Quoted as `repr` quotes it, as the crate shows its own strings in messages (`duplicate key:
/// "h\xc3"`).
impl fmt::Display for GoBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut quoted = String::new();
        push_quoted_bytes(&self.bytes, &mut quoted);
        f.write_str(&quoted)
    }
}

/// The text of a string, UTF-8 or not, for messages: each byte that is no UTF-8 as U+FFFD
/// (ytt writes the bytes themselves); `None`: `v` is no string.
pub(crate) fn message_text<'a>(v: Value<'a>) -> Option<std::borrow::Cow<'a, str>> {
    string_bytes(v).map(String::from_utf8_lossy)
}

/// The error of the ytt module function `name` given `v` where it wants a string: ytt's
/// `expected a string, but was TYPE`, or schemac's gap for a string that is not UTF-8 (which
/// ytt takes as its bytes).
pub(crate) fn expected_string(name: &str, v: Value) -> anyhow::Error {
    if is_go_bytes(v) {
        return anyhow::anyhow!(
            "{name}: a string that is not UTF-8 is not supported here by schemac (ytt takes its bytes)"
        );
    }
    anyhow::anyhow!("{name}: expected a string, but was {}", super::go_type(v))
}

/// `b.METHOD(ARGS)` of a string that is not UTF-8: `startswith`, `endswith`, `find`, `rfind`,
/// `index`, `rindex`, `count` and `replace` given strings only (no window, no count), on its
/// bytes as starlark-go answers them; any other call is refused by name (see
/// [`method_refused`]).
pub(crate) fn call_method<'v>(
    method: &str,
    bytes: &[u8],
    args: &[Value<'v>],
    named: &[(&str, Value<'v>)],
    heap: Heap<'v>,
) -> starlark::Result<Value<'v>> {
    use memchr::memmem;
    let strings: Option<Vec<&[u8]>> = args.iter().map(|a| string_bytes(*a)).collect();
    let strings = strings.filter(|_| named.is_empty());
    let found = |at: Option<usize>| -> starlark::Result<Value<'v>> {
        match at {
            Some(at) => Ok(heap.alloc(at as i32)),
            None if method.ends_with("index") => {
                Err(go_error(format!("{method}: substring not found")))
            }
            None => Ok(heap.alloc(-1)),
        }
    };
    match (method, strings.as_deref()) {
        ("startswith", Some([p])) => Ok(Value::new_bool(bytes.starts_with(p))),
        ("endswith", Some([p])) => Ok(Value::new_bool(bytes.ends_with(p))),
        ("find" | "index", Some([p])) => found(memmem::find(bytes, p)),
        ("rfind" | "rindex", Some([p])) => found(memmem::rfind(bytes, p)),
        ("count", Some([p])) if !p.is_empty() => {
            Ok(heap.alloc(memmem::find_iter(bytes, p).count() as i32))
        }
        ("replace", Some([old, new])) if !old.is_empty() => {
            let mut out = Vec::with_capacity(bytes.len());
            let mut last = 0;
            for at in memmem::find_iter(bytes, old) {
                out.extend_from_slice(&bytes[last..at]);
                out.extend_from_slice(new);
                last = at + old.len();
            }
            out.extend_from_slice(&bytes[last..]);
            Ok(string_value(out, heap))
        }
        _ => Err(method_refused(method)),
    }
}

/// The methods of a string, which a `GoBytes` does not have (schemac's gap): the error naming
/// the one called.
pub(crate) fn method_refused(name: &str) -> starlark::Error {
    go_error(format!(
        "string.{name}: a string that is not UTF-8 (ytt holds bytes) has no methods in schemac"
    ))
}

#[starlark_value(type = "string")]
impl<'v> StarlarkValue<'v> for GoBytes {
    fn collect_repr(&self, collector: &mut String) {
        push_quoted_bytes(&self.bytes, collector);
    }

    fn collect_str(&self, collector: &mut String) {
        collector.push_str(&String::from_utf8_lossy(&self.bytes));
    }

    fn to_bool(&self) -> bool {
        !self.bytes.is_empty()
    }

    fn write_hash(&self, hasher: &mut StarlarkHasher) -> starlark::Result<()> {
        self.bytes.hash(hasher);
        Ok(())
    }

    fn equals(&self, other: Value<'v>) -> starlark::Result<bool> {
        Ok(other
            .downcast_ref::<GoBytes>()
            .is_some_and(|o| o.bytes == self.bytes))
    }

    fn compare(&self, other: Value<'v>) -> starlark::Result<Ordering> {
        match string_bytes(other) {
            Some(o) => Ok(self.bytes[..].cmp(o)),
            None => Err(go_error(format!(
                "unsupported comparison: string <=> {}",
                other.get_type()
            ))),
        }
    }

    fn length(&self) -> starlark::Result<i32> {
        Ok(self.bytes.len() as i32)
    }

    fn is_in(&self, other: Value<'v>) -> starlark::Result<bool> {
        match string_bytes(other) {
            // A substring search, not a comparison at each byte (half a megabyte looked for in
            // a megabyte took 13 s).
            Some(needle) => Ok(memchr::memmem::find(&self.bytes, needle).is_some()),
            None => Err(go_error(format!(
                "'in <string>' requires string as left operand, not {}",
                other.get_type()
            ))),
        }
    }

    fn add(&self, rhs: Value<'v>, heap: Heap<'v>) -> Option<starlark::Result<Value<'v>>> {
        let rhs = string_bytes(rhs)?;
        Some(Ok(string_value([&self.bytes[..], rhs].concat(), heap)))
    }

    fn radd(&self, lhs: Value<'v>, heap: Heap<'v>) -> Option<starlark::Result<Value<'v>>> {
        let lhs = string_bytes(lhs)?;
        Some(Ok(string_value([lhs, &self.bytes[..]].concat(), heap)))
    }

    fn mul(&self, rhs: Value<'v>, heap: Heap<'v>) -> Option<starlark::Result<Value<'v>>> {
        let n = rhs.unpack_i32()?;
        Some(Ok(string_value(self.bytes.repeat(n.max(0) as usize), heap)))
    }

    fn rmul(&self, lhs: Value<'v>, heap: Heap<'v>) -> Option<starlark::Result<Value<'v>>> {
        self.mul(lhs, heap)
    }
}
