"""The validation rules gen.py writes on schema nodes: ytt's keyword rules and Starlark rule
functions, each paired with a Python predicate telling which values it accepts (so that the
generator can pick defaults that pass, and values that fail on purpose)."""

import json
import re


def T(v):
    return True


def blen(v):
    return len(v.encode('utf-8'))


def safe(pred, v):
    try:
        return bool(pred(v))
    except Exception:
        return False


DEFS = {
    'is_pow2': ['#@ def is_pow2(v):', '#@   n = 1', '#@   for i in range(32):', '#@     if n == v:',
                '#@       return True', '#@     end', '#@     n = n * 2', '#@   end', '#@   return False', '#@ end'],
    'all_lower': ['#@ def all_lower(v):', '#@   for c in v.elems():', '#@     if c.isupper():',
                  '#@       return False', '#@     end', '#@   end', '#@   return True', '#@ end'],
    'has_no_duplicates': ['#@ def has_no_duplicates(v):', '#@   seen = {}', '#@   for x in v:',
                          '#@     if x in seen:', '#@       return assert.fail("duplicate: {}".format(x))',
                          '#@     end', '#@     seen[x] = True', '#@   end', '#@   return True', '#@ end'],
    'sum_of': ['#@ def sum_of(v):', '#@   total = 0', '#@   for x in v:', '#@     total += x', '#@   end',
               '#@   return total', '#@ end'],
}


