#!/usr/bin/env python3
"""Greedy shrinker for a differing case.

usage: shrink.py CASE_DIR OUT_DIR [--schemac PATH] [--ytt PATH] [--max-tries N]

Removes argument groups, env entries, whole files, then blocks of lines (a line and the lines
indented under it) and single lines, keeping each removal while the difference keeps the same
signature (run.signature), until nothing more can go. Writes the minimal case to OUT_DIR.
"""
import argparse
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

VALUE_FLAGS = {'-f', '--file', '--data-value', '-v', '--data-value-yaml', '--data-value-file',
               '--data-values-file', '--data-values-env', '--data-values-env-yaml', '-o', '--output'}


def load_state(d):
    files = {}
    for dirpath, _, names in os.walk(d):
        for n in names:
            p = os.path.join(dirpath, n)
            rel = os.path.relpath(p, d)
            if rel in ('args', 'env', 'features', 'signature') or rel.startswith(('ytt.', 'schemac.', 'check.', 'validator.', 'typed.')):
                continue
            with open(p, encoding='utf-8', errors='surrogateescape') as fh:
                files[rel] = fh.read()
    import run
    args, env = run.read_case(d)
    return {'files': files, 'args': args, 'env': env}


def write_state(st, d):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for rel, text in st['files'].items():
        p = os.path.join(d, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'w', encoding='utf-8', errors='surrogateescape') as fh:
            fh.write(text)
    with open(os.path.join(d, 'args'), 'w', encoding='utf-8') as fh:
        fh.write(''.join(a + '\n' for a in st['args']))
    with open(os.path.join(d, 'env'), 'w', encoding='utf-8') as fh:
        fh.write(''.join('%s=%s\n' % kv for kv in sorted(st['env'].items())))


def arg_groups(args):
    out, i = [], 0
    while i < len(args):
        if args[i] in VALUE_FLAGS and i + 1 < len(args):
            out.append((i, 2))
            i += 2
        else:
            out.append((i, 1))
            i += 1
    return out


def blocks(lines):
    """(start, length) of each line with the more-indented lines under it, biggest first."""
    out = []
    ind = lambda s: len(s) - len(s.lstrip(' ')) if s.strip() else 10 ** 6
    for i, ln in enumerate(lines):
        j = i + 1
        while j < len(lines) and (ind(lines[j]) > ind(ln) or lines[j].lstrip().startswith('- ') and ind(lines[j]) == ind(ln) and ln.rstrip().endswith(':')):
            j += 1
        if j - i > 1:
            out.append((i, j - i))
    # Starlark blocks in templates: `#@ def/if/for ...:` up to its `#@ end`
    for i, ln in enumerate(lines):
        s = ln.strip()
        if s.startswith('#@') and s.endswith(':') and s[2:].strip().split(' ')[0] in ('def', 'if', 'for', 'elif', 'else:'):
            depth = 0
            for j in range(i, len(lines)):
                t = lines[j].strip()
                if t.startswith('#@') and t.endswith(':') and t[2:].strip().split(' ')[0] in ('def', 'if', 'for'):
                    depth += 1
                elif t.startswith('#@') and t[2:].strip() == 'end':
                    depth -= 1
                    if depth == 0:
                        out.append((i, j - i + 1))
                        break
    out.sort(key=lambda t: -t[1])
    return out


def shrink(src, dst, target, pair, sigfn, max_tries=300, keep=()):
    """Shrinks case src into dst while sigfn(*pair(case dir)) stays target; the files named
    in keep are neither removed nor edited. Returns the signature of the result."""
    st = load_state(src)
    tries = [0]
    tmp = tempfile.mkdtemp(prefix='ytt-diff-shrink-')

    def ok(cand):
        if tries[0] >= max_tries:
            return False
        tries[0] += 1
        d = os.path.join(tmp, 'c')
        write_state(cand, d)
        return sigfn(*pair(d)) == target

    def copy(s):
        return {'files': dict(s['files']), 'args': list(s['args']), 'env': dict(s['env'])}

    changed = True
    while changed and tries[0] < max_tries:
        changed = False
        for i, n in reversed(arg_groups(st['args'])):
            c = copy(st)
            del c['args'][i:i + n]
            if ok(c):
                st, changed = c, True
        for k in sorted(st['env']):
            c = copy(st)
            del c['env'][k]
            if ok(c):
                st, changed = c, True
        for f in sorted(set(st['files']) - set(keep)):
            c = copy(st)
            del c['files'][f]
            if ok(c):
                st, changed = c, True
        for f in sorted(set(st['files']) - set(keep)):
            lines = st['files'][f].split('\n')
            # blocks, then single lines, from the end
            for start, n in blocks(lines) + [(i, 1) for i in reversed(range(len(lines)))]:
                cur = st['files'][f].split('\n')
                if start + n > len(cur) or (n == 1 and cur[start] == '' and start == len(cur) - 1):
                    continue
                c = copy(st)
                c['files'][f] = '\n'.join(cur[:start] + cur[start + n:])
                if ok(c):
                    st, changed = c, True
    write_state(st, dst)
    shutil.rmtree(tmp, ignore_errors=True)
    return sigfn(*pair(dst))


def main():
    import run
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('case')
    ap.add_argument('out')
    ap.add_argument('--schemac', default=os.path.join(run.ROOT, 'target', 'release', 'schemac'))
    ap.add_argument('--ytt', default=os.path.join(run.ROOT, '..', 'shared', 'oracle', 'ytt'))
    ap.add_argument('--max-tries', type=int, default=300)
    o = ap.parse_args()
    ytt, schemac = os.path.abspath(o.ytt), os.path.abspath(o.schemac)
    sig_path = os.path.join(o.case, 'signature')
    keep_sig = open(sig_path, encoding='utf-8').read() if os.path.exists(sig_path) else None
    y, s = run.run_pair(os.path.abspath(o.case), ytt, schemac)
    target = run.signature(y, s)
    if target is None:
        print('no difference in %s' % o.case)
        return 1
    print('signature: %s' % target)
    got = shrink(os.path.abspath(o.case), os.path.abspath(o.out), target,
                 lambda d: run.run_pair(d, ytt, schemac), run.signature, o.max_tries)
    y, s = run.run_pair(os.path.abspath(o.out), ytt, schemac)
    run.write_outputs(os.path.abspath(o.out), y, s)
    if keep_sig is not None:
        with open(os.path.join(o.out, 'signature'), 'w', encoding='utf-8') as fh:
            fh.write(keep_sig)
    print('shrunk to %s (%s)' % (o.out, 'same signature' if got == target else 'signature drifted: %s' % got))
    return 0


if __name__ == '__main__':
    sys.exit(main())
