//! Validations: `#@schema/validation` and `#@assert/validate` rules, run on the final data
//! values.
//!
//! Named rules run in Rust ([`crate::rules`]); custom rules and `when=` predicates are
//! Starlark functions, called through a [`Predicates`] implementation (the interpreter's
//! adapter, or code generated from them). Every violation is collected; a `when=` that fails
//! stops validation with an error, as in ytt.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::last_map_keys::LastMapKeys;
use crate::rules::{beyond, repr, starlark_type, RuleName};
pub use crate::schema::{Check, CustomRule, FunctionRef, Validation};
use crate::template::tree::{Ann, Arg, ArgKind};
use crate::value::{Node, Pos, Value};

mod path;
use path::path_keys;
pub(crate) use path::{path_text, Step};

/// What a custom rule's function did.
#[derive(Debug, PartialEq)]
pub enum CallOutcome {
    Pass,
    /// Returned False, None or another non-True value: a violation with no `found:`.
    Fail,
    /// Called `fail()`/`assert.fail()` or raised an error: a violation with this `found:`
    /// (none when the error's text is empty, as `fail("")`'s).
    Error(Option<String>),
}

/// Calls the functions of custom rules and `when=` on data values: the interpreter's, or
/// the translations generated for them.
pub trait Predicates {
    fn call_rule(&self, f: &FunctionRef, value: &Node) -> CallOutcome;
    /// `Ok(true)` to run the rules; `Err` ends validation with ytt's message.
    fn call_when(&self, f: &FunctionRef, value: &Node, ctx: &WhenContext) -> Result<bool, String>;
    /// Calls an overlay function (`by=lambda i, l, r: ...`, `via=lambda l, r: ...`) on the
    /// nodes' values; `Err` is the failure's message.
    fn call_overlay(
        &self,
        f: &FunctionRef,
        args: &[&crate::template::tree::TreeValue],
    ) -> Result<crate::template::tree::Returned, String> {
        let _ = (f, args);
        Err("overlay functions need the Starlark interpreter".into())
    }
}

/// What a `when=` predicate sees besides the value: `ctx.parent` and `ctx.root`.
pub struct WhenContext<'a> {
    pub parent: &'a Node,
    pub root: &'a Node,
    /// What the predicates made of nodes earlier in this validation run.
    pub memo: &'a NodeMemo,
}

/// Values made from nodes of the data values under validation, kept for the rest of the run:
/// the `ctx.root` of `when=` is converted for Starlark once, not once per call (which made a
/// `when=` on 4,000 array items quadratic). The data values do not change while they are
/// validated, so a node's address names it for that time.
#[derive(Default)]
pub struct NodeMemo(RefCell<HashMap<*const Node, Rc<dyn Any>>>);

impl NodeMemo {
    /// What `make` makes of `node`, made on the first call for that node in this run.
    pub fn get_or_make<T: 'static>(&self, node: &Node, make: impl FnOnce() -> T) -> Rc<T> {
        let key = node as *const Node;
        let known = self.0.borrow().get(&key).cloned();
        if let Some(made) = known.and_then(|m| m.downcast::<T>().ok()) {
            return made;
        }
        let made = Rc::new(make());
        self.0.borrow_mut().insert(key, made.clone());
        made
    }
}

/// The `found:` of a rule that failed with `message`: `fail("x")` reads `x`,
/// `assert.fail("x")` keeps ytt's prefixes (`assert.fail: fail: x`), the `check` of
/// `assert.one_not_null()` loses its name; the text is kept as it is otherwise, spaces and
/// line breaks included. An empty text (`fail()`) is no `found:` at all.
pub fn failure_found(message: &str) -> Option<String> {
    let msg = message.trim_start();
    let msg = msg
        .strip_prefix("fail: ")
        .or_else(|| msg.strip_prefix("check: "))
        .unwrap_or(if msg == "fail:" { "" } else { msg });
    (!msg.is_empty()).then(|| msg.to_string())
}

/// One failed rule of a value.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleViolation {
    pub expected: String,
    pub found: Option<String>,
    pub rule_pos: Pos,
}

/// Every failed rule of one value.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// `db.port`, `ports[0]`, `(document)`.
    pub path: String,
    pub value_pos: Pos,
    pub rules: Vec<RuleViolation>,
}

