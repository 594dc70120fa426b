//! Go's RE2 syntax where the `regex` crate reads the same text otherwise: escapes and the
//! characters of a class. Go's Perl classes `\w`, `\d`, `\s` and the boundary `\b` are
//! ASCII-only (the crate's are Unicode: `\w` matches `é`); `\Q...\E` quotes text (unknown to
//! the crate); `\0`, `\12` are octal escapes and `\<`, `\>` the characters `<`, `>` (the crate
//! refuses the first and takes the others for word boundaries); inside a class `[`, `&&`, `~~`
//! are characters (the crate's nested classes and set operations), and so is a `{` that does
//! not start a counted repetition (`a{`, `a{,2}`, `a{01}`). Go refuses escapes the crate
//! takes (`\u00e9`, `\U`, `\b` in a class, `\p{Letter}`): its error is given in its words.

use std::borrow::Cow;

/// `pattern` written for the crate with Go's meaning, or Go's error (without the
/// `error parsing regexp: ` before it) for the first escape or class name Go refuses, with
/// its offset.
pub(super) fn go_syntax(pattern: &str) -> Result<Cow<'_, str>, (usize, String)> {
    if !pattern.contains(['\\', '[', '{'])
        && !pattern.contains("(?")
        && !lone_repetition_operator(pattern)
    {
        return Ok(Cow::Borrowed(pattern));
    }
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut in_class = false;
    // Where Go's reading of a class is ([`ClassItem`]). The crate reads `--`, `&&` and `~~` in
    // a class as operators of its own, Go as characters: every `-` that is no range's is
    // written `\-`.
    let mut item = ClassItem::Other;
    // The names of the capturing groups so far (Go takes a name twice; the crate does not).
    let mut names = Vec::new();
    // Whether something before can take a repetition (not the start, `(` or `|`).
    let mut operand = false;
    // The groups open (Go finds a `)` that closes none where it stands, one left open only at
    // the end).
    let mut open_groups = 0usize;
    // Where the repetition operator just before starts (Go refuses one on another: `a**`).
    let mut last_repeat = None;
    // Where the flags groups just before start in `out` (`a(?i)*`: Go's flags push nothing and
    // the `*` repeats the `a`; the crate refuses a repetition there, so it is written before
    // them, unless they swap greediness with `U`).
    let mut flags_at: Option<usize> = None;
    let mut i = 0;
    while let Some(c) = pattern[i..].chars().next() {
        let rest = &pattern[i..];
        // A repetition operator (`*`, `+`, `?`, a count), with its non-greedy `?`, in the
        // order Go checks it: a count it refuses, nothing to repeat, a repetition repeated.
        let op = match c {
            '*' | '+' | '?' if !in_class => Some(1),
            '{' if !in_class => repeat_len(rest),
            _ => None,
        };
        if let Some(len) = op {
            if !operand {
                return Err((i, missing_operand(rest, len)));
            }
            if c == '{' && !go_repeat_count_ok(&rest[..len]) {
                return Err((i, format!("invalid repeat count: `{}`", &rest[..len])));
            }
            let len = len + usize::from(rest[len..].starts_with('?'));
            if let Some(start) = last_repeat {
                let e = format!(
                    "invalid nested repetition operator: `{}`",
                    &pattern[start..i + len]
                );
                return Err((i, e));
            }
            match flags_at.take() {
                Some(at) if !out[at..].contains('U') => out.insert_str(at, &rest[..len]),
                _ => out.push_str(&rest[..len]),
            }
            last_repeat = Some(i);
            i += len;
            continue;
        }
        last_repeat = None;
        let flags_before = flags_at.take();
        if c == '\\' {
            let (text, len) = escape(rest, in_class).map_err(|e| (i, e))?;
            let (text, len) = match surrogate(&rest[..len]) {
                true => {
                    let (text, more) = surrogate_written(in_class, item, &rest[len..]);
                    (text, len + more)
                }
                false => (text, len),
            };
            // A class escape (`\d`, `\pL`) is no character: no range starts or ends at it.
            let class = matches!(
                rest.as_bytes().get(1),
                Some(b'd' | b'D' | b's' | b'S' | b'w' | b'W' | b'p' | b'P')
            );
            if in_class {
                item = match (class, item) {
                    (true, ClassItem::EndNext(..)) => {
                        return Err((i, format!("invalid escape sequence: `{}`", &rest[..2])))
                    }
                    (true, _) => ClassItem::Other,
                    (false, _) => item.character(pattern, i, None, i + len)?,
                };
            }
            // An empty `\Q\E` pushes nothing: what was before is still what a repetition takes.
            operand |= !text.is_empty();
            out.push_str(&text);
            i += len;
            continue;
        }
        if c == '{' && !in_class {
            // The character `{` where no counted repetition starts (`a{`, `a{,2}`, `a{01}`).
            out.push_str(r"\{");
            operand = true;
            i += 1;
            continue;
        }
        if c == '(' && !in_class && rest.starts_with("(?") {
            let (text, len, opens) = perl_group(rest, &mut names).map_err(|e| (i, e))?;
            if !opens {
                flags_at = Some(flags_before.unwrap_or(out.len()));
            }
            out.push_str(&text);
            i += len;
            // Flags alone (`(?i)`) change what follows and leave the operand before.
            operand = operand && !opens;
            open_groups += usize::from(opens);
            continue;
        }
        if !in_class && c == '(' {
            open_groups += 1;
        }
        if !in_class && c == ')' {
            if open_groups == 0 {
                return Err((i, format!("unexpected ): `{pattern}`")));
            }
            open_groups -= 1;
        }
        i += c.len_utf8();
        if !in_class {
            operand = !matches!(c, '(' | '|');
            out.push(c);
            if c == '[' {
                in_class = true;
                // A `]` first (after a `^`) is a character of the class.
                if pattern[i..].starts_with('^') {
                    out.push('^');
                    i += 1;
                }
                item = ClassItem::Other;
                if pattern[i..].starts_with(']') {
                    item = item.character(pattern, i, Some(']'), i + 1)?;
                    out.push_str(r"\]");
                    i += 1;
                }
            }
            continue;
        }
        let at = i - c.len_utf8();
        match (c, item) {
            (']', _) => in_class = false,
            // A range's `-`: after one character, and not last (`[a-]` is `a` or `-`).
            ('-', ClassItem::Start(lo_at, lo)) if !pattern[i..].starts_with(']') => {
                out.push('-');
                item = ClassItem::EndNext(lo_at, lo);
                continue;
            }
            ('-', _) => {
                out.push_str(r"\-");
                item = item.character(pattern, at, Some('-'), i)?;
                continue;
            }
            ('[', _) if rest.starts_with("[:") && rest[2..].contains(":]") => {
                // A class name (`[:alpha:]`, `[:^digit:]`), as the crate reads it too.
                let len = rest[2..].find(":]").unwrap_or(0) + 4;
                let name = &rest[2..len - 2];
                if !POSIX_CLASSES.contains(&name.strip_prefix('^').unwrap_or(name)) {
                    let e = format!("invalid character class range: `{}`", &rest[..len]);
                    return Err((i - 1, e));
                }
                out.push_str(&rest[..len]);
                i += len - 1;
                item = ClassItem::Other;
                continue;
            }
            ('[' | '&' | '~', _) => out.push('\\'),
            _ => {}
        }
        out.push(c);
        if in_class {
            item = item.character(pattern, at, Some(c), i)?;
        }
    }
    Ok(Cow::Owned(out))
}

