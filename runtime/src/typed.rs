//! The typed API behind `include_schema!`: load data values through the same engine as
//! `schemac check` and built validators, then convert them to the generated structs.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;

use crate::engine::{evaluate_given, Outcome};
use crate::report::multi_line;
use crate::request::{DataValues, GivenValues, Request};
use crate::schema::{Kind, Scalar, Type};
use crate::template::tree::{Tree, TreeValue};
use crate::validate::{Step, Violation};
use crate::validator::Validator;
use crate::value::{repeated_key, Node, Value};

/// Why data values were rejected. `Display` is ytt's report (what `schemac check` prints
/// after `Error: `).
#[derive(Debug, Clone, PartialEq)]
pub struct Violations {
    report: String,
    /// The validation rules that failed (empty when loading failed earlier: a type error, an
    /// unknown key, bad YAML...).
    pub violations: Vec<Violation>,
}

impl Violations {
    fn message(msg: &str) -> Violations {
        Violations {
            report: multi_line(msg),
            violations: Vec::new(),
        }
    }

    /// The report, as ytt prints it.
    pub fn report(&self) -> &str {
        &self.report
    }
}

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.report.trim_end())
    }
}

impl std::error::Error for Violations {}

/// Runs the engine for the typed API, on a stack of its own when the caller's is small (see
/// [`crate::large_stack`]).
fn run(v: &Validator, opts: &Request) -> Result<Node, Violations> {
    on_engine_stack(|| run_here(v, opts, None))
}

/// Runs `f` on the engine's stack (see [`crate::large_stack`]), once the budget variables are
/// known to be valid: a bad one is the error (see [`crate::budget_vars`]).
fn on_engine_stack(f: impl FnOnce() -> Result<Node, Violations>) -> Result<Node, Violations> {
    crate::budget_vars::check_env().map_err(|e| Violations::message(&e))?;
    crate::large_stack::run(f)
}

/// Runs the engine on `opts` and the values `given` (already on the engine's stack).
fn run_here(v: &Validator, opts: &Request, given: Option<GivenValues>) -> Result<Node, Violations> {
    let built = v.built().map_err(|e| Violations::message(&e))?;
    match evaluate_given(opts, given, built) {
        Ok(Outcome::DataValues(node) | Outcome::EmptyFromCode(node) | Outcome::Unprinted(node)) => {
            Ok(node)
        }
        Ok(Outcome::OpenApi(node) | Outcome::JsonSchema(node)) => Ok(node),
        Ok(Outcome::Invalid(violations)) => Err(Violations {
            report: crate::validate::render(&violations),
            violations,
        }),
        Err(e) => Err(Violations::message(e.message())),
    }
}

/// Loads data values files onto the schema's defaults as `ytt -f` does: their
/// `#@data/values` documents overlay in order (templates evaluated). A YAML file with no
/// `#@data/values` document is an error: plain YAML goes to [`load_plain`].
pub fn load<P: AsRef<Path>>(v: &Validator, files: &[P]) -> Result<Node, Violations> {
    let request = Request {
        files: files.iter().map(|f| path_name(f.as_ref())).collect(),
        files_give_values: true,
        ..Request::default()
    };
    run(v, &request)
}

/// Loads plain YAML data values files onto the schema's defaults, as
/// `--data-values-file` does (a directory: its YAML files).
pub fn load_plain<P: AsRef<Path>>(v: &Validator, files: &[P]) -> Result<Node, Violations> {
    let request = Request {
        data_values: files
            .iter()
            .map(|f| DataValues::Files(path_name(f.as_ref())))
            .collect(),
        ..Request::default()
    };
    run(v, &request)
}

