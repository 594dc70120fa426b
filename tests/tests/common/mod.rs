//! Helpers shared by the test files.

/// Compares generated code with its snapshot at `path`, or rewrites the snapshot when
/// `SCHEMAC_UPDATE_SNAPSHOTS` is set.
#[allow(dead_code)] // each test file uses one of the two
pub fn assert_snapshot(path: &str, code: &str) {
    assert!(
        !update_snapshot(path, code),
        "generated code differs from {path}; regenerate and review (see the test's module docs)"
    );
}

/// Rewrites the snapshot at `path` when `SCHEMAC_UPDATE_SNAPSHOTS` is set; whether `text`
/// differs from it.
pub fn update_snapshot(path: &str, text: &str) -> bool {
    if std::env::var_os("SCHEMAC_UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(path, text).unwrap();
    }
    std::fs::read_to_string(path).unwrap_or_default() != text
}
