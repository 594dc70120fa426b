#!/usr/bin/env python3
"""Scalars of every style across lines, for `run.py --gen yamltails`.

Each case is a schema taking any value and one data values file whose `root` is a plain,
single-quoted, double-quoted or block scalar (`|`, `>`, chomping and indentation indicators,
comments after the header) spread over lines of blanks, comments, tabs and under- or
over-indented text, under a map key, an array item, a nested key, in a flow sequence, after
properties (`!!str`, `&a`, on the key's line or the one before), and before another key;
half the files end without a line break. These are where saphyr-parser (schemac's YAML reader)
and go-yaml (ytt's) part: how a scalar ends at the end of the text, which comments are
template comments, and where an error is. Not run in CI: the nineteenth session's hunt
(FINDINGS.md).

    tests/ytt-diff/run.py --gen yamltails --seeds 0:2000 --jobs 2 --no-shrink
    tests/ytt-diff/yamltails.py --seed 7 --print
"""
import random

import gen

SCHEMA = '#@data/values-schema\n---\n#@schema/type any=True\nroot: ~\n'
WORDS = ['a', 'b c', 'x:y', '-x', ' t', '#h', '"q"', "'s'", '\\n', '\\t', 'é', 'k: v', '[1]',
         '{a}', '~', '1.5', '@x', '%', '`', '!x', '&a', '*a', '|', '>', 'a #c', 'a\\', '\\ ']
# Where `root`'s value starts, and the indentation its content lines take.
CONTEXTS = {
    'map': ('root: ', 0), 'seq': ('root:\n- ', 2), 'nested': ('root:\n  k: ', 2),
    'flow': ('root: [', 2), 'props': ('root: !!str ', 0), 'props-above': ('root: !!str\n  ', 0),
    'anchor': ('root:\n  k: &a ', 2), 'before-key': ('root: ', 0),
}


class Case:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.files = {'schema.yml': SCHEMA}
        self.args = ['-f', 'schema.yml', '-f', 'values.yml']
        self.env = {}
        self.features = set()
        self.bad = None  # no deliberate defect: run.py's summary counts the valid cases

    def line(self, indent):
        r, k = self.r, self.r.random()
        if k < 0.2:
            return ' ' * r.randint(0, 6)
        if k < 0.3:
            return ''
        if k < 0.35:
            return ' ' * r.randint(0, 4) + '# x'
        if k < 0.4:
            return '\t' + r.choice(WORDS)
        return ' ' * max(0, indent + r.randint(-1, 3)) + r.choice(WORDS)

    def block_header(self):
        r = self.r
        header = r.choice('|>') + r.choice(['', '+', '-'])
        if r.random() < 0.3:
            digit = r.choice('123')
            header = header[0] + digit + header[1:] if r.random() < 0.5 else header + digit
        if r.random() < 0.2:
            header += ' # c'
        return header

    def build(self):
        r = self.r
        style = r.choice(['plain', 'single', 'double', 'block', 'block'])
        context = r.choice(sorted(CONTEXTS))
        start, base = CONTEXTS[context]
        self.features.update([style, context])
        lines = [self.line(base + r.randint(0, 2)) for _ in range(r.randint(0, 4))]
        first = r.choice(WORDS)
        if style == 'plain':
            head = first
        elif style == 'block':
            head = self.block_header()
        else:
            quote = "'" if style == 'single' else '"'
            head = quote + (first.replace("'", "''") if style == 'single' else first.replace('"', '\\"'))
            if r.random() < 0.85:
                lines.append(' ' * (base + 1) + r.choice(['end', 'x', '\\']) + quote + r.choice(['', ' ', '  # c']))
        text = '#@data/values\n---\n' + start + '\n'.join([head] + lines)
        if context == 'flow':
            text += r.choice([']', '\n  ]', ', 1]'])
        if context == 'before-key':
            text += '\n' + r.choice(['other: 1', 'k: 2', '  z: 3'])
        if r.random() < 0.5:
            text += '\n'
        else:
            self.features.add('no final line break')
        self.files['values.yml'] = text


generate = gen.generator(Case)


if __name__ == '__main__':
    raise SystemExit(gen.case_cli(__doc__, generate))