fn path_name(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Loads plain YAML data values given as a string (named `name` in messages).
pub fn load_str(v: &Validator, name: &str, yaml: &str) -> Result<Node, Violations> {
    let request = Request {
        data_values: vec![DataValues::Inline {
            name: name.to_string(),
            text: yaml.to_string(),
        }],
        ..Request::default()
    };
    run(v, &request)
}

/// Loads plain data values already in memory (read once, or made in code) onto the schema's
/// defaults, as [`load_str`] does with their YAML, without writing and reading them again:
/// the same overlay, checks and rules, on the values as they are. A null value gives no
/// values (as an empty file); a map holding a key twice is refused, as the reader refuses it.
///
/// Messages name the node's positions. When the values are rejected and some position is
/// unknown (values made in code), the check is made again on the values written as YAML,
/// named `name`, so that the messages name its lines (as [`check_complete`]'s do).
///
/// The node is walked, made into the engine's document and written on the engine's stack (see
/// [`run`]): values made in code as deep as the reader's budget overflowed a 2 MiB caller's
/// stack, aborting.
pub fn load_node(v: &Validator, name: &str, node: &Node) -> Result<Node, Violations> {
    on_engine_stack(|| load_node_here(v, name, node))
}

fn load_node_here(v: &Validator, name: &str, node: &Node) -> Result<Node, Violations> {
    // The engine's document is made from the node in one walk that also looks for a map
    // holding a key twice (what the reader would refuse), and is handed over whole.
    let value = TreeValue::from_node_checking(node, &mut |entries| {
        repeated_key(entries).map_or(Ok(()), Err)
    });
    let doc = match value {
        Ok(value) => Tree::document_of(value, node.pos),
        Err((first, again)) => {
            return Err(Violations::message(&format!(
                "{name}: map key '{}' is given twice ({} and {}); a map cannot hold a key twice",
                first.key.go_percent_s(),
                first.value.pos,
                again.value.pos
            )))
        }
    };
    let given = match node.value {
        Value::Null => None,
        _ => Some(GivenValues {
            name: name.to_string(),
            text: String::new(),
            doc,
        }),
    };
    match run_here(v, &Request::default(), given) {
        Err(_) if !all_positioned(node) => check_written(v, name, &node.value, false),
        result => result,
    }
}

/// Whether every node under `node` has a known position.
fn all_positioned(node: &Node) -> bool {
    !node.pos.is_unknown()
        && match &node.value {
            Value::Map(entries) => entries.iter().all(|e| all_positioned(&e.value)),
            Value::Array(items) => items.iter().all(all_positioned),
            _ => true,
        }
}

/// Checks complete data values (the typed API's `validate`): their types and rules, without
/// overlaying them on the schema's defaults first. Messages name lines of their YAML text,
/// as a file named `name`.
pub fn check_complete(v: &Validator, name: &str, value: &Value) -> Result<Node, Violations> {
    on_engine_stack(|| check_written(v, name, value, true))
}

/// Checks `value` (onto the schema's defaults unless `complete`) as its YAML text, named
/// `name`, whose lines the messages name; its scalars keep their own types.
fn check_written(
    v: &Validator,
    name: &str,
    value: &Value,
    complete: bool,
) -> Result<Node, Violations> {
    let text = crate::yaml::emit::to_yaml(value);
    let raw = crate::yaml::parse::parse_file(name, &text, false).map_err(|e| {
        Violations::message(&format!(
            "{name}:{}: {} (schemac internal error)",
            e.line, e.message
        ))
    })?;
    let file = raw.file;
    let mut node = match raw.docs.into_iter().next() {
        Some(doc) => crate::template::tree::Tree::from_raw(doc, Some(file)).into_node(),
        None => Node::null(crate::value::Pos::new(name, 1)),
    };
    // The text gave positions; the values keep their own types.
    retype(&mut node, value);
    let given = match (&node.value, complete) {
        (Value::Null, false) => None,
        _ => Some(GivenValues {
            name: name.to_string(),
            text,
            doc: Tree::document(&node),
        }),
    };
    let request = Request {
        values_complete: complete,
        ..Request::default()
    };
    run_here(v, &request, given)
}

/// Puts `value`'s scalars into `node`, which has its shape (read from its YAML).
fn retype(node: &mut Node, value: &Value) {
    match (&mut node.value, value) {
        (Value::Map(entries), Value::Map(given)) if entries.len() == given.len() => {
            for (entry, g) in entries.iter_mut().zip(given) {
                retype(&mut entry.value, &g.value.value);
            }
        }
        (Value::Array(items), Value::Array(given)) if items.len() == given.len() => {
            for (item, g) in items.iter_mut().zip(given) {
                retype(item, &g.value);
            }
        }
        _ => node.value = value.clone(),
    }
}

/// Converts checked data values to a generated type (of `v`'s schema). The kinds of value that
/// pass the schema but have no generated type: an integer the field's Rust type cannot hold
/// (one in [2^63, 2^64), a Go `uint64` to ytt, in an `i64` field; one beyond 2^53 that an
/// `f64` field would round), and a string that is not UTF-8 (a Go string of any bytes to ytt,
/// from `!!binary` or a template) in a `String` field. Each is an error naming its position
/// and path, never a rounded or mended value.
pub fn convert<T: crate::__private::FromValue>(
    v: &Validator,
    node: &Node,
) -> Result<T, Violations> {
    T::from_value(&node.value).ok_or_else(|| {
        let schema = (v.schema)();
        let mut path = Vec::new();
        let message = match unfit(node, &schema, &untyped(&schema), &mut path) {
            Some((at, scalar)) => {
                let (what, why) = match scalar {
                    Scalar::Float => ("integer", "has no exact f64 (beyond 2^53), the field's type"),
                    Scalar::Int => ("integer", "is 2^63 or more (a uint64), beyond the field's i64"),
                    _ => (
                        "string",
                        "is not UTF-8 (bytes, as from !!binary), which the field's String cannot hold (a field of type any keeps them)",
                    ),
                };
                format!(
                    "the {what} at {} ({}) {why}",
                    at.pos,
                    crate::validate::path_text(&path)
                )
            }
            None => {
                return Violations::message(
                    "data values do not match the generated types (schemac internal error)",
                )
            }
        };
        Violations::message(&format!(
            "data values do not fit the generated types: {message}"
        ))
    })
}

/// Whether a value `value` of the scalar type `scalar` has no exact value of the Rust type
/// that the typed API gives the type: an `i64` for an `int`, an `f64` for a `float`, a
/// `String` for a `string`.
fn unfit_value(value: &Value, scalar: Scalar) -> bool {
    match (value, scalar) {
        (Value::UInt(_), Scalar::Int) => true,
        (Value::Int(_) | Value::UInt(_), Scalar::Float) => {
            crate::__private::exact_f64(value).is_none()
        }
        (Value::Bytes(_), Scalar::String) => true,
        _ => false,
    }
}

/// The first value under `node` that its field's type `ty` (an `int`, a `float` or a
/// `string`) cannot hold in Rust, with that scalar type (types in `untyped` hold any value);
/// `path` ends with the steps from `node` to it.
fn unfit<'a>(
    node: &'a Node,
    ty: &Type,
    untyped: &HashSet<*const Type>,
    path: &mut Vec<Step<'a>>,
) -> Option<(&'a Node, Scalar)> {
    let mut under = |step: Step<'a>, child: &'a Node, ty: &Type| {
        path.push(step);
        let found = unfit(child, ty, untyped, path);
        if found.is_none() {
            path.pop();
        }
        found
    };
    match (&node.value, &ty.kind) {
        _ if untyped.contains(&(ty as *const Type)) => None,
        (v, Kind::Scalar(scalar)) if unfit_value(v, *scalar) => Some((node, *scalar)),
        (Value::Map(entries), Kind::Map(fields)) => entries.iter().find_map(|e| {
            let field = fields.iter().find(|f| f.key == e.key)?;
            under(Step::Key(&e.key), &e.value, &field.ty)
        }),
        (Value::Array(items), Kind::Array(item)) => items
            .iter()
            .enumerate()
            .find_map(|(i, n)| under(Step::Index(i), n, item)),
        _ => None,
    }
}

