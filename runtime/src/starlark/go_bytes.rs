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
use starlark::eval::{Arguments, Evaluator};
use starlark::values::list::AllocList;
use starlark::values::tuple::TupleRef;
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

/// `bytes` quoted as starlark-go quotes a string (see [`push_quoted_bytes`]).
pub(crate) fn quoted_bytes(bytes: &[u8]) -> String {
    let mut out = String::new();
    push_quoted_bytes(bytes, &mut out);
    out
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

/// The text Go reads `bytes` as (by runes: `for range`, `unicode`, `hash`, casings): each byte
/// that is no UTF-8 a U+FFFD of its own (Rust's `from_utf8_lossy` makes one U+FFFD of a
/// sequence cut short: `"\xef\xbf"`, where Go's `strings.ToUpper` writes two).
pub(crate) fn go_text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut text = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        text.extend(chunk.invalid().iter().map(|_| char::REPLACEMENT_CHARACTER));
    }
    std::borrow::Cow::Owned(text)
}

/// The string argument `v` of the ytt module function `name` as ytt's functions take it: its
/// bytes, UTF-8 or not (a Go string is bytes; a function that wants text finds such bytes
/// invalid as any other bad text, and quotes them in its message); anything else is ytt's
/// [`expected_string`]. Every `@ytt:` function reads its string arguments so.
pub(crate) fn string_arg<'v>(name: &str, v: Value<'v>) -> anyhow::Result<&'v [u8]> {
    string_bytes(v).ok_or_else(|| expected_string(name, v))
}

/// An error message holding bytes that are not UTF-8, as ytt's does when a function quotes such
/// a string (`ip.parse_addr: invalid IP address: \xff`): a report shows its text (U+FFFD for
/// each bad byte, see [`go_text`]), `assert.try_to` gives its bytes ([`message_bytes`]).
#[derive(Debug)]
pub struct BytesMessage {
    text: String,
    bytes: Vec<u8>,
}

impl fmt::Display for BytesMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::error::Error for BytesMessage {}

/// The error of `message`, which quotes a string of `bytes` as its [`go_text`]: a
/// [`BytesMessage`] holding the bytes in the text's place when they are not UTF-8, else
/// `plain(message)`.
pub(crate) fn quoting_bytes(
    message: String,
    bytes: &[u8],
    plain: impl FnOnce(String) -> anyhow::Error,
) -> anyhow::Error {
    let quoted = go_text(bytes);
    let at = match quoted {
        std::borrow::Cow::Owned(ref text) => message.find(text.as_str()),
        std::borrow::Cow::Borrowed(_) => None,
    };
    let Some(at) = at else {
        return plain(message);
    };
    let mut full = message.as_bytes()[..at].to_vec();
    full.extend_from_slice(bytes);
    full.extend_from_slice(&message.as_bytes()[at + quoted.len()..]);
    anyhow::Error::new(BytesMessage {
        text: message,
        bytes: full,
    })
}

/// The bytes of the message `text` of the error `e` (its words as [`super::error_message`]
/// gives them), when `e` is a [`BytesMessage`]'s: its bytes in the place of its text.
pub(crate) fn message_bytes(e: &starlark::Error, text: &str) -> Option<Vec<u8>> {
    let inner = match e.kind() {
        starlark::ErrorKind::Native(a)
        | starlark::ErrorKind::Fail(a)
        | starlark::ErrorKind::Other(a) => a,
        _ => return None,
    };
    let message = inner.downcast_ref::<BytesMessage>()?;
    let at = text.find(message.text.as_str())?;
    let mut full = text.as_bytes()[..at].to_vec();
    full.extend_from_slice(&message.bytes);
    full.extend_from_slice(&text.as_bytes()[at + message.text.len()..]);
    Some(full)
}

/// ytt's error of the module function `name` given `v`, no string, where it wants one.
pub(crate) fn expected_string(name: &str, v: Value) -> anyhow::Error {
    anyhow::anyhow!("{name}: expected a string, but was {}", super::go_type(v))
}

/// The methods [`call_method`] answers on a string with its bad bytes marked (see
/// [`marked`]): they cut and join strings where their text says, and never count bytes.
const MARKED_METHODS: &[&str] = &[
    "split",
    "rsplit",
    "splitlines",
    "strip",
    "lstrip",
    "rstrip",
    "partition",
    "rpartition",
    "join",
];

