//! The typed load of one workload in a loop, for instruction counts of its parts
//! (`valgrind --tool=callgrind target/release/examples/typed_loop keys5k 20`): the first
//! load builds what is made once per process, the others are the per-call cost. A third
//! argument picks what is timed: `yaml` (`from_yaml_str`, the default), `node`
//! (`from_node` on the values read once) or `checks` (`typed::load_node`, no structs).

use schemac_bench::plain_values;

#[path = "../typed_workloads.rs"]
mod typed_workloads;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let workload = args.first().map_or("typical", String::as_str);
    let rounds: usize = args.get(1).map_or(100, |n| n.parse().expect("a count"));
    let yaml = plain_values(workload);
    let read = typed_workloads::read_values(&yaml);
    let what = args.get(2).map_or("yaml", String::as_str);
    for _ in 0..rounds {
        let ok = match what {
            "node" => typed_workloads::typed_from_node(workload, &read),
            "checks" => typed_workloads::checked_node(workload, &read),
            _ => typed_workloads::typed_load(workload, &yaml),
        };
        assert!(ok, "{workload}: the typed API rejects the workload");
    }
}
