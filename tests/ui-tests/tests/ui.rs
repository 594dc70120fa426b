//! `include_schema!` compile errors and a passing use, with trybuild.
//!
//! The cases name schemas as `ui-schemas/...`, resolved against the trybuild project's
//! `CARGO_MANIFEST_DIR`, where a link to `ui/schemas` is made first. Regenerate the
//! `.stderr` files with `TRYBUILD=overwrite cargo test --release -p schemac-ui-tests --test ui`
//! and review them.

#[test]
fn ui() {
    // trybuild builds in the target directory: `CARGO_TARGET_DIR` (relative to the workspace
    // root) or the workspace's `target/`.
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| workspace.join("target"), |dir| workspace.join(dir));
    let project = target.join("tests/trybuild").join(env!("CARGO_PKG_NAME"));
    std::fs::create_dir_all(&project).unwrap();
    let link = project.join("ui-schemas");
    let _ = std::fs::remove_file(&link);
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/schemas"),
        &link,
    )
    .unwrap();
    // The cases' programs are only compiled (one runs): trybuild's debug profile without
    // debug info, which nothing here reads, compiles its dependencies in less time.
    std::env::set_var("CARGO_PROFILE_DEV_DEBUG", "false");
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/missing_file.rs");
    t.compile_fail("ui/bad_yaml.rs");
    t.compile_fail("ui/bad_annotation.rs");
    t.compile_fail("ui/bad_rule.rs");
    t.compile_fail("ui/starlark_syntax.rs");
    t.compile_fail("ui/serde_keys_alike.rs");
    t.pass("ui/pass_typed_api.rs");
}
