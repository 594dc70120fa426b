//! The `schemac` command line.

use std::path::PathBuf;
use std::process::ExitCode;

use schemac::codegen::CodegenOptions;
use schemac::standalone;
use schemac_runtime::engine::CheckError;
use schemac_runtime::report::multi_line;

const USAGE: &str = "schemac — ytt data-values schemas, checked fast

Usage:
  schemac check -f FILE... [ytt data-values flags]   the final data values, or every violation
  schemac gen SCHEMA... [-o FILE] [--name NAME]       the Rust code generated for a schema
  schemac build SCHEMA... -o BIN [--with-starlark]    a standalone validator binary (--with-starlark:
                                                      link the interpreter even if every rule compiled
                                                      to Rust, for values files that run Starlark)
  schemac explain-rules SCHEMA...                     which rule functions compile to Rust, and why
                                                      others stay in the Starlark interpreter
  schemac --version

Flags of check (as in ytt): -f/--file, --data-values-inspect (default), --data-values-schema-inspect -o openapi-v3,
-o json, -v/--data-value k=v, --data-value-yaml k=yaml, --data-value-file k=path, --data-values-file path,
--data-values-env PREFIX, --data-values-env-yaml PREFIX, --strict, --dangerous-data-values-disable-validation,
--violations-format json";

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("schemac: Error: {msg}\n\n{USAGE}");
    ExitCode::from(2)
}

/// Splits `SCHEMA... -o OUT [--name N]`.
fn files_and_output(
    args: &[String],
) -> Result<(Vec<String>, Option<String>, Option<String>), String> {
    let (mut files, mut out, mut name) = (Vec::new(), None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-o" | "--output" => out = Some(it.next().ok_or("-o needs a file name")?.clone()),
            "--name" => name = Some(it.next().ok_or("--name needs a name")?.clone()),
            "-f" | "--file" => files.push(it.next().ok_or("-f needs a file name")?.clone()),
            flag if flag.starts_with('-') => return Err(format!("unknown flag: {flag}")),
            file => files.push(file.to_string()),
        }
    }
    if files.is_empty() {
        return Err("no schema files given".into());
    }
    Ok((files, out, name))
}

fn gen(args: &[String]) -> ExitCode {
    let (files, out, name) = match files_and_output(args) {
        Ok(x) => x,
        Err(e) => return usage_error(&e),
    };
    let opts = CodegenOptions {
        validator_name: name.unwrap_or_else(|| "validator".into()),
        ..CodegenOptions::default()
    };
    match standalone::gen(&files, &opts) {
        Ok(code) => match out {
            None => {
                print!("{code}");
                ExitCode::SUCCESS
            }
            Some(path) => match write_atomically(&PathBuf::from(&path), &code) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("schemac: Error: {e}");
                    ExitCode::from(1)
                }
            },
        },
        Err(CheckError(msg)) => {
            eprintln!("schemac: Error: {}", multi_line(&msg));
            ExitCode::from(1)
        }
    }
}

fn write_atomically(path: &std::path::Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("schemac-tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {}: {e}", path.display())
    })
}

fn build(args: &[String]) -> ExitCode {
    // `--with-starlark`: link the interpreter even when every rule compiled to Rust, so that
    // users' values files may run Starlark (their own `#@assert/validate` lambdas, functions).
    let with_starlark = args.iter().any(|a| a == "--with-starlark");
    let args: Vec<String> = args
        .iter()
        .filter(|a| *a != "--with-starlark")
        .cloned()
        .collect();
    let (files, out) = match files_and_output(&args) {
        Ok((files, Some(out), _)) => (files, out),
        Ok(_) => return usage_error("schemac build needs -o BIN"),
        Err(e) => return usage_error(&e),
    };
    let mut progress = |msg: &str| eprintln!("schemac: {msg}");
    match standalone::build(&files, &PathBuf::from(&out), with_starlark, &mut progress) {
        Ok(b) => {
            eprintln!(
                "schemac: built {} ({:.1} MB{}) in {:.1}s",
                b.path.display(),
                b.size as f64 / 1e6,
                if b.starlark {
                    ", with the Starlark interpreter"
                } else {
                    ""
                },
                b.seconds
            );
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("schemac: Error: {msg}");
            ExitCode::from(1)
        }
    }
}

fn explain_rules(args: &[String]) -> ExitCode {
    let files = match files_and_output(args) {
        Ok((files, None, None)) => files,
        Ok(_) => return usage_error("schemac explain-rules takes schema files only"),
        Err(e) => return usage_error(&e),
    };
    match standalone::compile(&files) {
        Ok(compiled) => {
            println!(
                "{}",
                schemac::codegen::lowering(&compiled, &CodegenOptions::default()).explain()
            );
            ExitCode::SUCCESS
        }
        Err(CheckError(msg)) => {
            eprintln!("schemac: Error: {}", multi_line(&msg));
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("check") => ExitCode::from(schemac::check::main_with(&args[1..]) as u8),
        Some("gen") => gen(&args[1..]),
        Some("build") => build(&args[1..]),
        Some("explain-rules") => explain_rules(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("--version" | "version") => {
            println!("schemac {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some(other) => usage_error(&format!("unknown command: {other}")),
        None => usage_error("no command given"),
    }
}
