//! The `schemac` command line.

use std::process::ExitCode;

fn usage() -> &'static str {
    "schemac — ytt data-values schemas, checked fast\n\n\
     Usage:\n  schemac check -f FILE... [ytt data-values flags]   print the final data values, or every violation\n\n\
     Flags of check (as in ytt): -f/--file, --data-values-inspect (default), --data-values-schema-inspect -o openapi-v3,\n\
     -o json, -v/--data-value k=v, --data-value-yaml k=yaml, --data-value-file k=path, --data-values-file path,\n\
     --data-values-env PREFIX, --data-values-env-yaml PREFIX, --strict, --dangerous-data-values-disable-validation"
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("check") => ExitCode::from(schemac::check::main_with(&args[1..]) as u8),
        Some("-h" | "--help" | "help") => {
            println!("{}", usage());
            ExitCode::SUCCESS
        }
        Some("--version" | "version") => {
            println!("schemac {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{}", usage());
            ExitCode::from(2)
        }
    }
}
