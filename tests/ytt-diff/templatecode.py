#!/usr/bin/env python3
"""Random Starlark code lines in a data-values schema template, for `run.py --gen templatecode`.

Each case is one `schema.yml` whose code exercises what ytt's template compiler and starlark-go
read and schemac must read alike: functions with `if`/`for`/`end` blocks, `return` values on
several lines (in brackets, after `\\`), after `;` and in one-line `if c: return x`, comments
holding `) ( ' "` and `:`, tabs between tokens, raw strings, and YAML fragments built in
functions with `for`, `if`, `if/end` and `for/end` around nodes. Not run in CI: the fourteenth
session's hunt (FINDINGS.md); the differences left are parse-error wordings on code ytt also
refuses.

    tests/ytt-diff/run.py --gen templatecode --seeds 0:400 --jobs 2 --no-shrink
    tests/ytt-diff/templatecode.py --seed 7 --print
"""
import random

import gen


class Case:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.files = {}
        self.args = ['-f', 'schema.yml']
        self.env = {}
        self.features = set()
        self.bad = None  # no deliberate defect (run.py's summary counts the valid cases)

    def ws(self):
        return self.r.choice([' ', ' ', ' ', '  ', '\t', ' \t'])

    def comment(self):
        return self.r.choice(['', '', '', '  # c', ' # x ) ( \' "', '\t# t', ' #: colon:'])

    def atom(self, depth=0):
        r, c = self.r, self.r.randrange(14)
        deeper = depth < 2
        if c == 0:
            return str(r.randrange(-5, 100))
        if c == 1:
            self.features.add('string')
            return r.choice(['"s"', "'q'", 'r"a\\"b"', "r'\\d+'", '"#h"', '"""t"""', "'it\\'s'", '"a\\tb"'])
        if c == 2:
            return 'True'
        if c == 3:
            return 'None'
        if c == 4 and deeper:
            items = (',' + self.ws()).join(self.atom(depth + 1) for _ in range(r.randrange(0, 3)))
            return '[' + items + r.choice(['', ',']) + ']'
        if c == 5 and deeper:
            return '{' + ', '.join('"k%d":%s%s' % (i, self.ws(), self.atom(depth + 1)) for i in range(r.randrange(0, 3))) + '}'
        if c == 6 and deeper:
            return '(' + self.atom(depth + 1) + self.ws() + '+' + self.ws() + self.atom(depth + 1) + ')'
        if c == 7 and deeper:
            return self.atom(depth + 1) + ' if ' + self.atom(depth + 1) + ' else ' + self.atom(depth + 1)
        if c == 8:
            return 'len(' + r.choice(['"abc"', '[1,2]', 'r"\\""']) + ')'
        if c == 9 and deeper:
            return '(lambda x: x)(' + self.atom(depth + 1) + ')'
        if c == 10:
            return r.choice(['x', 'y'])
        if c == 11 and deeper:
            return 'str(' + self.atom(depth + 1) + ')'
        if c == 12 and deeper:
            return '[i for i in range(3)' + r.choice(['', ' if i > 0']) + ']'
        return '1'

    def spread(self, expr):
        """`expr`, broken across code lines inside its brackets or after a `\\`."""
        if self.r.random() < 0.5 and expr.startswith(('[', '{', '(')) and len(expr) > 2:
            self.features.add('brackets-across-lines')
            return expr[0] + self.comment() + '\n#@' + self.ws() * 2 + expr[1:]
        if self.r.random() < 0.2:
            self.features.add('backslash')
            return expr + self.ws() + '\\\n#@     + 0'
        return expr

    def statements(self, indent, in_def, depth):
        out = []
        for _ in range(self.r.randrange(1, 4)):
            c = self.r.randrange(8)
            p = '#@ ' + '  ' * indent
            if c == 0:
                out.append(p + 'x =' + self.ws() + self.spread(self.atom()) + self.comment())
            elif c == 1:
                out.append(p + 'y =' + self.ws() + self.atom() + ';' + self.ws() + 'x = y' + self.comment())
            elif c == 2 and in_def:
                self.features.add('return')
                out.append(p + 'return' + self.ws() + self.spread(self.atom()) + self.comment())
            elif c == 3 and depth < 2:
                out.append(p + 'if ' + self.atom() + ':' + self.comment())
                out += self.statements(indent + 1, in_def, depth + 1)
                if self.r.random() < 0.5:
                    out.append(p + 'else:' + self.comment())
                    out += self.statements(indent + 1, in_def, depth + 1)
                out.append(p + 'end' + self.comment())
            elif c == 4 and depth < 2:
                out.append(p + 'for i in range(2):' + self.comment())
                out += self.statements(indent + 1, in_def, depth + 1)
                out.append(p + 'end')
            elif c == 5 and in_def:
                self.features.add('one-line-return')
                out.append(p + 'if ' + self.atom() + ': return ' + self.atom() + self.comment())
            elif c == 6:
                out.append(p + 'x = ' + self.atom() + self.comment())
            else:
                out.append(p + 'y = [' + self.comment() + '\n#@   ' + self.atom() + ', ' + self.atom() + ']' + self.comment())
        return out

    def fragment(self, indent, depth):
        """YAML nodes of a function's fragment, with code blocks around some."""
        r, out = self.r, []
        for _ in range(r.randrange(1, 4)):
            c, sp = r.randrange(7), '  ' * indent
            key = r.choice(['a', 'b', 'c', 'name', 'port'])
            value = r.choice(['1', '"s"', 'x', 'i', '[1, 2]', "{'k': 1}", 'None', 'True', "str(i) + 'a'"])
            if c == 0:
                out.append('%s%s: #@ %s' % (sp, key, value))
            elif c == 1:
                out.append('%s%s: %s' % (sp, key, r.choice(['1', 'x', '"q"', '[]', '{}', 'null'])))
            elif c == 2 and depth < 2:
                out.append('%s%s:' % (sp, key))
                out += self.fragment(indent + 1, depth + 1)
            elif c == 3 and depth < 2:
                out.append('#@ for i in range(%d):' % r.randrange(0, 3))
                out.append('%s%s%d: #@ i' % (sp, key, r.randrange(9)))
                out.append('#@ end')
            elif c == 4 and depth < 2:
                out.append('#@ if %s:' % r.choice(['True', 'False', 'x', 'i == 0']))
                out += self.fragment(indent, depth + 1)
                if r.random() < 0.5:
                    out.append('#@ else:')
                    out += self.fragment(indent, depth + 1)
                out.append('#@ end')
            elif c == 5:
                out.append('#@ i = %d' % r.randrange(3))
            else:
                out.append('#@ if/end %s:' % r.choice(['True', 'False']))
                out.append('%s%sx: #@ %s' % (sp, key, value))
        return out

    def build(self):
        lines = ['#@ x = 0', '#@ y = 0', '#@ i = 0']
        lines += self.statements(0, False, 0)
        lines += ['#@ def f():', '#@   x = 1']
        lines += self.statements(1, True, 0)
        lines += ['#@   return x' + self.comment(), '#@ end']
        lines += ['#@ def frag(x):'] + self.fragment(0, 0) + ['#@ end']
        lines += ['#@data/values-schema', '---']
        for key, code in [('v', 'f()'), ('w', 'x'), ('fr', 'frag(1)'), ('frs', '[frag(2)]')]:
            lines += ['#@schema/type any=True', '%s: #@ %s' % (key, code)]
        self.files['schema.yml'] = '\n'.join(lines) + '\n'


generate = gen.generator(Case)


if __name__ == '__main__':
    raise SystemExit(gen.case_cli(__doc__, generate))
