//! The floor of the benchmarks: reads YAML files with positions and comments, as every
//! validator must, and does nothing else. Usage: `parse_yaml FILE...`
//!
//! `bench/run.py` builds it with `--features mimalloc`, the allocator of the programs it is
//! compared with.

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: schemac_runtime::__private::MiMalloc = schemac_runtime::__private::MiMalloc;

fn main() {
    let mut nodes = 0usize;
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("{path}: {e}");
            std::process::exit(1)
        });
        match schemac_runtime::yaml::parse::parse_file(&path, &text, false) {
            Ok(file) => nodes += file.docs.len(),
            Err(e) => {
                eprintln!("{path}:{}: {}", e.line, e.message);
                std::process::exit(1)
            }
        }
    }
    println!("{nodes} documents");
}
