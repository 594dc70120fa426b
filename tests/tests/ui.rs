//! `include_schema!` compile errors and a passing use, with trybuild.
//!
//! The cases name schemas as `ui-schemas/...`, resolved against the trybuild project's
//! `CARGO_MANIFEST_DIR`, where a link to `tests/ui/schemas` is made first. Regenerate the
//! `.stderr` files with `TRYBUILD=overwrite cargo test --release -p schemac-tests --test ui`
//! and review them.

#[test]
fn ui() {
    // trybuild builds in the target directory: `CARGO_TARGET_DIR` (relative to the workspace
    // root) or the workspace's `target/`.
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| workspace.join("target"), |dir| workspace.join(dir));
    let project = target.join("tests/trybuild/schemac-tests");
    std::fs::create_dir_all(&project).unwrap();
    let link = project.join("ui-schemas");
    let _ = std::fs::remove_file(&link);
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/schemas"),
        &link,
    )
    .unwrap();
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/missing_file.rs");
    t.compile_fail("ui/bad_yaml.rs");
    t.compile_fail("ui/bad_annotation.rs");
    t.compile_fail("ui/bad_rule.rs");
    t.compile_fail("ui/starlark_syntax.rs");
    t.compile_fail("ui/serde_keys_alike.rs");
    t.pass("ui/pass_typed_api.rs");
}
