#!/usr/bin/env python3
"""Real inputs, damaged: a mutation differential, for `run.py --gen mutreal`.

Each case is one case of the conformance corpus (its input files and `args`) or one package of
the realworld corpus (its files and one of its `args.ok`/`args.bad`/`args.defaults`/
`args.openapi`), picked by the seed, with one to three seeded mutations applied to one of its
files: a line deleted, duplicated or swapped with another, its indentation changed by one or
two spaces or a tab, a byte inserted or deleted (YAML and Starlark punctuation, a line break, a
tab, a control or non-ASCII character, a byte that is not UTF-8), the file truncated, two lines
joined, a `#@` annotation made a comment or a comment made an annotation, two annotation lines
swapped, a scalar replaced with one of another type. The corpora are read at generation time
from `$MUTREAL_SHARED` (default `../shared` beside the repository: `conformance/cases` and
`realworld`); none of their text is kept in the repository. When they are missing, run.py
prints a skip message (see `unavailable()`). Not run in CI: the sixty-seventh session's hunt (h67b).

    tests/ytt-diff/run.py --gen mutreal --seeds 0:2000 --jobs 1 --no-shrink --work /tmp/mr
    tests/ytt-diff/mutreal.py --seed 7 --print
"""
import os
import re

import gen

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get('MUTREAL_SHARED', os.path.join(HERE, '..', '..', '..', 'shared'))
CONFORMANCE = os.path.join(SHARED, 'conformance', 'cases')
REALWORLD = os.path.join(SHARED, 'realworld')

# Bytes that mean something to YAML or Starlark, and a few that mean trouble to a reader:
# NUL, SOH, DEL, NEL, BOM, LS, a non-ASCII letter, and a byte that is not UTF-8 (kept through
# the surrogate escape that gen.write_case and shrink.py use).
BYTES = list(':-?[]{},#&*!|>\'"%@\n\t ') + ['\x00', '\x01', '\x7f', '\x85', '\ufeff', '\u2028', 'é', '\udcff']
SCALARS = ['1', '-1', '0', '0x1F', '010', '1.5', '-0.0', '1e3', '.inf', 'true', 'false', 'yes', 'no',
           '~', 'null', '""', '"1"', "'x'", 'abc', '[]', '{}', '[1, 2]', '{a: 1}', '|', '- x', '*a', '&a b']
SCALAR_LINE = re.compile(r'^(\s*(?:- )?[^\s#:][^:#]*:[ \t]+)([^\s#].*?)(\s*#.*)?$')
ANN_LINE = re.compile(r'^\s*#@')
COMMENT_LINE = re.compile(r'^\s*#(?!@)')
INPUT_SKIP = re.compile(r'^(args(\..*)?|source|SOURCE|.*expected\..*)$')


def unavailable():
    """Why no case can be made here (None when the corpora are present)."""
    if not os.path.isdir(CONFORMANCE) or not os.path.isdir(REALWORLD):
        return 'mutreal: no corpora under %s (set MUTREAL_SHARED): skipped' % SHARED
    return None


_SOURCES = []


def sources():
    """(kind, directory, args file) of every case and package run, in a fixed order."""
    if _SOURCES:
        return _SOURCES
    out = _SOURCES
    for group in sorted(os.listdir(CONFORMANCE)):
        gdir = os.path.join(CONFORMANCE, group)
        for name in sorted(os.listdir(gdir)):
            out.append(('conformance', os.path.join(gdir, name), 'args'))
    for pkg in sorted(os.listdir(REALWORLD)):
        pdir = os.path.join(REALWORLD, pkg)
        if os.path.isdir(pdir):
            for a in sorted(os.listdir(pdir)):
                if a.startswith('args.'):
                    out.append(('realworld', pdir, a))
    return out


def read_inputs(d):
    """The case's input files (relative name -> text; bytes that are not UTF-8 escaped)."""
    files = {}
    for dirpath, dirs, names in os.walk(d):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(dirpath, n)
            rel = os.path.relpath(p, d)
            if dirpath == d and INPUT_SKIP.match(n):
                continue
            with open(p, encoding='utf-8', errors='surrogateescape') as fh:
                files[rel] = fh.read()
    return files


