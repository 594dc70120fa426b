//! Schemas lowered in an earlier run, kept by the back end (`schemac check`'s cache) and used
//! in place of reading, templating and lowering the same schema files again.
//!
//! Only schema files whose schema depends on nothing but their names and bytes and those of
//! the `.star` files they load are kept: every YAML file that mentions `data/values-schema` is
//! a schema file of the run, each of its documents a schema document (or empty), its code
//! reaching nothing outside the file but `.star` files of the run and ytt modules whose members
//! depend on their arguments alone (no `print`, no `#@library/ref`: [`self_contained_file`];
//! no `@ytt:data`, `@ytt:library`, `@ytt:math`, YAML or text library, private library:
//! [`crate::template::Load`]), every function it kept translated to the rule IR or never
//! called, and no flag that changes how files are read is given. The engine decides that; the
//! store keys what it keeps by the files' names and bytes and the names of the run's `.star`
//! files (and the budgets the run reads with), and keeps the `.star` files' texts the schema
//! files loaded beside it: a later run uses it only when its files of those names have those
//! texts.

use super::*;
use crate::inputs::FileText;
use crate::lowered::ir::Program;
use crate::template::literal;
use crate::yaml::parse::Comment;

/// A schema kept from an earlier run.
pub struct StoredSchema {
    /// The schema lowered from the files (their merged schema documents).
    pub schema: Type,
    /// How many templates evaluating the files compiled (ytt's numbering: the data values
    /// templates after them are numbered as if the files had been evaluated).
    pub templates: u32,
    /// The rules of the schema (see [`StoredRules`]).
    pub rules: StoredRules,
    /// The `.star` files the schema files loaded (by the names they were given) and the texts
    /// they had: the schema holds for a run whose files of these names have these texts.
    pub loaded: Vec<(String, String)>,
}

/// What a store keys a schema on.
pub struct StoreKey<'a> {
    /// The schema files' names and texts, in the order given.
    pub files: Vec<(&'a str, &'a str)>,
    /// The names of the run's `.star` files, in the order given (which of them the schema
    /// files load, and their texts, the store keeps with the schema: [`StoredSchema::loaded`]).
    pub star_files: Vec<&'a str>,
}

/// The functions a schema's files kept, as a later run needs them without evaluating the files.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StoredRules {
    /// How many functions evaluating the files kept: their indices are reserved, so that the
    /// functions of the files read after them are numbered as if the files had been evaluated.
    pub functions: usize,
    /// The translations of the schema's rule and `when=` functions (every one the schema calls);
    /// none when it calls none.
    pub program: Option<Arc<Program>>,
}

/// Schema files whose lowered schema may be kept (names and texts), and how many templates
/// evaluating them compiled.
pub(super) struct Storable {
    pub(super) files: Vec<(String, Arc<str>)>,
    pub(super) templates: u32,
    /// The indices of the functions evaluating them kept.
    pub(super) functions: std::ops::Range<usize>,
    /// The names of the run's `.star` files (part of the key).
    pub(super) star_files: Vec<String>,
    /// The `.star` files evaluating them loaded, and their texts.
    pub(super) loaded: Vec<(String, Arc<str>)>,
}

/// Where a back end keeps lowered schemas between runs.
pub trait SchemaStore {
    /// The schema kept for exactly this key, if any (the engine checks its
    /// [`StoredSchema::loaded`]). Anything unusable (missing, foreign, corrupt) is `None`,
    /// never an error.
    fn load(&self, key: &StoreKey) -> Option<StoredSchema>;
    /// Keeps `schema`, the number of `templates` evaluating the files compiled, their `rules`
    /// and the `.star` files they `loaded` (names and texts), for this key. Failing to keep it
    /// is no error.
    fn save(
        &self,
        key: &StoreKey,
        schema: &Type,
        templates: u32,
        rules: &StoredRules,
        loaded: &[(&str, &str)],
    );
}

/// The schema files of a run that a store may answer for: every YAML input (`yaml`) that
/// mentions `data/values-schema` (`mentions`, one for each), in the order given. None when the
/// run's flags change how files are read or templated, when two inputs share a name, or when
/// no input is a schema file.
pub(super) fn candidates<'a>(
    yaml: &[&'a Input],
    mentions: &[bool],
    opts: &Request,
) -> Option<Vec<&'a Input>> {
    if opts.strict || opts.ignore_unknown_comments || opts.implicit_map_key_overrides {
        return None;
    }
    if a_name_repeats(yaml.iter().map(|i| i.name.as_str()).collect()) {
        return None;
    }
    let schema: Vec<&Input> = yaml
        .iter()
        .zip(mentions)
        .filter(|(i, &mentions)| mentions && i.reader_stop.is_none())
        .map(|(&i, _)| i)
        .collect();
    (!schema.is_empty()).then_some(schema)
}

/// The key of the schema `files` in a run of these files (`run`, what `load()` finds); none
/// when two `.star` files share a name (which one a `load()` finds is then not told by it).
pub(super) fn key<'a>(files: &[&'a Input], run: &'a [(String, FileText)]) -> Option<StoreKey<'a>> {
    let star_files = star_files(run);
    if a_name_repeats(star_files.clone()) {
        return None;
    }
    Some(StoreKey {
        files: files
            .iter()
            .map(|i| (i.name.as_str(), &**i.yaml_text()))
            .collect(),
        star_files,
    })
}

/// Whether some name is in `names` twice.
fn a_name_repeats(mut names: Vec<&str>) -> bool {
    names.sort_unstable();
    names.windows(2).any(|w| w[0] == w[1])
}

/// The names of the `.star` files among the run's files.
pub(super) fn star_files(run: &[(String, FileText)]) -> Vec<&str> {
    run.iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| n.ends_with(".star"))
        .collect()
}

