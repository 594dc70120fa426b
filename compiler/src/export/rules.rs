//! What a node's validation rules become in the exports, decided once for every format.
//!
//! Soundness first: a keyword is written only where JSON Schema (or OpenAPI 3.0) says exactly
//! what the rule checks, or says less — never more — so the export never rejects final data
//! values that schemac accepts. Every other rule is kept as a [`Note`] (`x-schemac-rules` in the
//! JSON exports, words in the references) with where it is written and why no keyword says it:
//! custom Starlark rules, rules under `when=`, `min=` on strings, string lengths (schemac counts
//! UTF-8 bytes as ytt does, JSON Schema counts characters), regular expressions outside the
//! syntax RE2 and ECMA-262 read alike.
//!
//! Named rules are skipped for null values (unless `not_null=True`), so keywords that would
//! reject null (`enum`, `oneOf`) admit it where the node admits null.

use schemac_runtime::rules::{repr, RuleName};
use schemac_runtime::schema::{Kind, Scalar, Type};
use schemac_runtime::value::{Node, Value};

use super::{entry, int, list, map, string};

/// Integers beyond this are not exact as the floats schemac's numeric rules compute with.
const EXACT_INT: i64 = 1 << 53;

/// Formats whose definition in schemac is the one JSON Schema names (see README, formats).
const SAME_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uri",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// JSON Schema draft 2020-12.
    JsonSchema,
    /// OpenAPI 3.0's schema objects (no `const`, `contains` or `"null"` type).
    OpenApi30,
}

/// One rule as written, in words, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// As written: `min_len=1`, or a custom rule's description.
    pub written: String,
    /// What a valid value is, in words (`length >= 1`).
    pub words: String,
    /// `schema.yml:4`: the annotation.
    pub at: String,
    /// Applies only when its `when=` condition holds.
    pub conditional: bool,
}

/// What a custom rule is written as: its description is its words.
const CUSTOM_RULE: &str = "custom rule";

impl Rule {
    /// A custom rule: its words are the author's description.
    pub fn is_custom(&self) -> bool {
        self.written == CUSTOM_RULE
    }
}

/// A rule no keyword states exactly, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    pub rule: Rule,
    pub why: &'static str,
}

/// What the rules of one node export to.
#[derive(Default)]
pub struct Exported {
    /// Keywords, in the order written.
    pub keywords: Vec<(String, Node)>,
    /// `not_null=True`, stated (the node's type then leaves out null).
    pub not_null: bool,
    pub notes: Vec<Note>,
}

/// The rules of `ty`, in words, in the order they run.
pub fn rules(ty: &Type) -> Vec<Rule> {
    let Some(v) = &ty.validation else {
        return Vec::new();
    };
    let at = v.pos.to_string();
    let conditional = v.when.is_some();
    let rule = |written: String, words: String| Rule {
        written,
        words,
        at: at.clone(),
        conditional,
    };
    let mut out: Vec<Rule> = v
        .custom
        .iter()
        .map(|c| rule(CUSTOM_RULE.to_string(), c.description.clone()))
        .collect();
    for (name, arg) in &v.named {
        out.push(rule(
            format!("{}={}", name.as_str(), repr(arg)),
            words(*name, arg),
        ));
    }
    out
}

/// What a value passing the named rule is, in ytt's words (`must be: ...`).
pub fn words(name: RuleName, arg: &Value) -> String {
    let a = repr(arg);
    match name {
        RuleName::NotNull => "not null".into(),
        RuleName::MinLen => format!("length >= {a}"),
        RuleName::MaxLen => format!("length <= {a}"),
        RuleName::Min => format!("a value >= {a}"),
        RuleName::Max => format!("a value <= {a}"),
        RuleName::OneNotNull => match arg {
            Value::Array(_) => format!("exactly one of {a} to be not null"),
            _ => "exactly one of all children to be not null".into(),
        },
        RuleName::OneOf => format!("one of {a}"),
        RuleName::Len => format!("length = {a}"),
        RuleName::Format => match arg {
            Value::Str(f) => format!("a valid {f}"),
            _ => format!("a valid {a}"),
        },
        RuleName::Matches => format!("a value matching {a}"),
        RuleName::StartsWith => format!("a value starting with {a}"),
        RuleName::EndsWith => format!("a value ending with {a}"),
        RuleName::Contains => format!("a value containing {a}"),
        RuleName::Even => "an even number".into(),
        RuleName::Odd => "an odd number".into(),
        RuleName::MultipleOf => format!("a multiple of {a}"),
        RuleName::Unique => "unique items".into(),
    }
}

