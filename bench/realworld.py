#!/usr/bin/env python3
"""What the published packages of ../shared/realworld cost `schemac check`, beside ytt.

For each package's `ok` run (its `args.ok`, without `--data-values-inspect`, which `schemac
check` implies): the instructions of `schemac check` under callgrind on a schema's first run
(a fresh schema cache each) and on a second run (the cache warm), and with `--time N` the
median wall time of N interleaved rounds of ytt and `schemac check` (warm), with ytt's time
divided by schemac's. Prints the packages dearest first, then the sums and medians.

    bench/realworld.py [--schemac target/release/schemac] [--time 5] [--filter educates]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")


def args_of(case):
    with open(os.path.join(case, "args.ok")) as f:
        return [a for a in f.read().split("\n") if a]


def instructions(cmd, cwd, env):
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
        cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    ).stderr
    m = re.search(r"Collected : (\d+)", out)
    if not m:
        sys.exit(f"callgrind gave no count for {cmd} in {cwd}:\n{out}")
    return int(m.group(1))


def wall(cmd, cwd, env):
    t = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--schemac", default=os.path.join(ROOT, "target/release/schemac"))
    p.add_argument("--ytt", default=os.path.join(SHARED, "oracle/ytt"))
    p.add_argument("--realworld", default=os.path.join(SHARED, "realworld"))
    p.add_argument("--time", type=int, default=0, metavar="N", help="rounds of wall time (0: none)")
    p.add_argument("--filter", default="", help="only packages whose folder name holds this")
    o = p.parse_args()
    schemac = os.path.abspath(o.schemac)
    rows = []
    for name in sorted(os.listdir(o.realworld)):
        case = os.path.join(o.realworld, name)
        if o.filter not in name or not os.path.isfile(os.path.join(case, "args.ok")):
            continue
        args = args_of(case)
        check = [schemac, "check"] + [a for a in args if a != "--data-values-inspect"]
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, SCHEMAC_CACHE_DIR=cache)
            first = instructions(check, case, env)
            warm = instructions(check, case, env)
            row = [name, first, warm]
            if o.time:
                ytt_t, ours = [], []
                for _ in range(o.time):
                    ytt_t.append(wall([o.ytt] + args, case, env))
                    ours.append(wall(check, case, env))
                row += [statistics.median(ours), statistics.median(ytt_t) / statistics.median(ours)]
        rows.append(row)
        print(f"{name}: {first / 1e6:.2f}M first, {warm / 1e6:.2f}M warm", file=sys.stderr)
    rows.sort(key=lambda r: -r[1])
    head = "| package | first run | warm |" + (" wall (warm) | ytt ÷ schemac |" if o.time else "")
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    for r in rows:
        line = f"| {r[0]} | {r[1] / 1e6:.2f}M | {r[2] / 1e6:.2f}M |"
        if o.time:
            line += f" {r[3] * 1e3:.1f} ms | {r[4]:.1f}× |"
        print(line)
    firsts, warms = [r[1] for r in rows], [r[2] for r in rows]
    print(f"\n{len(rows)} packages: first runs {sum(firsts) / 1e6:.1f}M in all (median "
          f"{statistics.median(firsts) / 1e6:.2f}M), warm {sum(warms) / 1e6:.1f}M (median "
          f"{statistics.median(warms) / 1e6:.2f}M)")
    if o.time:
        ratios = [r[4] for r in rows]
        print(f"ytt ÷ schemac: median {statistics.median(ratios):.1f}×, lowest {min(ratios):.1f}× "
              f"({min(rows, key=lambda r: r[4])[0]})")


if __name__ == "__main__":
    main()