/// A class that holds no character (the crate has no empty `[]`).
const NO_CHARACTER: &str = r"[^\x{0}-\x{10FFFF}]";

/// Whether the escape `text` (`\x{D800}`) is of a surrogate code point: Go takes it, and no
/// UTF-8 text holds it; the crate refuses it.
fn surrogate(text: &str) -> bool {
    surrogate_escape_len(text) == Some(text.len())
}

/// The length of the escape of a surrogate code point `\x{...}` that starts `text`, if one does.
fn surrogate_escape_len(text: &str) -> Option<usize> {
    let hex = text.strip_prefix(r"\x{")?;
    let end = hex.find('}')?;
    let c = u32::from_str_radix(&hex[..end], 16).ok()?;
    (0xD800..=0xDFFF).contains(&c).then_some(3 + end + 1)
}

/// A surrogate's escape as the crate reads it, and how much of `rest` (what follows it) it
/// takes too: a class of no character (alone, an item of a class, or a range of surrogates
/// only, `-` and its end taken), or the nearest character a range starting (`\x{E000}`) or
/// ending (`\x{D7FF}`) at it holds.
fn surrogate_written(in_class: bool, item: ClassItem, rest: &str) -> (Cow<'static, str>, usize) {
    let starts_range = rest.starts_with('-') && !rest.starts_with("-]");
    let written = match (in_class, item) {
        (true, ClassItem::EndNext(..)) => r"\x{D7FF}",
        (true, _) if starts_range => match surrogate_escape_len(&rest[1..]) {
            Some(end) => return (Cow::Borrowed(NO_CHARACTER), 1 + end),
            None => r"\x{E000}",
        },
        _ => NO_CHARACTER,
    };
    (Cow::Borrowed(written), 0)
}

