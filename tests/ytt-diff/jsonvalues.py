#!/usr/bin/env python3
"""JSON data values with hostile keys and strings, for `run.py --gen jsonvalues`.

Each case is a schema taking any value and one data values file whose `root` is a JSON
document (YAML's flow style) of maps and arrays, up to three deep, whose keys and strings are
pieces of YAML syntax, YAML 1.1 words (`yes`, `0x1F`, `.nan`), Unicode line breaks (NEL, LS,
PS), a BOM, control characters and emoji, written with JSON's escapes or as raw UTF-8; half the
runs write the final values as JSON (`-o json`). A key holding a line break is template code to
ytt (its text after the break), so these also reach Starlark's scanner and parser with odd
text, and the writer's quoting of every kind of string (the sixty-fifth session's hunt found
`...` after an operand worded as the crate words it). Not run in CI.

    tests/ytt-diff/run.py --gen jsonvalues --seeds 0:2000 --jobs 2 --no-shrink
    tests/ytt-diff/jsonvalues.py --seed 7 --print
"""
import json

import gen

SCHEMA = '#@data/values-schema\n---\n#@schema/type any=True\nroot: ~\n'
PIECES = [' ', '  ', '\t', '\n', '\n\n', ' \n', '\r', ':', ': ', '#', ' #', '-', '- ', '?', '[',
          ']', '{', '}', ',', "'", '"', '\\', '|', '>', '!', '&', '*', '%', '@', '`', '~', 'null',
          'true', 'yes', 'no', 'on', '0', '0x1F', '0o7', '1e3', '-.inf', '.nan', '1_000',
          '12:30', '2001-12-14', 'é', '日本', '\u0085', '\u2028', '\u2029', '\ufeff', '\x7f',
          '\x01', '😀', 'a', 'b', 'word', 'x' * 30, '=', '...', '---', '\u00a0', '(', ')',
          'if', 'def', 'end']
SCALARS = [None, True, False, 0, -1, 1.5, 1e300, 2 ** 63, -(2 ** 63), 123456789012]


class Case(gen.CaseStart):
    def __init__(self, seed):
        super().__init__(seed, {'schema.yml': SCHEMA}, ['-f', 'schema.yml', '-f', 'values.yml'])

    def text(self):
        r = self.r
        text = ''.join(r.choice(PIECES) for _ in range(r.randint(0, 7)))
        if r.random() < 0.15:
            text *= r.randint(2, 10)
        if '\n' in text:
            self.features.add('line break')
        return text

    def value(self, depth):
        r, k = self.r, self.r.random()
        if depth < 3 and k < 0.25:
            self.features.add('map')
            return {self.text(): self.value(depth + 1) for _ in range(r.randint(0, 4))}
        if depth < 3 and k < 0.45:
            self.features.add('array')
            return [self.value(depth + 1) for _ in range(r.randint(0, 4))]
        if k < 0.85:
            return self.text()
        return r.choice(SCALARS)

    def build(self):
        r = self.r
        ascii_only = r.random() < 0.5
        self.features.add('escaped' if ascii_only else 'raw UTF-8')
        root = json.dumps(self.value(0), ensure_ascii=ascii_only)
        self.files['values.yml'] = '#@data/values\n---\nroot: ' + root + '\n'
        if r.random() < 0.5:
            self.args += ['-o', 'json']
            self.features.add('-o json')


generate = gen.generator(Case)


if __name__ == '__main__':
    raise SystemExit(gen.case_cli(__doc__, generate))