/// What the rules of `ty` export to in `dialect`.
pub fn export(ty: &Type, dialect: Dialect) -> Exported {
    let mut out = Exported::default();
    let Some(v) = &ty.validation else {
        return out;
    };
    let written = rules(ty);
    let (custom, named) = written.split_at(v.custom.len());
    for rule in custom {
        out.notes.push(Note {
            rule: rule.clone(),
            why: if rule.conditional {
                "applies only when its when= condition holds"
            } else {
                "a custom rule: no keyword says what it checks"
            },
        });
    }
    let not_null = v.named.iter().any(|(r, _)| *r == RuleName::NotNull);
    let null_passes = !not_null && (ty.nullable || matches!(ty.kind, Kind::Any));
    for ((name, arg), rule) in v.named.iter().zip(named) {
        if rule.conditional {
            out.notes.push(Note {
                rule: rule.clone(),
                why: "applies only when its when= condition holds",
            });
            continue;
        }
        let mut ctx = Ctx {
            kind: &ty.kind,
            dialect,
            null_passes,
            out: &mut out,
        };
        if let Err(why) = ctx.named(*name, arg) {
            out.notes.push(Note {
                rule: rule.clone(),
                why,
            });
        }
    }
    out
}

struct Ctx<'a> {
    kind: &'a Kind,
    dialect: Dialect,
    /// The rules are skipped for null and the node admits null.
    null_passes: bool,
    out: &'a mut Exported,
}

/// Which kinds of value a node may hold, for keywords that apply to one kind only.
fn holds(kind: &Kind, what: &str) -> bool {
    match kind {
        Kind::Any => true,
        Kind::Map(_) => what == "map",
        Kind::Array(_) => what == "array",
        Kind::Scalar(Scalar::String) => what == "string",
        Kind::Scalar(Scalar::Int | Scalar::Float) => what == "number",
        Kind::Scalar(Scalar::Bool) => false,
    }
}

/// A non-negative whole number of items or characters, from a length rule's argument.
fn count(arg: &Value, round_up: bool) -> Option<i64> {
    let n = match arg {
        Value::Int(i) => *i as f64,
        Value::Float(f) if f.is_finite() => *f,
        _ => return None,
    };
    let n = if round_up { n.ceil() } else { n.floor() };
    (0.0..=EXACT_INT as f64).contains(&n).then_some(n as i64)
}

/// A number that compares with every data value exactly as schemac compares them.
fn exact_number(arg: &Value) -> Option<Node> {
    match arg {
        Value::Int(i) if i.unsigned_abs() <= EXACT_INT as u64 => Some(int(*i)),
        Value::Float(f) if f.is_finite() && f.abs() <= EXACT_INT as f64 => {
            Some(Node::new(Value::Float(*f), Default::default()))
        }
        _ => None,
    }
}

