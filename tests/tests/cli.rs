//! The help of a built validator (`./harbor-values --help`), on a generated validator of the
//! codegen fixtures. The process-level tests of the command line are in
//! `compiler/tests/cli.rs` (they need the `schemac` binary). Regenerate the golden file with
//! `SCHEMAC_BLESS=1 cargo test --release -p schemac-tests --test cli`.

mod web {
    #![allow(dead_code)]
    include!("../fixtures/codegen/web.rs");
}

use schemac_runtime::cli::{help, parse_os, ArgError, Request};

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
        Ok(Request::Help)
    ));
    assert!(matches!(
        parse_os(&args(&["extra", "--version"])),
        Ok(Request::Version)
    ));
    assert_eq!(
        parse_os(&args(&["--bogus"])).unwrap_err(),
        ArgError::Ytt("unknown flag: --bogus".into())
    );
    let Ok(Request::Run(o)) = parse_os(&args(&[
        "-fa.yml",
        "-f=b.yml",
        "--file",
        "c.yml",
        "-sv",
        "k=v",
        "-o",
        "json,yaml",
    ])) else {
        panic!("parses")
    };
    assert_eq!(
        (o.files, o.strict, o.data_value, o.output),
        (
            vec!["a.yml".into(), "b.yml".into(), "c.yml".into()],
            true,
            vec!["k=v".into()],
            vec!["json".into(), "yaml".into()]
        )
    );
}
