//! The values files of `../shared/bench/gen.py`'s workloads, generated here so that the
//! in-process benchmark runs in a clone without `../shared` (the schemas, which
//! `include_schema!` reads at compile time, are gen.py's, copied to `workloads/`). The bench
//! compares these texts with gen.py's output when gen.py is there (`same_as_gen_py`).

use std::fmt::Write;

/// The workloads the in-process benchmark runs (custom10k's Starlark rules are left out:
/// jsonschema-rs has nothing to compare them with).
pub const WORKLOADS: [&str; 3] = ["typical", "array10k", "keys5k"];

/// gen.py's `values.yml` for a workload: a `#@data/values` document.
pub fn values_file(workload: &str) -> String {
    let mut s = String::from("#@data/values\n---\n");
    match workload {
        "typical" => {
            for g in 0..12 {
                let _ = writeln!(s, "group{g}:\n  port: {}", 9000 + g);
                s.push_str("  hosts: [a.example.com, b.example.com]\n");
                if g % 2 == 0 {
                    s.push_str("  tls: {cert: abc}\n");
                }
            }
        }
        "array10k" => {
            s.push_str("endpoints:\n");
            for i in 0..10_000 {
                let port = 1 + i % 60_000;
                let _ = writeln!(
                    s,
                    "- name: ep{i}\n  port: {port}\n  host: host{i}.example.com"
                );
                if i % 3 == 0 {
                    s.push_str("  labels: {team: core}\n");
                }
            }
        }
        "keys5k" => {
            for g in 0..50 {
                let _ = writeln!(s, "g{g}:");
                for k in 0..100 {
                    let _ = match k % 4 {
                        0 => writeln!(s, "  k{k}: v{g}_{k}"),
                        1 => writeln!(s, "  k{k}: {}", g * k),
                        2 => writeln!(s, "  k{k}: true"),
                        _ => writeln!(s, "  k{k}: {g}.5"),
                    };
                }
            }
        }
        other => panic!("no workload named {other}"),
    }
    s
}

/// The same values as plain YAML (what `from_yaml_str` takes, as `--data-values-file`).
pub fn plain_values(workload: &str) -> String {
    values_file(workload).replacen("#@data/values\n", "", 1)
}

/// Whether the values above are gen.py's, byte for byte: `Some(false)` if not, `None` when
/// `../shared/bench/gen.py` (or python3) is not there to compare with.
pub fn same_as_gen_py() -> Option<bool> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let gen = root.join("shared/bench/gen.py");
    if !gen.exists() {
        return None;
    }
    let out = std::env::temp_dir().join(format!("schemac-bench-gen-{}", std::process::id()));
    let ran = std::process::Command::new("python3")
        .arg(&gen)
        .arg(&out)
        .status()
        .ok()?;
    let same = ran.success()
        && WORKLOADS.iter().all(|w| {
            std::fs::read_to_string(out.join(w).join("values.yml")).ok() == Some(values_file(w))
                && std::fs::read_to_string(out.join(w).join("schema.yml")).ok()
                    == std::fs::read_to_string(
                        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                            .join("workloads")
                            .join(w)
                            .join("schema.yml"),
                    )
                    .ok()
        });
    let _ = std::fs::remove_dir_all(&out);
    Some(same)
}