/// Where Go's reading of a class's items is (`parseClass`): an item is a character, or a
/// range of two joined by `-` (unless `]` follows the `-`).
#[derive(Clone, Copy)]
enum ClassItem {
    /// The class's start, or after a range, a class escape or a class name.
    Other,
    /// After a character that may start a range: where it starts in the pattern, and the
    /// character when written as itself (not an escape).
    Start(usize, Option<char>),
    /// After a range's `-`: where the range starts, and its first character.
    EndNext(usize, Option<char>),
}

impl ClassItem {
    /// The item after the character `c` (`None`: an escape's) at `at..end` of `pattern`: a
    /// range's end, or the start of an item. Go's error for a range that ends before it starts,
    /// quoted as written.
    fn character(
        self,
        pattern: &str,
        at: usize,
        c: Option<char>,
        end: usize,
    ) -> Result<ClassItem, (usize, String)> {
        match self {
            ClassItem::EndNext(lo_at, Some(lo)) if c.is_some_and(|hi| hi < lo) => Err((
                lo_at,
                format!("invalid character class range: `{}`", &pattern[lo_at..end]),
            )),
            ClassItem::EndNext(..) => Ok(ClassItem::Other),
            _ => Ok(ClassItem::Start(at, c)),
        }
    }
}

/// Go's `(?` at the start of `s` (`parsePerlFlags`): a named group `(?P<name>`, or flags
/// (`i`, `m`, `s`, `U`, once negated after a `-`) before `:` (a group) or `)` (flags for what
/// follows). Written for the crate, with its length in `s` and whether it opens a group; Go's
/// error for anything else (look-around, `(?<name>`, which Go before 1.22 does not know, the
/// crate's `x` flag). The crate refuses what Go takes: a name starting with a digit, a name
/// twice (Go's `${name}` is the first group so named) and a flag twice (`(?ii)`, `(?i-i)`);
/// such a group is written as one the crate takes.
fn perl_group<'a>(
    s: &'a str,
    names: &mut Vec<&'a str>,
) -> Result<(Cow<'a, str>, usize, bool), String> {
    if s.len() > 4 && s[2..].starts_with("P<") {
        let Some(end) = s.find('>') else {
            return Err(format!("invalid named capture: `{s}`"));
        };
        let name = &s[4..end];
        if name.is_empty() || !name.bytes().all(|c| c == b'_' || c.is_ascii_alphanumeric()) {
            return Err(format!("invalid named capture: `{}`", &s[..=end]));
        }
        if name.as_bytes()[0].is_ascii_digit() || names.contains(&name) {
            return Ok((Cow::Borrowed("("), end + 1, true));
        }
        names.push(name);
        return Ok((Cow::Borrowed(&s[..=end]), end + 1, true));
    }
    // The flags set and those cleared (after the `-`).
    let (mut on, mut off) = (String::new(), String::new());
    let mut negated = false;
    let mut saw_flag = false;
    for (at, c) in s[2..].char_indices() {
        let end = 2 + at + c.len_utf8();
        match c {
            'i' | 'm' | 's' | 'U' => {
                let (add, remove) = if negated {
                    (&mut off, &mut on)
                } else {
                    (&mut on, &mut off)
                };
                remove.retain(|f| f != c);
                if !add.contains(c) {
                    add.push(c);
                }
                saw_flag = true;
            }
            '-' if !negated => {
                negated = true;
                saw_flag = false;
            }
            ':' | ')' if !negated || saw_flag => {
                let opens = c == ':';
                let text = match (on.is_empty() && off.is_empty(), opens) {
                    (true, true) => "(?:".to_string(),
                    (true, false) => String::new(),
                    (false, _) if off.is_empty() => format!("(?{on}{c}"),
                    (false, _) => format!("(?{on}-{off}{c}"),
                };
                return Ok((Cow::Owned(text), end, opens));
            }
            _ => return Err(invalid_perl(&s[..end])),
        }
    }
    Err(invalid_perl(s))
}

