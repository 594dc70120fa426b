#!/usr/bin/env python3
"""What the heap holds, by part of the pipeline, in the detailed snapshots of a massif profile.

    bench/massif_parts.py massif.out [SNAPSHOT ...]

Each block live in a snapshot is counted under the first frame of its allocation's stack (from
the allocation outwards) that names a part below: the input text, the reader's raw tree, the
literal templater's template tree, the type check's plain data, ... (a frame naming none:
"other", with its first frames). Without SNAPSHOT numbers, every detailed snapshot.

The profile needs `schemac` and validators built with the system allocator and linked
dynamically (massif sees only malloc's calls, and none in a static binary):

    SCHEMAC_LINK=dynamic cargo build --release -p schemac --features system-allocator
    schemac build --link dynamic schema.yml -o validator   # with that schemac
    valgrind --tool=massif --depth=40 --peak-inaccuracy=0.2 --threshold=0.2 \\
        --massif-out-file=massif.out schemac check -f schema.yml -f values.yml

(a validator is stripped: its frames have no names, its totals are still right.)
BENCHMARKS.md, "Thirty-sixth session (issue 15)", has what it showed.
"""
import re
import sys

PARTS = [
    ("input text", ["inputs::decode", "inputs::read_regular"]),
    ("starlark evaluator stack", ["Alloca::new"]),
    ("plain data (type check)", ["typecheck::FillAndCheck", "check_into_filled_node"]),
    ("template tree (literal templater)", ["template::literal::"]),
    ("overlay", ["overlay::"]),
    ("raw tree (reader)", ["yaml::block::", "yaml::parse::", "yaml::raw_keys", "yaml::builder"]),
    ("validation", ["validate::"]),
    ("output", ["yaml::emit"]),
    ("schema", ["runtime::schema::", "runtime::lowered::"]),
]


def snapshots(path):
    """Each snapshot's fields, with `leaves` (bytes, stack) for the detailed ones."""
    lines = open(path).read().split("\n")
    i = 0

    def tree(stack, leaves):
        nonlocal i
        m = re.match(r"\s*n(\d+): (\d+) (.*)", lines[i])
        i += 1
        children, size, frame = int(m.group(1)), int(m.group(2)), m.group(3)
        stack = stack + [frame]
        below = sum(tree(stack, leaves) for _ in range(children))
        if size > below:
            leaves.append((size - below, stack))
        return size

    while i < len(lines):
        if not lines[i].startswith("snapshot="):
            i += 1
            continue
        snap = {"n": lines[i].split("=")[1]}
        i += 1
        while not lines[i].startswith("heap_tree="):
            if "=" in lines[i]:
                key, value = lines[i].split("=", 1)
                snap[key] = value
            i += 1
        snap["kind"] = lines[i].split("=")[1]
        i += 1
        if snap["kind"] in ("detailed", "peak"):
            snap["leaves"] = []
            tree([], snap["leaves"])
        yield snap


def part(stack):
    for frame in stack[1:]:
        for name, marks in PARTS:
            if any(mark in frame for mark in marks):
                return name
    return "other: " + " < ".join(re.sub(r"^0x[0-9A-F]+: ", "", f)[:60] for f in stack[1:4])


def main():
    path, wanted = sys.argv[1], sys.argv[2:]
    for snap in snapshots(path):
        if "leaves" not in snap or (wanted and snap["n"] not in wanted):
            continue
        sums = {}
        for size, stack in snap["leaves"]:
            sums[part(stack)] = sums.get(part(stack), 0) + size
        print(f"snapshot {snap['n']} ({snap['kind']}) at {int(snap['time']) / 1e6:.1f}M instructions:"
              f" heap {int(snap['mem_heap_B']) / 1e6:.2f} MB + {int(snap['mem_heap_extra_B']) / 1e6:.2f} MB"
              " of the allocator's own")
        for name, size in sorted(sums.items(), key=lambda kv: -kv[1]):
            if size >= 20_000:
                print(f"  {size / 1e6:8.2f} MB  {name}")


if __name__ == "__main__":
    main()
