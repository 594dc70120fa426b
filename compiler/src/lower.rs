//! Schema document (evaluated template) → schema IR, with ytt's schema errors.

use schemac_runtime::error::{CheckError, ErrorKind};
use schemac_runtime::report::{Failure, SchemaReport, SourceLines};
use schemac_runtime::schema::{Doc, Field, Kind, Scalar, Type};
use schemac_runtime::template::tree::{Ann, Arg, Tree, TreeKind, TreeValue};
use schemac_runtime::value::{MapEntry, Node, Pos, Value};
use schemac_runtime::{typecheck, validate};

mod docs;

const NULL_HINTS: [&str; 3] = [
    "in YAML, omitting a value implies null.",
    "to set the default value to null, annotate with @schema/nullable.",
    "to allow any value, annotate with @schema/type any=True.",
];
const ARRAY_HINTS: [&str; 3] = [
    "in schema, the one item of the array implies the type of its elements.",
    "in schema, the default value for an array is always an empty list.",
    "default values can be overridden via a data values overlay.",
];

struct Lowerer<'a> {
    sources: &'a SourceLines,
}

/// Why a schema cannot be lowered: a schema report, or a one-line message, and where.
#[derive(Debug)]
pub struct LowerError {
    pub text: LowerText,
    pub pos: Option<Pos>,
}

#[derive(Debug)]
pub enum LowerText {
    Report(SchemaReport),
    Message(String),
}

impl From<SchemaReport> for LowerError {
    fn from(r: SchemaReport) -> LowerError {
        LowerError {
            pos: r.first_pos(),
            text: LowerText::Report(r),
        }
    }
}

impl LowerError {
    pub fn render(&self) -> String {
        match &self.text {
            LowerText::Report(r) => r.render(),
            LowerText::Message(m) => m.clone(),
        }
    }
}

impl From<LowerError> for CheckError {
    fn from(e: LowerError) -> CheckError {
        CheckError::new(ErrorKind::Schema, e.render()).at_opt(e.pos)
    }
}

/// Builds the IR from the merged schema document.
pub fn lower(doc: &Tree, sources: &SourceLines) -> Result<Type, LowerError> {
    (Lowerer { sources }).node(doc).map_err(|e| match e {
        NodeError::Report(report) => report.into(),
        NodeError::Validation {
            message,
            nullables,
            pos,
        } => wrapped_message(message, nullables, pos),
    })
}

/// Why a node's type cannot be built. ytt reads a schema depth first: a node's children, then
/// its documentation, default and last its `@schema/validation`, so the first error met in that
/// order is the one reported.
enum NodeError {
    Report(SchemaReport),
    /// A one-line message (a `@schema/validation` with wrong arguments, a value Starlark code
    /// gave as a dict or list): ytt's message, how many nullable nodes it is under (each wraps
    /// it once) and where the annotation or node is.
    Validation {
        message: String,
        nullables: usize,
        pos: Pos,
    },
}

impl From<SchemaReport> for NodeError {
    fn from(r: SchemaReport) -> NodeError {
        NodeError::Report(r)
    }
}

impl NodeError {
    /// The error as it leaves a nullable node: ytt builds such a node's type inside a wrapper.
    fn under_nullable(self) -> NodeError {
        match self {
            NodeError::Report(r) => NodeError::Report(wrap_invalid(r.render())),
            NodeError::Validation {
                message,
                nullables,
                pos,
            } => NodeError::Validation {
                message,
                nullables: nullables + 1,
                pos,
            },
        }
    }
}

/// ytt's `Invalid schema` wrapper around an error `text` (a rendered report, or a message):
/// errors from the inside of a nullable node's type, and from a default on an array item.
fn wrap_invalid(text: String) -> SchemaReport {
    SchemaReport {
        summary: "Invalid schema".into(),
        failures: vec![],
        misc: text + " \n",
    }
}

/// A message, wrapped once for each of the `nullables` nodes it is under.
fn wrapped_message(message: String, nullables: usize, pos: Pos) -> LowerError {
    let text = if nullables == 0 {
        LowerText::Message(message)
    } else {
        let mut report = wrap_invalid(message);
        for _ in 1..nullables {
            report = wrap_invalid(report.render());
        }
        LowerText::Report(report)
    };
    LowerError {
        text,
        pos: Some(pos),
    }
}