fn invalid_perl(text: &str) -> String {
    format!("invalid or unsupported Perl syntax: `{text}`")
}

/// The length of the counted repetition at the start of `s` (`{2}`, `{2,}`, `{2,5}`; no
/// leading zeros), or `None` when Go reads a `{` there.
fn repeat_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let number = |from: usize| {
        let n = b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
        (n > 0 && !(n > 1 && b[from] == b'0')).then_some(from + n)
    };
    let mut end = number(1)?;
    if b.get(end) == Some(&b',') {
        end += 1;
        if b.get(end) != Some(&b'}') {
            end = number(end)?;
        }
    }
    (b.get(end) == Some(&b'}')).then_some(end + 1)
}

/// Whether a `*`, `+` or `?` in `pattern` has nothing before it to repeat (at the start, after
/// `(` or `|`), for a pattern with no escape, class, `{` or `(?` (where `?` after `(` is no
/// repetition).
fn lone_repetition_operator(pattern: &str) -> bool {
    pattern.starts_with(['*', '+', '?'])
        || ["(*", "(+", "|*", "|+", "|?"]
            .iter()
            .any(|two| pattern.contains(two))
}

/// Go's error for the repetition operator at the start of `s`, `len` bytes long, with nothing
/// before it to repeat: a count Go refuses is named first (`{1001}`, `{3,2}`: Go checks it as
/// it reads the operator); else the operator is missing its argument, named with its
/// non-greedy `?` (`*?`, `{2}?`).
fn missing_operand(s: &str, len: usize) -> String {
    let op = &s[..len];
    if op.starts_with('{') && !go_repeat_count_ok(op) {
        return format!("invalid repeat count: `{op}`");
    }
    let lazy = usize::from(s[len..].starts_with('?'));
    format!(
        "missing argument to repetition operator: `{}`",
        &s[..len + lazy]
    )
}

/// Whether Go takes the counts of `{m}`, `{m,}` or `{m,n}` ([`repeat_len`]'s text): each at
/// most [`GO_MAX_REPEAT`](super::GO_MAX_REPEAT), and `m` at most `n`.
fn go_repeat_count_ok(op: &str) -> bool {
    let most = u64::from(super::GO_MAX_REPEAT);
    let count = |t: &str| t.parse::<u64>().unwrap_or(u64::MAX);
    let inner = &op[1..op.len() - 1];
    let (min, max) = match inner.split_once(',') {
        None => (count(inner), Some(count(inner))),
        Some((m, "")) => (count(m), None),
        Some((m, n)) => (count(m), Some(count(n))),
    };
    min <= most && max.is_none_or(|n| n <= most && min <= n)
}

/// The names of Go's POSIX classes (`[[:alpha:]]`).
const POSIX_CLASSES: [&str; 14] = [
    "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
    "space", "upper", "word", "xdigit",
];

/// The escape at the start of `s` (`\` and what follows) written for the crate, and its
/// length in `s`.
fn escape(s: &str, in_class: bool) -> Result<(Cow<'_, str>, usize), String> {
    let Some(c) = s[1..].chars().next() else {
        return Err("trailing backslash at end of expression: ``".into());
    };
    let len = 1 + c.len_utf8();
    let kept = Ok((Cow::Borrowed(&s[..len]), len));
    let text = |t: &'static str| Ok((Cow::Borrowed(t), len));
    match c {
        'w' => text("[0-9A-Za-z_]"),
        'W' => text("[^0-9A-Za-z_]"),
        'd' => text("[0-9]"),
        'D' => text("[^0-9]"),
        's' => text(r"[\t\n\f\r ]"),
        'S' => text(r"[^\t\n\f\r ]"),
        'p' | 'P' => unicode_class(s),
        'b' if !in_class => text(r"(?-u:\b)"),
        'B' if !in_class => text(r"(?-u:\B)"),
        'A' | 'z' if !in_class => kept,
        'Q' if !in_class => {
            let body = &s[len..];
            let (literal, len) = match body.find(r"\E") {
                Some(end) => (&body[..end], len + end + 2),
                None => (body, s.len()),
            };
            Ok((Cow::Owned(regex_syntax::escape(literal)), len))
        }
        '0'..='7' => octal(s),
        'x' => hex(s),
        'a' | 'f' | 'n' | 'r' | 't' | 'v' => kept,
        '<' | '>' => Ok((Cow::Borrowed(&s[1..len]), len)),
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => kept,
        _ => Err(invalid_escape(&s[..len])),
    }
}

