#!/usr/bin/env python3
"""Overlay annotations on data values and schemas, for `run.py --gen overlaygen`.

Each case has a schema (none, one, or a second one overlaid on the first: `#@overlay/match
missing_ok=True`, `#@overlay/replace` of an array default, `#@overlay/remove`,
`#@overlay/match-child-defaults`) and one to three data values files whose documents, map items
and array items carry overlay annotations: `#@overlay/match` with `by=` (a key name, `overlay.all`,
`overlay.subset(...)`, `overlay.index(i)`, `overlay.map_key(...)`, `overlay.and_op/or_op/not_op`,
`lambda i, l, r: ...`), `expects=` (int, `"N+"`, list, function), `missing_ok=`, `when=`;
`#@overlay/replace` (`via=`, `or_add=`), `#@overlay/remove`, `#@overlay/merge`,
`#@overlay/insert before=/after=`, `#@overlay/append`, `#@overlay/assert` (`via=`),
`#@overlay/match-child-defaults`, annotations on whole documents, and `overlay.apply(...)` in
code. About one annotation in six is wrong on purpose (a bad `by=`, an unknown keyword, a count
that fails, a key that is missing, an annotation on the wrong kind of node, a value of the wrong
type for the schema). Not run in CI: the nineteenth session's hunt (FINDINGS.md).

    tests/ytt-diff/run.py --gen overlaygen --seeds 0:2000 --jobs 1 --no-shrink
    tests/ytt-diff/overlaygen.py --seed 7 --print
"""
import random

import gen

OV = '#@ load("@ytt:overlay", "overlay")'


class N:
    """A YAML node with the annotations written above it (as an item of its parent)."""

    def __init__(self, kind, v, anns=None):
        self.kind, self.v, self.anns = kind, v, list(anns or [])

    def copy(self):
        if self.kind == 'map':
            return N('map', [[k, n.copy()] for k, n in self.v], self.anns)
        if self.kind == 'array':
            return N('array', [n.copy() for n in self.v], self.anns)
        return N(self.kind, self.v, self.anns)


def S(text):
    return N('scalar', text)


def M(*items):
    return N('map', [[k, n] for k, n in items])


def A(*items):
    return N('array', list(items))


def port(name, number, proto=None):
    items = [('name', S(name)), ('port', S(str(number)))]
    if proto:
        items.append(('protocol', S(proto)))
    return M(*items)


def base_values():
    """The data values every case starts from (the schema's shape, with arrays filled)."""
    return M(
        ('app', M(('name', S('web')), ('replicas', S('1')), ('enabled', S('true')),
                  ('labels', M(('tier', S('front')), ('team', S('blue')))),
                  ('ports', A(port('http', 80), port('https', 443))),
                  ('tags', A(S('"a"'), S('"b"'))),
                  ('resources', M(('cpu', S('"100m"')), ('memory', S('"128Mi"')))),
                  ('ratio', S('0.5')))),
        ('debug', S('false')),
        ('hosts', A(S('"x.io"'))),
    )


def render(node, indent, out):
    sp = '  ' * indent
    if node.kind == 'map':
        for k, n in node.v:
            for a in n.anns:
                out.append(sp + '#@' + a)
            if n.kind == 'scalar':
                out.append('%s%s: %s' % (sp, k, n.v))
            elif not n.v:
                out.append('%s%s: %s' % (sp, k, '{}' if n.kind == 'map' else '[]'))
            else:
                out.append('%s%s:' % (sp, k))
                render(n, indent + 1 if n.kind == 'map' else indent, out)
    else:
        for n in node.v:
            for a in n.anns:
                out.append(sp + '#@' + a)
            if n.kind == 'scalar':
                out.append('%s- %s' % (sp, n.v))
            elif not n.v:
                out.append('%s- %s' % (sp, '{}' if n.kind == 'map' else '[]'))
            elif n.kind == 'map' and not n.v[0][1].anns and n.v[0][1].kind == 'scalar':
                sub = []
                render(n, indent + 1, sub)
                out.append('%s- %s' % (sp, sub[0].lstrip()))
                out.extend(sub[1:])
            else:
                out.append('%s-' % sp)
                render(n, indent + 1, out)