fn kind_name(arg: &Arg) -> String {
    match &arg.kind {
        ArgKind::Data(_) if arg.type_name == "struct" => "struct".into(),
        ArgKind::Data(n) => starlark_type(&n.value).into(),
        ArgKind::Tuple(_) => "tuple".into(),
        ArgKind::List(_) => "list".into(),
        // starlark-go's name for a module, and for a builtin function.
        ArgKind::Opaque { .. } if arg.type_name == "namespace" => "module".into(),
        ArgKind::Opaque {
            shown: Some(shown), ..
        } if shown.starts_with("<built-in ") => "builtin_function_or_method".into(),
        ArgKind::Assertion(..)
        | ArgKind::Checker(_)
        | ArgKind::Opaque { .. }
        | ArgKind::Matcher { .. } => arg.type_name.clone(),
    }
}

fn arg_repr(arg: &Arg) -> String {
    match &arg.kind {
        // (A struct is data here, its fields a map: ytt writes none of them.)
        ArgKind::Data(_) if arg.type_name == "struct" => "struct(...)".into(),
        ArgKind::Data(_) if arg.go_text.is_some() => arg.go_text.iter().map(|t| &**t).collect(),
        ArgKind::Data(n) => repr(&n.value),
        ArgKind::Tuple(items) => tuple_repr(items.iter().map(arg_repr).collect()),
        ArgKind::List(items) => format!(
            "[{}]",
            items.iter().map(arg_repr).collect::<Vec<_>>().join(", ")
        ),
        ArgKind::Opaque {
            shown: Some(shown), ..
        } => shown.to_string(),
        ArgKind::Assertion(..) | ArgKind::Checker(_) => "struct(...)".into(),
        ArgKind::Opaque { .. } | ArgKind::Matcher { .. } => format!("<{}>", arg.type_name),
    }
}

/// The type of `@ytt:assert` assertion objects (`assert.min(3)`).
pub const ASSERTION_TYPE: &str = "@ytt:assert.assertion";

/// Why the second item of a rule's 2-tuple is not a function or an assertion object. ytt
/// looks for a `check` attribute on a value that has attributes, and words the two cases apart.
fn not_a_check(arg: &Arg, pos: &Pos) -> String {
    let check = arg
        .data()
        .filter(|_| arg.type_name == "struct")
        .and_then(|n| n.value.get("check"));
    if let Some(check) = check {
        return format!(
            "expected struct with attribute check(), but was {} (at {pos})",
            starlark_type(&check.value)
        );
    }
    let has_attributes = matches!(
        arg.type_name.as_str(),
        "string" | "list" | "dict" | "set" | "struct" | "namespace" | "yamlfragment"
    );
    if has_attributes {
        format!(
            "expected second item in tuple to be an assertion function or assertion object, but was a {} (at {pos})",
            kind_name(arg)
        )
    } else {
        format!(
            "expected second item in the 2-tuple to be an assertion function, but was {} (at {pos})",
            kind_name(arg)
        )
    }
}

