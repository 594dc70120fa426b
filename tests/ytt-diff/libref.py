#!/usr/bin/env python3
"""Library data values and schemas next to the root's, for `run.py --gen libref`.

Each seed's case is gen.py's case of the same seed (unchanged), to which a second gen.py case
(of another seed) is added as the data values of private libraries: its schema and values files
annotated `#@library/ref "@lib"` (or `@lib@alias`, `@other`, now and then a malformed reference)
as files of their own or as documents in the root's files, the same files unannotated under
`_ytt_lib/lib/` (given with `-f _ytt_lib` or not at all), and data values flags aimed at the
library (`--data-value @lib:k=v`, `--data-value-yaml`, `--data-values-file`, `--data-value-file`,
`--data-values-env`, well formed or not); sometimes `--data-values-schema-inspect` as YAML.
ytt makes a schema document for a library a schema at once (its errors are the root's) and sets
library data values aside; schemac must do the same without evaluating the library. Not run in
CI: the sixty-third session's sweep (h63b).

    tests/ytt-diff/run.py --gen libref --seeds 0:2000 --jobs 2 --no-shrink
    tests/ytt-diff/libref.py --seed 7 --print
"""
import random
import re

import gen

REFS = ['@lib', '@lib', '@lib', '@lib@al', '@other', '@lib@al2']
BAD_REFS = ['lib', '@', '@lib@', '@@lib', '@lib@al@x', '', '@lib:x', '@_ytt_lib']
SALT = 0x11b63b


def annotate_docs(text, ann, ref):
    """`text` with `#@library/ref ref` before each line `#@<ann>`."""
    out = []
    for ln in text.split('\n'):
        if ln.strip() == '#@' + ann:
            out.append('#@library/ref %s' % ref)
        out.append(ln)
    return '\n'.join(out)


def plain_docs(text):
    """The documents of `text` when it has no Starlark code of its own (load, def), else None."""
    if re.search(r'^#@ ', text, re.M):
        return None
    return text


