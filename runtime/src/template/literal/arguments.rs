//! The arguments of an annotation read as Starlark literals without an interpreter: strings,
//! numbers, True/False/None, lists, dicts, tuples, and the `@ytt:overlay` matcher
//! constructors (anything else is left to Starlark).

use std::cell::Cell;

use super::{RuleCode, UNDEFINED};
use crate::template::tree::{Arg, ArgKind};
use crate::value::{MapEntry, Node, Pos, Value};

/// A parser for Starlark literals: strings, numbers, True/False/None, lists, dicts, tuples,
/// and the `@ytt:overlay` matcher constructors.
pub(super) struct Parser<'a> {
    pub(super) s: &'a [u8],
    pub(super) i: usize,
    pub(super) pos: &'a Pos,
    /// Whether a load before the annotation binds `overlay`.
    pub(super) overlay: bool,
    /// How deep in brackets the parser is: past [`MAX_DEPTH`] the text is left to Starlark.
    pub(super) depth: usize,
    /// The `def`s an argument may name, and whether it may be a lambda.
    pub(super) rules: Option<&'a RuleCode>,
    /// How many functions the template's annotations passed so far.
    pub(super) functions: &'a Cell<usize>,
}

/// The deepest nesting of brackets the literal parser reads (it recurses).
const MAX_DEPTH: usize = 200;