fn invalid_escape(text: &str) -> String {
    format!("invalid escape sequence: `{text}`")
}

/// An octal escape: `\0` and up to two more octal digits, or `\1`...`\7` followed by at least
/// one (a lone `\1` is a back-reference, which Go refuses).
fn octal(s: &str) -> Result<(Cow<'_, str>, usize), String> {
    let digits = s[1..]
        .bytes()
        .take(3)
        .take_while(|b| (b'0'..=b'7').contains(b))
        .count();
    if digits == 1 && s.as_bytes()[1] != b'0' {
        return Err(invalid_escape(&s[..2]));
    }
    let value = s[1..1 + digits]
        .bytes()
        .fold(0u32, |v, b| v * 8 + u32::from(b - b'0'));
    Ok((Cow::Owned(format!(r"\x{{{value:x}}}")), 1 + digits))
}

/// A hexadecimal escape: `\x` and two hex digits, or any number of them in braces up to
/// U+10FFFF; Go quotes what it read up to the fault.
fn hex(s: &str) -> Result<(Cow<'_, str>, usize), String> {
    let mut chars = s.char_indices().skip(2);
    let fault = |end: Option<(usize, char)>| {
        let len = end.map_or(s.len(), |(at, c)| at + c.len_utf8());
        Err(invalid_escape(&s[..len]))
    };
    match chars.next() {
        Some((_, '{')) => {
            let mut value = 0u32;
            let mut digits = 0;
            loop {
                let next = chars.next();
                match next {
                    Some((at, '}')) if digits > 0 => {
                        return Ok((Cow::Borrowed(&s[..at + 1]), at + 1));
                    }
                    Some((_, c)) if c.is_ascii_hexdigit() => {
                        value = value * 16 + c.to_digit(16).unwrap_or(0);
                        digits += 1;
                        if value > char::MAX as u32 {
                            return fault(next);
                        }
                    }
                    _ => return fault(next),
                }
            }
        }
        first => {
            let second = chars.next();
            match (first, second) {
                (Some((_, a)), Some((_, b))) if a.is_ascii_hexdigit() && b.is_ascii_hexdigit() => {
                    Ok((Cow::Borrowed(&s[..4]), 4))
                }
                _ => fault(second.or(first)),
            }
        }
    }
}

/// `\pX`, `\p{Name}`, `\PX`, `\P{Name}` (a `^` first in the braces negates), with a name
/// that Go knows: `Any`, a general category (`L`, `Lu`) or a script (`Greek`, `Old_Italic`),
/// spelled exactly (the crate also takes `Letter`, `greek`, `Grek`).
fn unicode_class(s: &str) -> Result<(Cow<'_, str>, usize), String> {
    let invalid = |seq: &str| format!("invalid character class range: `{seq}`");
    let (len, name) = match s[2..].chars().next() {
        Some('{') => match s.find('}') {
            Some(end) => (end + 1, &s[3..end]),
            None => return Err(invalid(s)),
        },
        Some(c) => (2 + c.len_utf8(), &s[2..2 + c.len_utf8()]),
        None => (2, ""),
    };
    let (negated, name) = match name.strip_prefix('^') {
        Some(name) => (true, name),
        None => (false, name),
    };
    if !go_class_name(name) {
        return Err(invalid(&s[..len]));
    }
    let upper = (s.as_bytes()[1] == b'P') != negated;
    if name == "Cs" {
        // Surrogates, which no UTF-8 text holds (the crate has no such class).
        let class = if upper {
            r"[\x{0}-\x{10FFFF}]"
        } else {
            NO_CHARACTER
        };
        return Ok((Cow::Borrowed(class), len));
    }
    // Go's tables are Unicode 13.0's (see `crate::go_unicode`): a class holds the characters
    // assigned by then. Go's `C` is `Cc`, `Cf`, `Co` and `Cs`, not the unassigned `Cn`, and
    // `Any` is every code point.
    let class = match name {
        "Any" => r"\x{0}-\x{10FFFF}".to_string(),
        "C" => format!(
            r"[\p{{Cc}}\p{{Cf}}\p{{Co}}]&&{}",
            crate::go_unicode::GO_UNICODE
        ),
        _ => format!(r"\p{{{name}}}&&{}", crate::go_unicode::GO_UNICODE),
    };
    let not = if upper { "^" } else { "" };
    Ok((Cow::Owned(format!("[{not}{class}]")), len))
}