class Case:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.files = {}
        self.args = []
        self.env = {}
        self.features = set()
        self.bad = None

    def p(self, x):
        return self.r.random() < x

    def ch(self, xs):
        return self.r.choice(xs)

    def feat(self, f):
        self.features.add(f)

    def mark_bad(self, what):
        self.bad = self.bad or what
        self.feat('bad input: ' + what)

    # ---- parts of annotations ------------------------------------------------------------

    def expects(self):
        if self.p(0.6):
            e = self.ch(['1', '"1+"', '"0+"', '[0, 1]', '[1, 2]', 'lambda n: n > 0', 'lambda n: n == 1'])
            self.feat('expects=' + e.split(':')[0].split(' ')[0])
            return 'expects=' + e
        e = self.ch(['1', '"1+"', '"0+"', '[0, 1]', '[1, 2]', '2', '0', '"2+"', 'lambda n: n > 0',
                     'lambda n: n == 1', '[0, lambda n: n > 1]', '"1"', '(1,)', '"x"', '-1', 'True',
                     '"+1"', '[]', 'lambda: True', 'None'])
        self.feat('expects=' + e.split(':')[0].split(' ')[0])
        return 'expects=' + e

    def when(self):
        e = self.ch(['0', '1', '"0+"', '"1+"', '[0, 1]', '[1]', 'lambda n: n == 0', '2', '"x"'])
        self.feat('when=')
        return 'when=' + e

    def extra_kwargs(self, given=''):
        """Keyword arguments added to an `#@overlay/match` (after `given`): mostly none."""
        kws = []
        if self.p(0.15) and 'expects' not in given:
            kws.append(self.expects())
        elif self.p(0.06):
            kws.append(self.when())
        if self.p(0.08):
            kws.append(self.ch(['missing_ok=True', 'missing_ok=False', 'missing_ok=True', 'missing_ok="yes"']))
        if self.p(0.02):
            kws.append(self.ch(['foo=1', 'by_name="x"', 'expect=1']))
            self.mark_bad('unknown keyword')
        return kws

    def via(self, scalar):
        if scalar:
            return self.ch(['lambda l, r: r', 'lambda l, r: l', 'lambda l, r: str(l) + "-" + str(r)',
                            'lambda l, r: l if r == None else r', 'lambda l, r: [l, r]', 'lambda l: l',
                            'lambda l, r: l + r', '1'])
        return self.ch(['lambda l, r: r', 'lambda l, r: l', 'lambda l, r: {"k": 1}',
                        'lambda l, r: l if type(l) == type(r) else r', 'lambda l, r: None'])

    def item_by(self, left_item):
        """A `by=` for an array item overlaying `left_item`'s array."""
        if left_item.kind == 'map':
            name = self.ch(['"http"', '"https"', '"http"', '"https"', '"grpc"'])
            if self.p(0.7):
                b = self.ch(['"name"', '"name"', 'overlay.subset({"name": %s})' % name,
                             'overlay.map_key("name")', 'overlay.index(%s)' % self.ch(['0', '1']),
                             'lambda i, l, r: l["name"] == r["name"]', 'lambda i, l, r: i == %s' % self.ch(['0', '1']),
                             'lambda i, l, r: "name" in l and l["name"] == %s' % name])
            elif self.p(0.5):
                b = self.ch(['overlay.all, expects="1+"', 'overlay.all, expects="0+"', 'overlay.all, expects=2',
                             'overlay.all', 'overlay.all, missing_ok=True'])
            else:
                b = self.ch(['overlay.index(%s)' % self.ch(['5', '-1']), 'overlay.subset({"port": 443})',
                             'overlay.and_op(overlay.subset({"name": %s}), overlay.subset({"port": 80}))' % name,
                             'overlay.or_op(overlay.subset({"name": "http"}), overlay.subset({"name": "https"}))',
                             'overlay.not_op(overlay.subset({"name": %s}))' % name, 'overlay.map_key("port")'])
            if self.p(0.04):
                b = self.ch(['"nokey"', '1', 'overlay.index("a")', 'overlay.subset()', 'overlay.map_key()',
                             'lambda l, r: True', 'lambda i, l, r: l.name', 'overlay.and_op()',
                             'overlay.subset({"name": "http"}, 1)', 'True', 'lambda i, l, r: 1',
                             'overlay.not_op(1)', 'overlay.index(0, 1)', '"port"'])
                self.mark_bad('bad by= on array item')
        else:
            b = self.ch(['overlay.subset(%s)' % left_item.v, 'overlay.index(0)', 'overlay.all',
                         'lambda i, l, r: l == r', 'lambda i, l, r: l == %s' % left_item.v,
                         'overlay.not_op(overlay.subset(%s))' % left_item.v, '"name"'])
        self.feat('by=' + b.split('(')[0].split(' ')[0])
        return 'by=' + b

    # ---- overlay documents -----------------------------------------------------------------

    def new_scalar(self, old, wrong_ok=True):
        """A new value for a scalar of the base values (sometimes of another type)."""
        t = old.v
        if wrong_ok and self.p(0.08):
            self.mark_bad('value of the wrong type')
            self.feat('value of the wrong type')
            return S(self.ch(['"two"', '[1]', '{a: 1}', 'null', '3.5', 'true', '7']))
        if t in ('true', 'false'):
            return S(self.ch(['true', 'false']))
        if t.startswith('"') or t.isalpha():
            return S(self.ch(['"api"', '"200m"', '"db"', 'svc', '"x-1"']))
        if '.' in t:
            return S(self.ch(['0.75', '1.0', '2.5']))
        return S(self.ch(['2', '3', '8080', '0']))

    def map_item_overlay(self, k, left, out, depth):
        """Appends to `out` (a map's items) an overlay of the key `k` whose value is `left`."""
        c = self.r.randrange(50)
        if left.kind == 'scalar':
            new = self.new_scalar(left)
        elif left.kind == 'map':
            new = self.map_overlay(left, depth + 1)
        else:
            new = self.array_overlay(left, depth + 1)
        if c < 6 or c >= 22:
            pass
        elif c == 6:
            new.anns.append('overlay/replace')
            self.feat('@overlay/replace')
            if left.kind != 'scalar' and self.p(0.5):
                new = left.copy()
                new.anns = ['overlay/replace']
                if new.kind == 'array' and new.v:
                    new.v = new.v[:1]
        elif c == 7:
            new.anns.append('overlay/replace via=' + self.via(left.kind == 'scalar'))
            self.feat('@overlay/replace via=')
        elif c == 8:
            new.anns.append('overlay/remove')
            self.feat('@overlay/remove')
        elif c == 9:
            new = left.copy() if self.p(0.6) else new
            new.anns.append(self.ch(['overlay/assert', 'overlay/assert via=lambda l, r: l == r',
                                     'overlay/assert via=lambda l, r: (False, "nope")',
                                     'overlay/assert via=lambda l, r: True',
                                     'overlay/assert via=lambda l, r: None',
                                     'overlay/assert via=lambda l, r: assert.fail("bad " + str(l))']))
            self.feat('@overlay/assert')
        elif c == 10:
            new.anns.append('overlay/merge')
            self.feat('@overlay/merge')
        elif c == 11:
            e = self.expects()
            new.anns.append('overlay/match ' + ', '.join([e] + self.extra_kwargs(e)))
        elif c == 12:
            new.anns.append('overlay/match ' + ', '.join(['missing_ok=True'] + self.extra_kwargs()))
            self.feat('missing_ok=True on a present key')
        elif c == 13:
            new.anns.append('overlay/match ' + self.when())
        elif c == 14:
            by = self.ch(['overlay.all, expects="1+"', 'lambda k, l, r: k == "%s"' % k, 'overlay.all',
                          'overlay.subset({"name": "web"})',
                          'lambda k, l, r: k == "%s"' % k, 'overlay.map_key("name")', 'overlay.index(0)',
                          '"name"', 'lambda k, l, r: True', 'overlay.not_op(overlay.all)',
                          'overlay.or_op(overlay.all, overlay.all)'])
            new.anns.append('overlay/match by=' + ', '.join([by] + self.extra_kwargs()))
            self.feat('by= on a map item: ' + by.split('(')[0].split(' ')[0])
        elif c == 15:
            bad = self.ch(['overlay/insert', 'overlay/append', 'overlay/insert before=True',
                           'overlay/match by=1', 'overlay/match foo=True', 'overlay/replace or_add="x"',
                           'overlay/remove expects=1', 'overlay/merge via=1', 'overlay/match-child-defaults',
                           'overlay/match-child-defaults by="name"', 'overlay/nope', 'overlay/match expects=1.5'])
            new.anns.append(bad)
            self.mark_bad('wrong annotation on a map item: ' + bad.split(' ')[0])
        elif c == 16 and left.kind == 'map':
            new.anns.append('overlay/match-child-defaults ' + self.ch(
                ['missing_ok=True', 'expects="0+"', 'expects=1', 'missing_ok=True, expects="0+"', 'when=1']))
            new.v.append(['extra', S('1')])
            self.feat('@overlay/match-child-defaults')
        elif c == 17:
            new.anns.append('overlay/replace or_add=True')
            self.feat('or_add=True')
        elif c == 18 and left.kind != 'scalar':
            # a value of another kind
            new = self.ch([S('1'), S('"x"'), A(S('1')), M(('k', S('1')))])
            new.anns = self.ch([[], ['overlay/replace']])
            self.mark_bad('collection overlaid by another kind')
        elif c == 19:
            new.anns.append('overlay/match expects=2')
            if self.p(0.5):
                new.anns.append('overlay/replace')
            self.feat('two annotations')
        out.append([k, new])

    def map_overlay(self, left, depth):
        """An overlay of the map `left`: some of its keys, maybe a new one."""
        node = N('map', [])
        keys = [kv for kv in left.v]
        self.r.shuffle(keys)
        for k, v in keys[:self.r.randrange(1, 3 if depth == 0 else 2)]:
            if depth > 3:
                break
            self.map_item_overlay(k, v, node.v, depth)
        if self.p(0.15):
            anns = self.ch([[], ['overlay/match missing_ok=True'], ['overlay/match missing_ok=True, expects=0'],
                            ['overlay/match when=0'], ['overlay/replace or_add=True'],
                            ['overlay/match expects="0+"']])
            node.v.append(['newkey', N('scalar', self.ch(['1', '"n"']), anns)])
            self.feat('new key ' + (anns[0] if anns else 'plain'))
        return node

    def array_item_overlay(self, left, out):
        """Appends to `out` an overlay item for the array `left`."""
        sample = left.v[0] if left.v else S('"a"')
        if sample.kind == 'map':
            name = self.ch(['http', 'https', 'grpc'])
            item = port(name, self.ch([80, 8080, 9090]), self.ch([None, None, 'TCP']))
            if self.p(0.08):
                item = self.ch([S('"x"'), M(('name', S('1'))), A(S('1'))])
                self.mark_bad('array item of another kind')
        else:
            item = S(self.ch(['"c"', '"a"', '"b"', '1']))
        c = self.r.randrange(22)
        if c < 2 or c >= 12:
            self.feat('plain array item')
        elif c == 2:
            item.anns.append('overlay/append')
            self.feat('@overlay/append')
        elif c < 6:
            item.anns.append('overlay/match ' + ', '.join([self.item_by(sample)] + self.extra_kwargs()))
        elif c == 6:
            item.anns.append('overlay/match ' + ', '.join([self.item_by(sample)] + self.extra_kwargs()))
            item.anns.append(self.ch(['overlay/replace', 'overlay/remove', 'overlay/merge',
                                      'overlay/replace via=' + self.via(sample.kind == 'scalar')]))
            self.feat('match + operation on an array item')
        elif c == 7:
            item.anns.append('overlay/match ' + self.item_by(sample))
            item.anns.append(self.ch(['overlay/insert before=True', 'overlay/insert after=True',
                                      'overlay/insert', 'overlay/insert before=True, after=True',
                                      'overlay/insert via=lambda l, r: r']))
            self.feat('@overlay/insert')
        elif c == 8:
            item.anns.append('overlay/match ' + ', '.join([self.item_by(sample), 'missing_ok=True']))
            item.anns.append(self.ch(['overlay/replace', 'overlay/merge', 'overlay/remove']))
            self.feat('missing_ok on an array item')
        elif c == 9:
            item.anns.append(self.ch(['overlay/remove', 'overlay/replace', 'overlay/merge',
                                      'overlay/insert before=True', 'overlay/assert',
                                      'overlay/match expects=1', 'overlay/match missing_ok=True']))
            self.feat('array item operation without by=')
        elif c == 10:
            item.anns.append('overlay/match ' + self.item_by(sample))
            item.anns.append('overlay/assert')
            if sample.kind == 'map' and self.p(0.5):
                item = sample.copy()
                item.anns = ['overlay/match ' + self.item_by(sample), 'overlay/assert']
            self.feat('@overlay/assert on an array item')
        else:
            item.anns.append('overlay/replace or_add=True')
            item.anns.insert(0, 'overlay/match ' + self.item_by(sample))
            self.feat('or_add on an array item')
        out.append(item)

    def array_overlay(self, left, depth):
        node = N('array', [])
        for _ in range(1 if self.p(0.75) else 2):
            self.array_item_overlay(left, node.v)
        return node

    def document(self, base):
        """One overlay document on `base` (the values so far)."""
        anns = ['data/values']
        if self.p(0.18):
            a = self.ch(['overlay/match by=overlay.all', 'overlay/match by=overlay.all, expects="1+"',
                         'overlay/match-child-defaults missing_ok=True', 'overlay/match missing_ok=True',
                         'overlay/match by=overlay.subset({"debug": False})', 'overlay/match expects=2',
                         'overlay/match by=lambda i, l, r: True', 'overlay/replace', 'overlay/remove',
                         'overlay/match by=overlay.index(0)', 'overlay/match by="app"',
                         'overlay/match-child-defaults expects="0+"', 'overlay/match when=1',
                         'overlay/insert after=True', 'overlay/assert', 'overlay/append'])
            self.feat('document annotation: ' + a)
            anns.append(a)
            if self.p(0.3):
                anns.reverse()
        body = self.map_overlay(base, 0)
        if self.p(0.04) and 'hosts' not in [k for k, _ in body.v]:
            body.v.append(['hosts', A(S('"y.io"'))] if self.p(0.5) else ['undeclared', S('1')])
        return anns, body

    def code_apply(self):
        """`overlay.apply(...)` of two fragments in a template, as the value of `generated`."""
        self.feat('overlay.apply')
        right_ann = self.ch(['#@overlay/match by="name"', '#@overlay/match by=overlay.subset({"name": "a"})',
                             '#@overlay/match by=overlay.index(0)', '#@overlay/append',
                             '#@overlay/match by="name", expects=2', '#@overlay/match by="nope"',
                             '#@overlay/match by=overlay.all', '#@overlay/insert before=True'])
        defs = ['#@ def left():', 'items:', '- name: a', '  v: 1', '- name: b', '  v: 2', 'keep: 1', '#@ end',
                '#@ def right():', 'items:']
        if 'insert' in right_ann:
            defs.append('#@overlay/match by="name"')
        defs += [right_ann, '- name: a', '  v: 10',
                 self.ch(['#@overlay/remove', '#@overlay/replace', '#@overlay/match missing_ok=True', '']),
                 'keep: 2', '#@ end']
        call = self.ch(['overlay.apply(left(), right())', 'overlay.apply(left(), right(), right())',
                        'overlay.apply(left())', 'overlay.apply(left(), {"keep": 3})',
                        'overlay.apply(left(), right(), nope=1)'])
        return [d for d in defs if d], call

    # ---- files -----------------------------------------------------------------------------

    def schema(self, base):
        lines = [OV, '#@data/values-schema', '---']
        sch = base.copy()
        app = sch.v[0][1]
        ports = app.v[4][1]
        ports.v = ports.v[:1]
        if self.p(0.3):
            ports.anns.append('schema/default [{"name": "http", "port": 80}, {"name": "https", "port": 443}]')
            self.feat('schema default array')
        app.v[5][1].v = app.v[5][1].v[:1]
        sch.v[2][1].v = sch.v[2][1].v[:1]
        if self.p(0.3):
            app.v[3][1].anns.append('schema/type any=True')
        sch.v.append(['generated', N('map', [], ['schema/type any=True'])])
        render(sch, 0, lines)
        self.files['schema.yml'] = '\n'.join(lines) + '\n'
        self.args += ['-f', 'schema.yml']
        self.feat('schema')
        if self.p(0.35):
            self.schema2(sch)

    def schema2(self, sch):
        self.feat('second schema file')
        lines = [OV]
        doc = ['#@data/values-schema']
        if self.p(0.2):
            doc.append(self.ch(['#@overlay/match-child-defaults missing_ok=True', '#@overlay/match by=overlay.all',
                                '#@overlay/match expects=2', '#@overlay/replace']))
            self.feat('schema document annotation')
        lines += doc + ['---']
        body = N('map', [])
        app = N('map', [])
        c = self.r.randrange(9)
        if c == 0:
            app.v.append(['owner', N('scalar', '"ops"', ['overlay/match missing_ok=True'])])
        elif c == 1:
            app.v.append(['ports', N('array', [port('http', 80, 'TCP')],
                                     ['overlay/replace'] + self.ch([[], ['schema/default []'],
                                      ['schema/default [{"name": "x", "port": 1, "protocol": "UDP"}]']]))])
            self.feat('schema: array replaced')
        elif c == 2:
            app.v.append(['ratio', N('scalar', '0', ['overlay/remove'])])
        elif c == 3:
            app.anns.append('overlay/match-child-defaults missing_ok=True')
            app.v += [['zone', S('"a"')], ['replicas', S('3')]]
        elif c == 4:
            app.v.append(['replicas', N('scalar', self.ch(['5', '"five"', '2.5']), ['overlay/replace'])])
        elif c == 5:
            app.v.append(['ports', N('array', [N('map', [['name', S('"x"')], ['port', S('1')]],
                                                 [self.ch(['overlay/append', 'overlay/match by="name"',
                                                           'overlay/match by=overlay.all'])])])])
            self.feat('schema: array item overlay')
        elif c == 6:
            app.v.append(['nothere', S('1')])
            self.mark_bad('schema overlay of an unknown key')
        elif c == 7:
            app.v.append(['labels', N('map', [['tier', S('"back"')]], ['schema/default {"tier": "x"}'])])
        else:
            body.v.append(['generated', N('map', [['k', S('1')]], ['overlay/replace'])])
        body.v.insert(0, ['app', app])
        render(body, 0, lines)
        self.files['schema2.yml'] = '\n'.join(lines) + '\n'
        self.args += ['-f', 'schema2.yml']

    def values_file(self, i, base, first_plain):
        name = 'values%d.yml' % i
        loads = [OV] if self.p(0.97) else []
        if not loads:
            self.feat('no load of @ytt:overlay')
        if self.p(0.5):
            loads.append('#@ load("@ytt:assert", "assert")')
        lines = []
        if first_plain:
            lines += ['#@data/values', '---']
            render(base, 0, lines)
        docs = 1 if self.p(0.8) else 2
        for _ in range(docs):
            anns, body = self.document(base)
            if self.p(0.12):
                defs, call = self.code_apply()
                lines = defs + lines
                body.v.append(['generated', N('scalar', '#@ ' + call, ['overlay/replace'])])
            lines += ['#@' + a for a in anns] + ['---']
            render(body, 0, lines)
        self.files[name] = '\n'.join(loads + lines) + '\n'
        self.args += ['-f', name]

    def build(self):
        base = base_values()
        has_schema = self.p(0.75)
        if has_schema:
            self.schema(base)
        else:
            self.feat('no schema')
        n = self.r.randrange(1, 4)
        for i in range(1, n + 1):
            self.values_file(i, base, first_plain=(i == 1 and (not has_schema or self.p(0.7))))
        if self.p(0.03):
            # the overlays as a plain values file: annotations are comments there
            self.args[-2] = '--data-values-file'
            self.feat('--data-values-file with annotations')
        if self.p(0.05):
            self.args += ['--data-value-yaml', self.ch(['app.replicas=4', 'app.ports=[]', 'debug=1'])]


generate = gen.generator(Case)


if __name__ == '__main__':
    raise SystemExit(gen.case_cli(__doc__, generate))