/// Reads a validation annotation; the error is ytt's `Invalid @... annotation - ...` text.
pub fn parse_validation(ann: &Ann) -> Result<Validation, String> {
    let invalid = |m: String| format!("Invalid @{} annotation - {m}", ann.name);
    let mut v = Validation::new(ann.pos);
    if ann.args.is_empty() && ann.kwargs.is_empty() {
        return Err(invalid(format!(
            "expected annotation to have 2-tuple as argument(s), but found no arguments (by {})",
            ann.pos
        )));
    }
    for arg in &ann.args {
        let ArgKind::Tuple(items) = &arg.kind else {
            return Err(invalid(format!(
                "expected annotation to have 2-tuple as argument(s), but found: {} (by {})",
                arg_repr(arg),
                ann.pos
            )));
        };
        if items.len() != 2 {
            return Err(invalid(format!(
                "expected 2-tuple, but found tuple with length {} (by {})",
                items.len(),
                ann.pos
            )));
        }
        let description = match items[0].data().map(|n| &n.value) {
            Some(Value::Str(s)) => s.clone(),
            _ => {
                return Err(invalid(format!(
                    "expected first item in the 2-tuple to be a string describing a valid value, but was {} (at {})",
                    kind_name(&items[0]),
                    ann.pos
                )))
            }
        };
        let check = match &items[1].kind {
            ArgKind::Opaque { index, .. } if items[1].type_name == "function" => {
                Check::Function(FunctionRef { index: *index })
            }
            // Called as its `check`.
            ArgKind::Checker(index) => Check::Function(FunctionRef { index: *index }),
            ArgKind::Assertion(rule, arg) => Check::Named(*rule, arg.value.clone()),
            _ => return Err(invalid(not_a_check(&items[1], &ann.pos))),
        };
        v.custom.push(CustomRule {
            description: description.to_string(),
            check,
        });
    }
    for (key, arg) in &ann.kwargs {
        if key == "when" {
            match &arg.kind {
                ArgKind::Opaque { index, .. } if arg.type_name == "function" => {
                    v.when = Some(FunctionRef { index: *index })
                }
                _ => {
                    return Err(invalid(format!(
                        "expected keyword argument \"when\" to be a function, but was {} (at {})",
                        kind_name(arg),
                        ann.pos
                    )))
                }
            }
            continue;
        }
        let Some(rule) = RuleName::parse(key) else {
            return Err(invalid(format!(
                "unknown keyword argument \"{key}\" (at {})",
                ann.pos
            )));
        };
        // An int past 64 bits is kept as an opaque value of type int: a rule took it for
        // `None` (`must be: a value >= None`).
        if matches!(arg.kind, ArgKind::Opaque { .. }) && arg.type_name == "int" {
            return Err(invalid(format!(
                "keyword argument \"{key}\" is an integer beyond 64 bits, which schemac does not take (ytt compares lengths with one in min_len= and max_len=, and panics on it elsewhere) (at {})",
                ann.pos
            )));
        }
        let value = match &arg.kind {
            // A tuple of plain values (tuples among them) is a sequence to the rules that
            // take one.
            ArgKind::Tuple(_) => arg
                .to_data(ann.pos)
                .map_or(Value::Null, |n| n.into_owned().value),
            // A struct is a sequence of its field names to ytt (the keys of `one_not_null=`).
            ArgKind::Data(n) if rule == RuleName::OneNotNull && arg.type_name == "struct" => {
                match &n.value {
                    Value::Map(entries) => Value::Array(
                        entries
                            .iter()
                            .map(|e| Node::new(Value::clone(&e.key), n.pos))
                            .collect(),
                    ),
                    other => other.clone(),
                }
            }
            _ => arg.data().map(|n| n.value.clone()).unwrap_or(Value::Null),
        };
        // ytt makes a length bound an integer, truncating a float (`min_len=2.5` is 2).
        let value = match (rule, value) {
            (RuleName::MinLen | RuleName::MaxLen, Value::Float(f)) if f.is_finite() => {
                Value::int(f.trunc() as i128).unwrap_or(Value::Float(f))
            }
            (_, value) => value,
        };
        match rule {
            RuleName::NotNull => match value {
                Value::Bool(true) => {}
                Value::Bool(false) => continue,
                _ => {
                    return Err(invalid(format!(
                    "expected keyword argument \"not_null\" to be a boolean, but was {} (at {})",
                    kind_name(arg),
                    ann.pos
                )))
                }
            },
            RuleName::MinLen | RuleName::MaxLen
                if !matches!(value, Value::Int(_) | Value::UInt(_))
                    && !matches!(value, Value::Float(f) if f.is_finite()) =>
            {
                return Err(invalid(format!(
                    "expected keyword argument \"{key}\" to be a number, but was {} (at {})",
                    kind_name(arg),
                    ann.pos
                )))
            }
            RuleName::OneOf
                if !matches!(value, Value::Array(_) | Value::Map(_))
                    || matches!(arg.kind, ArgKind::Opaque { .. } | ArgKind::List(_)) =>
            {
                return Err(invalid(format!(
                    "expected keyword argument one_of to be a sequence, but was {}",
                    kind_name(arg)
                )))
            }
            RuleName::OneNotNull => match &value {
                Value::Bool(true) | Value::Array(_) => {}
                Value::Bool(false) => return Err(invalid("one_not_null= cannot be False".into())),
                _ => {
                    return Err(invalid(format!(
                        "expected True or a sequence of keys, but was a '{}'",
                        kind_name(arg)
                    )))
                }
            },
            _ if !rule.is_ytt() => beyond::check_arg(key, &value).map_err(invalid)?,
            _ => {}
        }
        if let Some(shown) = shown_arg(arg) {
            v.shown_args.push((rule, shown));
        }
        v.named.push((rule, value));
    }
    v.named.sort_by_key(|(r, _)| *r);
    Ok(v)
}

