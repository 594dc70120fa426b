#!/usr/bin/env python3
"""Schemas whose keys are hard to name in Rust, for `run.py --gen hostilekeys` and
`backends.py --gen hostilekeys`.

Each case is one schema and zero to two data values files. The schema's keys are drawn from
Rust's keywords and reserved names (`type`, `self`, `Self`, `crate`, `super`, `r#x`, `_`),
keys that differ only in case or punctuation and so map to one Rust identifier (`a-b`, `a_b`,
`a.b`, `A_B`, `a b`), keys starting with digits, the empty key, non-ASCII and emoji keys, very
long keys, text special to Rust's literals and comments (`q"#`, `{x}`, `*/`) and its
primitive types' names (`f64`, `str`), the names of the generated API's methods and of the prelude's and runtime's types
(`default`, `new`, `from_yaml_str`, `Option`, `Value`, `DataValues`), and plain ones; its
shapes are maps in maps, arrays of maps, arrays of arrays of maps, nullable and `any=True`
values, `#@schema/default` overriding a default, and rules of every kind: named validations,
lambdas calling `@ytt:assert`'s assertions (`min`, `max`, `min_len`, `max_len`, `not_null`,
`one_of`, `one_not_null`, `fail`, `try_to`). The values files set some of the keys, valid or
not (wrong types, values breaking the rules, null where null is not allowed). The built
validator and the typed API must answer as `schemac check` does, and a schema must never make
generated code that does not compile. Not run in CI: the sixty-fifth session's hunt.

    tests/ytt-diff/backends.py --gen hostilekeys --seeds 0:200 --jobs 1 --no-shrink
    tests/ytt-diff/hostilekeys.py --seed 7 --print
"""
import json

import gen

KEYWORDS = ['type', 'self', 'Self', 'crate', 'super', 'r#x', 'r#type', '_', '__', 'fn', 'gen',
            'async', 'try', 'union', 'static', 'mod', 'impl', 'dyn', 'abstract', 'yield',
            'macro_rules', 'self_', 'type_', '_field', 'r#', 'extern', 'ref', 'true', 'false']
COLLIDING = ['a-b', 'a_b', 'a.b', 'A_B', 'a b', 'aB', 'AB', 'a__b', 'a-b-', '-a-b', 'A-b',
             'a_b_2', 'a/b', 'a:b']
DIGITS = ['1', '1x', '007', '0', '9lives', '1-2', '_1', 't1', 'T1']
ODD = ['', ' ', 'é', 'ß', '日本', '\U0001f389', 'Ä-b', 'a\u00e9b', '\u0391', 'x' * 300,
       'LongKey' * 60, 'camelCaseKeyWithHTTPServer', 'HTTPServer', 'http_server']
METHODS = ['default', 'new', 'from_yaml_str', 'from_yaml', 'load', 'load_plain', 'validate',
           'to_yaml', 'to_json', 'clone', 'fmt', 'eq', 'hash', 'into', 'from', 'schema', 'value',
           'values', 'inner', 'extra', 'Option', 'Some', 'None', 'Result', 'Ok', 'Err', 'String',
           'Vec', 'Box', 'Default', 'T', 'DataValues', 'Value', 'Error', 'Map', 'Typed', 'std',
           'core', 'alloc', 'schemac_runtime', 'serde', 'Item', 'RootItem', 'Root', 'main',
           'deserialize', 'serialize', 'as_ref', 'get', 'len', 'is_empty', 'iter']
# Text that Rust's string literals, comments and format strings treat specially, and the
# primitive types' names.
LITERALS = ['q"#', 'b\\s', '{x}', '{0}', '/*', '*/', "'", '"##', '\t', 'f64', 'u8', 'str', 'bool',
            'i64', 'usize', 'char', 'Sized', 'Send', 'Drop', 'Clone', 'PartialEq']
PLAIN = ['name', 'port', 'enabled', 'tls', 'items', 'image', 'labels']
POOLS = [KEYWORDS, COLLIDING, DIGITS, ODD, METHODS, LITERALS, PLAIN]