/// Whether the `.star` files a kept schema's files loaded have, in this run's `files`, the
/// texts they had (each read now, as evaluating the schema files would read it).
pub(super) fn loads_unchanged(loaded: &[(String, String)], files: &[(String, FileText)]) -> bool {
    loaded.iter().all(|(name, text)| {
        files
            .iter()
            .find(|(n, _)| n == name)
            .is_some_and(|(_, t)| t.get().is_ok_and(|t| **t == **text))
    })
}

/// The `.star` files `loads` (those evaluating the schema files made) reached, with their texts
/// from `files`; none when one reached further ([`crate::template::Load::Outside`]) or holds
/// the name `print` (output of its own).
pub(super) fn loaded_star_files(
    loads: &[crate::template::Load],
    files: &[(String, FileText)],
) -> Option<Vec<(String, Arc<str>)>> {
    let mut loaded: Vec<(String, Arc<str>)> = Vec::new();
    for load in loads {
        let crate::template::Load::Star(name) = load else {
            return None;
        };
        if loaded.iter().any(|(n, _)| n == name) {
            continue;
        }
        let (_, text) = files.iter().find(|(n, _)| n == name)?;
        let text = text.get().ok()?;
        if has_name(text, "print") {
            return None;
        }
        loaded.push((name.clone(), Arc::clone(text)));
    }
    Some(loaded)
}

/// Whether the template code of a parsed schema file reaches nothing but the file itself and
/// what it `load()`s (which the engine follows: [`crate::template::Load`]), so that what
/// evaluating it makes depends on their texts alone: no name `print` anywhere (output of its
/// own), no `#@library/...` annotation. Conservative: the name anywhere in a comment counts.
pub(super) fn self_contained_file(raw: &RawFile) -> bool {
    let outside = |c: &Comment| c.text.starts_with("library/") || has_name(&c.text, "print");
    raw.trailing_comments.iter().all(|c| !outside(c))
        && raw
            .find_commented(|node| node.comments.iter().any(outside).then_some(()))
            .is_none()
}

/// Whether `name` is in `text` as a name (not part of a longer one).
fn has_name(text: &str, name: &str) -> bool {
    let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices(name).any(|(at, _)| {
        !part(text[..at].chars().next_back()) && !part(text[at + name.len()..].chars().next())
    })
}

/// Whether the functions a schema's files kept (`functions`, at indices `kept`) need no
/// interpreter in a later run given `program`, the translations of the schema's rules: each is
/// translated or never called ([`crate::template::functions::Functions::callable`]).
pub(super) fn rules_translated(
    schema: &Type,
    functions: &crate::template::functions::Functions,
    kept: std::ops::Range<usize>,
    program: Option<&Program>,
) -> bool {
    use crate::lowered::ir::Kind;
    use crate::schema::Check;
    let translated = |i: usize| program.is_some_and(|p| p.entries.contains_key(&i));
    let mut all_translated = true;
    schema.each_type(&mut |t| {
        let Some(v) = &t.validation else {
            return;
        };
        let rules = v.custom.iter().filter_map(|c| match &c.check {
            Check::Function(f) => Some((f, Kind::Rule)),
            Check::Named(..) => None,
        });
        for (f, kind) in rules.chain(v.when.iter().map(|f| (f, Kind::When))) {
            all_translated &= program.is_some_and(|p| p.entry(f, kind).is_some());
        }
    });
    let called = crate::template::functions::called_functions(schema);
    all_translated
        && kept
            .into_iter()
            .all(|i| translated(i) || !functions.callable(i, &called))
}

/// The annotations of a parsed schema file whose templating depends on nothing but its text
/// (every comment an annotation with literal arguments: no code line, no `load()`, none a
/// library's), read as [`literal::annotations`] reads them (the engine templates the file
/// with them: [`crate::template::evaluate_literal`]); `None` for any other file.
pub(super) fn literal_file(raw: &RawFile) -> Option<literal::Annotations> {
    let code = |c: &Comment| !c.is_annotation() || c.text.starts_with("library/");
    let literal = raw.trailing_comments.iter().all(|c| !code(c))
        && raw
            .find_commented(|node| node.comments.iter().any(code).then_some(()))
            .is_none();
    literal.then(|| literal::annotations(raw).ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn self_contained(text: &str) -> bool {
        let raw = crate::yaml::parse::parse_file("s.yml", text, false).unwrap();
        self_contained_file(&raw)
    }

    #[test]
    fn code_reaching_outside_the_file_is_found() {
        let schema = "#@data/values-schema\n---\n";
        for inside in [
            "#@ x = 1\n",
            "#@ def f(v):\n#@   return v.loader != \"printer\"\n#@ end\n",
            // A word in an annotation's text is no call: a description may say "load".
            "#@schema/desc \"load the balancer\"\n",
            // What a `load()` reaches the engine follows as it evaluates the file.
            "#@ load(\"@ytt:data\", \"data\")\n",
            "#@ load (\"x.star\", \"x\")\n",
        ] {
            assert!(
                self_contained(&format!("{inside}{schema}a: 1\n")),
                "{inside}"
            );
        }
        for outside in [
            "#@ x = print(\"made\")\n",
            "#@ p = print\n",
            "#@schema/desc str(print)\n",
        ] {
            assert!(
                !self_contained(&format!("{outside}{schema}a: 1\n")),
                "{outside}"
            );
        }
        assert!(!self_contained(&format!(
            "{schema}#@library/ref \"@lib\"\na: 1\n"
        )));
        assert!(!self_contained(&format!("{schema}a: 1\n#@ print(1)\n")));
    }
}
