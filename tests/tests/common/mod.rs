//! Helpers shared by the test files.

use std::path::PathBuf;

use schemac::check::{evaluate, Outcome, INTERPRETER};
use schemac_runtime::cli::parse;
use schemac_runtime::value::Node;

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

#[allow(dead_code)] // the files that run `check`
pub fn workdir(files: &[(&str, &str)]) -> PathBuf {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("schemac-test-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

#[allow(dead_code)]
/// Runs `check` in a directory holding `files`, with arguments as on the command line.
pub fn check(files: &[(&str, &str)], args: &[&str]) -> Result<Node, String> {
    let dir = workdir(files);
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            if files.iter().any(|(n, _)| n == a) {
                dir.join(a).to_string_lossy().to_string()
            } else {
                a.to_string()
            }
        })
        .collect();
    let opts = parse(&args).map_err(|e| format!("usage: {e}"))?;
    // On the stack the command line gives its pipeline (deep documents recurse through it).
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(schemac_runtime::cli::STACK_BYTES)
            .spawn_scoped(scope, || match evaluate(&opts.request, &INTERPRETER) {
                Ok(
                    Outcome::DataValues(n)
                    | Outcome::EmptyFromCode(n)
                    | Outcome::Unprinted(n)
                    | Outcome::OpenApi(n)
                    | Outcome::JsonSchema(n),
                ) => Ok(n),
                Ok(Outcome::Invalid(v)) => Err(schemac_runtime::validate::render(&v)),
                Err(e) => Err(e.into_message()),
            })
            .expect("a thread for the pipeline")
            .join()
            .expect("the pipeline does not panic")
    })
}
