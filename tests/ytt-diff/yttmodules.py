#!/usr/bin/env python3
"""ytt's Starlark modules called with random arguments, for `run.py --gen yttmodules`.

Each case loads every `@ytt:` module (json, yaml, base64, url, ip, regexp, math, md5, sha256,
version, struct, assert) into a schema whose keys take any value. One to four keys get a
value computed by a module function called with random arguments: strings (unicode, control
characters, `%`, `+`, `/`, `\\xff`-style bytes, surrogates through `json.decode`, empty and
very long), nested values (dicts, lists, tuples, structs, None, bools, ints beyond 64 bits,
floats such as 1e21, -0.0, nan and inf), keyword arguments (`indent=`, `url=`, `encoding=`...),
wrong argument types and counts. A result is used as a value, as a map key (`{EXPR: 1}`, so
that its type and printing show), through `str()`/`type()`, or in a `#@schema/validation`
rule over a random value. A case may also load the values of a plain data values file whose
values are module calls. Not run in CI: the twenty-first session's hunt (FINDINGS.md).

    tests/ytt-diff/run.py --gen yttmodules --seeds 0:2000 --jobs 1 --no-shrink
    tests/ytt-diff/yttmodules.py --seed 7 --print
"""
import random

import gen

MODULES = ['json', 'yaml', 'base64', 'url', 'ip', 'regexp', 'math', 'md5', 'sha256', 'version',
           'struct', 'assert']
LOADS = ''.join('#@ load("@ytt:%s", "%s")\n' % (m, m) for m in MODULES)

STRING_PIECES = ['a', 'Z', '0', ' ', '%', '%2', '%zz', '%41', '+', '/', '?', '#', '&', '=', ';', ':',
                 '@', '.', '-', '_', '~', '\\n', '\\t', '\\r', '\\x00', '\\x01', '\\x7f', '\\xff',
                 '\\xc3', '\\xc3\\xa9', '\\u00e9', '\\u2028', '\\ufeff', '\\U0001F600', 'é', '日本',
                 '\\"', "'", '\\\\', '$', '${', '}', '$1', '{', '[', ']', ',', '*', '!', 'true',
                 '1.5', '-', '--- ', '#@', 'http://', 'x=1&y=2', 'a%20b', '\\u00a0', '::1',
                 '1.2.3.4', '/24', 'v1.2.3', '1.0.0-rc.1+b', '==', 'YQ==', 'YWJj', '_-']
FLOATS = ['1.5', '-0.0', '0.0', '1e21', '1e20', '-1e21', '1e-7', '123456789.0', '0.1', '2.5',
          'float("nan")', 'float("inf")', 'float("-inf")', '1e308', '5e-324', '3.0', '-2.5',
          '100000000000000000000.0', '1e100']
INTS = ['0', '1', '-1', '7', '255', '256', '-255', '(1 << 63) - 1', '-(1 << 63)', '1 << 63',
        '(1 << 64) - 1', '(1 << 53) + 1', '9007199254740993', '1000000']
# ints past 64 bits: ytt panics (a Go stack trace) converting them to data, so only sometimes
BIG_INTS = ['1 << 64', '1 << 70', '-(1 << 70)', '-(1 << 63) - 1']
REGEXPS = ['a', 'a+', '(a)(b)?', '(?P<name>[a-z]+)', '^$', '.*', '(x|y)*', '[0-9]+', '\\\\d+',
           '\\\\w+', '\\\\s', '(?i)AB', '\\\\bx\\\\b', '[^a]', 'a{2,3}', 'a{1001}', '(', '[a-',
           '*a', '(?<n>x)', '\\\\pL', '\\\\p{Greek}', 'é+', '', '(?m)^a', '(?s).', '\\\\Q.*\\\\E',
           '(a)|(b)', 'x**', '\\\\1', '(?P<a>x)(?P<b>y)', '[[:alpha:]]+', '\\\\z', '.', '\\\\x{41}',
           # Go's escapes where the regex crate reads the text otherwise (twenty-second session)
           '\\\\u00e9', '\\\\U0001F600', '\\\\0', '\\\\12', '\\\\101', '\\\\8', '\\\\<a', '[\\\\>]',
           '[a&&b]', '[a~~b]', '[a[b]', '[\\\\b]', '[\\\\Q]', '\\\\C', '\\\\x{110000}', '\\\\x4', '\\\\xzz',
           '\\\\p{Letter}', '\\\\p{Greek}', '\\\\p{Grek}', '\\\\p{^Greek}', '\\\\pN', '\\\\p{Cs}', '[[:foo:]]',
           '[[:^digit:]]', 'a\\\\', '\\\\E', '\\\\é']
