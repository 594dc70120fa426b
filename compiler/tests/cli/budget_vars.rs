//! Budget variables set to bad values (`SCHEMAC_MAX_DEPTH=abc`): every subcommand stops before
//! any work, with the variable, its value and the default named, exit status 2; never a run
//! with the default in silence.

use super::*;

/// Runs `schemac ARGS` in the cases' directory with `env` set: the exit status, standard output
/// and standard error.
fn run(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let o = Command::new(BIN)
        .args(args)
        .current_dir(workdir())
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const CHECK: &[&str] = &["check", "-f", "schema.yml", "-f", "values.yml"];

#[test]
fn a_bad_budget_variable_stops_check_with_its_name_and_value() {
    let not_a_number = |value: &str| {
        format!("schemac: Error: SCHEMAC_MAX_DEPTH: {value:?} is not a whole number (digits only; unset it for the default 2000)\n")
    };
    for value in ["abc", "-1", "+5", "1e3", "1_000", "10 0"] {
        let (rc, out, err) = run(CHECK, &[("SCHEMAC_MAX_DEPTH", value)]);
        assert_eq!((rc, out.as_str()), (Some(2), ""), "{value}: {err}");
        assert_eq!(err, not_a_number(value));
    }
    let (rc, out, err) = run(
        CHECK,
        &[("SCHEMAC_MAX_INPUT_BYTES", "99999999999999999999999")],
    );
    assert_eq!((rc, out.as_str()), (Some(2), ""), "{err}");
    assert_eq!(
        err,
        format!(
            "schemac: Error: SCHEMAC_MAX_INPUT_BYTES: \"99999999999999999999999\" is larger than the largest budget it takes, {} (unset it for the default 268435456)\n",
            usize::MAX
        )
    );
    // Any budget's variable, the Starlark ones too, even where the run would not read it.
    let (rc, _, err) = run(CHECK, &[("SCHEMAC_STARLARK_STEPS", "lots")]);
    assert_eq!(rc, Some(2), "{err}");
    assert!(
        err.starts_with("schemac: Error: SCHEMAC_STARLARK_STEPS: \"lots\" is not a whole number"),
        "{err}"
    );
}

#[test]
fn valid_budget_variables_still_answer() {
    let (rc, expected, err) = run(CHECK, &[]);
    assert_eq!(rc, Some(0), "{err}");
    // Spaces around the digits, leading zeros, and a variable set to nothing (the default).
    for value in ["5000", " 5000\t", "0100", ""] {
        let (rc, out, err) = run(CHECK, &[("SCHEMAC_MAX_DEPTH", value)]);
        assert_eq!((rc, &out), (Some(0), &expected), "{value:?}: {err}");
    }
    // A valid value is the budget: 1 level is too few for the schema's map in a map.
    let (rc, _, err) = run(CHECK, &[("SCHEMAC_MAX_DEPTH", "1")]);
    assert_eq!(rc, Some(1), "{err}");
    assert!(
        err.contains("raise the budget with SCHEMAC_MAX_DEPTH"),
        "{err}"
    );
}

#[test]
fn every_subcommand_stops_on_a_bad_budget_variable() {
    let env = [("SCHEMAC_MAX_CODEGEN_NODES", "20k")];
    let expected = "schemac: Error: SCHEMAC_MAX_CODEGEN_NODES: \"20k\" is not a whole number (digits only; unset it for the default 20000)\n";
    for args in [
        &["gen", "schema.yml"][..],
        &["inspect", "schema.yml", "-o", "markdown"],
        &["explain-rules", "schema.yml"],
        &["build", "schema.yml", "-o", "never-built"],
        &["check", "-f", "schema.yml"],
    ] {
        let (rc, out, err) = run(args, &env);
        assert_eq!(
            (rc, out.as_str(), err.as_str()),
            (Some(2), "", expected),
            "{args:?}"
        );
    }
    assert!(!workdir().join("never-built").exists());
}

/// `SCHEMAC_STARLARK_CALL_DEPTH=0` was the default in silence (the interpreter takes no budget
/// of 0 calls): refused, as a value past the largest is.
#[test]
fn a_call_depth_of_zero_is_refused() {
    let (rc, out, err) = run(CHECK, &[("SCHEMAC_STARLARK_CALL_DEPTH", "0")]);
    assert_eq!((rc, out.as_str()), (Some(2), ""), "{err}");
    assert_eq!(
        err,
        "schemac: Error: SCHEMAC_STARLARK_CALL_DEPTH: \"0\" is smaller than the least budget it takes, 1 (unset it for the default 10000)\n"
    );
}

/// A nesting budget past what the stack holds let a deep input abort the process
/// (`SCHEMAC_MAX_DEPTH=10000000` and 1,000,000 nested lists): refused before any work.
#[test]
fn a_depth_past_what_the_stack_holds_is_refused() {
    let (rc, out, err) = run(CHECK, &[("SCHEMAC_MAX_DEPTH", "10000000")]);
    assert_eq!((rc, out.as_str()), (Some(2), ""), "{err}");
    assert_eq!(
        err,
        "schemac: Error: SCHEMAC_MAX_DEPTH: \"10000000\" is larger than the largest budget it takes, 50000 (a deeper one overflows the stack; unset it for the default 2000)\n"
    );
}

/// `SCHEMAC_STARLARK_CALL_DEPTH` past its ceiling was held to it in silence, where the other
/// budgets bound by the stack refuse a larger value: refused the same way, before any work.
#[test]
fn a_call_depth_past_what_the_stack_holds_is_refused() {
    let (rc, out, err) = run(CHECK, &[("SCHEMAC_STARLARK_CALL_DEPTH", "500001")]);
    assert_eq!((rc, out.as_str()), (Some(2), ""), "{err}");
    assert_eq!(
        err,
        "schemac: Error: SCHEMAC_STARLARK_CALL_DEPTH: \"500001\" is larger than the largest budget it takes, 500000 (a deeper one overflows the stack; unset it for the default 10000)\n"
    );
    let (rc, _, err) = run(CHECK, &[("SCHEMAC_STARLARK_CALL_DEPTH", "500000")]);
    assert_eq!(rc, Some(0), "{err}");
}

/// The statement budget is looked at every statement: below 1,024 it was 1,024 (a loop of 100
/// ran under `SCHEMAC_STARLARK_STEPS=1`), and others were rounded up to a multiple of it.
#[test]
fn a_small_statement_budget_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let schema = "#@ x = 0\n#@ for i in range(100):\n#@   x += i\n#@ end\n#@data/values-schema\n---\ntotal: #@ x\n";
    std::fs::write(dir.path().join("loop.yml"), schema).unwrap();
    let answer = |steps: &str| {
        let o = Command::new(BIN)
            .args(["check", "-f", "loop.yml"])
            .current_dir(dir.path())
            .env("SCHEMAC_STARLARK_STEPS", steps)
            .env("SCHEMAC_SCHEMA_CACHE_BYTES", "0")
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    // About 110 statements: the loop's 100 and the template's own.
    let (rc, out, err) = answer("250");
    assert_eq!((rc, out.as_str()), (Some(0), "total: 4950\n"), "{err}");
    for steps in ["1", "50"] {
        let (rc, _, err) = answer(steps);
        assert_eq!(rc, Some(1), "{steps}: {err}");
        assert!(
            err.contains(&format!(
                "evaluation stopped after {steps} Starlark statements"
            )),
            "{steps}: {err}"
        );
    }
}