/// Go's `unicode.Categories`.
const GO_CATEGORIES: [&str; 36] = [
    "C", "Cc", "Cf", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N",
    "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So",
    "Z", "Zl", "Zp", "Zs",
];

/// Go's `unicode.Scripts` in ytt's build (Go 1.19, Unicode 13.0): each name as Go spells it
/// (the crate also takes `greek`, `Grek`, and the scripts of later Unicode versions).
const GO_SCRIPTS: [&str; 156] = [
    "Adlam",
    "Ahom",
    "Anatolian_Hieroglyphs",
    "Arabic",
    "Armenian",
    "Avestan",
    "Balinese",
    "Bamum",
    "Bassa_Vah",
    "Batak",
    "Bengali",
    "Bhaiksuki",
    "Bopomofo",
    "Brahmi",
    "Braille",
    "Buginese",
    "Buhid",
    "Canadian_Aboriginal",
    "Carian",
    "Caucasian_Albanian",
    "Chakma",
    "Cham",
    "Cherokee",
    "Chorasmian",
    "Common",
    "Coptic",
    "Cuneiform",
    "Cypriot",
    "Cyrillic",
    "Deseret",
    "Devanagari",
    "Dives_Akuru",
    "Dogra",
    "Duployan",
    "Egyptian_Hieroglyphs",
    "Elbasan",
    "Elymaic",
    "Ethiopic",
    "Georgian",
    "Glagolitic",
    "Gothic",
    "Grantha",
    "Greek",
    "Gujarati",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Han",
    "Hangul",
    "Hanifi_Rohingya",
    "Hanunoo",
    "Hatran",
    "Hebrew",
    "Hiragana",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Katakana",
    "Kayah_Li",
    "Kharoshthi",
    "Khitan_Small_Script",
    "Khmer",
    "Khojki",
    "Khudawadi",
    "Lao",
    "Latin",
    "Lepcha",
    "Limbu",
    "Linear_A",
    "Linear_B",
    "Lisu",
    "Lycian",
    "Lydian",
    "Mahajani",
    "Makasar",
    "Malayalam",
    "Mandaic",
    "Manichaean",
    "Marchen",
    "Masaram_Gondi",
    "Medefaidrin",
    "Meetei_Mayek",
    "Mende_Kikakui",
    "Meroitic_Cursive",
    "Meroitic_Hieroglyphs",
    "Miao",
    "Modi",
    "Mongolian",
    "Mro",
    "Multani",
    "Myanmar",
    "Nabataean",
    "Nandinagari",
    "New_Tai_Lue",
    "Newa",
    "Nko",
    "Nushu",
    "Nyiakeng_Puachue_Hmong",
    "Ogham",
    "Ol_Chiki",
    "Old_Hungarian",
    "Old_Italic",
    "Old_North_Arabian",
    "Old_Permic",
    "Old_Persian",
    "Old_Sogdian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Oriya",
    "Osage",
    "Osmanya",
    "Pahawh_Hmong",
    "Palmyrene",
    "Pau_Cin_Hau",
    "Phags_Pa",
    "Phoenician",
    "Psalter_Pahlavi",
    "Rejang",
    "Runic",
    "Samaritan",
    "Saurashtra",
    "Sharada",
    "Shavian",
    "Siddham",
    "SignWriting",
    "Sinhala",
    "Sogdian",
    "Sora_Sompeng",
    "Soyombo",
    "Sundanese",
    "Syloti_Nagri",
    "Syriac",
    "Tagalog",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Takri",
    "Tamil",
    "Tangut",
    "Telugu",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tifinagh",
    "Tirhuta",
    "Ugaritic",
    "Vai",
    "Wancho",
    "Warang_Citi",
    "Yezidi",
    "Yi",
    "Zanabazar_Square",
];

/// Whether Go's `unicode` tables hold `name`: `Any`, a category, or a script.
fn go_class_name(name: &str) -> bool {
    name == "Any" || GO_CATEGORIES.contains(&name) || GO_SCRIPTS.contains(&name)
}