/// Runs one validation on `value` at `path`; `ctx` is what `when=` sees as `ctx`.
fn run(
    v: &Validation,
    value: &Node,
    ctx: &WhenContext,
    predicates: &dyn Predicates,
    path: &[Step],
) -> Result<Vec<RuleViolation>, String> {
    let not_null = v.named.iter().any(|(r, _)| *r == RuleName::NotNull);
    if value.value.is_null() && !not_null {
        return Ok(Vec::new());
    }
    if let Some(when) = &v.when {
        match predicates.call_when(when, value, ctx) {
            Ok(true) => {}
            Ok(false) => return Ok(Vec::new()),
            // (the path as built: empty for the document, where reports say `(document)`)
            Err(e) => return Err(format!("Validating {}: {e}", path_keys(path))),
        }
    }
    let mut out = Vec::new();
    let violation = |expected: String, found: Option<String>| RuleViolation {
        expected,
        found,
        rule_pos: v.pos,
    };
    if not_null {
        if let Some(f) = RuleName::NotNull.check(&Value::Bool(true), &value.value) {
            out.push(violation(f.expected, f.found));
            return Ok(out);
        }
    }
    for rule in &v.custom {
        match &rule.check {
            Check::Function(f) => match predicates.call_rule(f, value) {
                CallOutcome::Pass => {}
                CallOutcome::Fail => out.push(violation(rule.description.clone(), None)),
                CallOutcome::Error(e) => out.push(violation(rule.description.clone(), e)),
            },
            Check::Named(r, arg) => {
                if let Some(f) = r.check_node(arg, &value.value) {
                    out.push(violation(rule.description.clone(), f.found));
                }
            }
        }
    }
    for (rule, arg) in v.named.iter().filter(|(r, _)| *r != RuleName::NotNull) {
        if let Some(mut f) = rule.check_node(arg, &value.value) {
            if let Some((_, shown)) = v.shown_args.iter().find(|(r, _)| r == rule) {
                f.expected = f.expected.replacen(&repr(arg), shown, 1);
            }
            out.push(violation(f.expected, f.found));
        }
    }
    Ok(out)
}

/// A tuple as Starlark writes it: `(1, 2)`, `(1,)`, `()`.
fn tuple_repr(items: Vec<String>) -> String {
    match items.len() {
        1 => format!("({},)", items[0]),
        _ => format!("({})", items.join(", ")),
    }
}

/// A rule's argument as ytt shows it in what the rule expects (Go's `%v` of the Starlark
/// value), where that is not its data's text: a tuple in parentheses (`(1, 2)`, `(1,)`, `()`),
/// a YAML fragment as its Go type (`yamlfragment(*yamlmeta.Map)`), at any depth of a tuple,
/// and a list or dict holding either or a struct as starlark-go writes it ([`Arg::go_text`]).
fn shown_arg(arg: &Arg) -> Option<String> {
    match &arg.kind {
        ArgKind::Tuple(items) => Some(tuple_repr(
            items
                .iter()
                .map(|i| shown_arg(i).unwrap_or_else(|| arg_repr(i)))
                .collect(),
        )),
        ArgKind::Data(_) if arg.type_name == "struct" => Some("struct(...)".into()),
        ArgKind::Data(_) if arg.go_text.is_some() => arg.go_text.as_deref().map(str::to_string),
        ArgKind::Data(n) if arg.type_name == "yamlfragment" => Some(
            match n.value {
                Value::Map(_) => "yamlfragment(*yamlmeta.Map)",
                _ => "yamlfragment(*yamlmeta.Array)",
            }
            .into(),
        ),
        _ => None,
    }
}

/// ytt's report of every violation.
pub fn render(violations: &[Violation]) -> String {
    let mut s = String::from("Validating final data values:");
    let mut budget = crate::report::ErrorBudget::default();
    for v in violations {
        let rules: usize = v
            .rules
            .iter()
            .map(|r| r.expected.len() + r.found.as_ref().map_or(0, String::len) + 64)
            .sum();
        if !budget.admit(v.path.len() + rules + 64) {
            continue;
        }
        s.push_str(&format!("\n  {}\n    from: {}", v.path, v.value_pos));
        for r in &v.rules {
            s.push_str(&format!(
                "\n    - must be: {} (by: {})",
                r.expected, r.rule_pos
            ));
            if let Some(found) = &r.found {
                s.push_str(&format!("\n      found: {found}"));
            }
        }
        s.push('\n');
    }
    if let Some(line) = budget.left_out_line() {
        s.push_str(&format!("\n  {line}\n"));
    }
    // ytt's report ends with one more empty line.
    s.push('\n');
    s
}

