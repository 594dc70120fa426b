#!/usr/bin/env python3
"""The whole-process benchmarks, in one step.

    bench/run.py [--runs N] [--ytt-runs N] [--max-size SIZE] [--ytt-max-size SIZE]
                 [--no-scaling] [--callgrind] [--write]

Workloads: generates those of ../shared/bench/gen.py (typical, array10k, keys5k, custom10k)
under $CARGO_TARGET_DIR/bench, builds `schemac`, a validator per workload (`schemac build`,
cached by schemac) and the YAML-reading floor (`runtime/examples/parse_yaml.rs`), then runs
the programs of each workload interleaved (one round runs each once, N rounds): the floor,
ytt (`../shared/oracle/ytt ... --data-values-inspect`, when it exists; fewer rounds, it is
slow), `schemac check` and the built validator. Reported: the median wall time, the median
over rounds of ytt's time divided by the program's time in the same round (so that drift of
the machine cancels), and the peak resident memory (from /usr/bin/time, one more run).

Scaling: values files of the array10k schema from 1 KB to SIZE (default 100M; `--max-size 1M`
for a quick run), one decade apart, each run by ytt (up to --ytt-max-size, default 2M: ytt
takes ~9 s and ~0.5 GB per MB of values), `schemac check` and the array10k validator; the time
and peak memory of each, drawn to bench/scaling.svg (written here, no plotting library).

--callgrind: also counts the instructions of each program on each workload (valgrind).
--write: replaces the marked tables of BENCHMARKS.md (and writes the plot).
"""
import importlib.util
import math
import os
import re
import statistics
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
shared = os.path.join(os.path.dirname(root), "shared")
target = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
out = os.path.join(target, "bench")
release = os.path.join(target, "release")
ytt = os.path.join(shared, "oracle", "ytt")
WORKLOADS = ["typical", "array10k", "keys5k", "custom10k"]
PROGRAMS = ["floor (read YAML)", "ytt", "schemac check", "built validator"]


def flag(name, default):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def size_arg(text):
    """'100M', '512K', '1G' or a number of bytes."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper().rstrip("B")
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def human(n):
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} B"


def run_once(cmd, cwd, memory=False):
    """Wall seconds of one run of `cmd` (output discarded), and with `memory` its peak resident
    bytes, from /usr/bin/time (wait4's rusage would count the Python process it forked from)."""
    prefix = ["/usr/bin/time", "-f", "%M", "-o", os.path.join(out, "time.txt")] if memory else []
    start = time.perf_counter()
    p = subprocess.run(prefix + cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed in {cwd}: {p.stderr.decode()[:500]}")
    if not memory:
        return elapsed, None
    return elapsed, int(open(os.path.join(out, "time.txt")).read().split()[-1]) * 1024


def instructions(cmd, cwd):
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                       cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"Collected : (\d+)", p.stderr)
    if not found:
        raise SystemExit(f"callgrind failed on {' '.join(cmd)}: {p.stderr[-500:]}")
    return int(found.group(1))


# The floor's binary (static when the validators are: see `build`).
FLOOR = [os.path.join(release, "examples", "parse_yaml")]


def build(gen):
    gen.typical(out), gen.array10k(out), gen.keys5k(out), gen.custom10k(out)
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "schemac"], cwd=root, check=True)
    schemac = os.path.join(release, "schemac")
    for w in WORKLOADS:
        validator = os.path.join(out, f"{w}-validator")
        subprocess.run([schemac, "build", "-q", "schema.yml", "-o", validator], cwd=os.path.join(out, w), check=True)
    # The floor reads YAML and nothing else: built without the Starlark interpreter, whose
    # start-up (relocations, static constructors) is no part of reading, with the allocator of
    # `schemac` and the validators (mimalloc), and linked as the validators are (statically
    # where `schemac build` links them so: see README, "Linking").
    version = subprocess.run([os.path.join(out, "typical-validator"), "--version"],
                             capture_output=True, text=True).stdout
    floor_build = ["cargo", "build", "--release", "-q", "-p", "schemac-runtime", "--no-default-features",
                   "--features", "mimalloc", "--example", "parse_yaml"]
    env = dict(os.environ)
    if version.rstrip().endswith(", static"):
        triple = version.rstrip()[:-len(", static")].rsplit(" for ", 1)[1]
        floor_build += ["--target", triple]
        # The flags of `schemac build`'s static link (compiler/src/standalone.rs, STATIC_FLAGS).
        static = " -C target-feature=+crt-static -C relocation-model=static"
        env["RUSTFLAGS"] = (env.get("RUSTFLAGS", "") + static).strip()
        FLOOR[0] = os.path.join(target, triple, "release", "examples", "parse_yaml")
    subprocess.run(floor_build, cwd=root, check=True, env=env)
    return schemac


