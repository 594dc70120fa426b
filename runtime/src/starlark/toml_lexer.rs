//! BurntSushi's TOML lexer (v1.2.1, ytt's `toml.decode`): a state machine reading the text
//! one character at a time into items for its parser, stopping at its first error (a byte that
//! is not UTF-8, a control character, a character out of place), in its words and on its line.

mod scalars;

use super::go_repr::push_quoted_text;
use crate::go_unicode::letter;

/// BurntSushi's lexer's end of input (a NUL, which it refuses before reading it as one).
const EOF: char = '\0';

#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) enum Kind {
    Error,
    Eof,
    Text,
    Str,
    RawStr,
    MultilineStr,
    RawMultilineStr,
    Bool,
    Integer,
    Float,
    Datetime,
    Array,
    ArrayEnd,
    TableStart,
    TableEnd,
    ArrayTableStart,
    ArrayTableEnd,
    KeyStart,
    KeyEnd,
    CommentStart,
    InlineTableStart,
    InlineTableEnd,
}

pub(super) struct Item {
    pub(super) kind: Kind,
    /// The item's text (bytes of the input), or an error's message.
    pub(super) val: Vec<u8>,
    pub(super) line: usize,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum State {
    Top,
    TopEnd,
    TableStart,
    TableEnd,
    ArrayTableEnd,
    TableNameStart,
    TableNameEnd,
    BareName,
    QuotedName,
    KeyStart,
    KeyNameStart,
    KeyEnd,
    Value,
    ArrayValue,
    ArrayValueEnd,
    ArrayEnd,
    InlineTableValue,
    InlineTableValueEnd,
    InlineTableEnd,
    Str,
    MultilineStr,
    RawStr,
    MultilineRawStr,
    MultilineStrEscape,
    StrEscape,
    ShortUnicodeEscape,
    LongUnicodeEscape,
    NumberOrDateStart,
    NumberOrDate,
    Datetime,
    HexInteger,
    OctalInteger,
    BinaryInteger,
    DecimalNumber,
    DecimalNumberStart,
    BaseNumberOrDate,
    Float,
    Bool,
    CommentStart,
    Comment,
}

/// BurntSushi's lexer, run to its first error or the end (what it hands the parser after an
/// error is never read).
pub(super) struct Lexer<'a> {
    input: &'a [u8],
    start: usize,
    pos: usize,
    line: usize,
    prev_widths: [usize; 4],
    nprev: usize,
    at_eof: bool,
    stack: Vec<State>,
    pub(super) items: Vec<Item>,
    /// An error item is the last item.
    failed: bool,
}

/// The character at the start of `bytes` and its width, `None` for a byte that starts no UTF-8
/// character (and for U+FFFD, which Go's decoder gives for such a byte too).
fn decode_char(bytes: &[u8]) -> (Option<char>, usize) {
    let chunk = &bytes[..bytes.len().min(4)];
    let valid = match std::str::from_utf8(chunk) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&chunk[..e.valid_up_to()]).unwrap_or_default(),
    };
    match valid.chars().next() {
        Some(c) if c != char::REPLACEMENT_CHARACTER => (Some(c), c.len_utf8()),
        _ => (None, 1),
    }
}

fn is_whitespace(r: char) -> bool {
    r == '\t' || r == ' '
}
fn is_nl(r: char) -> bool {
    r == '\n' || r == '\r'
}
fn is_control(r: char) -> bool {
    !matches!(r, '\t' | '\r' | '\n') && (r <= '\u{1f}' || r == '\u{7f}')
}
fn is_digit(r: char) -> bool {
    r.is_ascii_digit()
}
pub(super) fn is_hex(r: char) -> bool {
    r.is_ascii_hexdigit()
}
fn is_octal(r: char) -> bool {
    ('0'..='7').contains(&r)
}
fn is_binary(r: char) -> bool {
    r == '0' || r == '1'
}
fn is_bare_key_char(r: char) -> bool {
    r.is_ascii_alphanumeric() || r == '_' || r == '-'
}

/// A character as Go's `%q` writes one (`'x'`, `'\''`, `'\x01'`, `'\ufeff'`).
pub(super) fn quote_char(r: char) -> String {
    let mut out = String::from("'");
    match r {
        '\'' => out.push_str("\\'"),
        '"' => out.push('"'),
        r => push_quoted_text(r.encode_utf8(&mut [0; 4]), &mut out),
    }
    out.push('\'');
    out
}