REPLACEMENTS = ['', 'x', '$1', '${1}', '$0', '${name}', '$name', '$$', '$', '${', '$1x', '${1}x',
                '$2$1', '${a}-${b}', '\\\\1', '%', '$10', '${nope}', 'é']
IPS = ['1.2.3.4', '0.0.0.0', '255.255.255.255', '256.1.1.1', '1.2.3', '01.2.3.4', '::1', '::',
       '2001:db8::1', '2001:DB8::1', '::ffff:1.2.3.4', '::ffff:102:304', 'fe80::1%eth0',
       '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', '1::2::3', ' 1.2.3.4', '1.2.3.4 ', '',
       '0:0:0:0:0:0:0:1', '2001:0db8:0000:0000:0000:0000:0000:0001', '::1.2.3.4', 'localhost',
       '1.2.3.4/24', '10.0.0.0/8', '10.1.2.3/8', '::1/128', '2001:db8::/32', '1.2.3.4/33',
       '1.2.3.4/', '/24', '1.2.3.4/-1', '::ffff:1.2.3.4/120', '0.0.0.0/0', '::/0', '1.2.3.4/024']
URLS = ['http://x.io/a?b=c#d', 'https://u:p@h:8080/p/q?x=1&x=2', 'mailto:a@b', '//h/p', '/p?q',
        'http://[::1]:80/', 'http://h/%zz', 'http://h/a b', 'http://h:port/', '', ':', 'a:b:c',
        'http://u@h', 'HTTP://H.IO/', 'http://h/%2F?%41=%42', 'file:///etc/x', 'x', '?',
        'http://h/\\x00', 'http://[::1', 'http://u:@h/']
VERSIONS = ['0.1.0', '1.2.3', 'v1.2.3', '1.2', '1', '', '1.2.3-rc.1', '1.2.3+b', '0.50.0', '99.0.0',
            'x', '1.2.3.4', '0.0.0']