/// Every failed rule as a JSON array of objects with `path`, `value_position`,
/// `rule_position`, `expected` and `found` (null when the rule says nothing found), as many as
/// the error budget admits, as in the text report (a million violations aborted); and the line
/// that says how many were left out, if any were.
pub fn to_json(violations: &[Violation]) -> (String, Option<String>) {
    use crate::value::MapEntry;
    let s = |x: &str| Node::new(Value::Str(x.into()), Pos::unknown());
    let entry = |k: &str, v: Node| MapEntry {
        key: k.into(),
        value: v,
    };
    let mut budget = crate::report::ErrorBudget::default();
    let items = violations
        .iter()
        .flat_map(|v| v.rules.iter().map(move |r| (v, r)))
        .filter(|(v, r)| {
            let found = r.found.as_ref().map_or(0, String::len);
            budget.admit(v.path.len() + r.expected.len() + found + 128)
        })
        .map(|(v, r)| {
            Node::new(
                Value::Map(crate::value::entries![
                    entry("path", s(&v.path)),
                    entry("value_position", s(&v.value_pos.to_string())),
                    entry("rule_position", s(&r.rule_pos.to_string())),
                    entry("expected", s(&r.expected)),
                    entry(
                        "found",
                        r.found.as_deref().map_or(Node::null(Pos::unknown()), s),
                    ),
                ]),
                Pos::unknown(),
            )
        })
        .collect();
    let text =
        crate::yaml::json::marshal_json(&Value::Array(items)).unwrap_or_else(|_| "[]".into());
    (text, budget.left_out_line())
}

/// The annotation that puts rules on a data value itself.
pub const ASSERT_VALIDATE: &str = "assert/validate";

/// Which types of a schema have rules at or below them, learnt as values are validated against
/// it (by the types' addresses: `facts` serves one schema, for as long as it lives unchanged).
#[derive(Default)]
pub struct RuleFacts {
    /// Whether a type of the schema, or a type inside it, has rules: the values of a type
    /// without any (and without `#@assert/validate`) are not walked.
    rules_below: HashMap<*const crate::schema::Type, bool, crate::value::FxBuild>,
    /// [`Walk::ruled_fields`] of each map type met.
    ruled_fields: HashMap<*const crate::schema::Type, RuledFields, crate::value::FxBuild>,
}

/// Validates the final data values: the schema's rules and the `@assert/validate` rules that
/// `tree` carries (none without a tree). `node` is `tree` as plain data. `facts` holds what
/// earlier validations against `schema` learnt of it, and learns what this one does (the typed
/// API's repeated loads ask the same of a schema each time).
pub fn validate(
    tree: Option<&crate::template::tree::Tree>,
    node: &Node,
    schema: Option<&crate::schema::Type>,
    predicates: &dyn Predicates,
    facts: &mut RuleFacts,
) -> Result<Vec<Violation>, String> {
    let memo = NodeMemo::default();
    // The document's `ctx.parent` is None in ytt.
    let no_parent = Node::null(crate::value::Pos::unknown());
    let whole = WhenContext {
        parent: &no_parent,
        root: node,
        memo: &memo,
    };
    let mut walk = Walk {
        predicates,
        out: Vec::new(),
        path: Vec::new(),
        facts,
        last_ruled: None,
        ruled_keys: LastMapKeys::default(),
    };
    walk.node(tree, node, schema, &whole)?;
    Ok(walk.out)
}

