//! The typed API in process (`cargo bench -p schemac-bench`): per workload, the time of
//!   - `saphyr-parser events`: saphyr-parser reading the values, every event, nothing built
//!     (the reading floor of the issue);
//!   - `schemac reader`: the runtime's reader (the tree with lines and comments);
//!   - `typed from_yaml_str`: `include_schema!`'s `from_yaml_str`: read, defaults, type
//!     checks, rules, conversion to the generated structs;
//!   - `checks and defaults of read values`: `schemac_runtime::typed::load_node` on the values
//!     as the runtime's reader gave them (read once outside the timing): overlay onto the
//!     schema's defaults, type checks, rules; the measurement beside `is_valid`;
//!   - `typed from_node`: the same, then the conversion to the generated structs;
//!   - `jsonschema is_valid`: jsonschema-rs deciding the same values (as JSON, parsed once
//!     outside the timing) against a JSON Schema of the workload's schema;
//!   - `serde_json + jsonschema is_valid`: the same, parsing the JSON text each time.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use serde_json::Value as Json;

use schemac_bench::{plain_values, same_as_gen_py, WORKLOADS};
use schemac_runtime::value::{MapEntry, Node, Pos, Value};
use schemac_runtime::yaml::parse::{parse_file, RawNode, RawValue};

#[path = "../typed_workloads.rs"]
mod typed_workloads;
use typed_workloads::{checked_node, read_values, typed_from_node, typed_load};

/// The JSON Schema `schemac inspect -o json-schema` exports for the workload's schema.
fn json_schema(workload: &str) -> Json {
    let path = format!(
        "{}/workloads/{workload}/schema.yml",
        env!("CARGO_MANIFEST_DIR")
    );
    let loaded = schemac_runtime::engine::load_schema(&[path], &schemac::check::INTERPRETER)
        .unwrap_or_else(|e| panic!("{workload}: {e}"));
    let schema = loaded.schema.expect("the workload declares a schema");
    let exported = schemac::export::jsonschema::to_json_schema(&schema);
    serde_json::from_str(&schemac_runtime::yaml::json::to_json(&exported.value))
        .expect("the export is JSON")
}

/// The values as JSON, converted from the runtime's reading of the YAML (outside the timing).
fn json_values(yaml: &str) -> String {
    fn value(node: &RawNode) -> Value {
        match &node.value {
            RawValue::Scalar(v) => v.clone(),
            RawValue::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|i| Node::new(value(i), Pos::unknown()))
                    .collect(),
            ),
            RawValue::Map(items) => Value::Map(
                items
                    .iter()
                    .map(|i| MapEntry {
                        key: i.key().cloned().unwrap_or_default(),
                        value: Node::new(value(i), Pos::unknown()),
                    })
                    .collect(),
            ),
        }
    }
    let file = parse_file("values.yml", yaml, false).expect("the workload's values are YAML");
    schemac_runtime::yaml::json::to_json(&value(&file.docs[0]))
}

fn benches(c: &mut Criterion) {
    match same_as_gen_py() {
        Some(true) => {}
        Some(false) => {
            panic!("bench/src/lib.rs no longer writes what ../shared/bench/gen.py writes")
        }
        None => eprintln!("(../shared/bench/gen.py not found: workloads not compared with it)"),
    }
    for workload in WORKLOADS {
        let yaml = plain_values(workload);
        assert!(
            typed_load(workload, &yaml),
            "{workload}: the typed API rejects the workload"
        );
        let read = read_values(&yaml);
        assert!(
            typed_from_node(workload, &read) && checked_node(workload, &read),
            "{workload}: the typed API rejects the workload read once"
        );
        let json_text = json_values(&yaml);
        let instance: Json = serde_json::from_str(&json_text).unwrap();
        let validator = jsonschema::validator_for(&json_schema(workload)).unwrap();
        assert!(
            validator.is_valid(&instance),
            "{workload}: jsonschema-rs rejects the workload"
        );
        let mut group = c.benchmark_group(workload);
        group.bench_function("saphyr-parser events", |b| {
            b.iter(|| {
                saphyr_parser::Parser::new_from_str(black_box(&yaml))
                    .try_fold(0usize, |n, event| event.map(|_| n + 1))
                    .unwrap()
            })
        });
        group.bench_function("schemac reader", |b| {
            b.iter(|| {
                parse_file("values.yml", black_box(&yaml), false)
                    .unwrap()
                    .docs
                    .len()
            })
        });
        group.bench_function("typed from_yaml_str", |b| {
            b.iter(|| typed_load(workload, black_box(&yaml)))
        });
        group.bench_function("checks and defaults of read values", |b| {
            b.iter(|| checked_node(workload, black_box(&read)))
        });
        group.bench_function("typed from_node", |b| {
            b.iter(|| typed_from_node(workload, black_box(&read)))
        });
        group.bench_function("jsonschema is_valid", |b| {
            b.iter(|| validator.is_valid(black_box(&instance)))
        });
        group.bench_function("serde_json + jsonschema is_valid", |b| {
            b.iter(|| {
                validator.is_valid(&serde_json::from_str::<Json>(black_box(&json_text)).unwrap())
            })
        });
        group.finish();
    }
}

criterion_group!(typed, benches);
criterion_main!(typed);