fn syntax(l: &Lowerer, tree: &Tree, ann: &Ann, found: String, expected: &str) -> SchemaReport {
    invalid(
        l,
        tree,
        ann,
        &format!("syntax error in @{} annotation", ann.name),
        found,
        expected,
        &[],
    )
}

fn invalid(
    l: &Lowerer,
    tree: &Tree,
    ann: &Ann,
    description: &str,
    found: String,
    expected: &str,
    hints: &[&str],
) -> SchemaReport {
    SchemaReport {
        summary: "Invalid schema".into(),
        failures: vec![Failure {
            description: Some(description.to_string()),
            found: Some(found),
            expected: Some(expected.to_string()),
            hints: hints.iter().map(|h| h.to_string()).collect(),
            ..l.failure(tree, Some(ann))
        }],
        misc: String::new(),
    }
}

impl Lowerer<'_> {
    fn failure(&self, tree: &Tree, ann: Option<&Ann>) -> Failure {
        // An annotation's error quotes the annotation's line and the node's.
        let anns: Vec<&Ann> = ann.into_iter().collect();
        Failure {
            file: tree.pos.file.to_string(),
            lines: self.quoted_lines(tree, &anns),
            ..Default::default()
        }
    }

    /// ytt's quote of a wrong type an annotation gave (`@schema/default`, `@schema/examples`):
    /// the annotation's line, then the line of the value found wrong (`at`; a `document`'s as
    /// ytt quotes it), under the value's file; `| ...` between, unless they are lines of one
    /// file next to each other.
    fn annotation_and_value(&self, ann: &Pos, at: &Pos, document: bool) -> Failure {
        let value = match document {
            true => typecheck::document_line(self.sources, at),
            false => self.sources.line_at(at),
        };
        Failure {
            file: at.file.to_string(),
            lines: vec![
                (ann.line, self.sources.line_at(ann).to_string()),
                (at.line, value.to_string()),
            ],
            apart: ann.file != at.file,
            ..Default::default()
        }
    }

    /// The lines of `anns` (those in the node's file) and of the node, in order; a node
    /// without a position (line 0) after its annotations, as ytt quotes it.
    fn quoted_lines(&self, tree: &Tree, anns: &[&Ann]) -> Vec<(u32, String)> {
        let mut numbers: Vec<u32> = anns
            .iter()
            .filter(|a| a.pos.file == tree.pos.file)
            .map(|a| a.pos.line)
            .collect();
        numbers.push(tree.pos.line);
        numbers.sort_unstable_by_key(|&n| (n == 0, n));
        // ytt quotes a line twice when the annotation shares it with its node.
        numbers
            .into_iter()
            .map(|n| {
                let at = Pos {
                    file: tree.pos.file,
                    line: n,
                };
                (n, self.sources.line_at(&at).to_string())
            })
            .collect()
    }

    fn node(&self, tree: &Tree) -> Result<Type, NodeError> {
        let any = match tree.ann("schema/type") {
            Some(ann) => self.type_any(tree, ann)?,
            None => false,
        };
        let nullable = match tree.ann("schema/nullable") {
            Some(ann) if !ann.kwargs.is_empty() => {
                return Err(invalid(
                    self,
                    tree,
                    ann,
                    "expected @schema/nullable annotation to not contain any keyword arguments",
                    format!("keyword argument in @schema/nullable (by {})", ann.pos),
                    "starlark.Bool",
                    &["Supported kwargs are 'any'"],
                )
                .into())
            }
            Some(_) => true,
            None => false,
        };
        // ytt builds a nullable node's type inside a wrapper of its own.
        let wrap = |e: NodeError| {
            if nullable {
                e.under_nullable()
            } else {
                e
            }
        };
        // A type is inferred from YAML (fragments included), never from a Starlark dict or
        // list, given by code or by an overlay's `via=`: ytt refuses those.
        let refused = tree
            .ann(schemac_runtime::template::STARLARK_COLLECTION)
            .or_else(|| tree.ann(schemac_runtime::template::GO_VALUE))
            .and_then(|_| schemac_runtime::template::go_value::refused_in_schema(&tree.value));
        if let (Some(message), false) = (refused, any) {
            return Err(wrap(NodeError::Validation {
                message,
                nullables: 0,
                pos: tree.pos,
            }));
        }
        let kind = if any {
            Kind::Any
        } else {
            match &tree.value {
                TreeValue::Scalar(Value::Null) => {
                    return Err(NodeError::Report(SchemaReport {
                        summary: "Invalid schema - null value not allowed here".into(),
                        failures: vec![Failure {
                            found: Some("null value".into()),
                            expected: Some("non-null value".into()),
                            hints: NULL_HINTS.iter().map(|h| h.to_string()).collect(),
                            ..self.failure(tree, None)
                        }],
                        misc: String::new(),
                    }));
                }
                TreeValue::Scalar(v) => Kind::Scalar(Scalar::of(v).unwrap_or(Scalar::String)),
                TreeValue::Map(items) => {
                    let mut fields = Vec::with_capacity(items.len());
                    for item in items {
                        let key = item.key().cloned().unwrap_or(Value::Null);
                        fields.push(Field {
                            key: key.into(),
                            ty: self.node(item).map_err(wrap)?,
                        });
                    }
                    Kind::Map(fields)
                }
                TreeValue::Array(items) => {
                    if items.len() != 1 {
                        return Err(wrap(NodeError::Report(SchemaReport {
                            summary: "Invalid schema - wrong number of items in array definition"
                                .into(),
                            failures: vec![Failure {
                                found: Some(format!("{} array items", items.len())),
                                expected: Some("exactly 1 array item, of the desired type".into()),
                                hints: ARRAY_HINTS.iter().map(|h| h.to_string()).collect(),
                                ..self.failure(tree, None)
                            }],
                            misc: String::new(),
                        })));
                    }
                    Kind::Array(Box::new(self.node(&items[0]).map_err(wrap)?))
                }
            }
        };
        if any {
            self.check_nested_in_any(tree)?;
        }
        // ytt reads the documentation annotations once the children's types are built (and
        // not at all inside an "any type" fragment).
        let doc = if tree.anns.is_empty() {
            Doc::default()
        } else {
            self.doc(tree)?
        };
        // A map or array type is where ytt's node of the collection is: a fragment
        // function's at the document of its `def` (`m: #@ frag()`), not at the item.
        let value_pos = [
            schemac_runtime::template::VALUE_DOCUMENT_POS,
            schemac_runtime::template::VALUE_POS,
        ]
        .into_iter()
        .find_map(|mark| tree.ann(mark))
        .filter(|_| matches!(kind, Kind::Map(_) | Kind::Array(_)));
        let mut ty = Type {
            kind,
            pos: value_pos.map_or(tree.pos, |a| a.pos),
            nullable,
            default: Node::null(tree.pos),
            doc,
            validation: None,
        };
        // ytt checks the examples before the default, and reads the validation last.
        let default_ann = tree.ann("schema/default");
        let default = if default_ann.is_some() && tree.kind == TreeKind::ArrayItem {
            let inner = SchemaReport {
                summary: "Invalid schema - @schema/default not supported on array item".into(),
                failures: vec![Failure {
                    hints: vec![
                        "do you mean to set a default value for the array?".into(),
                        "set an array's default by annotating its parent.".into(),
                    ],
                    ..self.failure(tree, default_ann)
                }],
                misc: String::new(),
            };
            Err(wrap_invalid(inner.render()))
        } else {
            self.default(tree, &ty, default_ann)
        };
        match default {
            Ok(value) => {
                ty.default = value;
                self.check_examples(tree, &ty)?;
            }
            Err(report) => {
                self.check_examples(tree, &ty)?;
                return Err(report.into());
            }
        }
        if let Some(ann) = tree.ann("schema/validation") {
            let validation =
                validate::parse_validation(ann).map_err(|message| NodeError::Validation {
                    message,
                    nullables: 0,
                    pos: ann.pos,
                })?;
            ty.validation = Some(validation);
        }
        Ok(ty)
    }

    /// The nodes inside an "any type" fragment, in the order ytt reads them (a node, then its
    /// children): the first that carries an annotation giving a type is the error. Nothing else
    /// of theirs is read (ytt ignores documentation and validations there, and their defaults
    /// are the fragment's own), so each node is visited once: lowering each as a node of its
    /// own made its whole default, quadratic in the fragment's depth.
    fn check_nested_in_any(&self, tree: &Tree) -> Result<(), NodeError> {
        let mut pending: Vec<&Tree> = match &tree.value {
            TreeValue::Map(items) | TreeValue::Array(items) => items.iter().rev().collect(),
            TreeValue::Scalar(_) => return Ok(()),
        };
        while let Some(node) = pending.pop() {
            self.check_no_type_in_any(node)?;
            if let TreeValue::Map(items) | TreeValue::Array(items) = &node.value {
                pending.extend(items.iter().rev());
            }
        }
        Ok(())
    }

    /// A node inside an "any type" fragment: only the annotations that give a type conflict
    /// with it; ytt ignores documentation and validations there.
    fn check_no_type_in_any(&self, tree: &Tree) -> Result<(), NodeError> {
        let gives_type = |a: &&Ann| {
            matches!(
                a.name.as_str(),
                "schema/type" | "schema/nullable" | "schema/default"
            )
        };
        // ytt names them in the order it checks them (nullable, type, default), whatever
        // their order in the file; the quoted lines stay in file order.
        // (a repeated annotation is named and quoted once, where it is last given)
        let schema_anns: Vec<&Ann> = Ann::counted(&tree.anns).filter(gives_type).collect();
        if let Some(&first) = schema_anns.first() {
            let mut found = schema_anns.clone();
            found.sort_by_key(|a| match a.name.as_str() {
                "schema/nullable" => 0,
                "schema/type" => 1,
                _ => 2,
            });
            let names: Vec<String> = found.iter().map(|a| format!("@{}", a.name)).collect();
            // This error quotes every annotation it names.
            let mut report = invalid(
                self,
                tree,
                first,
                "Schema was specified within an \"any type\" fragment",
                format!("{} annotation(s)", names.join(", ")),
                "no '@schema/...' on nodes within a node annotated '@schema/type any=True'",
                &["an \"any type\" fragment has no constraints; nested schema annotations conflict and are disallowed"],
            );
            for failure in &mut report.failures {
                failure.lines = self.quoted_lines(tree, &schema_anns);
            }
            return Err(report.into());
        }
        Ok(())
    }

    fn type_any(&self, tree: &Tree, ann: &Ann) -> Result<bool, SchemaReport> {
        if ann.kwargs.is_empty() {
            return Err(invalid(
                self,
                tree,
                ann,
                "expected @schema/type annotation to have keyword argument and value",
                format!("missing keyword argument and value (by {})", ann.pos),
                "valid keyword argument and value",
                &["Supported key-value pairs are 'any=True', 'any=False'"],
            ));
        }
        // Every keyword is checked, in order: the first that is not `any=` or whose value is
        // not a bool is the error; the last `any=` counts.
        let mut any = false;
        for (key, arg) in &ann.kwargs {
            if key != "any" {
                return Err(invalid(
                    self,
                    tree,
                    ann,
                    "unknown @schema/type annotation keyword argument",
                    format!("{key} (by {})", ann.pos),
                    "A valid kwarg",
                    &["Supported kwargs are 'any'"],
                ));
            }
            match arg.data().map(|n| &n.value) {
                Some(Value::Bool(b)) => any = *b,
                _ => {
                    return Err(invalid(
                        self,
                        tree,
                        ann,
                        "unknown @schema/type annotation keyword argument",
                        format!("{} (by {})", go_type(arg), ann.pos),
                        "starlark.Bool",
                        &["Supported kwargs are 'any'"],
                    ))
                }
            }
        }
        Ok(any)
    }

    fn default(&self, tree: &Tree, ty: &Type, ann: Option<&Ann>) -> Result<Node, SchemaReport> {
        if let Some(ann) = ann {
            // ytt names a nullable node's type `null` here (unless it is "any type").
            let name = if ty.nullable && !matches!(ty.kind, Kind::Any) {
                "null"
            } else {
                ty.name()
            };
            let expected = format!("{name} (by {})", ty.pos);
            if !ann.kwargs.is_empty() {
                let mut r = syntax(
                    self,
                    tree,
                    ann,
                    format!("keyword argument in @{} (by {})", ann.name, ann.pos),
                    &expected,
                );
                r.failures[0].hints.extend([
                    "this annotation only accepts one argument: the default value.".to_string(),
                    "value must be in Starlark format, e.g.: {'key': 'value'}, True.".to_string(),
                ]);
                return Err(r);
            }
            let value = match ann.args.as_slice() {
                [] => {
                    return Err(syntax(
                        self,
                        tree,
                        ann,
                        format!("missing value in @{} (by {})", ann.name, ann.pos),
                        &expected,
                    ))
                }
                [a] => match a.to_data(ann.pos) {
                    Some(data) => data.into_owned(),
                    // ytt panics converting these (`not sure how to get int`, `unknown type
                    // *starlark.Function for conversion to go value`).
                    None => {
                        let what = if a.type_name == "int" {
                            "an integer beyond 64 bits".to_string()
                        } else {
                            format!(
                                "a {} that is not data or holds a value that is not",
                                a.type_name
                            )
                        };
                        let mut r = syntax(
                            self,
                            tree,
                            ann,
                            format!("{what} in @{} (by {})", ann.name, ann.pos),
                            &expected,
                        );
                        r.failures[0].hints.push(
                            "value must be in Starlark format, e.g.: {'key': 'value'}, True."
                                .to_string(),
                        );
                        return Err(r);
                    }
                },
                more => {
                    return Err(syntax(
                        self,
                        tree,
                        ann,
                        format!("{} values in @{} (by {})", more.len(), ann.name, ann.pos),
                        &expected,
                    ))
                }
            };
            let mut value = value;
            let violations = typecheck::fill_and_check_node(&mut value, ty);
            if !violations.is_empty() {
                let failures = violations
                    .iter()
                    .map(|v| {
                        // A value with lines of its own (a fragment function's YAML) is
                        // quoted where it is; a Starlark literal is checked as the node.
                        let placed = v.pos != ann.pos && v.pos.line != 0;
                        let failure = match placed {
                            true => self.annotation_and_value(&ann.pos, &v.pos, v.document),
                            false => self.annotation_and_value(&ann.pos, &tree.pos, false),
                        };
                        Failure {
                            description: v.description.clone(),
                            found: Some(format!("{} (at {})", v.found, ann.pos)),
                            expected: Some(v.expected.clone()),
                            hints: v.hints.clone(),
                            ..failure
                        }
                    })
                    .collect();
                return Err(SchemaReport {
                    summary: "Invalid schema - @schema/default is wrong type".into(),
                    failures,
                    misc: String::new(),
                });
            }
            // Checked where the annotation is; the value is the node's (`from:` names its line,
            // for every node the annotation gave; filled-in fields keep their own).
            relabel_nodes_at(&mut value, &ann.pos, &tree.pos);
            value.pos = tree.pos;
            return Ok(value);
        }
        if ty.nullable {
            return Ok(Node::null(tree.pos));
        }
        Ok(match &ty.kind {
            Kind::Any => tree.to_node(),
            Kind::Scalar(_) => tree.to_node(),
            Kind::Array(_) => Node::new(Value::Array(Default::default()), tree.pos),
            Kind::Map(fields) => Node::new(
                Value::Map(
                    fields
                        .iter()
                        .map(|f| MapEntry {
                            key: f.key.clone(),
                            value: f.ty.default.clone(),
                        })
                        .collect(),
                ),
                tree.pos,
            ),
        })
    }
}

/// Moves the nodes of `node` that are at `from` to `to`.
fn relabel_nodes_at(node: &mut Node, from: &Pos, to: &Pos) {
    if node.pos == *from {
        node.pos = *to;
    }
    match &mut node.value {
        Value::Map(entries) => {
            for e in entries {
                relabel_nodes_at(&mut e.value, from, to);
            }
        }
        Value::Array(items) => {
            for item in items {
                relabel_nodes_at(item, from, to);
            }
        }
        _ => {}
    }
}

/// The schema ytt exports for a run without `#@data/values-schema`: any value, null.
pub fn empty_schema() -> Type {
    let pos = schemac_runtime::value::Pos::unknown();
    Type {
        kind: Kind::Any,
        pos,
        nullable: true,
        default: Node::null(pos),
        doc: Doc::default(),
        validation: None,
    }
}

/// The Go type ytt names for an annotation argument in some errors (`starlark.Int`).
fn go_type(arg: &Arg) -> String {
    match arg.data().map(|n| &n.value) {
        Some(v) => schemac_runtime::rules::go_type(schemac_runtime::rules::starlark_type(v)),
        None => schemac_runtime::rules::go_type(&arg.type_name),
    }
}