type Args = (Vec<Arg>, Vec<(String, Arg)>);

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> Option<String> {
        self.ws();
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || matches!(self.s[self.i], b'_' | b'.'))
        {
            self.i += 1;
        }
        (self.i > start).then(|| String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    /// The arguments, within starlark-go's 255 positional and 255 keyword arguments of a
    /// call (more is its compiler's error, which the interpreter then reports).
    pub(super) fn arguments(self) -> Result<Args, String> {
        let (args, kwargs) = self.all_arguments()?;
        for (count, kind) in [(args.len(), "positional"), (kwargs.len(), "keyword")] {
            if count >= 256 {
                return Err(format!("{count} {kind} arguments in call, limit is 255"));
            }
        }
        Ok((args, kwargs))
    }

    fn all_arguments(mut self) -> Result<Args, String> {
        let (mut args, mut kwargs) = (Vec::new(), Vec::new());
        loop {
            self.ws();
            if self.i >= self.s.len() {
                return Ok((args, kwargs));
            }
            let save = self.i;
            if let Some(name) = self.ident() {
                if self.eat(b'=') && self.s.get(self.i) != Some(&b'=') {
                    if kwargs.iter().any(|(k, _)| *k == name) {
                        return Err(format!("keyword argument {name} repeated"));
                    }
                    kwargs.push((name, self.arg()?));
                    if !self.eat(b',') {
                        self.end()?;
                        return Ok((args, kwargs));
                    }
                    continue;
                }
            }
            self.i = save;
            if !kwargs.is_empty() {
                return Err(super::POSITIONAL_AFTER_NAMED.into());
            }
            args.push(self.arg()?);
            if !self.eat(b',') {
                self.end()?;
                return Ok((args, kwargs));
            }
        }
    }

    fn end(&mut self) -> Result<(), String> {
        self.ws();
        if self.i < self.s.len() {
            return Err(format!(
                "unexpected `{}`",
                String::from_utf8_lossy(&self.s[self.i..])
            ));
        }
        Ok(())
    }

    fn deeper(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("brackets nested too deep for a literal".into());
        }
        Ok(())
    }

    fn arg(&mut self) -> Result<Arg, String> {
        self.ws();
        if self.s.get(self.i) == Some(&b'(') {
            self.i += 1;
            self.deeper()?;
            let mut items = Vec::new();
            // `(x)` is `x`; a tuple of one item is `(x,)`.
            let mut comma = false;
            while !self.eat(b')') {
                items.push(self.arg()?);
                if self.eat(b',') {
                    comma = true;
                } else if self.eat(b')') {
                    break;
                } else {
                    return Err("expected `,` or `)`".into());
                }
            }
            self.depth -= 1;
            if items.len() == 1 && !comma {
                return Ok(items.remove(0));
            }
            return Ok(Arg {
                type_name: "tuple".into(),
                kind: ArgKind::Tuple(items),
                go_text: None,
            });
        }
        if let Some(f) = self.function()? {
            return Ok(f);
        }
        if let Some(m) = self.matcher()? {
            return Ok(m);
        }
        let value = self.value()?;
        let type_name = crate::rules::starlark_type(&value).to_string();
        Ok(Arg {
            type_name,
            kind: ArgKind::Data(Node::new(value, *self.pos)),
            go_text: None,
        })
    }

    /// A matcher of `@ytt:overlay` (`overlay.all`, `overlay.subset(...)`, `map_key`, `index`),
    /// as the interpreter gives it to an annotation: [`ArgKind::Matcher`] with its argument as
    /// data. `None` (nothing read) for any other argument.
    fn matcher(&mut self) -> Result<Option<Arg>, String> {
        let start = self.i;
        let name = self.ident();
        let Some(op) = name.as_deref().and_then(|n| n.strip_prefix("overlay.")) else {
            self.i = start;
            return Ok(None);
        };
        if !self.overlay || !matches!(op, "all" | "map_key" | "index" | "subset") {
            self.i = start;
            return Ok(None);
        }
        let arg = if op == "all" {
            Node::new(Value::Null, *self.pos)
        } else {
            if !self.eat(b'(') {
                return Err(format!("expected `(` after overlay.{op}"));
            }
            let arg = self.node()?;
            if !self.eat(b')') {
                return Err("expected `)`".into());
            }
            // ytt refuses an index that is no integer and a key that is no string when the
            // matcher is made: the interpreter words it.
            let refused = match op {
                "index" => !matches!(arg.value, Value::Int(_)),
                "map_key" => !matches!(arg.value, Value::Str(_)),
                _ => false,
            };
            if refused {
                return Err(format!(
                    "`overlay.{op}` of a {} needs the Starlark interpreter, which this validator was built without",
                    crate::rules::starlark_type(&arg.value)
                ));
            }
            arg
        };
        Ok(Some(Arg {
            type_name: "builtin_function_or_method".into(),
            kind: ArgKind::Matcher {
                op: op.to_string(),
                arg: Box::new(Arg {
                    type_name: crate::rules::starlark_type(&arg.value).to_string(),
                    kind: ArgKind::Data(arg),
                    go_text: None,
                }),
            },
            go_text: None,
        }))
    }

    /// A function argument of [`RuleCode`]: a lambda, or the name of a `def` ended before the
    /// annotation. `None` (nothing read) for any other argument.
    fn function(&mut self) -> Result<Option<Arg>, String> {
        let Some(rules) = self.rules else {
            return Ok(None);
        };
        let start = self.i;
        let name = self.ident();
        let next = self.s.get(self.i).copied();
        let function = match name.as_deref() {
            Some("lambda") if next.is_some_and(|c| c == b':' || c.is_ascii_whitespace()) => {
                self.lambda_body()?;
                true
            }
            Some(name) => {
                self.ws();
                let ends = matches!(self.s.get(self.i), None | Some(b',' | b')'));
                let line = self.pos.line;
                ends && rules.defs.get(name).is_some_and(|&end| end < line)
            }
            None => false,
        };
        if !function {
            self.i = start;
            return Ok(None);
        }
        let nth = self.functions.get();
        self.functions.set(nth + 1);
        let shown = match name.as_deref() {
            Some("lambda") | None => "<function lambda>".into(),
            Some(name) => format!("<function {name}>").into(),
        };
        Ok(Some(Arg {
            type_name: "function".into(),
            kind: ArgKind::Opaque {
                index: nth,
                shown: Some(shown),
            },
            go_text: None,
        }))
    }

    /// Skips a lambda's parameters and body: its names up to the `:`, then up to a `,` or
    /// closing bracket outside brackets and strings (the compiler checked the lambda itself; a
    /// text this scan misreads fails to parse as literals after it, and is left to the
    /// interpreter).
    fn lambda_body(&mut self) -> Result<(), String> {
        // The parameters, up to the `:` (rule code's lambdas take plain names: `lambda _, ctx:`;
        // anything else is left to the interpreter).
        loop {
            match self.s.get(self.i) {
                Some(b':') => break,
                Some(&c)
                    if c.is_ascii_alphanumeric()
                        || c == b'_'
                        || c == b','
                        || c.is_ascii_whitespace() =>
                {
                    self.i += 1
                }
                _ => return Err("a lambda's parameters".into()),
            }
        }
        let mut depth = 0usize;
        while let Some(&c) = self.s.get(self.i) {
            match c {
                b'"' | b'\'' => {
                    if self.s[self.i..].starts_with(&[c, c, c]) {
                        return Err("a triple-quoted string in a lambda".into());
                    }
                    self.string(c)?;
                    continue;
                }
                b'#' => return Err("a comment in a lambda".into()),
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' if depth == 0 => break,
                b')' | b']' | b'}' => depth -= 1,
                b',' if depth == 0 => break,
                _ => {}
            }
            self.i += 1;
        }
        Ok(())
    }

    fn node(&mut self) -> Result<Node, String> {
        Ok(Node::new(self.value()?, *self.pos))
    }

    fn value(&mut self) -> Result<Value, String> {
        self.ws();
        match self.s.get(self.i).copied() {
            Some(q @ (b'"' | b'\'')) => self.string(q).map(|s| Value::Str(s.into())),
            Some(b'[') => {
                self.i += 1;
                self.deeper()?;
                let mut items = crate::value::Items::new();
                while !self.eat(b']') {
                    items.push(self.node()?);
                    if !self.eat(b',') && !self.eat(b']') {
                        return Err("expected `,` or `]`".into());
                    } else if self.s.get(self.i - 1) == Some(&b']') {
                        break;
                    }
                }
                self.depth -= 1;
                Ok(Value::Array(items))
            }
            Some(b'{') => {
                self.i += 1;
                self.deeper()?;
                let mut entries = crate::value::Entries::new();
                while !self.eat(b'}') {
                    let key = self.value()?;
                    // Starlark hashes keys: 1 and 1.0 are one key, a list is none.
                    let plain = matches!(
                        key,
                        Value::Str(_) | Value::Int(_) | Value::Bool(_) | Value::Null
                    );
                    if !plain || entries.iter().any(|e| e.key == key) {
                        return Err("a dict key that needs the Starlark interpreter".into());
                    }
                    if !self.eat(b':') {
                        return Err("expected `:` in a dict".into());
                    }
                    entries.push(MapEntry {
                        key: key.into(),
                        value: self.node()?,
                    });
                    if !self.eat(b',') && !self.eat(b'}') {
                        return Err("expected `,` or `}`".into());
                    } else if self.s.get(self.i - 1) == Some(&b'}') {
                        break;
                    }
                }
                self.depth -= 1;
                Ok(Value::Map(entries))
            }
            Some(c) if c.is_ascii_digit() || c == b'-' || c == b'+' => self.number(),
            _ => {
                let name = self.ident().ok_or("expected a literal")?;
                match name.as_str() {
                    "True" => Ok(Value::Bool(true)),
                    "False" => Ok(Value::Bool(false)),
                    "None" => Ok(Value::Null),
                    "overlay.all" | "overlay.map_key" | "overlay.index" | "overlay.subset"
                        if !self.overlay =>
                    {
                        Err(format!("{UNDEFINED}overlay"))
                    }
                    // A matcher is a function, no data (`by=[overlay.all]`).
                    "overlay.all" | "overlay.map_key" | "overlay.index" | "overlay.subset" => {
                        Err(format!(
                            "`{name}` inside data needs the Starlark interpreter, which this validator was built without"
                        ))
                    }
                    other => Err(format!(
                        "`{other}` needs the Starlark interpreter, which this validator was built without"
                    )),
                }
            }
        }
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.i;
        self.i += 1;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || matches!(self.s[self.i], b'.' | b'_'))
        {
            self.i += 1;
        }
        let text = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
        // starlark-go reads `010`, `1e400` and integers past 64 bits its own way (or refuses
        // them): those are left to the interpreter.
        let digits = text.trim_start_matches(['+', '-']);
        let decimal = digits
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
        let leading_zero =
            digits.len() > 1 && digits.starts_with('0') && digits.as_bytes()[1].is_ascii_digit();
        if !decimal || leading_zero {
            return Err(format!("number `{text}` needs the Starlark interpreter"));
        }
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Value::Int(i));
        }
        if let Ok(u) = text.parse::<u64>() {
            return Ok(Value::UInt(u));
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() && digits.contains(['.', 'e', 'E']) => Ok(Value::Float(f)),
            _ => Err(format!("number `{text}` needs the Starlark interpreter")),
        }
    }

    fn string(&mut self, q: u8) -> Result<String, String> {
        self.i += 1;
        let mut out = Vec::new();
        while let Some(&c) = self.s.get(self.i) {
            self.i += 1;
            match c {
                b'\\' => {
                    let e = *self.s.get(self.i).ok_or("unterminated string")?;
                    self.i += 1;
                    out.push(match e {
                        b'n' => b'\n',
                        b't' => b'\t',
                        b'r' => b'\r',
                        b'\\' | b'"' | b'\'' => e,
                        other => {
                            return Err(format!(
                                "escape `\\{}` needs the Starlark interpreter",
                                other as char
                            ))
                        }
                    });
                }
                c if c == q => return String::from_utf8(out).map_err(|e| e.to_string()),
                c => out.push(c),
            }
        }
        Err("unterminated string".into())
    }
}