class Case:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.files = {}
        self.args = ['-f', 'schema.yml']
        self.env = {}
        self.features = set()
        self.bad = None

    def ch(self, xs):
        return self.r.choice(xs)

    # --- random arguments ---------------------------------------------------------------

    def string(self):
        r = self.r
        k = r.random()
        if k < 0.05:
            return '""'
        if k < 0.1:
            return '("%s" * %d)' % (self.ch(['a', 'é', '%', 'ab/']), self.ch([100, 1000, 5000]))
        if k < 0.15:
            self.features.add('surrogate')
            return 'json.decode(\'"%s"\')' % self.ch(['\\\\ud800', '\\\\udc00x', '\\\\ud83d\\\\ude00',
                                                     '\\\\u0000', '\\\\ud800\\\\ud800'])
        return '"' + ''.join(self.ch(STRING_PIECES) for _ in range(r.randint(1, 6))) + '"'

    def scalar(self):
        k = self.r.random()
        if k < 0.35:
            return self.string()
        if k < 0.6:
            return self.ch(INTS) if self.r.random() < 0.95 else self.ch(BIG_INTS)
        if k < 0.85:
            return self.ch(FLOATS)
        return self.ch(['None', 'True', 'False'])

    def value(self, depth=0):
        k = self.r.random()
        if depth > 2 or k < 0.5:
            return self.scalar()
        n = self.r.randint(0, 3)
        if k < 0.65:
            return '[%s]' % ', '.join(self.value(depth + 1) for _ in range(n))
        if k < 0.72:
            return '(%s)' % ''.join(self.value(depth + 1) + ', ' for _ in range(n))
        if k < 0.88:
            keys = sorted({self.string() if self.r.random() < 0.9 else self.ch(['1', 'None', 'True', '1.5'])
                           for _ in range(n)})
            return '{%s}' % ', '.join('%s: %s' % (kk, self.value(depth + 1)) for kk in keys)
        self.features.add('struct value')
        return 'struct.make(%s)' % ', '.join('%s=%s' % (k, self.value(depth + 1))
                                             for k in sorted(self.r.sample(['a', 'b', 'c', 'z_1'], n)))

    def any_arg(self):
        """Usually the type a function wants; sometimes anything."""
        return self.value() if self.r.random() < 0.5 else self.string()

    def extra(self, kws):
        """Keyword arguments: mostly the function's own, sometimes unknown or repeated."""
        r = self.r
        out = []
        for kw, vals in kws:
            if r.random() < 0.4:
                out.append('%s=%s' % (kw, self.ch(vals)))
        if r.random() < 0.03:
            out.append('%s=%s' % (self.ch(['nope', 'Indent', 'url']), self.scalar()))
            self.features.add('unknown keyword')
        return out

    def call(self, name, args, kws=()):
        r = self.r
        args = list(args)
        k = r.random()
        if k < 0.025:
            args = args[:-1] if args else [self.scalar()]
            self.features.add('arity')
        elif k < 0.05:
            args = args + [self.scalar()]
            self.features.add('arity')
        elif k < 0.09 and args:
            args[0] = self.value()
            self.features.add('wrong type')
        return '%s(%s)' % (name, ', '.join(args + self.extra(kws)))

    # --- module calls -------------------------------------------------------------------

    def json_call(self):
        if self.r.random() < 0.55:
            return self.call('json.encode', [self.value()], [('indent', ['0', '2', '4', '-1', '"2"', 'None',
                                                                         '1.5', '100', '(1 << 40)'])])
        text = self.ch(['\'{"a": 1, "b": [1.5, -0.0, 1e21, 12345678901234567890]}\'', '"[]"', '"1e400"',
                        '"-0"', '"0.1"', '\'"\\\\u00e9"\'', '"nul"', '\'{"a":1,"a":2}\'', '"[1,]"',
                        '" 1 "', '"1 2"', '"\\x01"', '\'{"b":1,"a":{"d":null,"c":true}}\'', '""',
                        '"123456789012345678901234567890"', '"1.0"', '"-1e-400"', '\'"\\\\ud800"\''])
        if self.r.random() < 0.3:
            text = 'json.encode(%s)' % self.value()
        return self.call('json.decode', [text])

    def yaml_call(self):
        if self.r.random() < 0.55:
            return self.call('yaml.encode', [self.value()])
        text = self.ch(['"a: 1\\nb: [1, 2]\\n"', '"- 1\\n- x\\n"', '"1e21"', '"-.inf"', '".nan"', '"0x1F"',
                        '"0o17"', '"017"', '"yes"', '"on"', '"~"', '""', '"a: 1\\n---\\nb: 2\\n"', '"[1"',
                        '"a: &x 1\\nb: *x\\n"', '"!!binary YWJj"', '"2001-01-01"', '"\\"\\\\u00e9\\""',
                        '"a:\\n  - b\\n  - c: d\\n"', '"1_000"', '"+1"', '"1.0"', '"? [1]\\n: 2\\n"',
                        '"a: 1\\na: 2\\n"', '"a:\\n  b: 1\\n  b: 2\\n"', '"- {x: 1, x: 1}\\n"'])
        if self.r.random() < 0.3:
            text = 'yaml.encode(%s)' % self.value()
        return self.call('yaml.decode', [text])

    def base64_call(self):
        kws = [('url', ['True', 'False', '1', 'None']), ('raw', ['True', 'False']),
               ('strict', ['True', 'False']), ('encoding', ['"utf-8"', '"x"', '1'])]
        if self.r.random() < 0.5:
            return self.call('base64.encode', [self.string()], kws)
        text = self.ch(['"YWJj"', '"YWJjZA"', '"YWJjZA=="', '"YW Jj"', '"YWJj\\n"', '"_-8="', '"/+8="',
                        '"YQ="', '"Y"', '"!!!!"', '""', '"w6k="', '"/w=="', '"4pyTIMOgIGxhIG1vZGU="',
                        '"YWJjZA==YQ=="', '"YWI="'])
        if self.r.random() < 0.3:
            text = 'base64.encode(%s)' % self.string()
        return self.call('base64.decode', [text], kws)

    def url_call(self):
        r = self.r
        k = r.random()
        if k < 0.45:
            f = self.ch(['path_segment_encode', 'path_segment_decode', 'query_param_value_encode',
                         'query_param_value_decode'])
            return self.call('url.' + f, [self.string()])
        if k < 0.65:
            keys = [self.ch([self.string(), '"a"', '"b"', '1']) for _ in range(r.randint(0, 3))]
            vals = ['[%s]' % ', '.join(self.ch([self.string(), '1', 'None']) for _ in range(r.randint(0, 2)))
                    if r.random() < 0.85 else self.scalar() for _ in keys]
            return self.call('url.query_params_encode',
                             ['{%s}' % ', '.join('%s: %s' % kv for kv in zip(keys, vals))])
        if k < 0.8:
            return self.call('url.query_params_decode', [self.ch(['"a=1&b=2&a=3"', '"a;b"', '"%zz=1"',
                                                                  '"=x"', '"a=%41+b"', '""', '"&&"',
                                                                  '"é=1"', '"a=1=2"']) if r.random() < 0.7
                                                         else self.string()])
        u = self.call('url.parse', ['"%s"' % self.ch(URLS) if r.random() < 0.8 else self.string()])
        m = self.ch(['', '.string()', '.user', '.without_user()', '.without_user().string()', '.hostname()',
                     '.user.name', '.user.password', '.user.string()', '.user.string()', '.string()',
                     '.hostname()', '.nope', '.string(1)', '.without_user().user'])
        return u + m

    def ip_call(self):
        r = self.r
        addr = r.random() < 0.5
        text = '"%s"' % self.ch([i for i in IPS if ('/' in i) != addr] if r.random() < 0.8 else IPS) \
            if r.random() < 0.9 else self.string()
        if addr:
            base = self.call('ip.parse_addr', [text])
            m = self.ch(['', '.string()', '.is_ipv4()', '.is_ipv6()', '.is_ipv4(1)', '.nope'])
        else:
            base = self.call('ip.parse_cidr', [text])
            m = self.ch(['', '.string()', '.addr()', '.addr().string()', '.addr().is_ipv4()',
                         '.is_ipv4()', '.nope', '.string(1)'])
        return base + m

    def regexp_call(self):
        r = self.r
        pat = '"%s"' % self.ch(REGEXPS)
        target = self.string() if r.random() < 0.6 else self.ch(['"aab"', '"xyz abc"', '"a1b22"', '"AB ab"'])
        if r.random() < 0.5:
            return self.call('regexp.match', [pat, target])
        if r.random() < 0.85:
            repl = '"%s"' % self.ch(REPLACEMENTS)
        else:
            repl = self.ch(['lambda m: m.upper()', 'lambda m: 1', 'lambda: "x"', 'lambda m: m + m'])
        return self.call('regexp.replace', [pat, target, repl])

    def random_float(self):
        """Any float, of any magnitude: last bits show how a function rounds."""
        r = self.r
        if r.random() < 0.5:
            return repr(r.uniform(-10, 10))
        return repr(r.choice([1, -1]) * 10 ** r.uniform(-9, 25))

    def math_call(self):
        r = self.r
        num = lambda: (self.ch(FLOATS + INTS + BIG_INTS) if r.random() < 0.6 else self.random_float()) \
            if r.random() < 0.9 else self.scalar()
        unary = ['ceil', 'floor', 'round', 'fabs', 'sqrt', 'exp', 'sin', 'cos', 'tan', 'asin', 'acos',
                 'atan', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh', 'degrees', 'radians',
                 'gamma', 'log']
        binary = ['pow', 'atan2', 'copysign', 'hypot', 'remainder', 'mod', 'log']
        if r.random() < 0.15:
            return 'math.' + self.ch(['pi', 'e', 'inf', 'nan', 'tau'])
        if r.random() < 0.6:
            return self.call('math.' + self.ch(unary), [num()])
        return self.call('math.' + self.ch(binary), [num(), num()])

    def hash_call(self):
        return self.call(self.ch(['md5.sum', 'sha256.sum']), [self.string()])

    def version_call(self):
        return self.call('version.require_at_least', ['"%s"' % self.ch(VERSIONS)])

    def struct_call(self):
        r = self.r
        k = r.random()
        fields = lambda: ', '.join('%s=%s' % (k, self.value())
                                   for k in r.sample(['a', 'b', 'c', 'x_y'], r.randint(0, 3)))
        if k < 0.3:
            return self.call('struct.encode', [self.value()]) + self.ch(['', '', '.a', '["a"]'])
        if k < 0.5:
            return self.call('struct.decode', ['struct.make(%s)' % fields() if r.random() < 0.6
                                               else self.value()])
        if k < 0.7:
            s = 'struct.make(%s)' % fields()
            return s + self.ch(['', '', '.a', '.nope', '.b'])
        if k < 0.85:
            return self.call('struct.make_and_bind', [self.ch(['struct.make(a=1)', '1', 'None']),
                                                      'f=lambda self: self.a' if r.random() < 0.7
                                                      else 'f=1']) + self.ch(['', '.f()', '.f', '.a'])
        return self.call('struct.bind', [self.ch(['lambda s: s', 'lambda s, x: x', '1']),
                                         self.value()]) + self.ch(['', '()', '(1)'])

    def assert_call(self):
        r = self.r
        k = r.random()
        if k < 0.3:
            return self.call('assert.try_to', ['lambda: ' + self.module_expr(depth=1)]) + self.ch(['', '[0]', '[1]'])
        if k < 0.5:
            return self.call('assert.equals', [self.value(), self.value()])
        if k < 0.7:
            return self.call('assert.%s' % self.ch(['min', 'max', 'min_len', 'max_len']),
                             [self.scalar()]) + '.check(%s)' % self.value()
        if k < 0.85:
            return self.call('assert.%s' % self.ch(['not_null', 'one_not_null', 'one_of']),
                             [self.value()] if r.random() < 0.7 else []) + '.check(%s)' % self.value()
        return self.call('assert.fail', [self.string()])

    def module_expr(self, depth=0):
        makers = [self.json_call, self.yaml_call, self.base64_call, self.url_call, self.ip_call,
                  self.regexp_call, self.math_call, self.hash_call, self.struct_call, self.assert_call]
        if depth == 0 and self.r.random() < 0.2:
            makers.append(self.version_call)
        m = self.ch(makers)
        self.features.add(m.__name__)
        return m()

    # --- where results go ---------------------------------------------------------------

    def use(self, expr):
        k = self.r.random()
        if k < 0.55:
            return expr
        if k < 0.7:
            self.features.add('as key')
            return '{%s: 1}' % expr
        if k < 0.8:
            return self.ch(['str(%s)', 'type(%s)', 'repr(%s)', '[%s]', 'len(%s)', '"%%s" %% (%s,)'
                            ]) % expr
        if k < 0.9:
            # a module result fed into another module
            return self.ch(['json.encode(%s)', 'yaml.encode(%s)', 'struct.encode(%s)',
                            'json.decode(json.encode(%s))']) % expr
        return '%s == %s' % (expr, self.value())

    def schema_key(self, i):
        r = self.r
        lines = []
        if r.random() < 0.3:
            self.features.add('rule')
            rule = self.module_expr().replace('%s' % 'RULE_V', 'v')
            rule = self.ch(['lambda v: %s', 'lambda v: %s if v else fail("x")', 'lambda v: bool(%s)',
                            'lambda v: assert.fail(str(%s))']) % rule
            if r.random() < 0.3:
                # the value itself as the argument
                rule = 'lambda v: ' + self.ch(['json.encode(v)', 'yaml.encode(v)', 'md5.sum(v)',
                                                'base64.encode(v)', 'url.parse(v)', 'ip.parse_addr(v)',
                                                'regexp.match("^a", v)', 'math.floor(v)',
                                                'struct.encode(v)', 'url.query_params_encode(v)',
                                                'sha256.sum(v) == ""', 'json.decode(v)'])
            lines.append('#@schema/validation ("rule %d", %s)' % (i, rule))
            lines.append('#@schema/type any=True')
            lines.append('k%d: %s' % (i, self.ch(['a', '"a:b"', '1', '1.5', '-0.0', 'null', 'true', '[1, a]',
                                                   '{a: 1}', '"1.2.3.4"', 'http://h/p', '"YWJj"',
                                                   '""', '1e21', '.nan', '12345678901234567890'])))
            return lines
        lines.append('#@schema/type any=True')
        lines.append('k%d: #@ %s' % (i, self.use(self.module_expr())))
        return lines

    def build(self):
        r = self.r
        body = []
        for i in range(r.randint(1, 3)):
            body += self.schema_key(i)
        self.files['schema.yml'] = LOADS + '#@data/values-schema\n---\n' + '\n'.join(body) + '\n'
        if r.random() < 0.25:
            self.features.add('values file')
            vals = ['k%d: #@ %s' % (i, self.use(self.module_expr())) for i in range(r.randint(1, 2))]
            self.files['schema.yml'] = self.files['schema.yml'].replace(
                '#@data/values-schema\n---\n',
                '#@data/values-schema\n---\n#@schema/type any=True\nk8: 0\n#@schema/type any=True\nk9: 0\n')
            vals = [v.replace('k0:', 'k8:').replace('k1:', 'k9:') for v in vals]
            self.files['values.yml'] = LOADS + '#@data/values\n---\n' + '\n'.join(vals) + '\n'
            self.args += ['-f', 'values.yml']
        self.args += ['-o', self.ch(['json', 'yaml', 'yaml'])]


generate = gen.generator(Case)

if __name__ == '__main__':
    raise SystemExit(gen.case_cli(__doc__, generate))