def commands(schemac, w, values="values.yml"):
    cmds = {
        "floor (read YAML)": [FLOOR[0], values],
        "ytt": [ytt, "-f", "schema.yml", "-f", values, "--data-values-inspect"],
        "schemac check": [schemac, "check", "-f", "schema.yml", "-f", values],
        "built validator": [os.path.join(out, f"{w}-validator"), "-f", values],
    }
    if not os.path.exists(ytt):
        del cmds["ytt"]
    return cmds


def workloads(schemac, runs, ytt_runs, callgrind):
    rows = []
    for w in WORKLOADS:
        cwd = os.path.join(out, w)
        cmds = commands(schemac, w)
        times = {what: [] for what in cmds}
        ratios = {what: [] for what in cmds}
        peak = {what: 0 for what in cmds}
        for round in range(runs):
            this = {}
            for what, cmd in cmds.items():
                if what == "ytt" and round >= ytt_runs:
                    continue
                this[what], _ = run_once(cmd, cwd)
                times[what].append(this[what])
            if "ytt" in this:
                for what, t in this.items():
                    ratios[what].append(this["ytt"] / t)
        for what, cmd in cmds.items():
            peak[what] = run_once(cmd, cwd, memory=True)[1]
            ms = statistics.median(times[what]) * 1000
            ratio = statistics.median(ratios[what]) if ratios[what] else None
            count = instructions(cmds[what], cwd) if callgrind and what != "ytt" else None
            rows.append((w, what, ms, ratio, peak[what], count))
            shown = f"{ratio:6.1f}x" if ratio else "      -"
            print(f"{w:10} {what:18} {ms:9.1f} ms {shown} {peak[what] / 2**20:7.1f} MB", flush=True)
    return rows


def workload_table(rows):
    table = ["| workload | program | median wall time | ytt's time ÷ this (same rounds) | peak memory |",
             "|---|---|---:|---:|---:|"]
    for w, what, ms, ratio, peak, _ in rows:
        shown = "1" if what == "ytt" else (f"{ratio:.1f}×" if ratio else "–")
        table.append(f"| {w} | {what} | {ms:.1f} ms | {shown} | {peak / 2**20:.1f} MB |")
    return table


def callgrind_table(rows):
    by = {(w, what): count for w, what, _, _, _, count in rows if count}
    table = ["| workload | floor | schemac check | built validator | validator ÷ floor | check ÷ validator |",
             "|---|---:|---:|---:|---:|---:|"]
    # Two decimals below ten million (typical's counts differ in the second).
    m = lambda n: f"{n / 1e6:.2f}M" if n < 1e7 else f"{n / 1e6:.1f}M"
    for w in WORKLOADS:
        f, c, v = (by.get((w, p)) for p in ("floor (read YAML)", "schemac check", "built validator"))
        table.append(f"| {w} | {m(f)} | {m(c)} | {m(v)} | {v / f:.2f} | {c / v:.2f} |")
    return table


