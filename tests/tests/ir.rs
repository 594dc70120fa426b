//! Snapshots of the schema IR of every schema in the shared realworld corpus
//! (`../shared/realworld`, beside the repository): `tests/fixtures/ir/<case>.txt`, one line per
//! type (its path, then its fields in `Debug` form; a map's default only where it is not its
//! fields' defaults, since each field's line shows those).
//!
//! The IR is plain data, so these files show what a change to schema lowering does to real
//! schemas. Regenerate with `SCHEMAC_UPDATE_SNAPSHOTS=1 cargo test --release -p schemac-tests
//! --test ir` and review the diff. Skipped (with a message) where the corpus is absent.

mod common;

use std::fmt::Write;
use std::path::Path;

use schemac_runtime::schema::{Kind, Type};

/// One line per type, depth first.
fn outline(ty: &Type, path: &str, out: &mut String) {
    let kind = match &ty.kind {
        Kind::Map(_) => "map".to_string(),
        Kind::Array(_) => "array".to_string(),
        other => format!("{other:?}"),
    };
    let default = if ty.default_is_fields_defaults() {
        "(fields)".to_string()
    } else {
        format!("{:?}", ty.default)
    };
    writeln!(
        out,
        "{path} {kind} nullable={} pos={:?} default={default} doc={:?} validation={:?}",
        ty.nullable, ty.pos, ty.doc, ty.validation
    )
    .unwrap();
    match &ty.kind {
        Kind::Map(fields) => {
            for f in fields {
                outline(&f.ty, &format!("{path}.{:?}", f.key), out);
            }
        }
        Kind::Array(item) => outline(item, &format!("{path}[]"), out),
        _ => {}
    }
}

/// The `-f` files of a case's `args.defaults`, in order.
fn schema_files(case: &Path) -> Vec<String> {
    let args = std::fs::read_to_string(case.join("args.defaults")).unwrap_or_default();
    let lines: Vec<&str> = args.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[0] == "-f")
        .map(|w| w[1].to_string())
        .collect()
}

#[test]
fn realworld_schemas_lower_to_the_recorded_ir() {
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/realworld");
    let Ok(entries) = std::fs::read_dir(corpus) else {
        eprintln!("skipped: the shared realworld corpus is not at {corpus}");
        return;
    };
    let mut cases: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("schema.yml").is_file())
        .collect();
    cases.sort();
    let snapshots = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ir");
    std::fs::create_dir_all(snapshots).unwrap();
    let mut differ = Vec::new();
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        // File names in positions are as the corpus gives them (relative to the case).
        let files: Vec<(String, std::path::PathBuf)> = schema_files(case)
            .into_iter()
            .map(|f| (f.clone(), case.join(&f)))
            .collect();
        let text = match schemac_runtime::engine::load_schema_named(
            &files,
            &schemac::check::INTERPRETER,
        ) {
            Ok(loaded) => {
                let mut text = String::new();
                match &loaded.schema {
                    Some(ty) => outline(ty, "$", &mut text),
                    None => text.push_str("no schema\n"),
                }
                text
            }
            Err(e) => format!("error: {:?} {:?}\n{}\n", e.kind, e.pos, e.message()),
        };
        let path = format!("{snapshots}/{name}.txt");
        if common::update_snapshot(&path, &text) {
            differ.push(name);
        }
    }
    assert!(
        differ.is_empty(),
        "the IR of {} schema(s) differs from its snapshot (see the module docs): {differ:?}",
        differ.len()
    );
}
