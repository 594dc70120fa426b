//! A service that reads its configuration through `include_schema!`: typed structs with the
//! schema's defaults, and every check `schemac check` makes, at startup.
//!
//! Run: `cargo run -p example-service [-- values.yml...]` (default: `config/values.yml`).

use std::process::ExitCode;

schemac_macros::include_schema!("config/schema.yml", root = "Config");

fn main() -> ExitCode {
    let files: Vec<String> = std::env::args().skip(1).collect();
    let files = if files.is_empty() {
        vec![concat!(env!("CARGO_MANIFEST_DIR"), "/config/values.yml").to_string()]
    } else {
        files
    };
    let config = match Config::load(&files) {
        Ok(c) => c,
        Err(violations) => {
            eprintln!("invalid configuration: {violations}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "listening on {}:{} (log level {})",
        config.listen.host, config.listen.port, config.log_level
    );
    println!("tls: {}", if config.tls.is_some() { "on" } else { "off" });
    for u in &config.upstreams {
        println!("upstream {} -> {} (weight {})", u.name, u.url, u.weight);
    }
    ExitCode::SUCCESS
}
