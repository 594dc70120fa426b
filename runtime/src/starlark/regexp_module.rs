//! ytt's `@ytt:regexp` module: Go's regexp (RE2 syntax) on strings, which are bytes in
//! starlark-go: a string that is not UTF-8 is read as Go's regexp reads it, each byte that is
//! no UTF-8 a U+FFFD (`.` matches it), and what is kept of it (the text between matches, a
//! group) is its own bytes ([`Subject`]).

use std::borrow::Cow;

use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::Value;

use super::go_bytes::{string_arg, string_bytes, string_value};
use super::modules::{IgnoredKwargs, Kwargs};

/// The string arguments of a `@ytt:regexp` function: exactly `N` positional ones (keywords
/// are ignored, as in ytt), the last one `rest` when it need not be a string.
fn regexp_args<'v, const N: usize>(
    name: &str,
    args: &[Value<'v>],
    count: &str,
) -> anyhow::Result<[Value<'v>; N]> {
    let args: [Value<'v>; N] = args
        .try_into()
        .map_err(|_| anyhow::anyhow!("{name}: expected exactly {count} arguments"))?;
    Ok(args)
}

/// The pattern of a `@ytt:regexp` function: Go's parser refuses one that is not UTF-8, quoting
/// it from its first bad byte (written here as U+FFFD).
fn regexp_pattern<'v>(name: &str, v: Value<'v>) -> anyhow::Result<&'v str> {
    if let Some(pattern) = v.unpack_str() {
        return Ok(pattern);
    }
    let bytes = string_arg(name, v)?;
    let valid = bytes.utf8_chunks().next().map_or(0, |c| c.valid().len());
    let rest = super::go_bytes::go_text(&bytes[valid..]);
    let message = format!("{name}: error parsing regexp: invalid UTF-8: `{rest}`");
    Err(super::go_bytes::quoting_bytes(
        message,
        &bytes[valid..],
        anyhow::Error::msg,
    ))
}

/// The string a `@ytt:regexp` function reads: its text as Go's regexp reads it (each byte that
/// is no UTF-8 a U+FFFD), and its bytes.
struct Subject<'v> {
    text: Cow<'v, str>,
    bytes: &'v [u8],
    /// Where each byte of `text` (and its end) falls in `bytes`, when they differ.
    offsets: Option<Vec<usize>>,
}

impl<'v> Subject<'v> {
    fn new(name: &str, v: Value<'v>) -> anyhow::Result<Subject<'v>> {
        if let Some(text) = v.unpack_str() {
            let (text, bytes) = (Cow::Borrowed(text), text.as_bytes());
            return Ok(Subject {
                text,
                bytes,
                offsets: None,
            });
        }
        let bytes = string_arg(name, v)?;
        let (mut text, mut offsets, mut at) = (String::new(), Vec::new(), 0);
        for chunk in bytes.utf8_chunks() {
            text.push_str(chunk.valid());
            offsets.extend(at..at + chunk.valid().len());
            at += chunk.valid().len();
            for _ in chunk.invalid() {
                text.push(char::REPLACEMENT_CHARACTER);
                offsets.extend([at; 3]);
                at += 1;
            }
        }
        offsets.push(bytes.len());
        let text = Cow::Owned(text);
        Ok(Subject {
            text,
            bytes,
            offsets: Some(offsets),
        })
    }

    /// The bytes of the text's `start..end`.
    fn bytes_of(&self, start: usize, end: usize) -> &'v [u8] {
        match &self.offsets {
            None => &self.bytes[start..end],
            Some(at) => &self.bytes[at[start]..at[end]],
        }
    }
}

/// Where the character class that `pattern` leaves open starts: Go quotes the pattern from
/// there. A `[` inside a class is a character of it (`[{[`), as is a `]` first in it (`[]a`,
/// `[^]a`), and `[:alpha:]` is a class name.
fn unclosed_class(pattern: &str) -> Option<usize> {
    let b = pattern.as_bytes();
    let mut open = None;
    let mut i = 0;
    while i < b.len() {
        match (open, b[i]) {
            (_, b'\\') => i += 1,
            (None, b'[') => {
                open = Some(i);
                i += usize::from(b.get(i + 1) == Some(&b'^'));
                i += usize::from(b.get(i + 1) == Some(&b']'));
            }
            (Some(_), b'[') if b.get(i + 1) == Some(&b':') => {
                if let Some(end) = pattern[i + 2..].find(":]") {
                    i += end + 3;
                }
            }
            (Some(_), b']') => open = None,
            _ => {}
        }
        i += 1;
    }
    open
}

/// `pattern` compiled (RE2 syntax, [`crate::rules::go_regex`]), with Go's words for the
/// commonest syntax errors.
fn regexp_compile(name: &str, pattern: &str) -> anyhow::Result<regex::Regex> {
    if let Some(go) = crate::rules::go_regex::go_error(pattern) {
        anyhow::bail!("{name}: error parsing regexp: {go}");
    }
    crate::rules::go_regex::compile(pattern).map_err(|e| {
        let text = e.to_string();
        let go = if text.contains("unclosed character class") {
            let open = unclosed_class(pattern).unwrap_or(0);
            format!("missing closing ]: `{}`", &pattern[open..])
        } else if text.contains("unclosed group") {
            format!("missing closing ): `{pattern}`")
        } else if text.contains("unopened group") {
            format!("unexpected ): `{pattern}`")
        } else if let Some(go) = regex_error_at(&text) {
            go
        } else {
            text
        };
        anyhow::anyhow!("{name}: error parsing regexp: {go}")
    })
}

