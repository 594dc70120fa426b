//! The documentation annotations of a schema node (`@schema/desc`, `@schema/title`,
//! `@schema/deprecated`, `@schema/examples`) and the check of the examples against the node's
//! type, with ytt's errors.

use schemac_runtime::report::{Failure, SchemaReport};
use schemac_runtime::schema::{Doc, Type};
use schemac_runtime::template::tree::{Ann, Arg, ArgKind, Tree, TreeKind};
use schemac_runtime::typecheck;
use schemac_runtime::value::{Node, Value};

use super::{syntax, Lowerer};

const EXAMPLES_EXPECTED: &str =
    "2-tuple containing description (string) and example value (of expected type)";

impl Lowerer<'_> {
    /// One string argument (`@schema/desc`, `@schema/title`, `@schema/deprecated`).
    fn string_arg(&self, tree: &Tree, ann: &Ann) -> Result<String, SchemaReport> {
        if !ann.kwargs.is_empty() {
            let mut r = syntax(
                self,
                tree,
                ann,
                format!("keyword argument in @{} (by {})", ann.name, ann.pos),
                "string",
            );
            r.failures[0]
                .hints
                .push("this annotation only accepts one argument: a string.".into());
            return Err(r);
        }
        match ann.args.as_slice() {
            [] => Err(syntax(
                self,
                tree,
                ann,
                format!("missing value in @{} (by {})", ann.name, ann.pos),
                "string",
            )),
            [a] => match a.data().map(|n| &n.value) {
                Some(Value::Str(s)) => Ok(s.to_string()),
                _ => Err(syntax(
                    self,
                    tree,
                    ann,
                    format!("Non-string value in @{} (by {})", ann.name, ann.pos),
                    "string",
                )),
            },
            more => Err(syntax(
                self,
                tree,
                ann,
                format!("{} values in @{} (by {})", more.len(), ann.name, ann.pos),
                "string",
            )),
        }
    }

    pub(super) fn doc(&self, tree: &Tree) -> Result<Doc, SchemaReport> {
        let mut doc = Doc::default();
        for ann in Ann::counted(&tree.anns) {
            match ann.name.as_str() {
                "schema/desc" => doc.desc = Some(self.string_arg(tree, ann)?),
                "schema/title" => doc.title = Some(self.string_arg(tree, ann)?),
                "schema/deprecated" => {
                    // (the place is checked before the arguments, as in ytt)
                    if tree.kind == TreeKind::Document {
                        return Err(SchemaReport {
                            summary: "Invalid schema".into(),
                            failures: vec![Failure {
                                description: Some(
                                    "@schema/deprecated not supported on a document".into(),
                                ),
                                hints: vec![
                                    "do you mean to deprecate the entire schema document?".into(),
                                    "use schema/deprecated on individual keys.".into(),
                                ],
                                ..self.failure(tree, Some(ann))
                            }],
                            misc: String::new(),
                        });
                    }
                    doc.deprecated = Some(self.string_arg(tree, ann)?);
                }
                "schema/examples" => doc.examples = self.examples(tree, ann)?,
                _ => {}
            }
        }
        Ok(doc)
    }

    fn examples(&self, tree: &Tree, ann: &Ann) -> Result<Vec<(String, Node)>, SchemaReport> {
        if !ann.kwargs.is_empty() {
            return Err(syntax(
                self,
                tree,
                ann,
                format!("keyword argument in @{} (by {})", ann.name, ann.pos),
                EXAMPLES_EXPECTED,
            ));
        }
        if ann.args.is_empty() {
            return Err(syntax(
                self,
                tree,
                ann,
                format!("missing value in @{} (by {})", ann.name, ann.pos),
                EXAMPLES_EXPECTED,
            ));
        }
        let mut out = Vec::new();
        for arg in &ann.args {
            let ArgKind::Tuple(items) = &arg.kind else {
                return Err(syntax(
                    self,
                    tree,
                    ann,
                    format!("{} for @{} (at {})", type_label(arg), ann.name, ann.pos),
                    EXAMPLES_EXPECTED,
                ));
            };
            match items.as_slice() {
                // ytt calls a 1-tuple empty too.
                [] | [_] => {
                    return Err(syntax(
                        self,
                        tree,
                        ann,
                        format!("empty tuple in @{} (by {})", ann.name, ann.pos),
                        EXAMPLES_EXPECTED,
                    ))
                }
                [desc, value] | [desc, value, ..] if items.len() == 2 => {
                    let Some(Value::Str(d)) = desc.data().map(|n| &n.value) else {
                        return Err(syntax(
                            self,
                            tree,
                            ann,
                            format!(
                                "{} value for @{} (at {})",
                                type_label(desc),
                                ann.name,
                                ann.pos
                            ),
                            EXAMPLES_EXPECTED,
                        ));
                    };
                    let v = value.data().cloned().unwrap_or_else(|| Node::null(ann.pos));
                    out.push((d.to_string(), v));
                }
                more => {
                    return Err(syntax(
                        self,
                        tree,
                        ann,
                        format!(
                            "{}-tuple argument in @{} (by {})",
                            more.len(),
                            ann.name,
                            ann.pos
                        ),
                        EXAMPLES_EXPECTED,
                    ))
                }
            }
        }
        Ok(out)
    }
    #[inline]
    pub(super) fn check_examples(&self, tree: &Tree, ty: &Type) -> Result<(), SchemaReport> {
        match tree.ann("schema/examples") {
            Some(ann) => self.check_examples_of(tree, ty, ann),
            None => Ok(()),
        }
    }

    /// The violations of the examples of `ann` (`@schema/examples`), as ytt reports them.
    fn check_examples_of(&self, tree: &Tree, ty: &Type, ann: &Ann) -> Result<(), SchemaReport> {
        // ytt reports every violation of every example.
        let mut failures = Vec::new();
        for (_, value) in &ty.doc.examples {
            let mut v = value.clone();
            for violation in typecheck::fill_and_check_node(&mut v, ty) {
                // A value from a YAML fragment (`ex()` of a `def` with YAML) is quoted where
                // it was written, after the annotation (a Starlark literal has the annotation's
                // place, and is checked as the node).
                let placed = !violation.pos.is_unknown() && violation.pos != ann.pos;
                let failure = match placed {
                    true => self.annotation_and_value(&ann.pos, &violation.pos, violation.document),
                    false => self.annotation_and_value(&ann.pos, &tree.pos, false),
                };
                failures.push(Failure {
                    description: violation.description,
                    found: Some(format!("{} (by {})", violation.found, ann.pos)),
                    expected: Some(violation.expected),
                    hints: violation.hints,
                    ..failure
                });
            }
        }
        if !failures.is_empty() {
            return Err(SchemaReport {
                summary: "Invalid schema - @schema/examples has wrong type".into(),
                failures,
                misc: String::new(),
            });
        }
        Ok(())
    }
}

fn type_label(arg: &Arg) -> &str {
    match &arg.kind {
        ArgKind::Data(n) => schemac_runtime::rules::starlark_type(&n.value),
        _ => arg.type_name.as_str(),
    }
}
