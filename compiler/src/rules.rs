//! Rule lowering: custom rules and `when=` predicates translated from Starlark to Rust where
//! the translation is exact, so that validators of typical schemas need no interpreter.
//!
//! [`lower`] walks the schema IR; for every validation with a Starlark function it finds the
//! annotation in the file's program ([`source`]) and translates the function ([`translate`]).
//! A function that cannot be translated is a [`Fallback`] with the reason; a schema with any
//! fallback keeps the interpreter for all its rules.

pub mod emit;
pub mod source;
pub mod stype;
pub mod template;
pub mod translate;

use proc_macro2::TokenStream;
use starlark_syntax::syntax::ast::{ArgumentP, ExprP};

use quote::quote;
use schemac_runtime::lowered::ir;
use schemac_runtime::schema::{Check, FunctionRef, Validation};
use schemac_runtime::schema::{Kind, Type};
use schemac_runtime::value::Pos;

use source::Program;
use stype::SType;
use translate::Translator;

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
    /// The translated functions, and which function of the schema each translates.
    pub program: ir::Program,
    pub fallbacks: Vec<Fallback>,
    /// How many functions were translated.
    pub lowered: usize,
}

impl Lowering {
    /// Whether every Starlark function of the schema was translated.
    pub fn complete(&self) -> bool {
        self.fallbacks.is_empty()
    }

    /// The generated functions of the translations.
    pub fn items(&self, rt: &TokenStream) -> Vec<TokenStream> {
        emit::items(&self.program, rt)
    }