/// Go's words for a syntax error of the `regex` crate that it places (the pattern on one line,
/// `^` under the part at fault), naming that part as Go does.
fn regex_error_at(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let carets = lines.iter().position(|l| {
        let t = l.trim();
        !t.is_empty() && t.bytes().all(|c| c == b'^')
    })?;
    let code = lines.get(carets.checked_sub(1)?)?;
    let at = lines[carets].find('^')?;
    let part = code.get(at..at + lines[carets].trim().len())?;
    let kind = lines.iter().rev().find_map(|l| l.strip_prefix("error: "))?;
    // A back-reference (`\1`) is an escape Go does not know.
    let go = if kind.starts_with("unrecognized escape sequence")
        || kind.starts_with("backreferences are not supported")
    {
        "invalid escape sequence"
    } else if kind.starts_with("invalid character class range") {
        "invalid character class range"
    } else if kind.starts_with("repetition operator missing expression") {
        "missing argument to repetition operator"
    } else if kind.starts_with("invalid repetition count range") {
        "invalid repeat count"
    } else if kind.starts_with("decimal literal invalid") {
        // A count too large for the crate: Go names the whole `{...}`.
        let open = code[..at].rfind('{')?;
        let close = at + code[at..].find('}')? + 1;
        return Some(format!("invalid repeat count: `{}`", &code[open..close]));
    } else {
        return None;
    };
    Some(format!("{go}: `{part}`"))
}

#[starlark_module]
pub(super) fn regexp_members(builder: &mut GlobalsBuilder) {
    /// Whether `pattern` (RE2 syntax) matches somewhere in `s`.
    fn r#match<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<bool> {
        const NAME: &str = "regexp.match";
        let [pattern, s] = regexp_args::<2>(NAME, &args.items, "two")?;
        let pattern = regexp_pattern(NAME, pattern)?;
        let s = Subject::new(NAME, s)?;
        Ok(regexp_compile(NAME, pattern)?.is_match(&s.text))
    }

    /// Every match of `pattern` in `s` replaced: by `replacement` with `$1`/`${name}`
    /// expanded (as the `regex` crate expands them), or by what the function `replacement`
    /// returns for the matched text.
    fn replace<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: IgnoredKwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        const NAME: &str = "regexp.replace";
        let [pattern, s, replacement] = regexp_args::<3>(NAME, &args.items, "3")?;
        let pattern = regexp_pattern(NAME, pattern)?;
        let s = Subject::new(NAME, s)?;
        let re = regexp_compile(NAME, pattern)?;
        // What the result may take: the heap budget left (each match's text is sized before
        // it is written: `regexp.replace("", "x" * 10**6, "y" * 10**4)` would be 10 GB).
        let left = super::budget::heap_room(eval.heap());
        let end = s.text.len();
        if let Some(text) = string_bytes(replacement) {
            // At most: the text between matches, and for each match the replacement with the
            // match's text for each `$` (a group is within it), sized before anything is made.
            let refs = text.iter().filter(|&&b| b == b'$').count() as u128;
            let (mut most, mut matched) = (0u128, 0u128);
            for m in re.find_iter(&s.text) {
                most += text.len() as u128 + refs * m.len() as u128;
                matched += m.len() as u128;
            }
            super::budget::within(end as u128 - matched + most, left)?;
            let mut out = Vec::new();
            let mut last = 0;
            for caps in re.captures_iter(&s.text) {
                let m = caps.get(0).expect("group 0 is the match");
                out.extend_from_slice(s.bytes_of(last, m.start()));
                regex_automata::util::interpolate::bytes(
                    text,
                    |i, out| {
                        if let Some(g) = caps.get(i) {
                            out.extend_from_slice(s.bytes_of(g.start(), g.end()));
                        }
                    },
                    |name| re.capture_names().position(|n| n == Some(name)),
                    &mut out,
                );
                last = m.end();
            }
            out.extend_from_slice(s.bytes_of(last, end));
            return Ok(string_value(out, eval.heap()));
        }
        if replacement.get_type() != "function" {
            return Err(super::go_bytes::expected_string(NAME, replacement));
        }
        let mut out = Vec::with_capacity(s.bytes.len());
        let mut last = 0;
        for m in re.find_iter(&s.text) {
            let arg = string_value(s.bytes_of(m.start(), m.end()).to_vec(), eval.heap());
            let got = eval
                .eval_function(replacement, &[arg], &[])
                .map_err(|e| anyhow::anyhow!("{NAME}: {}", super::error_message(&e)))?;
            let got = string_arg(NAME, got)?;
            let between = s.bytes_of(last, m.start());
            super::budget::grow_within(&mut out, between.len() + got.len(), left)?;
            out.extend_from_slice(between);
            out.extend_from_slice(got);
            last = m.end();
        }
        let tail = s.bytes_of(last, end);
        super::budget::grow_within(&mut out, tail.len(), left)?;
        out.extend_from_slice(tail);
        Ok(string_value(out, eval.heap()))
    }
}
