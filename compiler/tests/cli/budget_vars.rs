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
    let (rc, out, err) = run(CHECK, &[("SCHEMAC_MAX_DEPTH", "99999999999999999999999")]);
    assert_eq!((rc, out.as_str()), (Some(2), ""), "{err}");
    assert_eq!(
        err,
        format!(
            "schemac: Error: SCHEMAC_MAX_DEPTH: \"99999999999999999999999\" is larger than the largest budget it takes, {} (unset it for the default 2000)\n",
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
