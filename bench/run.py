#!/usr/bin/env python3
"""The benchmarks, in one step: `bench/run.py [--runs N] [--write]`.

Generates the workloads of ../shared/bench/gen.py (typical, array10k, keys5k, custom10k) under
target/bench, builds `schemac`, a validator per workload (`schemac build`, cached) and the
YAML-reading floor (`runtime/examples/parse_yaml.rs`), then times each on every workload:
median whole-process wall time over N runs, and peak memory (maximum resident set, from
/usr/bin/time). `--write` replaces the table in BENCHMARKS.md.
"""
import os
import re
import statistics
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
shared = os.path.join(os.path.dirname(root), "shared")
out = os.path.join(root, "target", "bench")
release = os.path.join(root, "target", "release")
WORKLOADS = ["typical", "array10k", "keys5k", "custom10k"]


def timed(cmd, cwd, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - start)
        if p.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed in {cwd}: {p.stderr.decode()[:500]}")
    return statistics.median(times) * 1000


def peak_kb(cmd, cwd):
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(p.stderr.strip().splitlines()[-1])


def main():
    runs = 11
    if "--runs" in sys.argv:
        runs = int(sys.argv[sys.argv.index("--runs") + 1])
    subprocess.run([sys.executable, os.path.join(shared, "bench", "gen.py"), out], check=True)
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "schemac"], cwd=root, check=True)
    # The floor reads YAML and nothing else: built without the Starlark interpreter, whose
    # start-up (relocations, static constructors) is no part of reading.
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "schemac-runtime", "--no-default-features", "--example", "parse_yaml"], cwd=root, check=True)
    schemac = os.path.join(release, "schemac")
    floor = os.path.join(release, "examples", "parse_yaml")
    rows = []
    for w in WORKLOADS:
        cwd = os.path.join(out, w)
        validator = os.path.join(out, f"{w}-validator")
        subprocess.run([schemac, "build", "schema.yml", "-o", validator], cwd=cwd, check=True, stderr=subprocess.DEVNULL)
        cmds = {
            "floor (read YAML)": [floor, "values.yml"],
            "schemac check": [schemac, "check", "-f", "schema.yml", "-f", "values.yml"],
            "built validator": [validator, "-f", "values.yml"],
        }
        for what, cmd in cmds.items():
            ms = timed(cmd, cwd, runs)
            kb = peak_kb(cmd, cwd)
            rows.append((w, what, ms, kb))
            print(f"{w:10} {what:18} {ms:8.1f} ms {kb / 1024:7.1f} MB", flush=True)
    table = ["| workload | program | median wall time | peak memory |", "|---|---|---:|---:|"]
    table += [f"| {w} | {what} | {ms:.1f} ms | {kb / 1024:.1f} MB |" for w, what, ms, kb in rows]
    if "--write" in sys.argv:
        path = os.path.join(root, "BENCHMARKS.md")
        text = open(path).read()
        text = re.sub(r"<!-- table -->.*<!-- /table -->", "<!-- table -->\n" + "\n".join(table) + "\n<!-- /table -->", text, flags=re.S)
        open(path, "w").write(text)
    print("\n".join(table))


main()
