//! `json.decode` as ytt's Go `encoding/json` reads text: its syntax check and its error texts.

use crate::value::{MapEntry, Node, Pos, Value};

/// Go's `quoteChar`: the byte as a rune (a byte from 0x80 is the Latin-1 letter of that
/// number), through `strconv.Quote` but between single quotes.
fn quote_char(c: u8) -> String {
    let quoted = match c {
        b'\'' => "\\'".into(),
        b'"' => "\"".into(),
        b'\\' => "\\\\".into(),
        0x07 => "\\a".into(),
        0x08 => "\\b".into(),
        0x0c => "\\f".into(),
        b'\n' => "\\n".into(),
        b'\r' => "\\r".into(),
        b'\t' => "\\t".into(),
        0x0b => "\\v".into(),
        0x20..=0x7e => (c as char).to_string(),
        c if c < 0x20 || c == 0x7f => format!("\\x{c:02x}"),
        // Not printable for Go: the C1 controls, no-break space and soft hyphen.
        0x80..=0xa0 | 0xad => format!("\\u{c:04x}"),
        c => char::from(c).to_string(),
    };
    format!("'{quoted}'")
}

fn invalid(c: u8, context: &str) -> String {
    format!("invalid character {} {context}", quote_char(c))
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Go's `maxNestingDepth`: arrays and objects nested deeper are a syntax error.
const MAX_NESTING_DEPTH: usize = 10000;

/// Go's `checkValid`: the first syntax error of `data`, worded as Go words it. The text is
/// scanned with a `' '` appended, as Go's scanner does at the end of input.
fn check_valid(data: &[u8]) -> Result<(), String> {
    #[derive(Clone, Copy, PartialEq)]
    enum Parse {
        ObjectKey,
        ObjectValue,
        ArrayValue,
    }
    #[derive(Clone, Copy, PartialEq)]
    enum St {
        BeginValue,
        BeginValueOrEmpty,
        BeginStringOrEmpty,
        BeginString,
        EndValue,
        EndTop,
        InString,
        InStringEsc,
        InStringEscU(u8),
        Neg,
        One,
        Zero,
        Dot,
        Dot0,
        E,
        ESign,
        E0,
        Literal(&'static [u8], &'static str, usize),
    }
    let mut stack: Vec<Parse> = Vec::new();
    let mut st = St::BeginValue;
    let bytes = data.iter().copied().chain(std::iter::once(b' '));
    for c in bytes {
        // A state that ends a value hands `c` on to EndValue, as Go's states do.
        let mut redo = true;
        while redo {
            redo = false;
            st = match st {
                St::BeginValueOrEmpty if is_space(c) => st,
                St::BeginValueOrEmpty if c == b']' => {
                    stack.pop();
                    St::EndValue
                }
                St::BeginValueOrEmpty | St::BeginValue => {
                    if is_space(c) {
                        St::BeginValue
                    } else {
                        match c {
                            b'{' | b'[' if stack.len() >= MAX_NESTING_DEPTH => {
                                return Err(invalid(c, "exceeded max depth"));
                            }
                            b'{' => {
                                stack.push(Parse::ObjectKey);
                                St::BeginStringOrEmpty
                            }
                            b'[' => {
                                stack.push(Parse::ArrayValue);
                                St::BeginValueOrEmpty
                            }
                            b'"' => St::InString,
                            b'-' => St::Neg,
                            b'0' => St::Zero,
                            b'1'..=b'9' => St::One,
                            b't' => St::Literal(b"rue", "true", 0),
                            b'f' => St::Literal(b"alse", "false", 0),
                            b'n' => St::Literal(b"ull", "null", 0),
                            _ => return Err(invalid(c, "looking for beginning of value")),
                        }
                    }
                }
                St::BeginStringOrEmpty if is_space(c) => st,
                St::BeginStringOrEmpty if c == b'}' => {
                    stack.pop();
                    St::EndValue
                }
                St::BeginStringOrEmpty | St::BeginString => {
                    if is_space(c) {
                        St::BeginString
                    } else if c == b'"' {
                        St::InString
                    } else {
                        return Err(invalid(c, "looking for beginning of object key string"));
                    }
                }
                St::EndValue => match stack.last().copied() {
                    None => {
                        redo = true;
                        St::EndTop
                    }
                    Some(_) if is_space(c) => St::EndValue,
                    Some(Parse::ObjectKey) => {
                        if c != b':' {
                            return Err(invalid(c, "after object key"));
                        }
                        *stack.last_mut().unwrap() = Parse::ObjectValue;
                        St::BeginValue
                    }
                    Some(Parse::ObjectValue) => match c {
                        b',' => {
                            *stack.last_mut().unwrap() = Parse::ObjectKey;
                            St::BeginString
                        }
                        b'}' => {
                            stack.pop();
                            St::EndValue
                        }
                        _ => return Err(invalid(c, "after object key:value pair")),
                    },
                    Some(Parse::ArrayValue) => match c {
                        b',' => St::BeginValue,
                        b']' => {
                            stack.pop();
                            St::EndValue
                        }
                        _ => return Err(invalid(c, "after array element")),
                    },
                },
                St::EndTop => {
                    if !is_space(c) {
                        return Err(invalid(c, "after top-level value"));
                    }
                    St::EndTop
                }
                St::InString => match c {
                    b'"' => St::EndValue,
                    b'\\' => St::InStringEsc,
                    c if c < 0x20 => return Err(invalid(c, "in string literal")),
                    _ => St::InString,
                },
                St::InStringEsc => match c {
                    b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => St::InString,
                    b'u' => St::InStringEscU(0),
                    _ => return Err(invalid(c, "in string escape code")),
                },
                St::InStringEscU(n) => {
                    if !c.is_ascii_hexdigit() {
                        return Err(invalid(c, "in \\u hexadecimal character escape"));
                    }
                    if n == 3 {
                        St::InString
                    } else {
                        St::InStringEscU(n + 1)
                    }
                }
                St::Neg => match c {
                    b'0' => St::Zero,
                    b'1'..=b'9' => St::One,
                    _ => return Err(invalid(c, "in numeric literal")),
                },
                St::One if c.is_ascii_digit() => St::One,
                St::One | St::Zero => match c {
                    b'.' => St::Dot,
                    b'e' | b'E' => St::E,
                    _ => {
                        redo = true;
                        St::EndValue
                    }
                },
                St::Dot => {
                    if !c.is_ascii_digit() {
                        return Err(invalid(c, "after decimal point in numeric literal"));
                    }
                    St::Dot0
                }
                St::Dot0 => match c {
                    b'0'..=b'9' => St::Dot0,
                    b'e' | b'E' => St::E,
                    _ => {
                        redo = true;
                        St::EndValue
                    }
                },
                St::E if c == b'+' || c == b'-' => St::ESign,
                St::E | St::ESign => {
                    if !c.is_ascii_digit() {
                        return Err(invalid(c, "in exponent of numeric literal"));
                    }
                    St::E0
                }
                St::E0 => {
                    if c.is_ascii_digit() {
                        St::E0
                    } else {
                        redo = true;
                        St::EndValue
                    }
                }
                St::Literal(rest, name, i) => {
                    if c != rest[i] {
                        return Err(invalid(
                            c,
                            &format!("in literal {name} (expecting {})", quote_char(rest[i])),
                        ));
                    }
                    if i + 1 == rest.len() {
                        St::EndValue
                    } else {
                        St::Literal(rest, name, i + 1)
                    }
                }
            };
        }
    }
    if st == St::EndTop {
        Ok(())
    } else {
        Err("unexpected end of JSON input".into())
    }
}

/// Reads valid JSON (checked first) into a value.
struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn skip(&mut self) {
        while self.i < self.s.len() && is_space(self.s[self.i]) {
            self.i += 1;
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        self.skip();
        let b = self.s;
        match b[self.i] {
            b'{' => {
                self.i += 1;
                // A Go map: the last of repeated keys wins, in the place it was given last
                // (found through an index: a `retain` per key was quadratic in the keys).
                let mut entries: Vec<Option<MapEntry>> = Vec::new();
                let mut index: std::collections::HashMap<String, usize> =
                    std::collections::HashMap::new();
                loop {
                    self.skip();
                    match b[self.i] {
                        b'}' => {
                            self.i += 1;
                            break;
                        }
                        b',' => self.i += 1,
                        _ => {
                            let key = self.string();
                            self.skip();
                            self.i += 1; // ':'
                            let value = Node::new(self.value()?, Pos::unknown());
                            if let Some(earlier) = index.insert(key.clone(), entries.len()) {
                                entries[earlier] = None;
                            }
                            entries.push(Some(MapEntry {
                                key: Value::Str(key.into()).into(),
                                value,
                            }));
                        }
                    }
                }
                Ok(Value::Map(entries.into_iter().flatten().collect()))
            }
            b'[' => {
                self.i += 1;
                let mut items = crate::value::Items::new();
                loop {
                    self.skip();
                    match b[self.i] {
                        b']' => {
                            self.i += 1;
                            break;
                        }
                        b',' => self.i += 1,
                        _ => items.push(Node::new(self.value()?, Pos::unknown())),
                    }
                }
                Ok(Value::Array(items))
            }
            b'"' => Ok(Value::Str(self.string().into())),
            b't' => {
                self.i += 4;
                Ok(Value::Bool(true))
            }
            b'f' => {
                self.i += 5;
                Ok(Value::Bool(false))
            }
            b'n' => {
                self.i += 4;
                Ok(Value::Null)
            }
            _ => {
                let start = self.i;
                while self.i < b.len()
                    && matches!(b[self.i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                {
                    self.i += 1;
                }
                // ASCII: the digits and signs above.
                let text = std::str::from_utf8(&b[start..self.i]).unwrap_or_default();
                match text.parse::<f64>() {
                    Ok(f) if f.is_finite() => Ok(Value::Float(f)),
                    _ => Err(format!(
                        "json: cannot unmarshal number {text} into Go value of type float64"
                    )),
                }
            }
        }
    }

    /// A string literal at `self.i` (its opening quote), unescaped; each byte that is no
    /// UTF-8 U+FFFD, as Go's decoder writes it.
    fn string(&mut self) -> String {
        let b = self.s;
        self.i += 1;
        let mut out = String::new();
        let mut units: Vec<u16> = Vec::new();
        let flush = |units: &mut Vec<u16>, out: &mut String| {
            out.extend(char::decode_utf16(units.drain(..)).map(|r| r.unwrap_or('\u{fffd}')));
        };
        loop {
            match b[self.i] {
                b'"' => {
                    self.i += 1;
                    flush(&mut units, &mut out);
                    return out;
                }
                b'\\' => {
                    let e = b[self.i + 1];
                    self.i += 2;
                    if e == b'u' {
                        let hex = std::str::from_utf8(&b[self.i..self.i + 4]).unwrap_or_default();
                        units.push(u16::from_str_radix(hex, 16).unwrap_or(0xfffd));
                        self.i += 4;
                        continue;
                    }
                    flush(&mut units, &mut out);
                    out.push(match e {
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        other => other as char,
                    });
                }
                _ => {
                    flush(&mut units, &mut out);
                    // One character's bytes at most: the chunks of the whole rest of the
                    // text were each checked again at every character (quadratic).
                    let window = &b[self.i..b.len().min(self.i + 4)];
                    let chunk = window.utf8_chunks().next();
                    match chunk.and_then(|c| c.valid().chars().next()) {
                        Some(ch) => {
                            out.push(ch);
                            self.i += ch.len_utf8();
                        }
                        None => {
                            out.push(char::REPLACEMENT_CHARACTER);
                            self.i += 1;
                        }
                    }
                }
            }
        }
    }
}

/// Decodes JSON text as ytt's `json.decode` does; the error is Go's text (without the
/// `json.decode: ` prefix). The text may be any bytes, as Go's strings are.
pub fn decode(text: &[u8]) -> Result<Value, String> {
    check_valid(text)?;
    Reader { s: text, i: 0 }.value()
}