/// The methods that read a string as Go's `unicode` functions do, a bad byte as U+FFFD: the
/// casings (whose results hold U+FFFD) and the predicates.
const TEXT_METHODS: &[&str] = &[
    "upper",
    "lower",
    "title",
    "capitalize",
    "isalnum",
    "isalpha",
    "isdigit",
    "isspace",
    "istitle",
    "isupper",
    "islower",
];

/// `obj.METHOD(ARGS)` where the receiver `obj` or a string among the arguments is not UTF-8,
/// as starlark-go answers it on the bytes:
/// - `startswith`, `endswith`, `find`, `rfind`, `index`, `rindex`, `count` and `replace` on
///   the bytes themselves, as text's ([`super::go_string_index`]);
/// - the [`TEXT_METHODS`] on the text with U+FFFD for each bad byte (`isupper` and `islower`
///   compare the bytes with that text's casing: never equal);
/// - `elems`, `codepoints` and their `_ords` on the bytes; `format` with the bytes as its
///   format;
/// - the [`MARKED_METHODS`] as the string's own methods, on text where each bad byte is a
///   mark (see [`marked`]), the marks made bytes again in the result;
///
/// any other call (a window, a count) is refused by name ([`method_refused`]).
pub(crate) fn call_method<'v>(
    method: &str,
    obj: Value<'v>,
    args: &[Value<'v>],
    named: &[(&str, Value<'v>)],
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    use memchr::memmem;
    let heap = eval.heap();
    let bytes = string_bytes(obj).unwrap_or_default();
    let strings: Option<Vec<&[u8]>> = args.iter().map(|a| string_bytes(*a)).collect();
    let strings = strings.filter(|_| named.is_empty());
    let separator = args
        .first()
        .and_then(|a| string_bytes(*a))
        .filter(|_| named.is_empty());
    let prefixes = match (method, args) {
        ("startswith" | "endswith", [a, ..]) => TupleRef::from_value(*a),
        _ => None,
    };
    if let Some(prefixes) = prefixes {
        // starlark-go tries a tuple's strings in order.
        for (i, item) in prefixes.iter().enumerate() {
            if string_bytes(item).is_none() {
                let ty = item.get_type();
                return Err(go_error(format!(
                    "{method}: want string, got {ty}, for element {i}"
                )));
            }
            let mut one = args.to_vec();
            one[0] = item;
            if call_method(method, obj, &one, named, eval)?.to_bool() {
                return Ok(Value::new_bool(true));
            }
        }
        return Ok(Value::new_bool(false));
    }
    match (method, strings.as_deref()) {
        ("find" | "rfind" | "index" | "rindex", _) => {
            let at = super::go_string_index::find(method, bytes, args, named)?;
            Ok(heap.alloc(at.map_or(-1, |at| at as i64)))
        }
        ("count" | "startswith" | "endswith", _) => {
            let answer = match named.is_empty() {
                true => super::go_string_index::windowed(method, bytes, args, heap),
                false => None,
            };
            match answer {
                Some(answer) => Ok(answer),
                // Arguments the crate's method refuses (a keyword, an int): its error, as for
                // text.
                None => {
                    let text = heap.alloc(go_text(bytes).into_owned());
                    super::go_methods::call(method, text, args, named, eval)?;
                    Err(method_refused(method))
                }
            }
        }
        ("replace", _) => {
            let out = super::go_string_index::replace_bytes(bytes, args, named)?;
            Ok(string_value(out, heap))
        }
        // A separator is searched for in the bytes (`"é".split("\xc3")` cuts the character).
        ("split" | "rsplit", _) if separator.is_some_and(|s| !s.is_empty()) && args.len() <= 2 => {
            let sep = separator.unwrap_or_default();
            let max = match args.get(1).map(|n| n.unpack_i32()) {
                None => -1,
                Some(Some(n)) => n,
                // Not an int: the string method's error.
                Some(None) => return marked_call(method, obj, args, named, eval),
            };
            let pieces = split_bytes(bytes, sep, method == "rsplit", max);
            let pieces = pieces.into_iter().map(|p| string_value(p.to_vec(), heap));
            Ok(heap.alloc(AllocList(pieces.collect::<Vec<_>>())))
        }
        ("partition" | "rpartition", Some([sep])) if !sep.is_empty() => {
            let at = match method {
                "partition" => memmem::find(bytes, sep),
                _ => memmem::rfind(bytes, sep),
            };
            let parts: [&[u8]; 3] = match (at, method) {
                (Some(at), _) => [&bytes[..at], sep, &bytes[at + sep.len()..]],
                (None, "partition") => [bytes, b"", b""],
                (None, _) => [b"", b"", bytes],
            };
            let parts = parts.map(|p| string_value(p.to_vec(), heap));
            Ok(heap.alloc(starlark::values::tuple::AllocTuple(parts)))
        }
        ("elems" | "codepoints" | "elem_ords" | "codepoint_ords", _) => {
            super::go_methods::string_iterable(method, bytes, args, named, heap)
        }
        ("format", _) => {
            let text = super::go_format::format(bytes, args, named)?;
            Ok(string_value(text, heap))
        }
        (m, _) if TEXT_METHODS.contains(&m) && !is_go_bytes(obj) => Err(method_refused(m)),
        (m, _) if TEXT_METHODS.contains(&m) => {
            let text = heap.alloc(go_text(bytes).into_owned());
            let answer = super::go_methods::call(method, text, args, named, eval)?;
            Ok(match m {
                "isupper" | "islower" => Value::new_bool(false),
                _ => answer,
            })
        }
        (m, _) if MARKED_METHODS.contains(&m) => marked_call(method, obj, args, named, eval),
        (m, _) if super::go_methods::NOT_STRING_METHODS.contains(&m) => {
            Err(go_error(super::wording::no_field("string", m, &[])))
        }
        _ => Err(method_refused(method)),
    }
}

/// The pieces of `bytes` between the `sep` (not empty) that a search from the start finds, at
/// most `max + 1` of them when `max` is not negative: cut at the first `max` (Go's
/// `strings.SplitN`), or at the last `max` when `reverse` (starlark-go's `rsplitN`, which
/// keeps the same non-overlapping matches: `"aaab".rsplit("aa", 1)` is `["", "ab"]`).
fn split_bytes<'a>(bytes: &'a [u8], sep: &[u8], reverse: bool, max: i32) -> Vec<&'a [u8]> {
    let mut cuts: Vec<usize> = memchr::memmem::find_iter(bytes, sep).collect();
    if let Ok(max) = usize::try_from(max) {
        match reverse {
            false => cuts.truncate(max),
            true => drop(cuts.drain(..cuts.len().saturating_sub(max))),
        }
    }
    let mut pieces = Vec::with_capacity(cuts.len() + 1);
    let mut last = 0;
    for at in cuts {
        pieces.push(&bytes[last..at]);
        last = at + sep.len();
    }
    pieces.push(&bytes[last..]);
    pieces
}

