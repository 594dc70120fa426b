//! The fuzz targets: what one fuzz input runs through, and the contract it must keep — no
//! panic, no abort, no hang past a named budget, every error with a message.
//!
//! The same functions run under libFuzzer (`fuzz/`, coverage-guided, long runs) and in
//! `cargo test` (`tests/tests/fuzz.rs` replays `fuzz/corpus` and fixed-seed mutations of it).
//! A broken contract (or an `internal error` message: an invariant of schemac's broken) panics,
//! which both drivers report as a failure with the input.

use std::sync::{Arc, Once};

use schemac::check::INTERPRETER;
use schemac_runtime::engine;
use schemac_runtime::inputs;
use schemac_runtime::request::{DataValues, Request};
use schemac_runtime::template::{self, Sources};
use schemac_runtime::yaml::parse::parse_file;

mod typed;
mod typed_values;
pub use typed::{typed, SCHEMAS};

/// The budgets the targets run under, low so that an input that would run long or allocate
/// much ends at its budget in milliseconds (the budgets are read once per process).
pub const BUDGETS: [(&str, &str); 4] = [
    ("SCHEMAC_STARLARK_STEPS", "200000"),
    ("SCHEMAC_STARLARK_MEMORY", "67108864"),
    ("SCHEMAC_MAX_ALIAS_NODES", "100000"),
    ("SCHEMAC_MAX_DEPTH", "2000"),
];

/// Sets [`BUDGETS`] in this process's environment, once, before any target reads them.
pub fn set_budgets() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for (var, value) in BUDGETS {
            // Set once, before the targets run and read the environment.
            std::env::set_var(var, value);
        }
    });
}

/// A fuzz target: a name (its directory under `fuzz/corpus/`) and the function it runs.
pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]),
}

/// Every target, in the order `fuzz/README.md` lists them.
pub const TARGETS: [Target; 5] = [
    Target {
        name: "yaml",
        run: yaml,
    },
    Target {
        name: "readers",
        run: readers,
    },
    Target {
        name: "check",
        run: check,
    },
    Target {
        name: "template",
        run: template,
    },
    Target {
        name: "typed",
        run: typed,
    },
];

/// The YAML reader (the fast block reader, saphyr-parser when it declines, comment
/// attachment), lenient and `--strict`.
pub fn yaml(data: &[u8]) {
    set_budgets();
    let text = String::from_utf8_lossy(data).into_owned();
    on_large_stack(move || {
        for strict in [false, true] {
            if let Err(e) = parse_file("fuzz.yml", &text, strict) {
                assert_message(&e.detail(), "yaml reader");
            }
        }
    });
}

/// The fast block reader against saphyr-parser: wherever the block reader reads the input, the
/// same nodes, lines, comments and document flags; where it stops at the depth budget,
/// saphyr-parser fails too (`schemac_runtime::yaml::compare_readers`).
pub fn readers(data: &[u8]) {
    set_budgets();
    let text = String::from_utf8_lossy(data).into_owned();
    on_large_stack(move || {
        if let Err(e) = schemac_runtime::yaml::compare_readers(&text) {
            panic!("{e}");
        }
    });
}

/// The whole `schemac check` pipeline. The input is NUL-separated: `schema.yml`, `values.yml`,
/// then `--data-value-yaml` arguments. A YAML answer must read back as YAML.
pub fn check(data: &[u8]) {
    set_budgets();
    let mut parts = data.split(|b| *b == 0);
    let schema = parts.next().unwrap_or_default().to_vec();
    let values = parts.next().map(<[u8]>::to_vec);
    let flags: Vec<String> = parts
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    on_large_stack(move || {
        let mut files = vec![inputs::decode("schema.yml".into(), schema)];
        if let Some(values) = values {
            files.push(inputs::decode("values.yml".into(), values));
        }
        let mut opts = Request::default();
        opts.files = files.iter().map(|f| f.name.clone()).collect();
        opts.data_values = flags
            .into_iter()
            .map(|assignment| DataValues::KeyValue {
                assignment,
                yaml: true,
            })
            .collect();
        match engine::run_inputs(files, &opts, &INTERPRETER) {
            Ok(out) => {
                if let Err(e) = parse_file("output.yml", &out, false) {
                    panic!(
                        "the output does not read back as YAML: {}\n{out}",
                        e.detail()
                    );
                }
            }
            Err(e) => assert_message(e.message(), "schemac check"),
        }
    });
}

/// A template evaluated with Starlark (or read literally when its annotations allow). The
/// input is NUL-separated: the template `t.yml`, then `helpers.star`, which it may `load()`.
pub fn template(data: &[u8]) {
    set_budgets();
    let mut parts = data.splitn(2, |b| *b == 0);
    let text = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    let star = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    on_large_stack(move || {
        let raw = match parse_file("t.yml", &text, false) {
            Ok(raw) => raw,
            Err(e) => return assert_message(&e.detail(), "template's YAML"),
        };
        let sources = Sources::new(vec![
            ("t.yml".into(), Arc::from(text.as_str())),
            ("helpers.star".into(), Arc::from(star.as_str())),
        ]);
        if let Err(e) = template::evaluate(raw, &sources) {
            assert_message(&e.message, "template");
        }
    });
}

fn assert_message(msg: &str, stage: &str) {
    assert!(
        !msg.trim().is_empty(),
        "{stage}: an error without a message"
    );
    // schemac's own invariants broken: a bug to fix, not an answer about the input.
    assert!(!msg.contains("internal error"), "{stage}: {msg}");
}

/// Runs `f` on a thread with the stack `schemac` runs on, so that nesting up to the depth
/// budget is not a stack overflow of the driver's own thread. A panic in `f` is re-raised.
fn on_large_stack(f: impl FnOnce() + Send) {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .stack_size(schemac_runtime::cli::STACK_BYTES)
            .spawn_scoped(scope, f)
            .expect("a thread for the fuzz input");
        if let Err(panic) = worker.join() {
            std::panic::resume_unwind(panic);
        }
    });
}
