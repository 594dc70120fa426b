#!/usr/bin/env python3
"""The resident set of a program at the entry and return of some of its functions.

    bench/rss_at_calls.py [--label PART=LABEL ...] PART [PART ...] -- PROGRAM [ARGS ...]

Each PART is a piece of a mangled symbol name (as `nm` prints it, e.g. `yaml5parse9read_file`
or `22check_into_filled_node`); every function symbol of PROGRAM that contains it gets a
breakpoint under gdb, which prints VmRSS (from /proc/PID/status) when the function is entered
and when it returns, then lets the program go on. It needs no build of its own: the shipped
static `schemac` keeps its symbols (the validators `schemac build` makes are stripped: none to
find). The program's stdout is dropped; gdb slows the calls it stops at, so choose functions
called a few times (a step of the pipeline), not per node. `RSS_DEBUG=1` prints gdb's own
output too. See BENCHMARKS.md, "Thirty-ninth session (issue 15)".
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

GDB_SCRIPT = r'''
import gdb, json

def rss_mb():
    pid = gdb.selected_inferior().pid
    with open(f"/proc/{pid}/status") as f:
        kb = next(l for l in f if l.startswith("VmRSS")).split()[1]
    return int(kb) / 1024

class Return(gdb.FinishBreakpoint):
    def __init__(self, label):
        super().__init__(gdb.newest_frame(), internal=True)
        self.label = label
    def stop(self):
        gdb.write(f"rss: {self.label} returned: {rss_mb():.1f} MB\n")
        return False

class Entry(gdb.Breakpoint):
    def __init__(self, address, label):
        super().__init__(address, internal=True)
        self.label = label
    def stop(self):
        gdb.write(f"rss: {self.label} entered: {rss_mb():.1f} MB\n")
        Return(self.label)
        return False

for address, label in json.load(open(PLAN)):
    Entry(address, label)
gdb.execute("set pagination off")
# The program's arguments as the shell that `run` starts it with reads them; output dropped.
gdb.execute(f"run {ARGS} > /dev/null")
'''


def main(argv):
    if "--" not in argv:
        raise SystemExit(__doc__)
    split = argv.index("--")
    parts, program = argv[:split], argv[split + 1:]
    labels = {}
    wanted = []
    i = 0
    while i < len(parts):
        if parts[i] == "--label" and i + 1 < len(parts) and "=" in parts[i + 1]:
            part, label = parts[i + 1].split("=", 1)
            labels[part] = label
            i += 2
            continue
        wanted.append(parts[i])
        i += 1
    if not wanted or not program:
        raise SystemExit(__doc__)
    nm = subprocess.run(["nm", program[0]], capture_output=True, text=True, check=True).stdout
    plan = []
    for line in nm.splitlines():
        fields = line.split()
        if len(fields) != 3 or fields[1] not in "Tt":
            continue
        for part in wanted:
            if part in fields[2]:
                plan.append(("*0x" + fields[0], labels.get(part, part)))
    if not plan:
        raise SystemExit(f"no function symbol of {program[0]} contains {', '.join(wanted)}")
    with tempfile.TemporaryDirectory() as tmp:
        plan_file = os.path.join(tmp, "plan.json")
        script = os.path.join(tmp, "rss.py")
        with open(plan_file, "w") as f:
            json.dump(plan, f)
        with open(script, "w") as f:
            f.write(f"PLAN = {plan_file!r}\nARGS = {shlex.join(program[1:])!r}\n" + GDB_SCRIPT)
        gdb = subprocess.run(["gdb", "-q", "-batch", "-x", script, program[0]],
                             capture_output=True, text=True)
    if os.environ.get("RSS_DEBUG"):
        sys.stderr.write(gdb.stdout[-3000:] + gdb.stderr[-3000:])
    for line in gdb.stdout.splitlines():
        if line.startswith("rss: "):
            print(line[5:])
    if gdb.returncode != 0:
        sys.stderr.write(gdb.stderr[-2000:])
        return gdb.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