class Case(gen.CaseStart):
    def __init__(self, seed):
        super().__init__(seed, {}, [])
        self.bad = 'mutated'  # every case is damaged on purpose

    def pick_line(self, lines, pattern=None):
        idx = [i for i, ln in enumerate(lines) if pattern is None or pattern.match(ln)]
        return self.r.choice(idx) if idx else None

    def mutate(self, text):
        """`text` with one mutation, and its kind (None when it found nothing to change)."""
        r = self.r
        kind = r.choice(['delete', 'duplicate', 'swap', 'indent', 'insert', 'insert', 'remove',
                         'truncate', 'join', 'unannotate', 'annotate', 'swap-annotations', 'scalar',
                         'scalar'])
        lines = text.split('\n')
        i = self.pick_line(lines)
        if kind == 'delete' and len(lines) > 1:
            del lines[i]
        elif kind == 'duplicate':
            lines.insert(i, lines[i])
        elif kind == 'swap' and len(lines) > 1:
            j = min(len(lines) - 1, i + 1) if r.random() < 0.6 else r.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == 'indent':
            d = r.choice([-2, -1, 1, 2, 'tab'])
            if d == 'tab':
                lines[i] = '\t' + lines[i] if r.random() < 0.5 else lines[i].replace('  ', '\t', 1)
            elif d > 0:
                lines[i] = ' ' * d + lines[i]
            else:
                lead = len(lines[i]) - len(lines[i].lstrip(' '))
                lines[i] = lines[i][min(lead, -d):]
        elif kind == 'insert':
            p = r.randint(0, len(text))
            return text[:p] + r.choice(BYTES) + text[p:], kind
        elif kind == 'remove' and text:
            p = r.randrange(len(text))
            return text[:p] + text[p + 1:], kind
        elif kind == 'truncate':
            return text[:r.randint(0, len(text))], kind
        elif kind == 'join' and len(lines) > 1:
            i = min(i, len(lines) - 2)
            lines[i:i + 2] = [lines[i] + r.choice(['', ' ']) + lines[i + 1].lstrip(' ' if r.random() < 0.5 else '')]
        elif kind == 'unannotate':
            i = self.pick_line(lines, ANN_LINE)
            if i is None:
                return text, None
            lines[i] = lines[i].replace('#@', '#', 1)
        elif kind == 'annotate':
            i = self.pick_line(lines, COMMENT_LINE)
            if i is None:
                return text, None
            lines[i] = lines[i].replace('#', '#@', 1)
        elif kind == 'swap-annotations':
            idx = [k for k, ln in enumerate(lines) if ANN_LINE.match(ln)]
            if len(idx) < 2:
                return text, None
            a, b = r.sample(idx, 2)
            lines[a], lines[b] = lines[b], lines[a]
        elif kind == 'scalar':
            i = self.pick_line(lines, SCALAR_LINE)
            if i is None:
                return text, None
            m = SCALAR_LINE.match(lines[i])
            lines[i] = m.group(1) + r.choice(SCALARS) + (m.group(3) or '')
        else:
            return text, None
        return '\n'.join(lines), kind

    def build(self):
        r = self.r
        kind, d, argsfile = r.choice(sources())
        with open(os.path.join(d, argsfile), encoding='utf-8') as fh:
            self.args = fh.read().split('\n')
        if self.args and self.args[-1] == '':
            self.args.pop()
        files = read_inputs(d)
        if kind == 'realworld':
            # the package's files that this run names (not both values files)
            files = {f: t for f, t in files.items() if f in self.args}
        self.files = files
        self.features.add('%s %s%s' % (kind, os.path.basename(d), '' if kind == 'conformance' else ' ' + argsfile))
        named = sorted(f for f in files if f in self.args or any(f.startswith(a.rstrip('/') + '/') for a in self.args))
        target = r.choice(named or sorted(files)) if files else None
        if target is None:
            return
        text = files[target]
        for _ in range(r.randint(1, 3)):
            text, what = self.mutate(text)
            if what:
                self.features.add('mutation ' + what)
        files[target] = text
        self.features.add('mutated ' + target)


generate = gen.generator(Case)


if __name__ == '__main__':
    raise SystemExit(gen.case_cli(__doc__, generate))