/// The `int` and `float` types of `schema` whose values the typed API keeps as the runtime's
/// [`Value`] rather than an `i64` or `f64`: those that a default (their own, or an item of a
/// map's or array's default above them) gives an integer that the Rust type cannot hold (see
/// [`convert`]). Such a default is no compile error: the field is as untyped as `any`.
pub fn untyped(schema: &Type) -> HashSet<*const Type> {
    fn types(t: &Type, out: &mut HashSet<*const Type>) {
        defaults(t, &t.default, out);
        match &t.kind {
            Kind::Map(fields) => fields.iter().for_each(|f| types(&f.ty, out)),
            Kind::Array(item) => types(item, out),
            _ => {}
        }
    }
    fn defaults(t: &Type, node: &Node, out: &mut HashSet<*const Type>) {
        match (&t.kind, &node.value) {
            (Kind::Scalar(scalar), v) if unfit_value(v, *scalar) => {
                out.insert(t as *const Type);
            }
            (Kind::Map(fields), Value::Map(entries)) => {
                for f in fields {
                    if let Some(e) = entries.iter().find(|e| e.key.key_eq(&f.key)) {
                        defaults(&f.ty, &e.value, out);
                    }
                }
            }
            (Kind::Array(item), Value::Array(items)) => {
                items.iter().for_each(|i| defaults(item, i, out));
            }
            _ => {}
        }
    }
    let mut out = HashSet::new();
    types(schema, &mut out);
    out
}