def scaling(gen, schemac, max_size, ytt_max):
    """Rows of (program, size in bytes, seconds, peak bytes)."""
    item = 64  # bytes per array10k item, about (gen.py writes 643,385 bytes for 10,000)
    sizes = []
    size = 1 << 10
    while size <= max_size:
        sizes.append(size)
        size *= 10
    rows = []
    for size in sizes:
        name = f"scale-{size}"
        cwd = os.path.join(out, name)
        if not os.path.exists(os.path.join(cwd, "values.yml")):
            gen.array10k(out, n=max(1, size // item), name=name)
        actual = os.path.getsize(os.path.join(cwd, "values.yml"))
        cmds = commands(schemac, "array10k")
        del cmds["floor (read YAML)"]
        if actual > ytt_max:
            cmds.pop("ytt", None)
        runs = 5
        for what, cmd in cmds.items():
            big = actual >= (10 << 20) or (what == "ytt" and actual > (100 << 10))
            if big:  # one run, measured with its memory
                t, rss = run_once(cmd, cwd, memory=True)
            else:
                t = statistics.median(run_once(cmd, cwd)[0] for _ in range(runs))
                rss = run_once(cmd, cwd, memory=True)[1]
            rows.append((what, actual, t, rss))
            print(f"scaling {human(actual):>9} {what:16} {t * 1000:10.1f} ms {rss / 2**20:8.1f} MB", flush=True)
    return rows


def scaling_table(rows):
    table = ["| values file | program | wall time | µs per KB | peak memory | peak ÷ file size |", "|---:|---|---:|---:|---:|---:|"]
    for what, size, t, rss in rows:
        table.append(f"| {human(size)} | {what} | {t * 1000:.1f} ms | {t * 1e6 / (size / 1024):.2f} | "
                     f"{rss / 2**20:.1f} MB | {rss / size:.1f} |")
    return table


def svg_plot(rows):
    """Two log-log panels: wall time and peak memory against the values file's size."""
    colors = {"ytt": "#d62728", "schemac check": "#1f77b4", "built validator": "#2ca02c"}
    width, height, left, top, pw, ph, gap = 900, 380, 70, 40, 340, 280, 110
    sizes = [r[1] for r in rows]
    x0, x1 = math.floor(math.log10(min(sizes))), math.ceil(math.log10(max(sizes)))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{height}" fill="white"/>']
    for panel, (title, index, unit, scale) in enumerate([("wall time", 2, "s", 1), ("peak memory", 3, "MB", 2**-20)]):
        values = [r[index] * scale for r in rows]
        y0, y1 = math.floor(math.log10(min(values))), math.ceil(math.log10(max(values)))
        ox = left + panel * (pw + gap)

        def px(v, ox=ox):
            return ox + (math.log10(v) - x0) / (x1 - x0) * pw

        def py(v, y0=y0, y1=y1):
            return top + ph - (math.log10(v) - y0) / max(1, y1 - y0) * ph

        parts.append(f'<text x="{ox + pw / 2}" y="{top - 15}" text-anchor="middle" font-size="13">{title} ({unit}, log)</text>')
        parts.append(f'<rect x="{ox}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#444"/>')
        for e in range(x0, x1 + 1):
            x = px(10 ** e)
            parts.append(f'<line x1="{x}" y1="{top}" x2="{x}" y2="{top + ph}" stroke="#ddd"/>')
            label = f"{10 ** (e % 3):d} {['B', 'kB', 'MB', 'GB'][e // 3]}"
            parts.append(f'<text x="{x}" y="{top + ph + 15}" text-anchor="middle">{label}</text>')
        for e in range(y0, y1 + 1):
            y = py(10 ** e)
            parts.append(f'<line x1="{ox}" y1="{y}" x2="{ox + pw}" y2="{y}" stroke="#ddd"/>')
            parts.append(f'<text x="{ox - 5}" y="{y + 4}" text-anchor="end">{10.0 ** e:g}</text>')
        parts.append(f'<text x="{ox + pw / 2}" y="{top + ph + 32}" text-anchor="middle">values file size (bytes, log)</text>')
        if index == 3:  # the memory budget: 3× the input
            line = " ".join(f"{px(s):.1f},{py(3 * s * scale):.1f}" for s in sorted(set(sizes)) if top <= py(3 * s * scale) <= top + ph)
            parts.append(f'<polyline points="{line}" fill="none" stroke="#888" stroke-dasharray="4 3"/>')
        for what, color in colors.items():
            points = [(r[1], r[index] * scale) for r in rows if r[0] == what]
            if not points:
                continue
            line = " ".join(f"{px(s):.1f},{py(v):.1f}" for s, v in points)
            parts.append(f'<polyline points="{line}" fill="none" stroke="{color}" stroke-width="2"/>')
            parts += [f'<circle cx="{px(s):.1f}" cy="{py(v):.1f}" r="3" fill="{color}"/>' for s, v in points]
    for i, (what, color) in enumerate(list(colors.items()) + [("3 × input size", "#888")]):
        x = left + i * 170
        parts.append(f'<line x1="{x}" y1="{height - 12}" x2="{x + 20}" y2="{height - 12}" stroke="{color}" stroke-width="2"/>')
        parts.append(f'<text x="{x + 25}" y="{height - 8}">{what}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def replace(text, marker, lines):
    block = f"<!-- {marker} -->\n" + "\n".join(lines) + f"\n<!-- /{marker} -->"
    if f"<!-- {marker} -->" not in text:
        raise SystemExit(f"BENCHMARKS.md has no <!-- {marker} --> section")
    return re.sub(rf"<!-- {marker} -->.*?<!-- /{marker} -->", lambda _: block, text, flags=re.S)


VALUE_OPTIONS = ["--runs", "--ytt-runs", "--max-size", "--ytt-max-size"]
SWITCHES = ["--no-scaling", "--callgrind", "--write"]


def check_arguments(args):
    """Exits with the usage for `--help`, and with an error for an argument it does not know
    (a misspelt option would otherwise start a quarter of an hour's run without it)."""
    if "-h" in args or "--help" in args:
        print(__doc__.strip())
        raise SystemExit(0)
    at = 0
    while at < len(args):
        if args[at] in VALUE_OPTIONS and at + 1 < len(args):
            at += 2
        elif args[at] in SWITCHES:
            at += 1
        else:
            raise SystemExit(f"bench/run.py: unknown or incomplete argument {args[at]!r} (see --help)")


def main():
    check_arguments(sys.argv[1:])
    runs = int(flag("--runs", "11"))
    ytt_runs = int(flag("--ytt-runs", "3"))
    max_size = size_arg(flag("--max-size", "100M"))
    ytt_max = size_arg(flag("--ytt-max-size", "2M"))
    spec = importlib.util.spec_from_file_location("gen", os.path.join(shared, "bench", "gen.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    schemac = build(gen)
    rows = workloads(schemac, runs, ytt_runs, "--callgrind" in sys.argv)
    tables = {"table": workload_table(rows)}
    if "--callgrind" in sys.argv:
        tables["callgrind"] = callgrind_table(rows)
    plot = None
    if "--no-scaling" not in sys.argv:
        scale_rows = scaling(gen, schemac, max_size, ytt_max)
        tables["scaling"] = scaling_table(scale_rows)
        plot = svg_plot(scale_rows)
    for lines in tables.values():
        print("\n".join(lines) + "\n")
    if "--write" in sys.argv:
        path = os.path.join(root, "BENCHMARKS.md")
        text = open(path).read()
        for marker, lines in tables.items():
            text = replace(text, marker, lines)
        open(path, "w").write(text)
        if plot:
            open(os.path.join(here, "scaling.svg"), "w").write(plot)


main()
