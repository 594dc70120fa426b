//! The help of a built validator (`./harbor-values --help`), on a generated validator of the
//! codegen fixtures. The process-level tests of the command line are in
//! `compiler/tests/cli.rs` (they need the `schemac` binary). Regenerate the golden file with
//! `SCHEMAC_BLESS=1 cargo test --release -p schemac-tests --test cli`.

mod web {
    #![allow(dead_code)]
    include!("../fixtures/codegen/web.rs");
}

use schemac_runtime::cli::{help, parse_os, ArgError, DataValues, Invocation};

#[test]
fn validator_help() {
    let text = help(&schemac_runtime::validator::command(&web::VALIDATOR));
    let golden = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/cli/validator-help.txt"
    );
    if std::env::var_os("SCHEMAC_BLESS").is_some() {
        std::fs::create_dir_all(std::path::Path::new(golden).parent().unwrap()).unwrap();
        std::fs::write(golden, &text).unwrap();
    }
    let expected = std::fs::read_to_string(golden).unwrap_or_default();
    assert_eq!(
        text, expected,
        "differs from {golden} (SCHEMAC_BLESS=1 to update)"
    );
}

#[test]
fn validators_parse_ytt_flags() {
    let args = |a: &[&str]| a.iter().map(std::ffi::OsString::from).collect::<Vec<_>>();
    assert!(matches!(
        parse_os(&args(&["-f", "x", "--help"])),
        Ok(Invocation::Help)
    ));
    assert!(matches!(
        parse_os(&args(&["extra", "--version"])),
        Ok(Invocation::Version)
    ));
    assert_eq!(
        parse_os(&args(&["--bogus"])).unwrap_err(),
        ArgError::Ytt("unknown flag: --bogus".into())
    );
    let Ok(Invocation::Run(o)) = parse_os(&args(&[
        "-fa.yml",
        "-f=b.yml",
        "--file",
        "c.yml",
        "-sv",
        "k=v",
        "-o",
        "json,yaml",
        "--data-value-file=k=f",
        "--data-values-file=d",
        "--data-value-yaml=y=1",
    ])) else {
        panic!("parses")
    };
    let r = o.request;
    assert_eq!(
        (r.files, r.strict, r.output),
        (
            vec!["a.yml".into(), "b.yml".into(), "c.yml".into()],
            true,
            vec!["json".into(), "yaml".into()]
        )
    );
    // The data values flags in ytt's order of application, whatever their order given.
    let kv = |a: &str, yaml| DataValues::KeyValue {
        assignment: a.into(),
        yaml,
    };
    assert_eq!(
        r.data_values,
        [
            DataValues::Files("d".into()),
            kv("k=v", false),
            kv("y=1", true),
            DataValues::KeyFile("k=f".into())
        ]
    );
}