/// Text as Go's `%q` writes a string.
pub(super) fn quote_text(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    push_quoted_text(&String::from_utf8_lossy(bytes), &mut out);
    out.push('"');
    out
}

impl<'a> Lexer<'a> {
    pub(super) fn new(input: &'a [u8]) -> Self {
        Lexer {
            input,
            start: 0,
            pos: 0,
            line: 1,
            prev_widths: [0; 4],
            nprev: 0,
            at_eof: false,
            stack: Vec::new(),
            items: Vec::new(),
            failed: false,
        }
    }

    pub(super) fn run(&mut self) {
        let mut state = Some(State::Top);
        while let Some(s) = state {
            if self.failed {
                return;
            }
            state = self.step(s);
        }
    }

    fn current(&self) -> &'a [u8] {
        self.input.get(self.start..self.pos).unwrap_or_default()
    }

    fn push_item(&mut self, kind: Kind, val: Vec<u8>, line: usize) {
        if !self.failed {
            self.failed = kind == Kind::Error;
            self.items.push(Item { kind, val, line });
        }
    }

    fn emit(&mut self, kind: Kind) {
        if self.start > self.pos {
            let b = self.input.get(self.pos).copied().unwrap_or(0);
            self.error(format!("invalid UTF-8 byte: 0x{b:02x}"));
            return;
        }
        self.push_item(kind, self.current().to_vec(), self.line);
        self.start = self.pos;
    }

    fn emit_trim(&mut self, kind: Kind) {
        let val = self.current().trim_ascii().to_vec();
        self.push_item(kind, val, self.line);
        self.start = self.pos;
    }

    fn next(&mut self) -> char {
        if self.pos >= self.input.len() {
            self.at_eof = true;
            return EOF;
        }
        if self.input[self.pos] == b'\n' {
            self.line += 1;
        }
        self.prev_widths = [
            self.prev_widths[0],
            self.prev_widths[0],
            self.prev_widths[1],
            self.prev_widths[2],
        ];
        self.nprev = (self.nprev + 1).min(4);
        let (r, w) = decode_char(&self.input[self.pos..]);
        let Some(r) = r else {
            let b = self.input[self.pos];
            self.error(format!("invalid UTF-8 byte: 0x{b:02x}"));
            return char::REPLACEMENT_CHARACTER;
        };
        let lone_cr = r == '\r' && self.input.get(self.pos + 1) != Some(&b'\n');
        if is_control(r) || lone_cr {
            let message = format!(
                "TOML files cannot contain control characters: '0x{:02x}'",
                r as u32
            );
            self.push_item(Kind::Error, message.into_bytes(), self.line);
            return char::REPLACEMENT_CHARACTER;
        }
        self.prev_widths[0] = w;
        self.pos += w;
        r
    }

    fn ignore(&mut self) {
        self.start = self.pos;
    }

    fn backup(&mut self) {
        if self.at_eof {
            self.at_eof = false;
            return;
        }
        if self.nprev < 1 {
            return;
        }
        let w = self.prev_widths[0];
        self.prev_widths = [
            self.prev_widths[1],
            self.prev_widths[2],
            self.prev_widths[3],
            self.prev_widths[3],
        ];
        self.nprev -= 1;
        self.pos = self.pos.saturating_sub(w);
        if self.input.get(self.pos) == Some(&b'\n') {
            self.line -= 1;
        }
    }

    fn accept(&mut self, valid: char) -> bool {
        if self.next() == valid {
            return true;
        }
        self.backup();
        false
    }

    fn peek(&mut self) -> char {
        let r = self.next();
        self.backup();
        r
    }

    fn skip(&mut self, pred: fn(char) -> bool) {
        loop {
            let r = self.next();
            if self.failed || !pred(r) {
                self.backup();
                self.ignore();
                return;
            }
        }
    }

    fn pop(&mut self) -> Option<State> {
        match self.stack.pop() {
            Some(s) => Some(s),
            None => self.error("BUG in lexer: no states to pop".into()),
        }
    }

    /// An error where the lexer is (on the line before at the end of the input, as
    /// BurntSushi's `errorf` places it).
    fn error(&mut self, message: String) -> Option<State> {
        match self.at_eof {
            true => self.error_prev_line(message),
            false => {
                self.push_item(Kind::Error, message.into_bytes(), self.line);
                None
            }
        }
    }

    fn error_prev_line(&mut self, message: String) -> Option<State> {
        self.push_item(Kind::Error, message.into_bytes(), self.line - 1);
        None
    }

    fn step(&mut self, state: State) -> Option<State> {
        use State as S;
        match state {
            S::Top => {
                let r = self.next();
                if is_whitespace(r) || is_nl(r) {
                    self.ignore();
                    return Some(S::Top);
                }
                match r {
                    '#' => {
                        self.stack.push(S::Top);
                        return Some(S::CommentStart);
                    }
                    '[' => return Some(S::TableStart),
                    EOF if self.at_eof => {
                        if self.pos > self.start {
                            return self.error("unexpected EOF".into());
                        }
                        self.emit(Kind::Eof);
                        return None;
                    }
                    _ => {}
                }
                self.backup();
                self.stack.push(S::TopEnd);
                Some(S::KeyStart)
            }
            S::TopEnd => {
                let r = self.next();
                match r {
                    '#' => {
                        self.stack.push(S::Top);
                        Some(S::CommentStart)
                    }
                    r if is_whitespace(r) => Some(S::TopEnd),
                    r if is_nl(r) => {
                        self.ignore();
                        Some(S::Top)
                    }
                    EOF if self.at_eof => {
                        self.emit(Kind::Eof);
                        None
                    }
                    r => self.error(format!("expected a top-level item to end with a newline, comment, or EOF, but got {} instead", quote_char(r))),
                }
            }
            S::TableStart => {
                if self.peek() == '[' {
                    self.next();
                    self.emit(Kind::ArrayTableStart);
                    self.stack.push(S::ArrayTableEnd);
                } else {
                    self.emit(Kind::TableStart);
                    self.stack.push(S::TableEnd);
                }
                Some(S::TableNameStart)
            }
            S::TableEnd => {
                self.emit(Kind::TableEnd);
                Some(S::TopEnd)
            }
            S::ArrayTableEnd => {
                let r = self.next();
                if r != ']' {
                    return self.error(format!(
                        "expected end of table array name delimiter ']', but got {} instead",
                        quote_char(r)
                    ));
                }
                self.emit(Kind::ArrayTableEnd);
                Some(S::TopEnd)
            }
            S::TableNameStart => {
                self.skip(is_whitespace);
                match self.peek() {
                    ']' | EOF => self
                        .error("unexpected end of table name (table names cannot be empty)".into()),
                    '.' => self
                        .error("unexpected table separator (table names cannot be empty)".into()),
                    '"' | '\'' => {
                        self.ignore();
                        self.stack.push(S::TableNameEnd);
                        Some(S::QuotedName)
                    }
                    _ => {
                        self.stack.push(S::TableNameEnd);
                        Some(S::BareName)
                    }
                }
            }
            S::TableNameEnd => {
                self.skip(is_whitespace);
                match self.next() {
                    r if is_whitespace(r) => Some(S::TableNameEnd),
                    '.' => {
                        self.ignore();
                        Some(S::TableNameStart)
                    }
                    ']' => self.pop(),
                    r => self.error(format!(
                        "expected '.' or ']' to end table name, but got {} instead",
                        quote_char(r)
                    )),
                }
            }
            S::BareName => {
                let r = self.next();
                if is_bare_key_char(r) {
                    return Some(S::BareName);
                }
                self.backup();
                self.emit(Kind::Text);
                self.pop()
            }
            S::QuotedName => match self.next() {
                r if is_whitespace(r) => {
                    self.ignore();
                    Some(S::Value)
                }
                '"' => {
                    self.ignore();
                    Some(S::Str)
                }
                '\'' => {
                    self.ignore();
                    Some(S::RawStr)
                }
                EOF if self.at_eof => self.error("unexpected EOF; expected value".into()),
                r => self.error(format!(
                    "expected value but found {} instead",
                    quote_char(r)
                )),
            },
            S::KeyStart => {
                self.skip(is_whitespace);
                match self.peek() {
                    '=' | EOF => self.error("unexpected '=': key name appears blank".into()),
                    '.' => self.error("unexpected '.': keys cannot start with a '.'".into()),
                    r => {
                        if r == '"' || r == '\'' {
                            self.ignore();
                        }
                        self.emit(Kind::KeyStart);
                        Some(S::KeyNameStart)
                    }
                }
            }
            S::KeyNameStart => {
                self.skip(is_whitespace);
                match self.peek() {
                    '=' | EOF => self.error("unexpected '='".into()),
                    '.' => self.error("unexpected '.'".into()),
                    '"' | '\'' => {
                        self.ignore();
                        self.stack.push(S::KeyEnd);
                        Some(S::QuotedName)
                    }
                    _ => {
                        self.stack.push(S::KeyEnd);
                        Some(S::BareName)
                    }
                }
            }
            S::KeyEnd => {
                self.skip(is_whitespace);
                match self.next() {
                    r if is_whitespace(r) => {
                        self.ignore();
                        Some(S::KeyEnd)
                    }
                    EOF if self.at_eof => {
                        self.error("unexpected EOF; expected key separator '='".into())
                    }
                    '.' => {
                        self.ignore();
                        Some(S::KeyNameStart)
                    }
                    '=' => {
                        self.emit(Kind::KeyEnd);
                        self.ignore();
                        Some(S::Value)
                    }
                    r => self.error(format!(
                        "expected '.' or '=', but got {} instead",
                        quote_char(r)
                    )),
                }
            }
            S::Value => self.value(),
            S::ArrayValue => match self.next() {
                r if is_whitespace(r) || is_nl(r) => {
                    self.ignore();
                    Some(S::ArrayValue)
                }
                '#' => {
                    self.stack.push(S::ArrayValue);
                    Some(S::CommentStart)
                }
                ',' => self.error("unexpected comma".into()),
                ']' => Some(S::ArrayEnd),
                _ => {
                    self.backup();
                    self.stack.push(S::ArrayValueEnd);
                    Some(S::Value)
                }
            },
            S::ArrayValueEnd => match self.next() {
                r if is_whitespace(r) || is_nl(r) => {
                    self.ignore();
                    Some(S::ArrayValueEnd)
                }
                '#' => {
                    self.stack.push(S::ArrayValueEnd);
                    Some(S::CommentStart)
                }
                ',' => {
                    self.ignore();
                    Some(S::ArrayValue)
                }
                ']' => Some(S::ArrayEnd),
                r => {
                    let got = self.rune_or_eof(r);
                    self.error(format!(
                        "expected a comma (',') or array terminator (']'), but got {got}"
                    ))
                }
            },
            S::ArrayEnd => {
                self.ignore();
                self.emit(Kind::ArrayEnd);
                self.pop()
            }
            S::InlineTableValue => match self.next() {
                r if is_whitespace(r) => {
                    self.ignore();
                    Some(S::InlineTableValue)
                }
                r if is_nl(r) => {
                    self.error_prev_line("newlines not allowed within inline tables".into())
                }
                '#' => {
                    self.stack.push(S::InlineTableValue);
                    Some(S::CommentStart)
                }
                ',' => self.error("unexpected comma".into()),
                '}' => Some(S::InlineTableEnd),
                _ => {
                    self.backup();
                    self.stack.push(S::InlineTableValueEnd);
                    Some(S::KeyStart)
                }
            },
            S::InlineTableValueEnd => match self.next() {
                r if is_whitespace(r) => {
                    self.ignore();
                    Some(S::InlineTableValueEnd)
                }
                r if is_nl(r) => {
                    self.error_prev_line("newlines not allowed within inline tables".into())
                }
                '#' => {
                    self.stack.push(S::InlineTableValueEnd);
                    Some(S::CommentStart)
                }
                ',' => {
                    self.ignore();
                    self.skip(is_whitespace);
                    if self.peek() == '}' {
                        return self.error("trailing comma not allowed in inline tables".into());
                    }
                    Some(S::InlineTableValue)
                }
                '}' => Some(S::InlineTableEnd),
                r => {
                    let got = self.rune_or_eof(r);
                    self.error(format!(
                        "expected a comma or an inline table terminator '}}', but got {got} instead"
                    ))
                }
            },
            S::InlineTableEnd => {
                self.ignore();
                self.emit(Kind::InlineTableEnd);
                self.pop()
            }
            S::Str => match self.next() {
                EOF if self.at_eof => self.error("unexpected EOF; expected '\"'".into()),
                r if is_nl(r) => self.error_prev_line("strings cannot contain newlines".into()),
                '\\' => {
                    self.stack.push(S::Str);
                    Some(S::StrEscape)
                }
                '"' => {
                    self.backup();
                    self.emit(Kind::Str);
                    self.next();
                    self.ignore();
                    self.pop()
                }
                _ => Some(S::Str),
            },
            S::MultilineStr => self.multiline_string('"', Kind::MultilineStr),
            S::RawStr => match self.next() {
                EOF if self.at_eof => self.error("unexpected EOF; expected \"'\"".into()),
                r if is_nl(r) => self.error_prev_line("strings cannot contain newlines".into()),
                '\'' => {
                    self.backup();
                    self.emit(Kind::RawStr);
                    self.next();
                    self.ignore();
                    self.pop()
                }
                _ => Some(S::RawStr),
            },
            S::MultilineRawStr => self.multiline_string('\'', Kind::RawMultilineStr),
            S::MultilineStrEscape => {
                if is_nl(self.next()) {
                    return Some(S::MultilineStr);
                }
                self.backup();
                self.stack.push(S::MultilineStr);
                self.step(S::StrEscape)
            }
            S::StrEscape => match self.next() {
                'b' | 't' | 'n' | 'f' | 'r' | '"' | ' ' | '\t' | '\\' => self.pop(),
                'u' => Some(S::ShortUnicodeEscape),
                'U' => Some(S::LongUnicodeEscape),
                r => self.error(format!("invalid escape in string '\\{r}'")),
            },
            S::ShortUnicodeEscape | S::LongUnicodeEscape => {
                let (count, name, u) = match state {
                    S::ShortUnicodeEscape => (4, "four", 'u'),
                    _ => (8, "eight", 'U'),
                };
                for _ in 0..count {
                    if !is_hex(self.next()) {
                        let got = quote_text(self.current());
                        return self.error(format!(
                            "expected {name} hexadecimal digits after '\\{u}', but got {got} instead"
                        ));
                    }
                }
                self.pop()
            }
            S::NumberOrDateStart => match self.next() {
                '0' => Some(S::BaseNumberOrDate),
                r if !is_digit(r) => {
                    self.error(format!("expected a digit but got {}", quote_char(r)))
                }
                _ => Some(S::NumberOrDate),
            },
            S::NumberOrDate => match self.next() {
                r if is_digit(r) => Some(S::NumberOrDate),
                '-' | ':' => Some(S::Datetime),
                '_' => Some(S::DecimalNumber),
                '.' | 'e' | 'E' => Some(S::Float),
                _ => self.end_number(Kind::Integer),
            },
            S::Datetime => match self.next() {
                r if is_digit(r) => Some(S::Datetime),
                '-' | ':' | 'T' | 't' | ' ' | '.' | 'Z' | 'z' | '+' => Some(S::Datetime),
                _ => {
                    self.backup();
                    self.emit_trim(Kind::Datetime);
                    self.pop()
                }
            },
            S::HexInteger | S::OctalInteger | S::BinaryInteger => {
                let r = self.next();
                let digit = match state {
                    S::HexInteger => is_hex(r),
                    S::OctalInteger => is_octal(r),
                    _ => is_binary(r),
                };
                match digit || r == '_' {
                    true => Some(state),
                    false => self.end_number(Kind::Integer),
                }
            }
            S::DecimalNumber => match self.next() {
                r if is_digit(r) => Some(S::DecimalNumber),
                '.' | 'e' | 'E' => Some(S::Float),
                '_' => Some(S::DecimalNumber),
                _ => self.end_number(Kind::Integer),
            },
            S::DecimalNumberStart => self.decimal_number_start(),
            S::BaseNumberOrDate => self.base_number_or_date(),
            S::Float => match self.next() {
                r if is_digit(r) => Some(S::Float),
                '_' | '.' | '-' | '+' | 'e' | 'E' => Some(S::Float),
                _ => self.end_number(Kind::Float),
            },
            S::Bool => {
                let mut word = String::new();
                loop {
                    let r = self.next();
                    if self.failed || !letter(r) {
                        self.backup();
                        break;
                    }
                    word.push(r);
                }
                match word.as_str() {
                    "true" | "false" => {
                        self.emit(Kind::Bool);
                        self.pop()
                    }
                    _ => self.error(format!(
                        "expected value but found {} instead",
                        quote_text(word.as_bytes())
                    )),
                }
            }
            S::CommentStart => {
                self.ignore();
                self.emit(Kind::CommentStart);
                Some(S::Comment)
            }
            S::Comment => {
                let r = self.next();
                if is_nl(r) || (r == EOF && self.at_eof) {
                    self.backup();
                    self.emit(Kind::Text);
                    return self.pop();
                }
                Some(S::Comment)
            }
        }
    }
}
