//! Rule lowering: custom rules and `when=` predicates translated from Starlark to Rust where
//! the translation is exact, so that validators of typical schemas need no interpreter.
//!
//! [`lower`] walks the schema IR; for every validation with a Starlark function it finds the
//! annotation in the file's program ([`source`]) and translates the function ([`translate`]).
//! A function that cannot be translated is a [`Fallback`] with the reason; a schema with any
//! fallback keeps the interpreter for all its rules.

pub mod source;
pub mod translate;

use std::collections::HashMap;

use proc_macro2::{Ident, TokenStream};
use starlark_syntax::syntax::ast::{ArgumentP, ExprP};

use schemac_runtime::schema::{Kind, Type};
use schemac_runtime::validate::{Check, Validation};
use schemac_runtime::value::Pos;

use source::Program;
use translate::{SType, Translator};

/// A rule left to the interpreter, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Fallback {
    /// The annotation's position.
    pub pos: Pos,
    /// `when=` or `rule 2`.
    pub what: String,
    pub reason: String,
}

/// The translated rules of a schema.
#[derive(Default)]
pub struct Lowering {
    /// Generated functions.
    pub items: Vec<TokenStream>,
    /// The function of custom rule `i` of the validation at a position.
    pub rules: HashMap<(Pos, usize), Ident>,
    /// The function of the `when=` of the validation at a position.
    pub whens: HashMap<Pos, Ident>,
    pub fallbacks: Vec<Fallback>,
    /// How many functions were translated.
    pub lowered: usize,
}

impl Lowering {
    /// Whether every Starlark function of the schema was translated.
    pub fn complete(&self) -> bool {
        self.fallbacks.is_empty()
    }

    /// `schemac build --explain-rules`: one line per Starlark function.
    pub fn explain(&self) -> String {
        let mut lines = vec![format!(
            "{} rule function(s) compiled to Rust, {} left to the Starlark interpreter",
            self.lowered,
            self.fallbacks.len()
        )];
        for f in &self.fallbacks {
            lines.push(format!("  {} ({}): stays in Starlark: {}", f.pos, f.what, f.reason));
        }
        lines.join("\n")
    }
}

/// Translates the rule functions of `schema`, whose files are `sources`.
pub fn lower(schema: &Type, sources: &[(String, String)], rt: &TokenStream) -> Lowering {
    let program = Program::parse(sources);
    let mut t = Translator::new(&program, schema, rt.clone());
    let mut out = Lowering::default();
    walk(schema, SType::Unknown, &program, &mut t, &mut out);
    out.items = std::mem::take(&mut t.items);
    out
}

fn walk<'s>(ty: &'s Type, parent: SType<'s>, program: &Program, t: &mut Translator<'_, 's>, out: &mut Lowering) {
    if let Some(v) = &ty.validation {
        if v.needs_starlark() {
            validation(v, ty, parent, program, t, out);
        }
    }
    match &ty.kind {
        Kind::Map(fields) => fields.iter().for_each(|f| walk(&f.ty, SType::Map(ty), program, t, out)),
        Kind::Array(item) => walk(item, SType::Array(ty), program, t, out),
        _ => {}
    }
}

fn validation<'s>(v: &Validation, ty: &'s Type, parent: SType<'s>, program: &Program, t: &mut Translator<'_, 's>, out: &mut Lowering) {
    let functions: Vec<usize> = (0..v.custom.len()).filter(|i| matches!(v.custom[*i].check, Check::Function(_))).collect();
    let mut fall = |what: String, reason: String| out.fallbacks.push(Fallback { pos: v.pos.clone(), what, reason });
    let args = program.module_index(&v.pos.file).and_then(|m| Some((m, program.validation_args(m, v.pos.line)?)));
    let Some((module, args)) = args else {
        for i in &functions {
            fall(format!("rule {}", i + 1), "its annotation is not found in a schema file".into());
        }
        if v.when.is_some() {
            fall("when=".into(), "its annotation is not found in a schema file".into());
        }
        return;
    };
    let positional: Vec<_> = args.args.iter().filter_map(|a| match &a.node {
        ArgumentP::Positional(x) => Some(x),
        _ => None,
    }).collect();
    let mut results = Vec::new();
    for i in functions {
        let what = format!("rule {}", i + 1);
        if out.rules.contains_key(&(v.pos.clone(), i)) {
            continue;
        }
        let f = match positional.get(i).map(|x| &x.node) {
            Some(ExprP::Tuple(pair)) if pair.len() == 2 && positional.len() == v.custom.len() => &pair[1],
            _ => {
                results.push((what, Err("its arguments are computed, not written as (description, function) tuples".to_string()), i));
                continue;
            }
        };
        results.push((what, t.rule(module, f, SType::of(ty, false)), i));
    }
    for (what, result, i) in results {
        match result {
            Ok(name) => {
                out.lowered += 1;
                out.rules.insert((v.pos.clone(), i), name);
            }
            Err(reason) => out.fallbacks.push(Fallback { pos: v.pos.clone(), what, reason }),
        }
    }
    if v.when.is_some() && !out.whens.contains_key(&v.pos) {
        let f = args.args.iter().find_map(|a| match &a.node {
            ArgumentP::Named(name, x) if name.node == "when" => Some(x),
            _ => None,
        });
        let result = match f {
            Some(f) => t.when(module, f, SType::of(ty, true), parent),
            None => Err("its `when=` is computed".to_string()),
        };
        match result {
            Ok(name) => {
                out.lowered += 1;
                out.whens.insert(v.pos.clone(), name);
            }
            Err(reason) => out.fallbacks.push(Fallback { pos: v.pos.clone(), what: "when=".into(), reason }),
        }
    }
}