class Rules:
    """The rule-writing half of gen.Case (it uses the case's random source, features and
    loads)."""

    def add_validation(self, node, path, parent, root, f):
        st = node.meta.get('stype') if not node.meta.get('any') else 'any'
        if st in ('int', 'float'):
            opts = self.num_rules(st, node)
        elif st == 'str':
            opts = self.str_rules(node)
        elif st == 'bool':
            opts = [(['one_of=[True]'], lambda v: v is True), (['("must be enabled", lambda v: v == True)'], lambda v: v is True),
                    (['("a bool", lambda v: type(v) == "bool")'], T), (['one_of=(True, False)'], T)]
        elif st == 'seq':
            opts = self.seq_rules(node)
        elif st == 'map':
            opts = self.map_rules(node)
        else:
            opts = [(['("not empty", lambda v: v != "")'], T), (['("short", lambda v: len(str(v)) < 20)'], T),
                    (['("typed", lambda v: type(v) in ["int", "string", "dict", "list", "bool", "float", "NoneType"])'], T)]
        if not opts:
            return
        # mostly rules the default satisfies (ytt checks defaults too); sometimes any rule
        if 'py' in node.meta and self.p(0.85):
            good = [o for o in opts if safe(o[1], node.meta['py'])]
            opts = good or opts
        rules, pred = self.ch(opts)
        rules = list(rules)
        if rules[0].startswith('one_of=(') and self.p(0.6):
            rules[0] = 'one_of=[' + rules[0][len('one_of=('):-1] + ']'
        self.rule_feats(rules, f)
        node.meta['pred'] = pred
        if node.meta.get('nullable') and self.p(0.4):
            node.meta['not_null'] = True
            rules.append('not_null=True')
            self.feat('rule not_null')
        if self.p(0.15):
            w = self.when_clause(node, path, parent, root)
            if w:
                rules.append(w)
        if self.p(0.03):
            self.bad_rule_args(rules)
        if self.p(0.2):
            self.r.shuffle(rules)
        # positional rules must come before keyword args
        pos = [x for x in rules if x.startswith(('(', 'lambda'))]
        kw = [x for x in rules if x not in pos]
        node.anns.append('schema/validation ' + ', '.join(pos + kw))
        self.feat('@schema/validation')

    def num_rules(self, st, node):
        lo, hi = (self.ch(['0', '1', '-5', '10']), self.ch(['100', '65535', '3', '0'])) if st == 'int' else \
            (self.ch(['0.0', '0.5', '0', '-1.5']), self.ch(['1.0', '100.0', '2', '0.25']))
        flo, fhi = float(lo), float(hi)
        one = [self.scalar(st)[1] for _ in range(2)] + ([node.meta['lit']] if 'lit' in node.meta and self.p(0.8) else [])
        self.r.shuffle(one)
        one_py = [eval(x) for x in one]
        opts = [
            (['min=%s' % lo], lambda v: v >= flo), (['max=%s' % hi], lambda v: v <= fhi),
            (['min=%s' % lo, 'max=%s' % hi], lambda v: flo <= v <= fhi),
            (['one_of=[%s]' % ', '.join(one)], lambda v: v in one_py),
            (['one_of=(%s)' % ', '.join(one)], lambda v: v in one_py),
            (['("a positive number", lambda v: v > 0)'], lambda v: v > 0),
            (['("at most 100", lambda v: v <= 100 or assert.fail("{} is too big".format(v)))'], lambda v: v <= 100),
            (['("a small number", lambda v: len(str(v)) <= 4)'], lambda v: len(str(v)) <= 4),
            (['("typed", lambda v: type(v) == "%s")' % st], lambda v: type(v).__name__ == st),
        ]
        if st == 'int':
            opts += [(['("an even number", lambda v: v % 2 == 0)'], lambda v: v % 2 == 0),
                     (['("a valid port", lambda v: v > 0 and v < 65536)'], lambda v: 0 < v < 65536),
                     (['("a power of two", is_pow2)'], lambda v: v > 0 and v & (v - 1) == 0 and v < 2 ** 32)]
        else:
            opts += [(['("a whole number", lambda v: math.floor(v) == v)'], lambda v: int(v) == v),
                     (['("rounded", lambda v: math.round(v * 10) / 10 == v)'], lambda v: round(v * 10) / 10 == v)]
        return opts

    def str_rules(self, node):
        ml = self.ch([3, 10, 63])
        opts = [
            (['min_len=1'], lambda v: blen(v) >= 1), (['max_len=%d' % ml], lambda v: blen(v) <= ml),
            (['min_len=1', 'max_len=20'], lambda v: 1 <= blen(v) <= 20),
            (['one_of=["debug", "info", "warn", "error"]'], lambda v: v in ["debug", "info", "warn", "error"]),
            (['one_of=("nginx", "Always", "")'], lambda v: v in ("nginx", "Always", "")),
            (['("a URL", lambda v: v.startswith("http"))'], lambda v: v.startswith('http')),
            (['("a DNS label", lambda v: regexp.match("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", v))'],
             lambda v: re.match(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', v) is not None),
            (['("lowercase", lambda v: v == v.lower())'], lambda v: v == v.lower()),
            (['("a dotted name", lambda v: len(v.split(".")) >= 2)'], lambda v: len(v.split('.')) >= 2),
            (['("trimmed", lambda v: v.strip() == v)'], lambda v: v.strip() == v),
            (['("no leading dash", lambda v: v[0] != "-")'], lambda v: v[0] != '-'),
            (['("not numeric", lambda v: not v.isdigit())'], lambda v: not v.isdigit()),
            (['("few a", lambda v: v.count("a") < 3)'], lambda v: v.count('a') < 3),
            (['("alnum", lambda v: v.replace("-", "").replace(".", "").isalnum())'],
             lambda v: v.replace('-', '').replace('.', '').isalnum() and v.isascii()),
            (['("all lowercase letters", all_lower)'], lambda v: not any(c.isupper() for c in v)),
            (['("valid json", lambda v: json.decode(v) != None)'], lambda v: json.loads(v) is not None),
            (['("yaml roundtrip", lambda v: yaml.decode(yaml.encode(v)) == v)'], T),
            (['("not reserved", lambda v: v not in ["admin", "root"])'], T),
            (['("known prefix", lambda v: any([v.startswith(p) for p in ["ng", "he", "ex"]]))'],
             lambda v: v.startswith(('ng', 'he', 'ex'))),
            (['("short", lambda v: len(v) <= 12 or assert.fail("got {} bytes".format(len(v))))'], lambda v: blen(v) <= 12),
            (['("formatted", lambda v: "%s!" % v != "")'], T),
        ]
        return opts

    def seq_rules(self, node):
        item = node.items[0]
        opts = [(['min_len=1'], lambda v: len(v) >= 1), (['max_len=2'], lambda v: len(v) <= 2),
                (['min_len=1', 'max_len=5'], lambda v: 1 <= len(v) <= 5),
                (['("not empty", lambda v: len(v) > 0)'], lambda v: len(v) > 0)]
        if item.kind == 'scalar' and item.meta.get('stype') in ('int', 'str', 'float'):
            opts += [(['("unique items", lambda v: len(v) == len({x: True for x in v}))'], T),
                     (['("sorted", lambda v: sorted(v) == list(v))'], T),
                     (['("unique", has_no_duplicates)'], T)]
            if item.meta.get('stype') in ('int', 'float'):
                opts += [(['("all positive", lambda v: all([x > 0 for x in v]))'], T),
                         (['("small sum", lambda v: sum_of(v) < 1000000)'], T)]
            else:
                opts += [(['("joined short", lambda v: len(", ".join(v)) < 80)'], T),
                         (['("indexable", lambda v: len(v) == 0 or v[-1] != "")'], T)]
        if item.kind == 'map' and item.items:
            k, kv = item.items[0]
            opts += [(['("has %s", lambda v: len([x for x in v if x["%s"] != None]) == len(v))' % (k, k)], T),
                     (['("items have keys", lambda v: all([len(x.keys()) > 0 for x in v]))'], T),
                     (['("encodes", lambda v: len(json.encode(v)) > 1)'], T)]
        return opts

    def map_rules(self, node):
        opts = [(['("not empty", lambda v: len(v) > 0)'], T), (['("encodes", lambda v: len(yaml.encode(v)) > 0)'], T),
                (['("struct ok", lambda v: struct.make(n=len(v)).n > 0)'], T)]
        keys = [k for k, _ in node.items]
        nullable = [k for k, v in node.items if v.meta.get('nullable')]
        ints = [k for k, v in node.items if v.meta.get('stype') in ('int', 'float') and not v.meta.get('nullable')]
        strs = [k for k, v in node.items if v.meta.get('stype') == 'str' and not v.meta.get('nullable')]
        if len(nullable) >= 2:
            opts += [(['one_not_null=%s' % json.dumps(nullable[:2])], T), (['one_not_null=True'], T)]
        if keys:
            opts += [(['one_not_null=["%s"]' % keys[0]], T), (['("has %s", lambda v: "%s" in v)' % (keys[0], keys[0])], T),
                     (['("key order", lambda v: list(v.keys())[0] == "%s")' % keys[0]], T)]
        if len(ints) >= 2:
            opts += [(['("%s below %s", lambda v: v["%s"] <= v["%s"])' % (ints[0], ints[1], ints[0], ints[1])], T)]
        if strs:
            opts += [(['("%s set", lambda v: v["%s"] != "" or assert.fail("%s is empty"))' % (strs[0], strs[0], strs[0])], T),
                     (['("dict view", lambda v: dict(v).get("%s", "") != "x")' % strs[0]], T)]
        return opts

    def rule_feats(self, rules, f):
        for r in rules:
            name = r.split('=')[0] if not r.startswith('(') else None
            if name in ('min', 'max', 'min_len', 'max_len', 'not_null', 'one_not_null'):
                self.feat('rule ' + name)
            elif name == 'one_of':
                self.feat('rule one_of ' + ('tuple' if '=(' in r else 'list'))
            else:
                self.feat('custom rule (lambda)' if 'lambda' in r else 'custom rule (def)')
            for mod in ('assert', 'regexp', 'json', 'yaml', 'struct', 'math'):
                if mod + '.' in r:
                    self.load(f, '@ytt:' + mod, mod)
            for fn, lines in DEFS.items():
                if fn + ')' in r or fn + '(' in r:
                    self.add_def(f, fn, lines)
            if '[x for' in r or '{x:' in r or 'for p in' in r:
                self.feat('comprehension in rule')

    def add_def(self, f, fn, lines):
        if any(d[0].startswith('#@ def %s(' % fn) for d in self.defs.get(f, [])):
            return
        if self.star and self.p(0.6) and f.endswith('.yml'):
            self.star_fns.append(fn)
            self.load(f, 'helpers.star', fn)
            self.feat('.star file loaded by schema')
            return
        self.defs.setdefault(f, []).append(lines)
        if any('assert.' in ln for ln in lines):
            self.load(f, '@ytt:assert', 'assert')
        self.feat('def in template')

    def when_clause(self, node, path, parent, root):
        sib_bools = [k for k, v in (parent.items if parent is not None and parent.kind == 'map' else [])
                     if v.meta.get('stype') == 'bool' and v is not node and not v.meta.get('nullable')]
        root_ints = [k for k, v in root.items if v.meta.get('stype') == 'int' and not v.meta.get('nullable')]
        opts = []
        if node.meta.get('stype') == 'str':
            opts.append('when=lambda v: v != ""')
        if node.meta.get('stype') in ('int', 'float'):
            opts.append('when=lambda v: v != 0')
        if sib_bools:
            opts.append('when=lambda v, ctx: ctx.parent["%s"]' % sib_bools[0])
            opts.append('when=lambda _, ctx: not ctx.parent["%s"]' % sib_bools[0])
        if root_ints:
            opts.append('when=lambda v, ctx: ctx.root["%s"] > 0' % root_ints[0])
        if len(path) > 1 and path[0] in [k for k, _ in root.items]:
            opts.append('when=lambda v, ctx: len(ctx.root) > 0')
        if self.p(0.1):
            opts.append(self.ch(['when=lambda v: "yes"', 'when=True', 'when=lambda v, ctx: ctx.parent.nokey',
                                 'when=lambda: True']))
            self.mark_bad('bad when=')
        if not opts:
            return None
        w = self.ch(opts)
        self.feat('when= (2 params, ctx)' if 'ctx' in w else 'when= (1 param)')
        return w

    def bad_rule_args(self, rules):
        bad = self.ch(['min="1"', 'max=[1]', 'min_len="3"', 'max_len=-1', 'not_null=1', 'one_of=3',
                       'one_not_null=1', 'foo=1', 'one_of=[]', '("missing lambda",)', 'lambda v: True',
                       '("bad", lambda v: undefined_name)', '("div", lambda v: 1 / 0 == v)',
                       '("method", lambda v: v.nosuchmethod())', '(1, lambda v: True)'])
        rules.append(bad)
        self.mark_bad('bad rule argument: ' + bad.split('=')[0].split(' ')[0])
