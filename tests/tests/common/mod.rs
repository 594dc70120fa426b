//! Helpers shared by the test files.

/// Compares generated code with its snapshot at `path`, or rewrites the snapshot when
/// `SCHEMAC_UPDATE_SNAPSHOTS` is set.
pub fn assert_snapshot(path: &str, code: &str) {
    if std::env::var_os("SCHEMAC_UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(path, code).unwrap();
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        code == expected,
        "generated code differs from {path}; regenerate and review (see the test's module docs)"
    );
}
