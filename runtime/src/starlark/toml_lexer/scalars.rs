//! The lexer's states for values: numbers, `inf` and `nan`, booleans and strings' quotes.

use super::{
    is_binary, is_digit, is_hex, is_octal, is_whitespace, letter, quote_char, Kind, Lexer, State,
    EOF,
};

impl Lexer<'_> {
    /// `r` as BurntSushi's `runeOrEOF` words it.
    pub(super) fn rune_or_eof(&self, r: char) -> String {
        match r == EOF && self.at_eof {
            true => "end of file".into(),
            false => format!("'{r}'"),
        }
    }

    pub(super) fn end_number(&mut self, kind: Kind) -> Option<State> {
        self.backup();
        self.emit(kind);
        self.pop()
    }

    pub(super) fn value(&mut self) -> Option<State> {
        use State as S;
        let r = self.next();
        if is_whitespace(r) {
            self.ignore();
            return Some(S::Value);
        }
        if is_digit(r) {
            self.backup();
            return Some(S::NumberOrDateStart);
        }
        match r {
            '[' => {
                self.ignore();
                self.emit(Kind::Array);
                return Some(S::ArrayValue);
            }
            '{' => {
                self.ignore();
                self.emit(Kind::InlineTableStart);
                return Some(S::InlineTableValue);
            }
            '"' | '\'' => {
                let (single, multi) = match r {
                    '"' => (S::Str, S::MultilineStr),
                    _ => (S::RawStr, S::MultilineRawStr),
                };
                if self.accept(r) {
                    if self.accept(r) {
                        self.ignore();
                        return Some(multi);
                    }
                    self.backup();
                }
                self.ignore();
                return Some(single);
            }
            '.' => return self.error("floats must start with a digit, not '.'".into()),
            'i' | 'n'
                if (self.accept('n') && self.accept('f'))
                    || (self.accept('a') && self.accept('n')) =>
            {
                self.emit(Kind::Float);
                return self.pop();
            }
            '-' | '+' => return Some(S::DecimalNumberStart),
            _ => {}
        }
        if letter(r) && !self.failed {
            self.backup();
            return Some(S::Bool);
        }
        if r == EOF && self.at_eof {
            return self.error("unexpected EOF; expected value".into());
        }
        self.error(format!(
            "expected value but found {} instead",
            quote_char(r)
        ))
    }

    pub(super) fn decimal_number_start(&mut self) -> Option<State> {
        let r = self.next();
        match r {
            'i' | 'n' => {
                let rest = if r == 'i' { ['n', 'f'] } else { ['a', 'n'] };
                if !self.accept(rest[0]) || !self.accept(rest[1]) {
                    let text = String::from_utf8_lossy(self.current()).into_owned();
                    return self.error(format!("invalid float: '{text}'"));
                }
                self.emit(Kind::Float);
                return self.pop();
            }
            '0' => {
                let p = self.peek();
                if matches!(p, 'b' | 'o' | 'x') {
                    let text = String::from_utf8_lossy(self.current()).into_owned();
                    return self.error(format!(
                        "cannot use sign with non-decimal numbers: '{text}{p}'"
                    ));
                }
            }
            '.' => return self.error("floats must start with a digit, not '.'".into()),
            _ => {}
        }
        if is_digit(r) {
            return Some(State::DecimalNumber);
        }
        self.error(format!("expected a digit but got {}", quote_char(r)))
    }

    pub(super) fn base_number_or_date(&mut self) -> Option<State> {
        let r = self.next();
        if is_digit(r) {
            return Some(State::NumberOrDate);
        }
        let (digits, next, name): (fn(char) -> bool, State, &str) = match r {
            '_' => return Some(State::DecimalNumber),
            '.' | 'e' | 'E' => return Some(State::Float),
            'b' => (is_binary, State::BinaryInteger, "a binary"),
            'o' => (is_octal, State::OctalInteger, "an octal"),
            'x' => (is_hex, State::HexInteger, "a hexidecimal"),
            _ => return self.end_number(Kind::Integer),
        };
        let p = self.peek();
        if !digits(p) {
            // (BurntSushi reports this and lexes on: the error is what the parser reads.)
            let text = String::from_utf8_lossy(self.current()).into_owned();
            self.error(format!("not {name} number: '{text}{p}'"));
        }
        Some(next)
    }

    /// A `"""` or `'''` string's next character.
    pub(super) fn multiline_string(&mut self, quote: char, kind: Kind) -> Option<State> {
        let this = match quote {
            '"' => State::MultilineStr,
            _ => State::MultilineRawStr,
        };
        let r = self.next();
        if r == EOF && self.at_eof {
            let q = if quote == '"' { "'\"\"\"'" } else { "\"'''\"" };
            return self.error(format!("unexpected EOF; expected {q}"));
        }
        if r == '\\' && quote == '"' {
            return Some(State::MultilineStrEscape);
        }
        if r != quote {
            return Some(this);
        }
        if self.accept(quote) {
            if self.accept(quote) {
                if self.peek() == quote {
                    let current = self.current();
                    let five = [quote as u8; 5];
                    let escaped = quote == '"' && current.ends_with(b"\\\"\"\"\"\"");
                    if current.ends_with(&five) && !escaped {
                        let six = String::from(quote).repeat(6);
                        let q = if quote == '"' { '\'' } else { '"' };
                        return self.error(format!("unexpected {q}{six}{q}"));
                    }
                    self.backup();
                    self.backup();
                    return Some(this);
                }
                self.backup();
                self.backup();
                self.backup();
                self.emit(kind);
                self.next();
                self.next();
                self.next();
                self.ignore();
                return self.pop();
            }
            self.backup();
        }
        Some(this)
    }
}
