//! The bounded fuzz run of `cargo test`: every seed of `fuzz/corpus/<target>/`, then mutations
//! of them from a fixed-seed generator, through the targets `fuzz/` runs under libFuzzer
//! (`schemac_tests::fuzz`). No fuzzer needed; the same inputs every run.
//!
//! `SCHEMAC_FUZZ_MUTATIONS=N` sets the mutations per target (a longer local run).

use std::path::{Path, PathBuf};

use schemac_tests::fuzz::{Target, TARGETS};

fn target(name: &str) -> &'static Target {
    TARGETS
        .iter()
        .find(|t| t.name == name)
        .expect("a fuzz target of that name")
}

const DEFAULT_MUTATIONS: usize = 3_000;

/// Byte strings worth splicing into YAML templates: YAML syntax, ytt annotations, Starlark.
const TOKENS: &[&[u8]] = &[
    b"\n",
    b"- ",
    b": ",
    b"---\n",
    b"[",
    b"]",
    b"{",
    b"}",
    b",",
    b"&a ",
    b"*a",
    b"!!str ",
    b"!!int ",
    b"'",
    b"\"",
    b"  ",
    b"#@ ",
    b"#@data/values\n",
    b"#@data/values-schema\n",
    b"#@schema/nullable\n",
    b"#@schema/default ",
    b"#@schema/validation ",
    b"#@overlay/match ",
    b"#@overlay/replace\n",
    b"#@ def f(x):\n",
    b"#@ end\n",
    b"#@ for i in range(3):\n",
    b"#@ if True:\n",
    b"lambda v: ",
    b"when=lambda v, ctx: ",
    b"min=1, ",
    b"max_len=2",
    b"missing_ok=True",
    b"load(\"helpers.star\", \"f\")",
    b"* 10",
    b"**9",
    b"struct.make(",
    b"yaml.decode(",
    b"json.encode(",
    b"data.values",
    b"1e400",
    b"18446744073709551615",
    b"-9223372036854775809",
    b"0x7fffffffffffffff",
    b".inf",
    b"null",
    b"[[[[",
    b"{a: {b: ",
    b"!!binary ",
    b"!!float ",
    b".nan",
    b"~",
    b"\0",
];

/// xorshift64*: a fixed sequence, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One mutation of `input` (another seed may be spliced in).
fn mutate(input: &[u8], seeds: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(6) {
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
            1 => out.insert(at, rng.next() as u8),
            2 => {
                let end = (at + rng.below(16)).min(out.len());
                out.drain(at..end);
            }
            3 => {
                let end = (at + rng.below(64)).min(out.len());
                let copy = out[at..end].to_vec();
                let to = rng.below(out.len() + 1);
                out.splice(to..to, copy);
            }
            4 => {
                let other = &seeds[rng.below(seeds.len())];
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(128)).min(other.len());
                out.splice(at..at, other[from..end].iter().copied());
            }
            _ => {
                let token = TOKENS[rng.below(TOKENS.len())];
                out.splice(at..at, token.iter().copied());
            }
        }
    }
    out
}

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target)
}

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = corpus_dir(target);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a corpus entry").path())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect()
}

fn mutations() -> usize {
    std::env::var("SCHEMAC_FUZZ_MUTATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_MUTATIONS)
}

/// Runs `input` through `target`; a broken contract names the input (as a Rust byte string,
/// to save with `fuzz/corpus`'s other inputs).
fn run_one(target: &Target, input: &[u8], what: &str) {
    let run = target.run;
    if let Err(panic) = std::panic::catch_unwind(|| run(input)) {
        eprintln!(
            "fuzz target {} broke its contract on {what}: {:?}",
            target.name,
            String::from_utf8_lossy(input)
        );
        std::panic::resume_unwind(panic);
    }
}

fn replay(target: &Target) {
    let seeds = seeds(target.name);
    assert!(!seeds.is_empty(), "fuzz/corpus/{} is empty", target.name);
    for (i, seed) in seeds.iter().enumerate() {
        run_one(target, seed, &format!("seed {i}"));
    }
    let mut rng = Rng(0x5EED_0000 + target.name.len() as u64);
    for i in 0..mutations() {
        let seed = &seeds[rng.below(seeds.len())];
        let input = mutate(seed, &seeds, &mut rng);
        run_one(target, &input, &format!("mutation {i}"));
    }
}

#[test]
fn yaml_reader_keeps_the_contract() {
    replay(target("yaml"));
}

#[test]
fn block_reader_agrees_with_saphyr() {
    replay(target("readers"));
}

#[test]
fn check_pipeline_keeps_the_contract() {
    replay(target("check"));
}

#[test]
fn templates_keep_the_contract() {
    replay(target("template"));
}

#[test]
fn generated_code_keeps_the_contract() {
    replay(target("typed"));
}