/// One validation run over the data values (`'v`: theirs).
struct Walk<'a, 'v> {
    predicates: &'a dyn Predicates,
    out: Vec<Violation>,
    /// The path of the node being validated, written out only for a report
    /// ([`path_text`]): one stack for the whole walk, extended and cut back at each level.
    path: Vec<Step<'v>>,
    /// What is known of the schema's types (see [`RuleFacts`]).
    facts: &'a mut RuleFacts,
    /// The last entry of `ruled_fields` asked for: the maps of an array's items share a type.
    last_ruled: Option<(*const crate::schema::Type, RuledFields)>,
    /// The keys of the entries of the last map walked, place by place, with the field with
    /// rules each is ([`Walk::ruled_field`]): their values' addresses, the values validated
    /// being borrowed for the whole walk, so that no other key takes one.
    ruled_keys: LastMapKeys<*const Value>,
}

/// The indexes of a map type's fields with rules (`None`: too many to compare keys with).
type RuledFields = Option<std::rc::Rc<[usize]>>;

impl<'v> Walk<'_, 'v> {
    fn node(
        &mut self,
        tree: Option<&'v crate::template::tree::Tree>,
        node: &'v Node,
        ty: Option<&crate::schema::Type>,
        ctx: &WhenContext,
    ) -> Result<(), String> {
        use crate::schema::Kind;
        use crate::template::tree::TreeValue;
        // Each validation that fails is reported on its own, the schema's first, as ytt does
        // (a node may have both: an array item that data values add).
        if let Some(v) = ty.and_then(|t| t.validation.as_ref()) {
            let rules = run(v, node, ctx, self.predicates, &self.path)?;
            self.report(node, rules);
        }
        if let Some(ann) = tree.and_then(|t| t.ann(ASSERT_VALIDATE)) {
            let v = parse_validation(ann)?;
            let rules = run(&v, node, ctx, self.predicates, &self.path)?;
            self.report(node, rules);
        }
        let inside = WhenContext {
            parent: node,
            root: ctx.root,
            memo: ctx.memo,
        };
        let children = tree.map(|t| match &t.value {
            TreeValue::Map(items) | TreeValue::Array(items) => items.as_slice(),
            TreeValue::Scalar(_) => &[],
        });
        match &node.value {
            Value::Map(entries) => match self.ruled_fields(children, ty) {
                // Without annotations to run, only the items of fields with rules are walked,
                // when there are few such fields: each item's key is compared with theirs
                // rather than looked up among all the fields.
                Some((fields, ruled)) => {
                    for (k, e) in entries.iter().enumerate() {
                        let Some(f) = self.ruled_field(k, &e.key, fields, &ruled) else {
                            continue;
                        };
                        self.item(None, &e.key, &e.value, Some(&fields[f].ty), &inside)?;
                    }
                }
                None => {
                    let fields = crate::schema::Fields::of(ty, entries.len());
                    for (i, e) in entries.iter().enumerate() {
                        let child_ty = fields.get(&e.key).map(|f| &f.ty);
                        let child_tree = children.and_then(|c| c.get(i));
                        if child_tree.is_none() && !self.has_rules(child_ty) {
                            continue;
                        }
                        self.item(child_tree, &e.key, &e.value, child_ty, &inside)?;
                    }
                }
            },
            Value::Array(items) => {
                let child_ty = match ty.map(|t| &t.kind) {
                    Some(Kind::Array(t)) => Some(&**t),
                    _ => None,
                };
                if children.is_none() && !self.has_rules(child_ty) {
                    return Ok(());
                }
                for (i, item) in items.iter().enumerate() {
                    let child_tree = children.and_then(|c| c.get(i));
                    self.path.push(Step::Index(i));
                    let result = self.node(child_tree, item, child_ty, &inside);
                    self.path.pop();
                    result?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Records the rules of `node` that failed, if any.
    fn report(&mut self, node: &Node, rules: Vec<RuleViolation>) {
        if !rules.is_empty() {
            self.out.push(Violation {
                path: path_text(&self.path),
                value_pos: node.pos,
                rules,
            });
        }
    }

    /// Walks map item `key: node`, its path extended by the key.
    fn item(
        &mut self,
        tree: Option<&'v crate::template::tree::Tree>,
        key: &'v Value,
        node: &'v Node,
        ty: Option<&crate::schema::Type>,
        ctx: &WhenContext,
    ) -> Result<(), String> {
        self.path.push(Step::Key(key));
        let result = self.node(tree, node, ty, ctx);
        self.path.pop();
        result
    }

    /// The fields of map type `ty` that have rules at or below them, when there is no tree to
    /// walk beside the values and at most a few fields have rules (otherwise none).
    fn ruled_fields<'t>(
        &mut self,
        children: Option<&[crate::template::tree::Tree]>,
        ty: Option<&'t crate::schema::Type>,
    ) -> Option<(&'t [crate::schema::Field], std::rc::Rc<[usize]>)> {
        /// More fields with rules than this are looked up (see [`crate::schema::Fields`]).
        const COMPARED: usize = 4;
        let ty = ty?;
        let crate::schema::Kind::Map(fields) = &ty.kind else {
            return None;
        };
        if children.is_some() {
            return None;
        }
        let key = ty as *const _;
        if let Some((last, known)) = &self.last_ruled {
            if *last == key {
                return known.clone().map(|ruled| (fields.as_slice(), ruled));
            }
        }
        if let Some(known) = self.facts.ruled_fields.get(&key) {
            self.last_ruled = Some((key, known.clone()));
            return known.clone().map(|ruled| (fields.as_slice(), ruled));
        }
        let ruled: Vec<usize> = (0..fields.len())
            .filter(|&i| self.has_rules(Some(&fields[i].ty)))
            .collect();
        let ruled = (ruled.len() <= COMPARED).then(|| std::rc::Rc::from(ruled));
        self.facts.ruled_fields.insert(key, ruled.clone());
        self.last_ruled = Some((key, ruled.clone()));
        ruled.map(|ruled| (fields.as_slice(), ruled))
    }

    /// The field with rules, of those `ruled` lists, whose key is `key`, the key of a map's
    /// `k`th entry, if one has it: found from the last map of the type's keys where it held
    /// this one at this place (see [`LastMapKeys`]; a declared string key is the schema's own
    /// after the type check), else by comparing keys.
    fn ruled_field(
        &mut self,
        k: usize,
        key: &'v crate::value::Key,
        fields: &[crate::schema::Field],
        ruled: &[usize],
    ) -> Option<usize> {
        let address = &**key as *const Value;
        // Another type's map (one under the last, or beside it) starts afresh.
        self.ruled_keys.start(fields);
        if let Some(known) = self.ruled_keys.known(k, &address) {
            return known;
        }
        let found = ruled.iter().copied().find(|&f| fields[f].key.key_eq(key));
        self.ruled_keys.record(k, address, found);
        found
    }

    /// Whether `ty` or a type inside it has rules (no type has none).
    fn has_rules(&mut self, ty: Option<&crate::schema::Type>) -> bool {
        use crate::schema::Kind;
        let Some(ty) = ty else {
            return false;
        };
        if ty.validation.is_some() {
            return true;
        }
        if matches!(ty.kind, Kind::Scalar(_) | Kind::Any) {
            return false; // no memo: a leaf's answer is as quick as looking one up
        }
        if let Some(&known) = self.facts.rules_below.get(&(ty as *const _)) {
            return known;
        }
        let found = match &ty.kind {
            Kind::Map(fields) => fields.iter().any(|f| self.has_rules(Some(&f.ty))),
            Kind::Array(item) => self.has_rules(Some(item)),
            Kind::Scalar(_) | Kind::Any => false,
        };
        self.facts.rules_below.insert(ty as *const _, found);
        found
    }
}

/// Reads `#@schema/validation` of every node of a schema document into its type.
/// `Err` holds the message, how many nullable nodes the annotation is under (ytt wraps the
/// message once for each) and where the annotation is.
pub fn attach_validations(
    tree: &crate::template::tree::Tree,
    ty: &mut crate::schema::Type,
) -> Result<(), (String, usize, Pos)> {
    use crate::schema::Kind;
    use crate::template::tree::TreeValue;
    if let Some(ann) = tree.ann("schema/validation") {
        ty.validation = Some(parse_validation(ann).map_err(|m| (m, 0, ann.pos))?);
    }
    let under_nullable = usize::from(ty.nullable);
    let nested = |(m, n, p): (String, usize, Pos)| (m, n + under_nullable, p);
    match (&tree.value, &mut ty.kind) {
        (TreeValue::Map(items), Kind::Map(fields)) => {
            for (item, field) in items.iter().zip(fields.iter_mut()) {
                attach_validations(item, &mut field.ty).map_err(nested)?;
            }
        }
        (TreeValue::Array(items), Kind::Array(item_ty)) => {
            if let Some(item) = items.first() {
                attach_validations(item, item_ty).map_err(nested)?;
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests;
