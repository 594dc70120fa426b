#!/usr/bin/env python3
"""Random `#@yaml/text-templated-strings` texts in a data-values schema, for `run.py --gen
texttemplate`.

Each case is one `schema.yml` (and sometimes a `values.yml`) whose keys and strings are text
templates: texts around `(@= VALUE @)` of every type, code blocks (`(@ if c: @)A(@ else: @)B(@
end @)`, `(@ for ... @)`, assignments), the trimming markers `(@-`, `-@)`, `(@-=`, `(@=-`,
stray `(@` and `@)` (also inside the code's strings), texts on several lines (block scalars,
`\\n` escapes), under the annotation on a document, a map, an array or a single item, and in a
function's YAML fragment. Not run in CI: the fifteenth session's hunt (FINDINGS.md).

    tests/ytt-diff/run.py --gen texttemplate --seeds 0:300 --jobs 2 --no-shrink
    tests/ytt-diff/texttemplate.py --seed 7 --print
"""
import random

import gen

# Values ytt writes, and (one time in eight) values or code it refuses.
VALUES = ['"s"', "'q'", 'x', 'str(n)', 'x + "-" + str(n)', 'str([n])', '"%d" % n', 'x.upper()',
          '" a "', '"\\t"']
BAD_VALUES = ['n', 'None', 'True', '1.5', '[1, "a"]', '{"k": 1}', '(1, 2)', '', 'nope',
              '"a" + 1', '"@)"', "'(@'"]
CODES = ['y = 1', 'x = "Z"', 'n = n + 1', 'pass', '']
BAD_CODES = ['nope()', 'y = ', 'else:']


class Case:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.files = {}
        self.args = ['-f', 'schema.yml']
        self.env = {}
        self.features = set()
        self.bad = None

    def text(self):
        return self.r.choice(['', '', 'a', ' b ', '  ', 'c-d', 'é', '\\n', ' \\n ', ':x', '(', '@', ')'])

    def value(self):
        return self.r.choice(BAD_VALUES if self.r.random() < 0.125 else VALUES)

    def code(self):
        r = self.r
        left = r.choice(['(@', '(@', '(@', '(@-'])
        right = r.choice(['@)', '@)', '@)', '-@)'])
        c = r.randrange(12)
        if c < 6:
            self.features.add('value')
            return left + r.choice(['=', '=', '= ', '=-', ' =']) + ' ' + self.value() + ' ' + right
        if c < 8:
            self.features.add('code')
            return left + ' ' + r.choice(BAD_CODES if r.random() < 0.125 else CODES) + ' ' + right
        if c == 8:
            self.features.add('block')
            body = self.text() + self.code() if r.random() < 0.5 else self.text()
            other = '(@ else: @)' + self.text() if r.random() < 0.5 else ''
            head = r.choice(['if n > 0:', 'if False:', 'for i in range(2):', 'if True:'])
            return left + ' ' + head + ' ' + right + body + other + r.choice(['(@ end @)', '(@end@)', '(@- end -@)', '(@ end @)', ''])
        if c == 9 and r.random() < 0.3:
            self.features.add('stray')
            return r.choice(['@)', '(@', '(@)', '(@@)', '(@= "x" @)@)', "(@= '@)' @)"])
        return left + '=' + self.value() + right

    def template(self):
        out = self.text()
        for _ in range(self.r.randrange(0, 4)):
            out += self.code() + self.text()
        return out

    def scalar(self, indent):
        t = self.template()
        form = self.r.randrange(4)
        if form == 0 and '\\n' not in t and '"' not in t:
            return '"' + t + '"'
        if form == 1 and "'" not in t:
            return "'" + t.replace('\\n', ' ') + "'"
        if form == 2:
            self.features.add('block-scalar')
            body = t.replace('\\n', '\n').split('\n')
            pad = '  ' * (indent + 1)
            return '|\n' + '\n'.join(pad + (line or 'z') for line in body)
        return '"' + t.replace('"', '\\"') + '"'

    def items(self, indent, depth):
        r, sp, out = self.r, '  ' * indent, []
        for k in range(r.randrange(1, 4)):
            ann = r.random() < 0.3
            if ann:
                out.append(sp + '#@yaml/text-templated-strings')
            key = 'k%d' % k
            if r.random() < 0.2:
                self.features.add('key')
                key = '"k%d%s"' % (k, r.choice(['(@= x @)', '(@= n @)', '(@ y = 1 @)']))
            c = r.randrange(5)
            if c == 0 and depth < 2:
                out.append('%s%s:' % (sp, key))
                out += self.items(indent + 1, depth + 1)
            elif c == 1 and depth < 2:
                out.append('%s%s:' % (sp, key))
                out.append('%s- %s' % (sp + '  ', self.scalar(indent + 1)))
                out.append('%s- plain' % (sp + '  '))
            else:
                out.append('%s%s: %s' % (sp, key, self.scalar(indent)))
        return out

    def build(self):
        r = self.r
        lines = ['#@ x = "X"', '#@ n = %d' % r.randrange(-1, 3)]
        if r.random() < 0.3:
            self.features.add('function')
            lines += ['#@ def f(n):', '#@yaml/text-templated-strings',
                      'v: %s' % self.scalar(0), '#@ end']
        lines.append('#@data/values-schema')
        if r.random() < 0.5:
            lines.append('#@yaml/text-templated-strings')
        lines.append('---')
        lines += self.items(0, 0)
        if 'function' in self.features:
            lines += ['#@schema/type any=True', 'fv: #@ f(%s)' % r.choice(['1', '"s"', 'None'])]
        self.files['schema.yml'] = '\n'.join(lines) + '\n'


generate = gen.generator(Case)


if __name__ == '__main__':
    raise SystemExit(gen.case_cli(__doc__, generate))