/// `obj.METHOD(ARGS)`, a [`MARKED_METHODS`] method, as the string's own method of [`marked`]
/// strings, its answer [`unmarked`].
fn marked_call<'v>(
    method: &str,
    obj: Value<'v>,
    args: &[Value<'v>],
    named: &[(&str, Value<'v>)],
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    let heap = eval.heap();
    let cutset = matches!(method, "strip" | "lstrip" | "rstrip");
    let mut args: Vec<Value<'v>> = args.to_vec();
    if method == "join" {
        // `join` takes any iterable (`b.elems()`, a dict's keys): its items, as a list's, up
        // to the first that is no string (where `join` fails: `range(10**8)` is not listed).
        if let Some(items) = args.first_mut() {
            if let Ok(iter) = items.iterate(heap) {
                let mut listed = Vec::new();
                for item in iter {
                    listed.push(item);
                    if string_bytes(item).is_none() {
                        break;
                    }
                }
                *items = heap.alloc(AllocList(listed));
            }
        }
    }
    let args: Vec<Value<'v>> = args.iter().map(|a| marked(*a, cutset, heap)).collect();
    let obj = marked(obj, false, heap);
    let answer = super::go_methods::call(method, obj, &args, named, eval)?;
    Ok(unmarked(answer, eval.heap()))
}

/// `v` with every string in it (itself, or the items of a list or tuple: `join`'s) as text
/// where each byte that is no UTF-8 is its mark ([`super::go_literals::marked_text`]). A
/// `cutset` (of `strip`) that reads a U+FFFD (a bad byte, or the character) holds every bad
/// byte's mark and U+FFFD: Go's `strings.Trim` reads each bad byte as U+FFFD on both sides.
fn marked<'v>(v: Value<'v>, cutset: bool, heap: Heap<'v>) -> Value<'v> {
    use starlark::values::list::ListRef;
    if let Some(bytes) = string_bytes(v) {
        let mut text = super::go_literals::marked_text(bytes);
        if cutset && go_text(bytes).contains(char::REPLACEMENT_CHARACTER) {
            text.push(char::REPLACEMENT_CHARACTER);
            text.extend((0x80..=0xff).map(super::go_literals::byte_mark));
        }
        return heap.alloc(text);
    }
    let items: Vec<Value<'v>> = match (ListRef::from_value(v), TupleRef::from_value(v)) {
        (Some(list), _) => list.iter().collect(),
        (_, Some(tuple)) => tuple.iter().collect(),
        _ => return v,
    };
    let items = items.into_iter().map(|i| marked(i, false, heap));
    heap.alloc(AllocList(items))
}

/// The answer of a method given [`marked`] strings with the marks made bytes again (a string,
/// or the strings of a list or tuple).
fn unmarked<'v>(v: Value<'v>, heap: Heap<'v>) -> Value<'v> {
    use starlark::values::list::ListRef;
    use starlark::values::tuple::AllocTuple;
    if let Some(text) = v.unpack_str() {
        return string_value(super::go_literals::marked_bytes(text), heap);
    }
    let unmark = |items: &[Value<'v>]| items.iter().map(|i| unmarked(*i, heap)).collect::<Vec<_>>();
    match (ListRef::from_value(v), TupleRef::from_value(v)) {
        (Some(list), _) => heap.alloc(AllocList(unmark(list.content()))),
        (_, Some(tuple)) => heap.alloc(AllocTuple(unmark(tuple.content()))),
        _ => v,
    }
}

/// The words of [`method_refused`]'s error after the method's name.
const REFUSED: &str = ": a string that is not UTF-8 (ytt holds bytes) has no methods in schemac";

/// The methods of a string, which a `GoBytes` does not have (schemac's gap): the error naming
/// the one called.
pub(crate) fn method_refused(name: &str) -> starlark::Error {
    go_error(format!("string.{name}{REFUSED}"))
}

/// Whether `e` is [`method_refused`]'s error.
pub(crate) fn is_refusal(e: &starlark::Error) -> bool {
    e.without_diagnostic().to_string().ends_with(REFUSED)
}

/// `b.METHOD`, a method of a string that is not UTF-8, bound to it: calling it is
/// [`call_method`] (the calls a program writes `b.METHOD(ARGS)` reach it through
/// [`super::go_methods::call`] when schemac rewrites them, through this when not).
#[derive(Debug, Clone, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct BytesMethod {
    receiver: GoBytes,
    name: String,
}

starlark_simple_value!(BytesMethod);

impl fmt::Display for BytesMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<built-in method {} of string value>", self.name)
    }
}

