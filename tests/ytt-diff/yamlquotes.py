#!/usr/bin/env python3
"""Quoted scalars with go-yaml's escape `\\'` and YAML 1.1's line breaks, for `run.py --gen
yamlquotes`.

Each case is a schema taking any value and one data values file. Half the cases hold `\\'`,
`\\\\'`, `\\\\`, `''` and lone quotes in double-quoted, single-quoted and plain scalars,
comments and block scalars, in block and flow collections (go-yaml reads `\\'` in a
double-quoted scalar as `'`; schemac's YAML libraries refuse it, and it is two characters
everywhere else). The other half insert NEL, LS and PS (line breaks to go-yaml, text to YAML
1.2) into a realistic file: in quoted scalars, where they fold, and between tokens and in
comments, where they start lines. Not run in CI: the twentieth session's hunt (FINDINGS.md).

    tests/ytt-diff/run.py --gen yamlquotes --seeds 0:2000 --jobs 2 --no-shrink
    tests/ytt-diff/yamlquotes.py --seed 7 --print
"""
import random

import gen

SCHEMA = ('#@data/values-schema\n---\n#@schema/type any=True\nroot: ~\n'
          '#@schema/type any=True\nother: ~\n')
BASES = [
    'root:\n  a: x y\n  b: "p q"\n  c: \'r s\'\n  d: |\n    t u\n  e: [v, w]\n  f: {g: h}\n'
    '# note here\nother: 1\n',
    'root:\n- x y  # c1\n- "p\n  q"\n- >-\n  t\n  u\nother: [1, 2]\n',
    'root: {a: "b c", d: [e f]}\nother:\n  #@ x = 1\n  k: v\n',
]
BREAKS = ['\u2028', '\u2029', '\u0085', '\u2028\u2028', ' \u2028 ']


class Case:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.files = {'schema.yml': SCHEMA}
        self.args = ['-f', 'schema.yml', '-f', 'values.yml', '-o', self.r.choice(['json', 'yaml'])]
        self.env = {}
        self.features = set()
        self.bad = None  # no deliberate defect: run.py's summary counts the valid cases

    def double(self):
        pieces = ["\\'", "\\\\'", "\\\\", "''", 'x', ' ', '\\"', '\\a', '\\x07', '\n    ']
        return '"' + ''.join(self.r.choice(pieces) for _ in range(self.r.randint(1, 5))) + '"'

    def single(self):
        pieces = ['\\', "''", 'x', ' ', '"', '\\\\', '\n    ']
        return "'" + ''.join(self.r.choice(pieces) for _ in range(self.r.randint(1, 5))) + "'"

    def plain(self):
        return 'p' + ''.join(self.r.choice(["\\'", '\\', 'x', "'", '"']) for _ in range(self.r.randint(0, 3)))

    def scalar(self):
        return self.r.choice([self.double, self.single, self.plain])()

    def escapes(self):
        r = self.r
        lines = ['root:']
        for i in range(r.randint(1, 5)):
            k = r.random()
            if k < 0.3:
                lines.append('  k%d: %s' % (i, self.scalar()))
            elif k < 0.5:
                lines.append('  k%d: [%s]' % (i, ', '.join(self.scalar() for _ in range(r.randint(1, 3)))))
            elif k < 0.65:
                lines.append('  k%d: {a: %s, b: %s}' % (i, self.scalar(), self.scalar()))
            elif k < 0.8:
                lines.append("  k%d: %s # c\\'%s" % (i, self.scalar(), r.choice(['', "'", '"'])))
            elif k < 0.9:
                lines.append('  k%d: |\n    %s' % (i, self.scalar()))
            else:
                lines.append('  #! note %s' % self.scalar().replace('\n', ' '))
        self.features.add('escapes')
        return '\n'.join(lines) + ('\n' if r.random() < 0.8 else '')

    def breaks(self):
        r = self.r
        text = r.choice(BASES)
        for _ in range(r.randint(1, 2)):
            i = r.randrange(len(text))
            text = text[:i] + r.choice(BREAKS) + text[i:]
        if r.random() < 0.3:
            text += r.choice(['bad: [\n', 'x: 1\nx: 2\n', '  wrong: 1\n'])
        self.features.add('line breaks')
        return text

    def build(self):
        body = self.escapes() if self.r.random() < 0.5 else self.breaks()
        self.files['values.yml'] = '#@data/values\n---\n' + body


generate = gen.generator(Case)

if __name__ == '__main__':
    raise SystemExit(gen.case_cli(__doc__, generate))