class Case(gen.Case):
    def build(self):
        super().build()
        self.lr = random.Random(self.seed ^ SALT)
        lr = self.lr
        other = gen.generate(self.seed + 7919 * (1 + lr.randint(0, 20)))
        if 'config/' in ' '.join(other.files) or other.star:
            other = gen.generate(self.seed * 3 + 1)
        lib_schema = other.files.get('schema.yml') if not other.star else None
        lib_values = other.files.get('values.yml')
        if lib_schema and 'load("helpers.star"' in lib_schema:
            lib_schema = None
        if lib_values and 'load("helpers.star"' in lib_values:
            lib_values = None
        if other.bad is not None and lr.random() < 0.7:
            lib_schema = lib_values = None
        if not lib_schema and not lib_values:
            lib_schema = '#@data/values-schema\n---\nport: 1\nname: ""\n'
        added = []
        ref = self.ref()
        root_files = [a for i, a in enumerate(self.args) if i and self.args[i - 1] in ('-f', '--file')]
        if lib_schema:
            text = annotate_docs(lib_schema, 'data/values-schema', ref)
            self.put(text, 'schema', root_files, added, lr)
        if lib_values:
            text = annotate_docs(lib_values, 'data/values', self.ref() if lr.random() < 0.3 else ref)
            self.put(text, 'values', root_files, added, lr)
        if lr.random() < 0.3:
            if lib_schema:
                self.files['_ytt_lib/lib/schema.yml'] = lib_schema
            if lib_values or not lib_schema:
                self.files['_ytt_lib/lib/values.yml'] = lib_values or '#@data/values\n---\nport: 2\n'
            if lr.random() < 0.6:
                added.append('_ytt_lib')
                self.features.add('libref: -f _ytt_lib')
            else:
                self.features.add('libref: _ytt_lib not given')
        self.place(added)
        self.lib_flags(other)
        if lr.random() < 0.08 and '--data-values-schema-inspect' not in self.args:
            self.args.append('--data-values-schema-inspect')
            self.features.add('libref: --data-values-schema-inspect (YAML)')
        return self

    def ref(self):
        lr = self.lr
        if lr.random() < 0.06:
            self.features.add('libref: malformed reference')
            return lr.choice(['"%s"' % r for r in BAD_REFS] + ['1', 'None', '"@lib", "@x"'])
        return '"%s"' % lr.choice(REFS)

    def put(self, text, kind, root_files, added, lr):
        """The library's `kind` documents (`schema` or `values`) as documents of the root's
        `kind.yml` when it is given and they have no comment of their own, else as a file."""
        plain = plain_docs(text)
        root = kind + '.yml'
        if plain and root in self.files and root in root_files and lr.random() < 0.4:
            self.files[root] = self.join(self.files[root], plain)
            self.features.add('libref: library %s document in the root %s file' % (kind, kind))
        else:
            own = 'lib-%s.yml' % kind
            self.files[own] = text
            added.append(own)
            self.features.add('libref: library %s file' % kind)

    def join(self, a, b):
        return (a if a.endswith('\n') else a + '\n') + b

    def place(self, added):
        """`-f` for each added file, each at the front, the back, or after the first root file."""
        lr = self.lr
        for f in added:
            pos = lr.choice([0, len(self.args), 2 if len(self.args) >= 2 and self.args[0] in ('-f', '--file') else 0])
            self.args[pos:pos] = ['-f', f]

    def lib_flags(self, other):
        lr = self.lr
        flags = []
        for _ in range(lr.choice([0, 0, 1, 1, 2, 3])):
            ref = lr.choice(['@lib', '@lib', '@lib@al', '@other'])
            if lr.random() < 0.07:
                ref = lr.choice(['@', 'lib', '@lib@', '@@', ''])
                self.features.add('libref: malformed flag reference')
            sep = ':' if lr.random() < 0.93 else lr.choice(['', '::', '='])
            kind = lr.randrange(6)
            if kind == 0:
                flags += ['--data-value', '%s%sname=%s' % (ref, sep, lr.choice(['x', '1', 'a:b', '']))]
            elif kind == 1:
                flags += ['--data-value-yaml', '%s%s%s' % (ref, sep, lr.choice(
                    ['port=8', 'port=x', 'a.b=[1]', 'name=null', 'k={a: 1}', 'port', 'a.b.c=1']))]
            elif kind == 2:
                name = lr.choice(['lib-dv.yml', 'lib-dv.yml', 'missing.yml', '_ytt_lib'])
                self.files['lib-dv.yml'] = lr.choice(['port: 3\n', 'name: x\nport: 1\n', '#@ x = 1\nport: 2\n',
                                                      '---\na: 1\n---\nb: 2\n', '', 'port: [1\n'])
                flags += ['--data-values-file', '%s%s%s' % (ref, sep, name)]
            elif kind == 3:
                self.files['lib-value.txt'] = 'lib text\n'
                flags += ['--data-value-file', '%s%sname=%s' % (ref, sep, lr.choice(['lib-value.txt', 'nope.txt']))]
            elif kind == 4:
                pre = lr.choice(['LIBDV', 'LIBDV', 'NOPE'])
                self.env['LIBDV_port'] = lr.choice(['1', 'x', '[1'])
                flags += [lr.choice(['--data-values-env', '--data-values-env-yaml']), '%s%s%s' % (ref, sep, pre)]
            else:
                flags += ['-v', '%s%s%s' % (ref, sep, lr.choice(['name=v', 'a.b=c', '=x', 'name']))]
            self.features.add('libref: data values flag for a library')
        if flags:
            pos = lr.randint(0, len(self.args))
            while pos < len(self.args) and pos and self.args[pos - 1].startswith('-'):
                pos += 1
            self.args[pos:pos] = flags


generate = gen.generator(Case)


if __name__ == '__main__':
    raise SystemExit(gen.case_cli(__doc__, generate))
