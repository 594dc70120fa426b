#!/usr/bin/env python3
"""A grammar-based generator of YAML syntax cases: schema.yml + values.yml pairs that exercise
the corners of YAML (multi-line plain and quoted scalars, escapes, block scalar headers,
anchors, aliases, merge keys, tags, flow collections in block ones, complex and odd keys,
document markers, directives, BOMs, CRLF, tabs, `#@` comments in odd spots).

usage: yamlgram.py --seed N [--print | --out DIR]
       run.py --gen yamlgram --seeds 0:3000 --jobs 2 ...   (the differential run)

The case format is gen.py's (files, `args`, `env`, `features`), so run.py and shrink.py take
these cases as they are. Three modes: the schema says `any=True` for `root` and the values file
holds the odd syntax (the inspect output shows how it was read); the schema holds the odd
syntax and the values file is empty or small (the defaults are shown); both from one shape.
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

KEYS = gen.KEYS

WORDS = ['a', 'b', 'x', 'foo', 'bar', 'hello world', 'a#b', 'a:b', 'http://x.y/z', '-a', '?x', ':x',
         'a,b', 'a]b', 'a}b', 'it\'s', 'say "hi"', 'tab\tin', 'ünï', '日本', 'a  b', 'x- y', '.',
         '-', '=', '<<', 'a #b']
PLAIN_SCALARS = ['12', '0', '-0', '+5', '0x1F', '0o17', '017', '0b101', '1_000', '1:20', '1.5', '.5',
                 '1e3', '1.0e+3', '6.8523015e+5', '.inf', '-.Inf', '+.INF', '.NaN', '.nan', 'true',
                 'True', 'TRUE', 'false', 'yes', 'no', 'on', 'off', 'y', 'n', 'Y', '~', 'null',
                 'Null', 'NULL', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '9223372036854775808',
                 '-9223372036854775809', '1e400', '0.', '1__0', '0x_1', '_1', '1.', '+.5', '00', '08',
                 '0o8', '12e3', '1E3', '-1_0']
ESCAPES = ['\\x41', '\\xe9', '\\u00e9', '\\u263A', '\\U0001F600', '\\N', '\\_', '\\L', '\\P', '\\0',
           '\\a', '\\b', '\\t', '\\\t', '\\e', '\\ ', '\\/', '\\"', '\\\\', '\\v', '\\f', '\\r', '\\n',
           '\\x7f', '\\u0085', '\\uD800', '\\q', '\\x4']
TAGS = ['!!str', '!!int', '!!float', '!!bool', '!!null', '!!binary', '!foo', '!<tag:yaml.org,2002:str>',
        '!!timestamp', '!', '!<!bar>', '!!merge', '!e!x', '!!set', '!!omap']
SCALAR_FOR_TAG = {'!!int': ['"3"', '3', '0x10', "'12'", 'x'], '!!float': ['1', '"2.5"', '.inf', 'x'],
                  '!!bool': ['"true"', 'yes', 'true', '1'], '!!null': ['', '~', '"x"', 'null'],
                  '!!binary': ['aGVsbG8=', '"aGVs\n  bG8="', '!!', 'aGVsbG8'], '!!str': ['12', 'true', '~', '']}
YTT_COMMENTS = ['#@ 1', '#@ x = 1', '#@overlay/match missing_ok=True', '#@ "s"', '#@ None', '#@schema/nullable']


class Case:
    def __init__(self, seed):
        self.seed = seed
        self.r = random.Random(seed)
        self.files = {}
        self.args = []
        self.env = {}
        self.features = set()
        self.bad = None
        self.anchors = []
        self._pending = []
        self.budget = 0

    def p(self, prob):
        return self.r.random() < prob

    def ch(self, xs):
        return self.r.choice(xs)

    def f(self, name):
        self.features.add(name)

    # comments ---------------------------------------------------------------------------
    def comment(self):
        """A trailing comment (with its leading spaces) or ''."""
        if not self.p(0.12):
            return ''
        sp = self.ch([' ', '  ', ' \t'])
        if self.p(0.2):
            self.f('ytt-comment-odd')
            return sp + self.ch(YTT_COMMENTS)
        if self.p(0.05):
            self.f('plain-comment')
            return sp + '# c'
        return sp + self.ch(['#! c', '#!', '#!: x', '#! - y'])

    def comment_line(self, col):
        if not self.p(0.08):
            return []
        self.f('comment-line')
        return [' ' * self.r.randint(0, col + 2) + self.ch(['#! between', '#!', '#@ 1', '#! x: y'])]

    # scalars ----------------------------------------------------------------------------
    def props(self, allow_tag=True):
        out = ''
        if self.p(0.08):
            a = 'a%d' % len(self.anchors)
            out += '&%s ' % a
            self.f('anchor')
            self._pending.append(a)
        if allow_tag and self.p(0.08):
            out += self.ch(TAGS) + ' '
            self.f('tag')
        return out

    def scalar(self, col, ctx='block'):
        """Inline text of a scalar value whose continuation lines go deeper than col."""
        k = self.r.random()
        if k < 0.3:
            return self.ch(PLAIN_SCALARS)
        if k < 0.42:
            return self.plain_word()
        if k < 0.5 and ctx == 'block':
            return self.plain_multiline(col)
        if k < 0.6:
            return self.single_quoted(col)
        if k < 0.75:
            return self.double_quoted(col)
        if k < 0.82:
            t = self.ch(list(SCALAR_FOR_TAG))
            self.f('tag-scalar')
            return t + ' ' + self.ch(SCALAR_FOR_TAG[t]).replace('\n', '\n' + ' ' * (col + 1))
        if k < 0.87 and self.anchors:
            self.f('alias')
            return '*' + self.ch(self.anchors) + ('' if ctx == 'block' or self.p(0.5) else ' ')
        return self.ch(['', '""', "''", 'x y z', '-1', '- ', '~'])

    def plain_word(self):
        w = self.ch(WORDS)
        if '\t' in w:
            self.f('tab-in-plain')
        return w

    def plain_multiline(self, col):
        self.f('plain-multiline')
        parts = [self.ch(['first', 'a b', '12', 'x:y', 'a#b'])]
        for _ in range(self.r.randint(1, 3)):
            ind = ' ' * (col + self.r.randint(0 if self.p(0.05) else 1, 4))
            if self.p(0.25):
                parts.append('')
            parts.append(ind + self.ch(['cont', 'c # d', 'x: y', 'p:q', '#!x', '- z', 'w  ', '12', '\tt']))
        return '\n'.join(parts)

    def single_quoted(self, col):
        body = self.ch(["it''s", 'a b', '', '12', '#!', 'a\\nb', ' lead', 'trail '])
        if self.p(0.4):
            self.f('single-multiline')
            for _ in range(self.r.randint(1, 3)):
                body += '\n' + ('' if self.p(0.2) else ' ' * self.r.randint(0 if self.p(0.05) else col + 1, col + 4)
                                + self.ch(['next', "o''k", '  sp', '#!x', 'x: y']))
        return "'" + body + "'"

    def double_quoted(self, col):
        self.f('double-quoted')
        body = ''.join(self.ch(ESCAPES) if self.p(0.5) else self.ch(['a', ' ', 'b', 'é', '#', ':']) for _ in range(self.r.randint(0, 4)))
        if self.p(0.4):
            self.f('double-multiline')
            for _ in range(self.r.randint(1, 3)):
                sep = self.ch(['\n', '\\\n', ' \n', '\n\n', '\\\n\n', '\t\n'])
                ind = ' ' * self.r.randint(0 if self.p(0.05) else col + 1, col + 4)
                body += sep + ind + self.ch(['n', '\\x41', '  s', '\\ t', '\\t', 'q\\"', '#!'])
        return '"' + body + '"'

    def block_scalar(self, col):
        """A block scalar: header + lines, as text after `key:` (starts with ' ')."""
        self.f('block-scalar')
        style = self.ch('|>')
        ind_ind = self.ch(['', '', '', '1', '2', '3', '4'])
        chomp = self.ch(['', '', '-', '+'])
        head = style + (ind_ind + chomp if self.p(0.7) else chomp + ind_ind)
        if ind_ind:
            self.f('block-indent-indicator')
        if chomp:
            self.f('block-chomp')
        cm = ''
        if self.p(0.15):
            cm = self.ch([' #! c', '  #@ 1', ' #@overlay/match missing_ok=True', ' #c'])
            self.f('block-header-comment')
        base = col + (int(ind_ind) if ind_ind else self.r.randint(1, 3))
        lines = []
        if self.p(0.2):
            self.f('block-leading-blank')
            lines += [' ' * self.r.randint(0, base + 2) for _ in range(self.r.randint(1, 2))]
        for _ in range(self.r.randint(0, 4)):
            k = self.r.random()
            if k < 0.6:
                lines.append(' ' * base + self.ch(['text', 'a b', '#! not a comment', 'x: y', '- z', 'c  ', '"q"']))
            elif k < 0.75:
                self.f('block-more-indented')
                lines.append(' ' * (base + self.r.randint(1, 3)) + self.ch(['more', ' m', '\tt']))
            elif k < 0.9:
                lines.append(' ' * self.r.randint(0, base + 1))
            else:
                lines.append(' ' * base + '\ttab')
        if self.p(0.2):
            lines += [' ' * self.r.randint(0, base) for _ in range(self.r.randint(1, 2))]
        return ' ' + self.props() + head + cm + ''.join('\n' + ln for ln in lines)

    # flow -------------------------------------------------------------------------------
    def flow(self, col, depth, multiline):
        self.f('flow')
        seq = self.p(0.5)
        items = []
        for _ in range(self.r.randint(0, 4)):
            items.append(self.flow_item(col, depth, seq, multiline))
        if self.p(0.15):
            self.f('flow-trailing-comma')
            items.append('')
        o, c = ('[', ']') if seq else ('{', '}')
        if multiline and items:
            self.f('flow-multiline')
            seps = []
            for _ in items:
                ind = ' ' * self.r.randint(0 if self.p(0.05) else col + 1, col + 4)
                s = self.ch([', ', ',\n' + ind, '\n' + ind + ', ', ',' + ('  #! c' if self.p(0.5) else ' #@ 1') + '\n' + ind])
                seps.append(s)
            text = o + ('\n' + ' ' * (col + 2) if self.p(0.3) else '')
            for i, it in enumerate(items):
                text += it + (seps[i] if i < len(items) - 1 else '')
            return text + ('\n' + ' ' * (col + self.r.randint(0, 2)) if self.p(0.3) else '') + c
        text = o + ', '.join(items) + c
        if items and items[-1] == '':
            text = o + ', '.join(items[:-1]) + ',' + c
        return text

    def flow_scalar(self, col):
        k = self.r.random()
        if k < 0.4:
            return self.ch(PLAIN_SCALARS)
        if k < 0.6:
            return self.ch(['a b', 'x', 'a:b', 'a-b', 'ü', 'a#b', 'a b c'])
        if k < 0.75:
            return self.double_quoted(col)
        if k < 0.85:
            return self.single_quoted(col)
        if k < 0.9 and self.anchors:
            return '*' + self.ch(self.anchors) + ' '
        return self.ch(['', '!!str 1', '&f1 v', '!!int "7"', '~'])

    def flow_item(self, col, depth, seq, multiline):
        def val():
            if depth < 6 and self.p(0.25):
                return self.props(allow_tag=False) + self.flow(col, depth + 1, multiline and self.p(0.5))
            return self.flow_scalar(col)
        if seq:
            if self.p(0.15):
                self.f('flow-single-pair')
                return '%s: %s' % (self.flow_scalar(col), val())
            if self.p(0.05):
                return '? %s : %s' % (self.flow_scalar(col), val())
            return val()
        k = self.r.random()
        if k < 0.1:
            self.f('flow-key-no-value')
            return self.ch(['a', 'b c', '"q"', '1'])
        if k < 0.15:
            return '? ' + self.flow_scalar(col) + (' : ' + val() if self.p(0.5) else '')
        if k < 0.2:
            return '"k":' + val()
        if k < 0.25:
            return self.ch(['a b', '1', 'true', '~', '']) + ': ' + val()
        return self.ch(KEYS[:8] + ['k%d' % self.r.randint(0, 3)]) + ': ' + val()

    # block collections -----------------------------------------------------------------
    def key(self):
        k = self.r.random()
        if k < 0.7:
            return self.ch(KEYS[:6] + ['k%d' % self.r.randint(0, 5)])
        self.f('odd-key')
        return self.ch(['1', '2', 'true', 'false', '~', 'null', '"a b"', "'q'", '1.5', 'a b', '0x10',
                        '""', '!!str 1', '&ka kk', '"\\x41"', '? x', '[a, b]', '{a: 1}', '*ka', '<<', '-1',
                        '"multi\n  line"', 'yes', 'on', 'k.x', 'k-x', 'k x '])

    def value(self, col, depth):
        """Text following `key:` for a map value at column col."""
        self.budget -= 1
        k = self.r.random()
        if depth >= self.maxdepth or self.budget <= 0:
            k = 0.9
        sep = ' ' if not self.p(0.06) else self.ch(['\t', '  ', ' \t'])
        if sep != ' ':
            self.f('tab-or-spaces-after-colon')
        if k < 0.3:
            return self.block_map(col + self.step(), depth + 1, lead='\n', props=self.props())
        if k < 0.5:
            same = self.p(0.35)
            if same:
                self.f('seq-same-indent')
            return self.block_seq(col if same else col + self.step(), depth + 1, lead='\n', props=self.props())
        if k < 0.6:
            return sep + self.props(allow_tag=False) + self.flow(col, depth, self.p(0.4)) + self.comment()
        if k < 0.7:
            return self.block_scalar(col)
        if k < 0.73 and self.merge_ok:
            return ''  # empty value
        return sep + self.props() + self.scalar(col) + self.comment()

    def step(self):
        return self.ch([2, 2, 2, 1, 3, 4])

    def block_map(self, col, depth, lead='', props=''):
        out = []
        head = ''
        if props:
            head = ' ' + props.rstrip() + self.comment()
        n = self.r.randint(1, 4)
        for i in range(n):
            out += self.comment_line(col)
            ind = ' ' * col
            k = self.r.random()
            if k < 0.06 and self.anchors:
                self.f('merge')
                if self.p(0.5):
                    line = ind + '<<: *' + self.ch(self.anchors)
                else:
                    line = ind + '<<: [' + ', '.join('*' + a for a in self.r.sample(self.anchors, min(len(self.anchors), self.r.randint(1, 2)))) + ']'
                out.append(line + self.comment())
                continue
            if k < 0.1:
                self.f('merge-inline')
                out.append(ind + '<<: ' + self.ch(['{m1: 1, m2: x}', '[{m1: 2}, {m3: 3}]', '1', '~']))
                continue
            if k < 0.15:
                self.f('complex-key')
                kt = self.ch(['x', '[a, b]', '{a: 1}', '- a', '|\n' + ind + '  lit', '"q"', ''])
                line = ind + '?' + self.ch([' ', '\t', '  ']) + kt.replace('\n- ', '\n' + ind + '  - ')
                if kt == '- a':
                    line = ind + '? - a\n' + ind + '  - b'
                out.append(line)
                if self.p(0.8):
                    out.append(ind + ':' + self.value(col, depth))
                continue
            key = self.key()
            out.append(ind + key + ':' + self.value(col, depth))
            self.flush_anchor()
        return head + lead + '\n'.join(out)

    def block_seq(self, col, depth, lead='', props=''):
        out = []
        head = ''
        if props:
            head = ' ' + props.rstrip() + self.comment()
        for _ in range(self.r.randint(1, 3) if not self.schema_mode else 1):
            out += self.comment_line(col)
            ind = ' ' * col
            dash = '-' + self.ch([' ', ' ', ' ', '  ', '\t', ' \t'])
            if dash != '- ':
                self.f('dash-spacing')
            k = self.r.random()
            if depth >= self.maxdepth or self.budget <= 0:
                k = 0.9
            inner = col + len(dash.replace('\t', ' '))
            if k < 0.25:
                # compact map in an item
                m = self.block_map(inner, depth + 1)
                out.append(ind + dash + m.lstrip(' '))
            elif k < 0.35:
                self.f('compact-seq')
                s = self.block_seq(inner, depth + 1)
                out.append(ind + dash + s.lstrip(' '))
            elif k < 0.45:
                out.append(ind + '-' + self.block_map(col + self.step(), depth + 1, lead='\n', props=self.props()))
            elif k < 0.55:
                out.append(ind + dash + self.props(allow_tag=False) + self.flow(col, depth, self.p(0.4)))
            elif k < 0.62:
                out.append(ind + '-' + self.block_scalar(col))
            elif k < 0.66:
                out.append(ind + '-' + self.comment())
            else:
                out.append(ind + dash + self.props() + self.scalar(col) + self.comment())
            self.flush_anchor()
        return head + lead + '\n'.join(out)

    def flush_anchor(self):
        self.anchors += self._pending
        self._pending = []

    # documents -------------------------------------------------------------------------
    def document(self, annotation, body_lines):
        pre = []
        if self.p(0.08):
            self.f('directive')
            pre.append(self.ch(['%YAML 1.1', '%YAML 1.2', '%TAG ! tag:example.com,2000:', '%TAG !e! tag:e.com:',
                                '%FOO bar', '%YAML 1.1\n%YAML 1.1']))
        start = '---'
        if self.p(0.08):
            self.f('doc-start-comment')
            start += self.ch([' #! c', ' #@ 1', ' #@overlay/match-child-defaults missing_ok=True'])
        if self.p(0.1):
            self.f('annotation-on-start-line')
            lines = pre + [start + ' ' + annotation]
        else:
            lines = ([annotation] + pre if self.p(0.8) else pre + [annotation]) + [start]
        if self.p(0.08):
            self.f('start-line-node')
            lines[-1] += ' ' + self.ch(['&d', '!!map', ''])
        lines += body_lines
        if self.p(0.12):
            self.f('doc-end')
            lines.append('...' + self.ch(['', ' #! c', ' #@ 1', ' ']))
        return lines

    def tree(self, schema):
        self.schema_mode = schema
        self.budget = self.r.randint(3, 25)
        self.maxdepth = self.r.randint(2, 8) if not self.p(0.03) else 45
        if self.maxdepth > 10:
            self.f('deep')
        return self.block_map(0, 0)

    def finish(self, lines):
        text = '\n'.join(lines) + ('\n' if self.p(0.9) else '')
        if self.p(0.08):
            self.f('trailing-spaces')
            text = '\n'.join(ln + (' ' * self.r.randint(1, 2) if self.p(0.3) else '') for ln in text.split('\n'))
        if self.p(0.06):
            self.f('crlf')
            text = text.replace('\n', '\r\n')
        if self.p(0.05):
            self.f('bom')
            text = '\ufeff' + text
        return text

    def build(self):
        mode = self.ch(['any', 'any', 'schema', 'both'])
        self.features.add('mode-' + mode)
        self.merge_ok = True
        if mode == 'any':
            schema = ['#@data/values-schema', '---', '#@schema/type any=True', 'root: ' + self.ch(['null', '{}', '~', '1'])]
            self.files['schema.yml'] = '\n'.join(schema) + '\n'
            self.anchors = []
            self.schema_mode = False
            self.budget = self.r.randint(3, 25)
            self.maxdepth = self.r.randint(2, 8) if not self.p(0.03) else 45
            body = 'root:' + self.value(0, 0)
            self.files['values.yml'] = self.finish(self.document('#@data/values', [body]) + self.more_docs())
        elif mode == 'schema':
            self.files['schema.yml'] = self.finish(self.document('#@data/values-schema', [self.tree(True)]))
            self.anchors = []
            self.files['values.yml'] = self.finish(['#@data/values', '---'] + ([] if self.p(0.5) else [self.tree(False)]))
        else:
            self.files['schema.yml'] = self.finish(self.document('#@data/values-schema', [self.tree(True)]))
            self.anchors = []
            self.r2 = self.r
            self.files['values.yml'] = self.finish(self.document('#@data/values', [self.tree(False)]) + self.more_docs())
        self.args = ['-f', 'schema.yml', '-f', 'values.yml']
        if self.p(0.05):
            self.args.append('--ignore-unknown-comments')

    def more_docs(self):
        if not self.p(0.1):
            return []
        self.f('multi-doc')
        self.anchors = []
        self.schema_mode = False
        self.budget = 5
        self.maxdepth = 3
        return self.document('#@data/values', ['root:' + self.value(0, 0)])


generate = gen.generator(Case)


if __name__ == '__main__':
    raise SystemExit(gen.case_cli(__doc__, generate))