    /// The generated `translated` function: the translation of the function with an index.
    pub fn translations(&self, rt: &TokenStream) -> TokenStream {
        let mut arms: Vec<(usize, TokenStream)> = self
            .program
            .entries
            .iter()
            .map(|(i, f)| {
                let name = emit::name(&self.program, *f);
                let t = match self.program.functions[*f].kind {
                    ir::Kind::When => quote! { When(#rt::lowered::LoweredWhen(#name)) },
                    _ => quote! { Rule(#rt::lowered::LoweredRule(#name)) },
                };
                (*i, quote! { #rt::lowered::Translated::#t })
            })
            .collect();
        arms.sort_by_key(|(i, _)| *i);
        if arms.is_empty() {
            return quote! {
                /// The Rust translations of the schema's rule functions (it has none).
                pub fn translated(_index: usize) -> Option<#rt::lowered::Translated> {
                    None
                }
            };
        }
        let arms = arms.iter().map(|(i, t)| quote! { #i => Some(#t), });
        quote! {
            /// The Rust translations of the schema's rule functions, by function index.
            pub fn translated(index: usize) -> Option<#rt::lowered::Translated> {
                match index {
                    #(#arms)*
                    _ => None,
                }
            }
        }
    }

    /// `schemac build --explain-rules`: one line per Starlark function.
    pub fn explain(&self) -> String {
        let mut lines = vec![format!(
            "{} rule function(s) compiled to Rust, {} left to the Starlark interpreter",
            self.lowered,
            self.fallbacks.len()
        )];
        for f in &self.fallbacks {
            lines.push(format!(
                "  {} ({}): stays in Starlark: {}",
                f.pos, f.what, f.reason
            ));
        }
        lines.join("\n")
    }
}

/// Translates the rule functions of `schema`, whose files are `sources`.
/// The translations `schemac check` evaluates: the rule functions of `schema` lowered from the
/// files of `sources` their annotations are in (and the `.star` files they may load); None
/// when the schema has no rule functions.
pub fn for_check(
    schema: &Type,
    sources: &schemac_runtime::report::SourceLines,
) -> Option<ir::Program> {
    let mut files: Vec<String> = Vec::new();
    let mut alike = false;
    schema.each_type(&mut |t| {
        if let Some(v) = &t.validation {
            let file = v.pos.file.to_string();
            if v.functions().next().is_some() && !files.contains(&file) {
                alike |= sources.is_alike(&v.pos.file);
                files.push(file);
            }
        }
    });
    // Files named alike (`-f a/schema.yml -f b/schema.yml`, or two `helpers.star` they may
    // load) cannot be told apart by name: their rules stay with the interpreter.
    alike |= sources
        .names()
        .any(|n| n.ends_with(".star") && sources.is_repeated(n));
    if files.is_empty() || alike {
        return None;
    }
    let mut texts: Vec<(String, String)> = sources
        .names()
        .filter(|n| n.ends_with(".star") || files.iter().any(|f| f == n))
        .filter_map(|n| Some((n.to_string(), sources.text(n)?.to_string())))
        .collect();
    texts.sort();
    let lowering = lower(schema, &texts);
    (!lowering.program.entries.is_empty()).then_some(lowering.program)
}

pub fn lower(schema: &Type, sources: &[(String, String)]) -> Lowering {
    let program = Program::parse(sources);
    let mut t = Translator::new(&program, schema);
    let mut out = Lowering::default();
    walk(schema, SType::Unknown, &program, &mut t, &mut out);
    out.program.functions = std::mem::take(&mut t.functions);
    out
}

fn walk<'s>(
    ty: &'s Type,
    parent: SType<'s>,
    program: &Program,
    t: &mut Translator<'_, 's>,
    out: &mut Lowering,
) {
    if let Some(v) = &ty.validation {
        if v.functions().next().is_some() {
            validation(v, ty, parent, program, t, out);
        }
    }
    match &ty.kind {
        Kind::Map(fields) => fields
            .iter()
            .for_each(|f| walk(&f.ty, SType::Map(ty), program, t, out)),
        Kind::Array(item) => walk(item, SType::Array(ty), program, t, out),
        _ => {}
    }
}

fn validation<'s>(
    v: &Validation,
    ty: &'s Type,
    parent: SType<'s>,
    program: &Program,
    t: &mut Translator<'_, 's>,
    out: &mut Lowering,
) {
    let functions: Vec<(usize, FunctionRef)> = v
        .custom
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match c.check {
            Check::Function(f) => Some((i, f)),
            Check::Named(..) => None,
        })
        .collect();
    let mut fall = |what: String, reason: String| {
        out.fallbacks.push(Fallback {
            pos: v.pos,
            what,
            reason,
        })
    };
    let args = program
        .module_index(&v.pos.file)
        .and_then(|m| Some((m, t.validation_args(m, v.pos.line)?)));
    let Some((module, args)) = args else {
        for (i, _) in &functions {
            fall(
                format!("rule {}", i + 1),
                "its annotation is not found in a schema file".into(),
            );
        }
        if v.when.is_some() {
            fall(
                "when=".into(),
                "its annotation is not found in a schema file".into(),
            );
        }
        return;
    };
    let positional: Vec<_> = args
        .args
        .iter()
        .filter_map(|a| match &a.node {
            ArgumentP::Positional(x) => Some(x),
            _ => None,
        })
        .collect();
    let mut results = Vec::new();
    for (i, function) in functions {
        let what = format!("rule {}", i + 1);
        let f = match positional.get(i).map(|x| &x.node) {
            Some(ExprP::Tuple(pair)) if pair.len() == 2 && positional.len() == v.custom.len() => {
                &pair[1]
            }
            _ => {
                results.push((
                    what,
                    Err(
                        "its arguments are computed, not written as (description, function) tuples"
                            .to_string(),
                    ),
                    function.index,
                ));
                continue;
            }
        };
        results.push((
            what,
            t.rule(module, f, SType::of(ty, false)),
            function.index,
        ));
    }
    for (what, result, index) in results {
        match result {
            Ok(f) => {
                out.lowered += 1;
                out.program.entries.insert(index, f);
            }
            Err(reason) => out.fallbacks.push(Fallback {
                pos: v.pos,
                what,
                reason,
            }),
        }
    }
    if let Some(when) = v.when {
        let f = args.args.iter().find_map(|a| match &a.node {
            ArgumentP::Named(name, x) if name.node == "when" => Some(x),
            _ => None,
        });
        let result = match f {
            Some(f) => t.when(module, f, SType::of(ty, true), parent),
            None => Err("its `when=` is computed".to_string()),
        };
        match result {
            Ok(f) => {
                out.lowered += 1;
                out.program.entries.insert(when.index, f);
            }
            Err(reason) => out.fallbacks.push(Fallback {
                pos: v.pos,
                what: "when=".into(),
                reason,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use schemac_runtime::validate::CallOutcome;
    use schemac_runtime::value::{Node, Pos, Value};

    /// The lowering of a schema written to a temporary folder, and its folder.
    fn lowered(schema: &str) -> (super::Lowering, String) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("schema.yml");
        std::fs::write(&path, schema).unwrap();
        let compiled =
            crate::standalone::compile(&[path.to_string_lossy().to_string()], &Default::default())
                .unwrap_or_else(|e| panic!("{e}"));
        let lowering = super::lower(&compiled.schema, &compiled.sources);
        (lowering, format!("{}/", dir.path().display()))
    }

    /// The explanation for a schema written to a temporary folder.
    fn explain(schema: &str) -> String {
        let (lowering, dir) = lowered(schema);
        lowering.explain().replace(&dir, "")
    }

    /// The IR of a schema's one rule, run on `port` values as `schemac check` runs it.
    fn run_rule(schema: &str, ports: &[i64]) -> Vec<CallOutcome> {
        let (lowering, _) = lowered(schema);
        assert!(lowering.complete(), "{}", lowering.explain());
        let p = &lowering.program;
        let (_, &f) = p.entries.iter().next().expect("a translated rule");
        ports
            .iter()
            .map(|n| p.call_rule(f, &Node::new(Value::Int(*n), Pos::unknown())))
            .collect()
    }

    #[test]
    fn the_rule_ir_answers_as_starlark() {
        let range = schema("(\"r\", lambda v: v > 0 and v < 65536)");
        use CallOutcome::{Error, Fail, Pass};
        assert_eq!(run_rule(&range, &[80, 0, 70000]), [Pass, Fail, Fail]);
        let listed = schema(
            "(\"r\", lambda v: v in [80, 443] or fail(\"port {} is not allowed\".format(v)))",
        );
        assert_eq!(
            run_rule(&listed, &[443, 81]),
            [Pass, Error(Some("port 81 is not allowed".into()))]
        );
        let def = "#@ def small(v):\n#@   x = v + 1\n#@   if x > 81:\n#@     return str(x) == \"\"\n#@   end\n#@   return True\n#@ end\n".to_string()
            + &schema("(\"r\", small)");
        assert_eq!(run_rule(&def, &[80, 81]), [Pass, Fail]);
    }

    fn schema(rule: &str) -> String {
        format!("#@data/values-schema\n---\n#@schema/validation {rule}\nport: 80\nname: \"\"\n#@schema/nullable\nhost: \"\"\n")
    }

    #[test]
    fn exact_functions_are_translated() {
        for rule in [
            "(\"r\", lambda v: v > 0 and v < 65536)",
            "(\"r\", lambda v: v in [80, 443] or fail(\"port {} is not allowed\".format(v))), when=lambda v, ctx: ctx.parent[\"name\"].startswith(\"web\")",
            "(\"r\", lambda v: str(v) != \"\"), when=lambda v, ctx: ctx.root[\"host\"] == None",
        ] {
            assert_eq!(explain(&schema(rule)).lines().next().unwrap().split(',').nth(1), Some(" 0 left to the Starlark interpreter"), "{rule}");
        }
    }

    #[test]
    fn uncertain_functions_stay_in_starlark_with_the_reason() {
        let cases = [
            ("(\"r\", lambda v: v % 2 == 0)", "it uses the operator Percent, which is not translated (at schema.yml:3)"),
            ("(\"r\", lambda v: v > 0), when=lambda v, ctx: ctx.parent[\"nope\"]", "key \"nope\" is not in the schema (it would fail) (at schema.yml:3)"),
            ("(\"r\", lambda v: v > 0), when=lambda v, ctx: len(ctx.parent[\"host\"]) > 0", "it takes `len` of a value that is not certainly a string or a collection (string or None)"),
            ("(\"r\", lambda v: v < \"80\")", "it orders values that are not certainly two numbers or two strings (int, string)"),
            ("(\"r\", lambda v: \"{:x}\".format(v))", "its format string uses more than"),
            ("(\"r\", lambda v: v > 0), when=lambda v, ctx: ctx.root", "it may answer with a map rather than a bool"),
        ];
        for (rule, reason) in cases {
            let text = explain(&schema(rule));
            assert!(
                text.contains("1 left to the Starlark interpreter"),
                "{rule}: {text}"
            );
            assert!(text.contains(reason), "{rule}: {text}");
        }
        let recursive =
            "#@ def f(v):\n#@   return f(v)\n#@ end\n".to_string() + &schema("(\"r\", f)");
        assert!(explain(&recursive).contains("`f` is recursive"));
        let captured = "#@ limit = 3\n".to_string() + &schema("(\"r\", lambda v: v > limit)");
        assert!(explain(&captured).contains("it uses `limit`, which is not one of its parameters"));
        let shadowed = "#@ len = 3\n".to_string() + &schema("(\"r\", lambda v: len(v) > 0)");
        assert!(explain(&shadowed).contains("it calls `len`, which is not a function defined once"));
    }

    #[test]
    fn functions_nested_past_the_budgets_stay_in_starlark() {
        let elifs: String = (0..100)
            .map(|i| format!("#@   elif v == {i}:\n#@     return True\n"))
            .collect();
        let chain = format!("#@ def f(v):\n#@   if v < 0:\n#@     return False\n{elifs}#@   end\n#@   return True\n#@ end\n") + &schema("(\"r\", f)");
        assert!(explain(&chain).contains("its `if` statements nest deeper than 64"));
        let sum = vec!["v"; 300].join(" + ");
        let deep = schema(&format!("(\"r\", lambda v: {sum} > 0)"));
        assert!(explain(&deep).contains("its expressions nest deeper than 256"));
    }
}