impl Ctx<'_> {
    /// Adds a keyword; one a node already has (two patterns, two `anyOf`s) goes into `allOf`.
    fn put(&mut self, key: &str, value: Node) {
        let keywords = &mut self.out.keywords;
        let Some(i) = keywords.iter().position(|(k, _)| k == key) else {
            keywords.push((key.to_string(), value));
            return;
        };
        let (_, first) = keywords.remove(i);
        let mut all = vec![map(vec![entry(key, first)])];
        if let Some(j) = keywords.iter().position(|(k, _)| k == "allOf") {
            if let (
                _,
                Node {
                    value: Value::Array(items),
                    ..
                },
            ) = keywords.remove(j)
            {
                all = items.into_iter().chain(all).collect();
            }
        }
        all.push(map(vec![entry(key, value)]));
        keywords.push(("allOf".to_string(), list(all)));
    }

    fn pattern(&mut self, re: String) {
        self.put("pattern", string(&re));
    }

    /// A keyword schema that rejects null, made to admit it when the rules skip null.
    fn null_guarded(&mut self, key: &str, value: Node) -> Result<(), &'static str> {
        if !self.null_passes {
            self.put(key, value);
            return Ok(());
        }
        match self.dialect {
            Dialect::JsonSchema => {
                let null = map(vec![entry("type", string("null"))]);
                self.put("anyOf", list(vec![null, map(vec![entry(key, value)])]));
                Ok(())
            }
            Dialect::OpenApi30 => Err("OpenAPI 3.0 cannot let null through this keyword"),
        }
    }

    /// `multipleOf` (or, for `odd=`, its negation), for numbers within the range where
    /// schemac's float arithmetic is exact.
    fn multiple_of(&mut self, by: Node, negate: bool) -> Result<(), &'static str> {
        let multiple = map(vec![entry("multipleOf", by)]);
        if negate {
            // `not` rejects null and other types: odd numbers only (as schemac), null as skipped.
            return self.null_guarded("not", multiple);
        }
        let outside = map(vec![entry(
            "not",
            map(vec![
                entry("minimum", int(-EXACT_INT)),
                entry("maximum", int(EXACT_INT)),
            ]),
        )]);
        self.put("anyOf", list(vec![multiple, outside]));
        Ok(())
    }

    /// Writes the keywords of one named rule, or says why none says it.
    fn named(&mut self, name: RuleName, arg: &Value) -> Result<(), &'static str> {
        let json = self.dialect == Dialect::JsonSchema;
        match name {
            RuleName::NotNull => {
                if !json {
                    return Err("OpenAPI 3.0 has no keyword for not null on a nullable value");
                }
                self.out.not_null = true;
            }
            RuleName::Min | RuleName::Max => {
                if !holds(self.kind, "number") {
                    return Err("compares non-numbers as Starlark does: no keyword says it");
                }
                let n = exact_number(arg).ok_or("its bound is not a number within ±2^53")?;
                let key = if name == RuleName::Min {
                    "minimum"
                } else {
                    "maximum"
                };
                self.put(key, n);
                if holds(self.kind, "string") {
                    return Err("on strings and lists it compares as Starlark does");
                }
            }
            RuleName::MinLen | RuleName::MaxLen | RuleName::Len => {
                let min = name != RuleName::MaxLen;
                let max = name != RuleName::MinLen;
                let (lo, hi) = (count(arg, true), count(arg, false));
                if (min && lo.is_none()) || (max && hi.is_none()) {
                    return Err("its length is not a whole number a keyword can take");
                }
                if holds(self.kind, "array") {
                    min.then(|| self.put("minItems", int(lo.unwrap_or(0))));
                    max.then(|| self.put("maxItems", int(hi.unwrap_or(0))));
                }
                if holds(self.kind, "map") {
                    min.then(|| self.put("minProperties", int(lo.unwrap_or(0))));
                    max.then(|| self.put("maxProperties", int(hi.unwrap_or(0))));
                }
                if holds(self.kind, "string") {
                    // Bytes >= 1 is characters >= 1; bytes <= N implies characters <= N.
                    let exact_min = min && lo.unwrap_or(0) <= 1;
                    if min && exact_min {
                        self.put("minLength", int(lo.unwrap_or(0)));
                    }
                    if max {
                        self.put("maxLength", int(hi.unwrap_or(0)));
                    }
                    if min && !exact_min {
                        return Err("schemac counts UTF-8 bytes, minLength counts characters");
                    }
                    if max {
                        return Err("maxLength counts characters: looser than schemac's UTF-8 bytes for non-ASCII text");
                    }
                }
                if !holds(self.kind, "array")
                    && !holds(self.kind, "map")
                    && !holds(self.kind, "string")
                {
                    return Err("a value of this type has no length");
                }
            }
            RuleName::OneOf => {
                let Value::Array(items) = arg else {
                    return Err("one_of over a string or map's keys: no keyword says it");
                };
                let mut values: Vec<Node> = items.to_vec();
                if self.null_passes && !values.iter().any(|n| n.value.is_null()) {
                    values.push(Node::null(Default::default()));
                }
                self.put("enum", list(values));
            }
            RuleName::OneNotNull => {
                if !json {
                    return Err("OpenAPI 3.0 cannot say not null");
                }
                let keys: Vec<Value> = match (arg, self.kind) {
                    (Value::Array(keys), _) => keys.iter().map(|k| k.value.clone()).collect(),
                    (_, Kind::Map(fields)) => fields.iter().map(|f| Value::clone(&f.key)).collect(),
                    _ => return Err("the children of an any value are not known"),
                };
                if keys.is_empty() || keys.iter().any(|k| !matches!(k, Value::Str(_))) {
                    return Err("its keys are not all strings");
                }
                let branches = keys
                    .iter()
                    .map(|k| {
                        let key = k.key_string();
                        map(vec![
                            entry("required", list(vec![string(&key)])),
                            entry(
                                "properties",
                                map(vec![entry(
                                    &key,
                                    map(vec![entry(
                                        "not",
                                        map(vec![entry("type", string("null"))]),
                                    )]),
                                )]),
                            ),
                        ])
                    })
                    .collect();
                self.null_guarded("oneOf", list(branches))?;
            }
            RuleName::Format => {
                let Value::Str(f) = arg else { return Ok(()) };
                if !SAME_FORMATS.contains(&f.as_str()) {
                    return Err("no JSON Schema format means the same");
                }
                if !holds(self.kind, "string") {
                    return Err("a format of a value that is not a string");
                }
                self.put("format", string(f));
            }
            RuleName::Matches => {
                let Value::Str(re) = arg else { return Ok(()) };
                let pattern = ecma_pattern(re).ok_or(
                    "its regular expression uses RE2 syntax that ECMA-262 reads otherwise",
                )?;
                self.string_only(pattern)?;
            }
            RuleName::StartsWith | RuleName::EndsWith => {
                let Value::Str(s) = arg else { return Ok(()) };
                let re = if name == RuleName::StartsWith {
                    format!("^{}", escape(s))
                } else {
                    format!("{}$", escape(s))
                };
                self.string_only(re)?;
            }
            RuleName::Contains => {
                let mut said = false;
                if let (true, Value::Str(s)) = (holds(self.kind, "string"), arg) {
                    self.pattern(escape(s));
                    said = true;
                }
                if holds(self.kind, "array") && json {
                    self.put(
                        "contains",
                        map(vec![entry(
                            "const",
                            Node::new(arg.clone(), Default::default()),
                        )]),
                    );
                    said = true;
                }
                if let (true, Value::Str(s)) = (holds(self.kind, "map"), arg) {
                    self.put("required", list(vec![string(s)]));
                    said = true;
                }
                if !said {
                    return Err("no keyword says it for this type");
                }
            }
            RuleName::Even | RuleName::Odd | RuleName::MultipleOf => {
                if *arg == Value::Bool(false) {
                    return Ok(());
                }
                let by = match (name, arg) {
                    (RuleName::MultipleOf, Value::Int(i)) => *i,
                    (RuleName::MultipleOf, Value::Float(f)) if f.fract() == 0.0 => *f as i64,
                    (RuleName::MultipleOf, _) => {
                        return Err("a fractional multiple: float remainders are not exact")
                    }
                    _ => 2,
                };
                if by == 0 || by.unsigned_abs() > EXACT_INT as u64 {
                    return Err("its multiple is not a number within ±2^53");
                }
                if !holds(self.kind, "number") {
                    return Err("a value of this type is not a number");
                }
                self.multiple_of(int(by.abs()), name == RuleName::Odd)?;
            }
            RuleName::Unique => {
                if *arg != Value::Bool(true) {
                    return Ok(());
                }
                if !holds(self.kind, "array") {
                    return Err("a value of this type is not a list");
                }
                self.put(
                    "uniqueItems",
                    Node::new(Value::Bool(true), Default::default()),
                );
            }
        }
        Ok(())
    }

    fn string_only(&mut self, pattern: String) -> Result<(), &'static str> {
        if !holds(self.kind, "string") {
            return Err("a value of this type is not a string");
        }
        self.pattern(pattern);
        Ok(())
    }
}