#[starlark_value(type = "builtin_function_or_method")]
impl<'v> StarlarkValue<'v> for BytesMethod {
    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let positional: Vec<Value<'v>> = args.positions(eval.heap())?.collect();
        let named = args.names_map()?;
        let named = super::named_args(&named);
        let receiver = eval.heap().alloc(self.receiver.clone());
        call_method(&self.name, receiver, &positional, &named, eval)
    }
}

#[starlark_value(type = "string")]
impl<'v> StarlarkValue<'v> for GoBytes {
    fn collect_repr(&self, collector: &mut String) {
        push_quoted_bytes(&self.bytes, collector);
    }

    fn collect_str(&self, collector: &mut String) {
        collector.push_str(&go_text(&self.bytes));
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

    fn get_attr(&self, attribute: &str, heap: Heap<'v>) -> Option<Value<'v>> {
        let name = super::go_methods::STRING_METHODS
            .iter()
            .find(|m| **m == attribute)?;
        Some(heap.alloc(BytesMethod {
            receiver: self.clone(),
            name: (*name).into(),
        }))
    }

    fn has_attr(&self, attribute: &str, _heap: Heap<'v>) -> bool {
        super::go_methods::STRING_METHODS.contains(&attribute)
    }

    fn dir_attr(&self) -> Vec<String> {
        super::go_methods::STRING_METHODS
            .iter()
            .map(|m| m.to_string())
            .collect()
    }
}
