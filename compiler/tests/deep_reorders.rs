//! Time on hostile programs through the `schemac` binary, with the environment a developer
//! often has (`RUST_BACKTRACE=1`).

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_schemac");

#[test]
fn nested_calls_with_keyword_arguments_after_args_are_reordered_in_one_pass() {
    // `f(*[1], k=f(*[1], k=...))` 20,000 deep: each call's reorder moved the text of every
    // call inside it again (quadratic: 40,000 took 43 s, ytt 3.4 s), and with
    // `RUST_BACKTRACE=1` each parse error the interpreter's parser made captured a backtrace
    // as deep as the calls (10,000 passed 2 minutes and 4 GB).
    let n = 20_000;
    let values = format!(
        "#@ def f(*a, **k):\n#@   return k[\"k\"] + 1\n#@ end\n#@ x = {}0{}\n#@data/values\n---\na: #@ x\n",
        "f(*[1], k=".repeat(n),
        ")".repeat(n)
    );
    let dir = std::env::temp_dir().join(format!("schemac-deep-reorders-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("values.yml"), values).unwrap();
    let started = std::time::Instant::now();
    let out = Command::new(BIN)
        .args(["check", "-f", "values.yml"])
        .current_dir(&dir)
        .env("RUST_BACKTRACE", "1")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .unwrap();
    let took = started.elapsed();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("a: {n}\n"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(took.as_secs() < 20, "took {took:?}");
}