/// A literal as a regular expression that Rust's `regex` and ECMA-262 (in Unicode mode) read
/// as that text.
fn escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if "\\^$.|?*+()[]{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A `matches=` expression (Rust's `regex` syntax, RE2's) written for ECMA-262 in Unicode mode
/// with the same meaning, where it uses only syntax both read alike: `.` becomes `[^\n]`
/// (`regex`'s `.` takes `\r`, ECMA-262's does not), `\d` `[0-9]` and `\D` `[^0-9]` (`matches=`
/// reads them as RE2 does, ASCII; `0-9` in a class, where `\D` and a range from or to `\d`
/// are refused); flags, named groups, `\w`, `\s`, `\b`, `\p`, `\x`, POSIX and nested classes,
/// class set operations, `\A`, `\z` and literal braces are refused.
pub fn ecma_pattern(re: &str) -> Option<String> {
    let chars: Vec<char> = re.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut in_class = false;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                let e = *chars.get(i + 1)?;
                match e {
                    // `[\d-z]`, `[a-\d]`: a class escape at a range's end, which ECMA-262
                    // refuses (Go reads a `-` after a class escape as itself).
                    'd' if in_class => {
                        let range_after = chars.get(i + 2) == Some(&'-')
                            && chars.get(i + 3).is_some_and(|&c| c != ']');
                        let range_before = out.ends_with('-') && !out.ends_with("[-");
                        if range_after || range_before {
                            return None;
                        }
                        out.push_str("0-9");
                    }
                    'D' if in_class => return None,
                    'd' => out.push_str("[0-9]"),
                    'D' => out.push_str("[^0-9]"),
                    'n' | 't' | 'r' => {
                        out.push('\\');
                        out.push(e);
                    }
                    '-' if in_class => out.push_str("\\-"),
                    _ if "\\^$.|?*+()[]{}/".contains(e) => {
                        out.push('\\');
                        out.push(e);
                    }
                    _ => return None,
                }
                i += 2;
                continue;
            }
            '[' if in_class => return None,
            '[' => {
                in_class = true;
                out.push('[');
                if chars.get(i + 1) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                // A `]` first in a class is a literal in `regex`, an empty class in ECMA-262.
                if chars.get(i + 1) == Some(&']') {
                    return None;
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            // `regex`'s class set operations (`&&`, `--`, `~~`).
            '&' | '-' | '~' if in_class && chars.get(i + 1) == Some(&c) => return None,
            _ if in_class => out.push(c),
            '.' => out.push_str("[^\\n]"),
            '(' => {
                if chars.get(i + 1) == Some(&'?') {
                    if chars.get(i + 2) != Some(&':') {
                        return None;
                    }
                    out.push_str("(?:");
                    i += 3;
                    continue;
                }
                out.push('(');
            }
            '{' => {
                let end = chars[i..].iter().position(|c| *c == '}')? + i;
                let body: String = chars[i + 1..end].iter().collect();
                let (lo, hi) = body.split_once(',').unwrap_or((&body, &body));
                let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
                if lo.is_empty() || !digits(lo) || !digits(hi) {
                    return None;
                }
                out.push('{');
                out.push_str(&body);
                out.push('}');
                i = end + 1;
                continue;
            }
            ']' | '}' => return None,
            _ => out.push(c),
        }
        i += 1;
    }
    (!in_class).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_both_dialects_read_alike() {
        assert_eq!(ecma_pattern("^v[0-9]+$").as_deref(), Some("^v[0-9]+$"));
        assert_eq!(ecma_pattern("a.b").as_deref(), Some("a[^\\n]b"));
        assert_eq!(ecma_pattern("[.]").as_deref(), Some("[.]"));
        assert_eq!(
            ecma_pattern("^\\d+[\\d-]$").as_deref(),
            Some("^[0-9]+[0-9-]$")
        );
        assert_eq!(
            ecma_pattern("^\\D[^\\d]$").as_deref(),
            Some("^[^0-9][^0-9]$")
        );
        assert_eq!(
            ecma_pattern("(?:ab){2,3}\\.").as_deref(),
            Some("(?:ab){2,3}\\.")
        );
        for refused in [
            "(?i)abc",
            "\\s+",
            "\\w",
            "\\bword",
            "[[:alpha:]]",
            "\\pL",
            "a{",
            "\\Aa\\z",
            "[]a]",
            "[a-z&&b]",
            "[a--b]",
            "\\#",
            "\\-",
            "(?P<n>a)",
            "[\\d-z]",
            "[a-\\d]",
            "[\\D]",
        ] {
            assert_eq!(ecma_pattern(refused), None, "{refused}");
        }
        assert_eq!(escape("a.b/c-d"), "a\\.b/c-d");
    }

    #[test]
    fn counts() {
        assert_eq!(count(&Value::Float(1.5), true), Some(2));
        assert_eq!(count(&Value::Float(1.5), false), Some(1));
        assert_eq!(count(&Value::Int(-1), false), None);
    }
}