def q(s):
    """A YAML double-quoted scalar of s (JSON's string syntax, which YAML reads alike)."""
    return json.dumps(s, ensure_ascii=False)


class Case(gen.CaseStart):
    def __init__(self, seed):
        super().__init__(seed, {}, ['-f', 'schema.yml'])
        self.paths = []        # (path of keys, kind) of scalar leaves, for the values files

    def key(self):
        r = self.r
        pool = r.choice(POOLS)
        return r.choice(pool)

    def keys(self, n):
        seen, out = set(), []
        for _ in range(n):
            k = self.key()
            if k not in seen:
                seen.add(k)
                out.append(k)
        return out

    def rule(self, kind):
        """A validation annotation for a value of kind, or None."""
        r = self.r
        if r.random() < 0.55:
            return None
        self.features.add('rules')
        if kind == 'int':
            named = ['min=0', 'max=100', 'one_of=[1, 2, 3, 80]', 'min=1, max=65535']
            lam = ['assert.min(1)', 'assert.max(99)', 'assert.one_of([0, 1, 8080])', 'assert.not_null()']
        elif kind == 'str':
            named = ['min_len=1', 'max_len=5', 'one_of=["a", "x", ""]', 'not_null=True']
            lam = ['assert.min_len(1)', 'assert.max_len(3)', 'assert.one_of(["a", "b"])']
        elif kind == 'float':
            named = ['min=0.5', 'max=2.5']
            lam = ['assert.min(0)', 'assert.max(1.5)']
        elif kind == 'map':
            named = ['one_not_null=True', 'max_len=3', 'min_len=1']
            lam = ['assert.one_not_null()', 'assert.max_len(2)']
        elif kind == 'array':
            named = ['min_len=1', 'max_len=2']
            lam = ['assert.min_len(1)', 'assert.max_len(2)']
        else:
            named = ['not_null=True']
            lam = ['assert.not_null()']
        c = r.random()
        if c < 0.4:
            return '#@schema/validation ' + r.choice(named)
        if c < 0.7:
            return '#@schema/validation ("%s", lambda v: %s.check(v))' % (r.choice(['ok', '<b>', 'a|b', '`x`']), r.choice(lam))
        if c < 0.8:
            return '#@schema/validation ("never", lambda v: assert.fail("no: {}".format(v)) if v == None else True)'
        if c < 0.9:
            return '#@schema/validation ("tried", lambda v: assert.try_to(lambda: %s.check(v))[1] == None)' % r.choice(lam)
        return '#@schema/validation %s' % r.choice(named + ['("plain", lambda v: True)'])

    def scalar(self, path, indent):
        """Lines of an annotated scalar value (without the key) and its text."""
        r = self.r
        kind = r.choice(['int', 'str', 'float', 'bool', 'null', 'any'])
        ann = []
        if kind == 'int':
            text = r.choice(['1', '0', '8080', '-5', '123456789012345678901'])
        elif kind == 'str':
            text = r.choice(['""', '"a"', 'hello', '"日本"', "'<script>'", '"a\\nb"'])
        elif kind == 'float':
            text = r.choice(['1.5', '0.0', '-2.25', '.inf'])
        elif kind == 'bool':
            text = r.choice(['true', 'false'])
        elif kind == 'null':
            ann.append('#@schema/nullable')
            text = r.choice(['1', '"s"', 'true'])
            kind = 'nullable'
        else:
            ann.append('#@schema/type any=True')
            text = r.choice(['~', '1', '[1, "a"]', '{a: 1}'])
        if kind not in ('any',) and r.random() < 0.2:
            ann.append('#@schema/default %s' % r.choice({'int': ['3', '70'], 'str': ['"d"', '""'],
                                                         'float': ['2.0', '0.5'], 'bool': ['True'],
                                                         'nullable': ['None']}[kind]))
            self.features.add('default')
        rule = self.rule(kind)
        if rule:
            ann.append(rule)
        if r.random() < 0.15:
            ann.append('#@schema/desc %s' % q(r.choice(['<script>x</script>', 'a|b', '`c`', ']]>', '*x*'])))
        self.paths.append((path, kind))
        return ann, text

    def map_lines(self, path, indent, depth):
        r = self.r
        lines = []
        pad = '  ' * indent
        for k in self.keys(r.randint(1, 6 if depth else 9)):
            sub = path + [k]
            c = r.random()
            if depth < 3 and c < 0.2:
                rule = self.rule('map')
                if rule:
                    lines.append(pad + rule)
                if r.random() < 0.2:
                    lines.append(pad + '#@schema/nullable')
                lines.append(pad + '%s:' % q(k))
                lines += self.map_lines(sub, indent + 1, depth + 1)
            elif depth < 3 and c < 0.32:
                rule = self.rule('array')
                if rule:
                    lines.append(pad + rule)
                lines.append(pad + '%s:' % q(k))
                if r.random() < 0.4:
                    # an array of arrays of maps
                    lines += [pad + '-', pad + '  -']
                    lines += self.map_lines(sub + [0, 0], indent + 2, depth + 2)
                    self.features.add('array of arrays')
                else:
                    lines.append(pad + '-')
                    lines += self.map_lines(sub + [0], indent + 1, depth + 1)
            else:
                ann, text = self.scalar(sub, indent)
                lines += [pad + a for a in ann]
                lines.append(pad + '%s: %s' % (q(k), text))
        return lines

    def bad_value(self, kind):
        return self.r.choice({'int': ['"x"', '1.5', '~', '0', '100000'],
                              'str': ['1', '~', '"abcdefg"', '""'],
                              'float': ['"f"', '-1', '3'],
                              'bool': ['1', '"true"'],
                              'nullable': ['~', '[1]'],
                              'any': ['~', '{z: [1]}']}[kind])

    def good_value(self, kind):
        return self.r.choice({'int': ['2', '80', '1'],
                              'str': ['"a"', '"b"', '"x"'],
                              'float': ['1.0', '2.5'],
                              'bool': ['false', 'true'],
                              'nullable': ['~'],
                              'any': ['[2]', '"z"']}[kind])

    def values_file(self):
        r = self.r
        tree = {}
        for path, kind in r.sample(self.paths, min(len(self.paths), r.randint(1, 4))):
            if any(isinstance(p, int) for p in path):
                continue          # array items are given whole below
            node = tree
            for p in path[:-1]:
                node = node.setdefault(p, {})
                if not isinstance(node, dict):
                    break
            else:
                node[path[-1]] = self.bad_value(kind) if r.random() < 0.4 else self.good_value(kind)
        if r.random() < 0.2:
            tree[self.key()] = '1'     # a key the schema may not have
        lines = []

        def emit(node, indent):
            for k, v in node.items():
                if isinstance(v, dict):
                    lines.append('  ' * indent + '%s:' % q(k))
                    emit(v, indent + 1)
                else:
                    lines.append('  ' * indent + '%s: %s' % (q(k), v))
        emit(tree, 0)
        return '#@data/values\n---\n' + ('\n'.join(lines) + '\n' if lines else '{}\n')

    def build(self):
        r = self.r
        head = ['#@data/values-schema', '---']
        if r.random() < 0.1:
            # 2,000 fields in one map
            body = ['%s: %d' % (q('f%d-%s' % (i, r.choice(['type', 'a-b', 'A_B', 'x']))), i) for i in range(2000)]
            self.paths = [([b.split('"')[1]], 'int') for b in body[:50]]
            self.features.add('2000 fields')
        else:
            body = self.map_lines([], 0, 0)
        load = ['#@ load("@ytt:assert", "assert")'] if any('assert.' in line for line in body) else []
        self.files['schema.yml'] = '\n'.join(load + head + body) + '\n'
        for i in range(r.choice([0, 1, 1, 2])):
            name = 'values%d.yml' % i
            self.files[name] = self.values_file()
            self.args += ['-f', name]
        self.args += r.choice([[], [], ['-o', 'json']])


generate = gen.generator(Case)

if __name__ == '__main__':
    raise SystemExit(gen.case_cli(__doc__, generate))
