#!/usr/bin/env python3
"""Seeded generator of ytt data-values schema cases for differential testing.

usage:
  gen.py --seed N --out DIR            write one case (files, `args`, `env`, `features`) into DIR
  gen.py --seeds A:B --out DIR         write cases A..B-1 into DIR/<seed>/
  gen.py --coverage --seeds A:B        print a markdown table: feature -> share of cases
  gen.py --seed N --print              print the case to stdout

A case is a directory with schema file(s), optional .star files, values files and a command
line (`args`, one argument per line, ytt style, without the inspect action unless the case
asks for one explicitly; the runner adds `--data-values-inspect` for ytt). `env` holds
`NAME=VALUE` lines for the `--data-values-env*` flags. Everything is deterministic per seed
(stdlib `random.Random(seed)`), so a seed number is a complete reproducer.
"""
import argparse
import json
import os
import random
import re
import sys

from gen_rules import DEFS, T, Rules, safe
from gen_thin import Thin
from gen_yaml import Y, flow_text, render_doc, sc

KEYS = ['replicas', 'port', 'name', 'namespace', 'image', 'tag', 'enabled', 'debug', 'labels',
        'resources', 'cpu', 'memory', 'ingress', 'host', 'path', 'tls', 'secretName', 'logLevel',
        'timeout', 'retries', 'ratio', 'domain', 'servers', 'users', 'database', 'url', 'username',
        'password', 'version', 'features', 'size', 'storageClass', 'region', 'limits', 'requests',
        'service', 'type', 'annotations', 'env', 'value', 'count', 'threshold', 'weight', 'mode',
        'registry', 'repository', 'pullPolicy', 'protocol', 'targetPort', 'nodePort', 'ca', 'cert',
        'key', 'level', 'format', 'interval', 'backup', 'schedule', 'retention', 'owner', 'team',
        'zone', 'cluster', 'app', 'component', 'priority', 'max_conns', 'min-size']

# scalar texts by type: (yaml text, starlark literal) -- plausible, incl. YAML 1.1 forms
INTS = [('0', '0'), ('1', '1'), ('3', '3'), ('8080', '8080'), ('443', '443'), ('-1', '-1'),
        ('100', '100'), ('65535', '65535'), ('42', '42'), ('0x1F', '31'), ('010', '8'),
        ('1_000', '1000'), ('+5', '5'), ('2', '2'), ('10', '10')]
FLOATS = [('0.5', '0.5'), ('1.5', '1.5'), ('2.0', '2.0'), ('1e3', '1000.0'), ('0.000001', '0.000001'),
          ('123456789.123', '123456789.123'), ('-0.0', '-0.0'), ('3.14', '3.14'), ('.5', '0.5'),
          ('1.0e-2', '0.01'), ('99999999999999999999999', '99999999999999999999999.0'), ('0.1', '0.1')]
BOOLS = [('true', 'True'), ('false', 'False'), ('yes', 'True'), ('no', 'False'), ('on', 'True'),
         ('off', 'False'), ('True', 'True'), ('FALSE', 'False'), ('y', 'True'), ('n', 'False')]
STRS = [('nginx', '"nginx"'), ('""', '""'), ('"1.0"', '"1.0"'), ('"123"', '"123"'), ("'yes'", '"yes"'),
        ('"true"', '"true"'), ('hello world', '"hello world"'), ('"with: colon"', '"with: colon"'),
        ('example.com', '"example.com"'), ('"héllo"', '"héllo"'), ('"\\U0001F680 launch"', '"🚀 launch"'),
        ('info', '"info"'), ('debug', '"debug"'), ('"~"', '"~"'), ("'null'", '"null"'),
        ('https://example.com/x', '"https://example.com/x"'), ('v1.2.3', '"v1.2.3"'), ('"0x10"', '"0x10"'),
        ('"  spaced  "', '"  spaced  "'), ('a-b_c', '"a-b_c"'), ('Always', '"Always"'), ('"y"', '"y"')]
NULLS = [('null', 'None'), ('~', 'None'), ('', 'None'), ('Null', 'None')]
BLOCKS = [('|', ['line one', 'line two']), ('|-', ['single']), ('>', ['folded', 'text']),
          ('>-', ['a', 'b c']), ('|+', ['keep', ''])]

STYPES = ['int', 'float', 'bool', 'str']


# ---------------------------------------------------------------------------------------------
# the generator
# ---------------------------------------------------------------------------------------------

class Case(Rules, Thin):
    def __init__(self, seed):
        self.seed = seed
        self.r = random.Random(seed)
        self.init_side(seed)
        self.files = {}
        self.args = []
        self.env = {}
        self.features = set()
        self.loads = {}          # file -> set of load lines
        self.defs = {}           # file -> list of def blocks (lines)
        self.bad = None          # the deliberate defect, if any

    # helpers -----------------------------------------------------------------------------
    def p(self, prob):
        return self.r.random() < prob

    def ch(self, seq):
        return self.r.choice(seq)

    def feat(self, *names):
        for n in names:
            self.features.add(n)

    def load(self, f, module, sym):
        self.loads.setdefault(f, set()).add('#@ load("%s", "%s")' % (module, sym))
        self.feat('load ' + module)

    def fresh_keys(self, n, avoid=()):
        ks = [k for k in KEYS if k not in avoid]
        self.r.shuffle(ks)
        return ks[:n]

    # scalars -------------------------------------------------------------------------------
    def scalar(self, stype):
        """(yaml node, starlark literal) of a type."""
        if stype == 'int':
            t, s = self.ch(INTS)
        elif stype == 'float':
            t, s = self.ch(FLOATS)
        elif stype == 'bool':
            t, s = self.ch(BOOLS)
        elif stype == 'null':
            t, s = self.ch(NULLS)
        else:
            if self.p(0.08):
                style, lines = self.ch(BLOCKS)
                self.feat('multi-line string')
                return Y('scalar', block=(style, lines)), json.dumps('\n'.join(lines))
            t, s = self.ch(STRS)
        if t in ('yes', 'no', 'on', 'off', 'y', 'n', 'True', 'FALSE'):
            self.feat('YAML 1.1 bool (yes/no/on/off/y/n)')
        if t in ('0x1F', '010', '1_000', '+5'):
            self.feat('YAML 1.1 int form (hex/octal/_)')
        if t.startswith(('"', "'")) and t.strip('"\'') and t.strip('"\'')[0] in '0123456789ty~n':
            self.feat('quoted string that looks like a scalar')
        return sc(t), s

    # schema ---------------------------------------------------------------------------------
    def schema_node(self, depth, budget):
        """A schema node; budget is a one-item list counting the keys still allowed."""
        roll = self.r.random()
        if depth < 3 and budget[0] > 3 and roll < 0.22:
            return self.schema_map(depth + 1, budget)
        if depth < 3 and budget[0] > 2 and roll < 0.36:
            return self.schema_array(depth + 1, budget)
        stype = self.ch(STYPES + ['str', 'int', 'bool'])
        n, lit = self.scalar(stype)
        n.meta.update(stype=stype, lit=lit, py=eval(lit))
        return n

    def schema_map(self, depth, budget, nkeys=None):
        if nkeys is None:
            nkeys = self.r.randint(1, max(1, min(5, budget[0])))
        keys = self.fresh_keys(nkeys)
        m = Y('map', stype='map')
        for k in keys:
            budget[0] -= 1
            m.items.append([k, self.schema_node(depth, budget)])
        return m

    def schema_array(self, depth, budget):
        self.feat('schema array')
        if self.p(0.5):
            item = self.schema_map(depth + 1, budget, self.r.randint(1, 3))
            self.feat('array of maps')
        else:
            stype = self.ch(STYPES)
            item, lit = self.scalar(stype)
            item.meta.update(stype=stype, lit=lit, py=eval(lit))
        a = Y('seq', [item], stype='seq', py=[])
        if item.kind == 'scalar' and self.p(0.3):
            a.flow = True
        return a

    # annotations ----------------------------------------------------------------------------
    def annotate(self, node, path, parent, root, f):
        """Add schema annotations to node (recursively)."""
        if path and path[-1] != '[]' and self.p(0.05) and node.meta.get('stype') != 'map':
            self.make_any(node)
            self.annotate_common(node, path, parent, root, f)
            return
        if node.kind == 'map':
            for k, v in node.items:
                self.annotate(v, path + [k], node, root, f)
        elif node.kind == 'seq':
            self.annotate(node.items[0], path + ['[]'], node, root, f)
        if not path or path[-1] == '[]' and self.p(0.7):
            if path and self.p(0.12):
                self.add_validation(node, path, parent, root, f)
            return
        if self.p(0.10):
            node.anns.append('schema/nullable')
            node.meta['nullable'] = True
            self.feat('@schema/nullable')
        if path[-1] == '[]':
            if self.p(0.02):
                self.add_default(node, f)
                self.mark_bad('@schema/default on an array item')
        elif self.p(0.09):
            self.add_default(node, f)
        self.annotate_common(node, path, parent, root, f)

    def annotate_common(self, node, path, parent, root, f):
        if self.p(0.09):
            node.anns.append('schema/desc "%s"' % self.ch(['The number of replicas', 'Hostname', 'TLS settings', 'Log level — verbose', 'a \\"quoted\\" word']))
            self.feat('@schema/desc')
        if self.p(0.05):
            node.anns.append('schema/title "%s"' % self.ch(['Replicas', 'Host', 'Settings']))
            self.feat('@schema/title')
        if self.p(0.04) and node.kind == 'scalar' and 'lit' in node.meta:
            node.anns.append('schema/examples ("an example", %s)' % node.meta['lit'] +
                             (', ("another", %s)' % node.meta['lit'] if self.p(0.3) else ''))
            self.feat('@schema/examples')
        if self.p(0.03):
            node.anns.append('schema/deprecated "%s"' % self.ch(['use foo instead', '']))
            self.feat('@schema/deprecated')
        if self.p(0.27 if node.kind == 'scalar' else 0.18):
            self.add_validation(node, path, parent, root, f)

    def make_any(self, node):
        self.feat('@schema/type any=True')
        node.anns.append('schema/type any=True')
        node.meta['any'] = True
        if self.p(0.5):
            v = self.any_value(1)
            node.kind, node.items, node.text, node.block, node.flow = v.kind, v.items, v.text, v.block, v.flow

    def any_value(self, depth):
        roll = self.r.random()
        if depth < 3 and roll < 0.25:
            return Y('map', [[k, self.any_value(depth + 1)] for k in self.fresh_keys(self.r.randint(1, 3))])
        if depth < 3 and roll < 0.4:
            return Y('seq', [self.any_value(depth + 1) for _ in range(self.r.randint(1, 3))])
        return self.scalar(self.ch(STYPES + ['null']))[0]

    def add_default(self, node, f):
        st = node.meta.get('stype')
        if node.kind == 'scalar' and st in STYPES:
            lit = self.scalar(st)[1]
            if self.p(0.06):
                lit = self.scalar(self.ch([t for t in STYPES if t != st]))[1]
                self.mark_bad('schema default of the wrong type')
            node.anns.append('schema/default %s' % lit)
            node.meta['py'] = eval(lit)
            self.feat('@schema/default literal')
        elif node.kind == 'seq':
            item = node.items[0]
            if item.kind == 'scalar' and 'lit' in item.meta:
                lits = [self.scalar(item.meta['stype'])[1] for _ in range(self.r.randint(0, 3))]
                node.anns.append('schema/default [%s]' % ', '.join(lits))
                node.meta['py'] = [eval(x) for x in lits]
                self.feat('@schema/default literal')
            else:
                fn = 'default_%s' % self.r.randint(1, 999)
                body = Y('seq', [self.value_for(item, full=True) for _ in range(self.r.randint(1, 2))])
                self.defs.setdefault(f, []).append(['#@ def %s():' % fn] + render_doc(body) + ['#@ end'])
                node.anns.append('schema/default %s()' % fn)
                self.feat('@schema/default fragment function')
        elif node.kind == 'map':
            if self.p(0.5):
                fn = 'default_%s' % self.r.randint(1, 999)
                body = self.value_for(node, full=True)
                if body.items:
                    self.defs.setdefault(f, []).append(['#@ def %s():' % fn] + render_doc(body) + ['#@ end'])
                    node.anns.append('schema/default %s()' % fn)
                    self.feat('@schema/default fragment function')
            else:
                parts = []
                for k, v in node.items:
                    if v.kind == 'scalar' and 'lit' in v.meta and self.p(0.7):
                        parts.append('"%s": %s' % (k, self.scalar(v.meta['stype'])[1]))
                if parts:
                    node.anns.append('schema/default {%s}' % ', '.join(parts))
                    self.feat('@schema/default dict literal')

    def mark_bad(self, what):
        self.feat('bad input: ' + what)
        self.bad = self.bad or what

    # values ---------------------------------------------------------------------------------
    def value_for(self, snode, full=False, wrong=0.0):
        """A data value for a schema node (a partial one unless full)."""
        if snode.meta.get('any'):
            return self.any_value(1)
        if wrong and self.p(wrong):
            self.mark_bad('value of the wrong type')
            return self.wrong_value(snode)
        if snode.meta.get('nullable') and self.p(0.15) and not snode.meta.get('not_null'):
            return self.scalar('null')[0]
        if snode.kind == 'map':
            m = Y('map')
            for k, v in snode.items:
                if full or self.p(0.55) or v.meta.get('not_null'):
                    m.items.append([k, self.value_for(v, full, wrong)])
            return m
        if snode.kind == 'seq':
            pred = snode.meta.get('pred') or T
            n = self.r.randint(0, 3)
            for _ in range(6):
                if safe(pred, [0] * n):
                    break
                n = self.r.randint(0, 3)
            return Y('seq', [self.value_for(snode.items[0], True, wrong) for _ in range(n)])
        st = snode.meta.get('stype', 'str')
        if st == 'float' and self.p(0.3):
            st = 'int'
            self.feat('int given for float')
        pred = snode.meta.get('pred')
        if pred is None or self.p(0.05):
            return self.scalar(st)[0]
        for _ in range(12):
            n, lit = self.scalar(st)
            if safe(pred, eval(lit)):
                return n
        return sc(snode.meta.get('lit', '""') if 'lit' in snode.meta and st == snode.meta.get('stype') else snode.text or '""')

    def wrong_value(self, snode):
        if snode.kind == 'map':
            return self.ch([self.scalar('str')[0], Y('seq', [self.scalar('int')[0]]), self.scalar('null')[0]])
        if snode.kind == 'seq':
            return self.ch([self.scalar('int')[0], Y('map', [['a', self.scalar('int')[0]]]), self.scalar('null')[0]])
        st = snode.meta.get('stype')
        others = [t for t in STYPES + ['null'] if t != st and not (st == 'float' and t == 'int')]
        if self.p(0.15):
            return Y('map', [['x', self.scalar('int')[0]]])
        return self.scalar(self.ch(others))[0]

    def scalar_paths(self, node, path=()):
        out = []
        if node.kind == 'map':
            for k, v in node.items:
                if v.kind == 'scalar' or v.meta.get('any'):
                    out.append((path + (k,), v))
                elif v.kind == 'map':
                    out.extend(self.scalar_paths(v, path + (k,)))
                else:
                    out.append((path + (k,), v))
        return out

    # whole case -----------------------------------------------------------------------------
    def build(self):
        r = self.r
        self.star = None
        self.star_fns = []
        self.star_extra = []
        use_star = self.p(0.12)
        sdir = ''
        if self.p(0.05):
            sdir = 'config/'
            self.feat('-f directory')
        if use_star:
            self.star = sdir + 'helpers.star'
        schema_file = sdir + 'schema.yml'
        no_schema = self.p(0.06)
        budget = [r.randint(2, 15)]
        root = self.schema_map(0, budget, nkeys=r.randint(1, min(6, budget[0])))
        while budget[0] > 0 and len(root.items) < 8 and self.p(0.5):
            budget[0] -= 1
            k = self.fresh_keys(1, [k for k, _ in root.items])[0]
            root.items.append([k, self.schema_node(1, budget)])
        if self.p(0.02):
            root.items[-1][0] = 'on'
            self.feat('map key `on` (a YAML 1.1 bool key)')
        if not no_schema:
            self.annotate(root, [], None, root, schema_file)
            if self.star:
                self.use_star(root, schema_file)
            self.thin_schema(root, schema_file)
        seq_ind = self.ch([0, 2, 2])

        files_args = []
        if no_schema:
            self.feat('no schema (data values only)')
        else:
            self.feat('schema')
            self.write_schema(schema_file, root, seq_ind)
            if not sdir:
                files_args.append(schema_file)
            if self.p(0.12):
                self.second_schema(root, sdir + 'schema-2.yml')
                if not sdir:
                    files_args.append(sdir + 'schema-2.yml')
            if not sdir and self.thin_schema_file(root, 'schema-3.yml'):
                files_args.append('schema-3.yml')
        if self.star:
            self.write_star()
            if not sdir:
                files_args.append(self.star)

        wrong = 0.0
        if self.p(0.10):
            wrong = self.ch([0.1, 0.25, 0.5])
        flags = []
        # #@data/values documents
        if self.p(0.7) or no_schema:
            vf = sdir + 'values.yml'
            self.write_values_file(vf, root, wrong, no_schema, seq_ind)
            if not sdir:
                files_args.append(vf)
        if not sdir and not no_schema and self.thin_values_file(root, 'values-2.yml'):
            files_args.append('values-2.yml')
        if sdir:
            files_args.append('config/')
        # other data value sources
        spaths = [(p, n) for p, n in self.scalar_paths(root) if 'on' not in p]
        strpaths = [(p, n) for p, n in spaths if n.kind == 'scalar' and (n.meta.get('stype') == 'str' or n.meta.get('any'))]
        if self.p(0.05) or no_schema:
            strpaths = spaths
        if self.p(0.15):
            self.write_plain_values(root, wrong, flags)
        if strpaths and self.p(0.25):
            for _ in range(r.randint(1, 2)):
                path, node = self.ch(strpaths)
                flags += ['--data-value' if self.p(0.8) else '-v', '%s=%s' % ('.'.join(path), self.flag_str(node))]
                self.feat('--data-value')
        if spaths and self.p(0.18):
            for _ in range(r.randint(1, 2)):
                path, node = self.ch(spaths)
                flags += ['--data-value-yaml', '%s=%s' % ('.'.join(path), flow_text(self.value_for(node, True, wrong)))]
                self.feat('--data-value-yaml')
        if strpaths and self.p(0.06):
            path, node = self.ch(strpaths)
            with_nl = self.p(0.5)
            self.files['value.txt'] = 'file content' + ('\n' if with_nl else '')
            flags += ['--data-value-file', '%s=value.txt' % '.'.join(path)]
            self.feat('--data-value-file')
        if strpaths and self.p(0.07):
            yaml_env = self.p(0.4)
            pre = self.ch(['DVS', 'MYAPP'])
            for _ in range(r.randint(1, 2)):
                path, node = self.ch(spaths if yaml_env else strpaths)
                val = flow_text(self.value_for(node, True, wrong)) if yaml_env else self.flag_str(node)
                self.env['%s_%s' % (pre, '__'.join(path))] = val
            flags += ['--data-values-env-yaml' if yaml_env else '--data-values-env', pre]
            self.feat('--data-values-env-yaml' if yaml_env else '--data-values-env')

        # output / action flags
        out = []
        roll = r.random()
        if roll < 0.07 and not no_schema:
            out = ['--data-values-schema-inspect', '-o', 'openapi-v3']
            self.feat('--data-values-schema-inspect -o openapi-v3')
        elif roll < 0.17:
            out = ['-o', 'json']
            self.feat('-o json')
            if self.p(0.3):
                out = ['--output', 'json']
        elif roll < 0.25:
            out = ['--data-values-inspect']
            self.feat('explicit --data-values-inspect')
        out = self.thin_output(out, no_schema)
        if self.p(0.04):
            out.append('--dangerous-data-values-disable-validation')
            self.feat('--dangerous-data-values-disable-validation')
        if self.p(0.04):
            self.bad_flag(flags)

        args = []
        for fa in files_args:
            args += ['-f' if self.p(0.9) else '--file', fa]
        args += flags
        args += out
        self.args = args
        if self.p(0.05):
            self.mutate_text()
        if self.bad is None:
            self.feat('valid by construction')
        return self

    def flag_str(self, node):
        st = node.meta.get('stype', 'str')
        if node.kind != 'scalar':
            return 'x'
        t = self.scalar(st if st in STYPES else 'str')[0]
        text = t.text if t.block is None else 'x'
        return text.strip('"\'') if text else ''

    def write_schema(self, f, root, seq_ind):
        lines = sorted(self.loads.get(f, ())) + [ln for d in self.defs.get(f, []) for ln in d]
        lines += ['#@data/values-schema', '---'] + render_doc(root, seq_ind)
        if self.p(0.025):
            self.mark_bad('null in schema')
            lines.append('%s: null' % self.fresh_keys(1, [k for k, _ in root.items])[0])
        if self.p(0.03):
            self.mark_bad('array with two items in schema')
            lines += ['%s:' % self.fresh_keys(1, [k for k, _ in root.items])[0], '- 1', '- 2']
        if self.p(0.02):
            self.mark_bad('empty array in schema')
            lines += ['%s: []' % self.fresh_keys(1, [k for k, _ in root.items])[0]]
        self.files[f] = '\n'.join(lines) + '\n'

    def second_schema(self, root, f):
        self.feat('several schema files (overlay)')
        lines = ['#@ load("@ytt:overlay", "overlay")', '#@data/values-schema', '---']
        kind = self.r.random()
        if kind < 0.4:
            k = self.fresh_keys(1, [k for k, _ in root.items])[0]
            n, lit = self.scalar(self.ch(STYPES))
            lines += ['#@overlay/match missing_ok=True', '%s: %s' % (k, n.text or '""')]
            root.items.append([k, n])
            n.meta.update(stype='str')
            self.feat('schema overlay: missing_ok new key')
        elif kind < 0.65:
            k, v = self.ch(root.items)
            if v.kind == 'scalar' and v.meta.get('stype') in STYPES:
                n, _ = self.scalar(v.meta['stype'])
                lines += ['%s: %s' % (k, n.text or '""')]
                self.feat('schema overlay: new default')
            else:
                lines += ['#@overlay/replace', '%s: %s' % (k, self.scalar('int')[0].text)]
                v.kind, v.items, v.text, v.block = 'scalar', [], '0', None
                v.meta = {'stype': 'int'}
                self.feat('schema overlay: @overlay/replace')
        elif kind < 0.8:
            k, v = self.ch(root.items)
            lines += ['#@overlay/remove', '%s: %s' % (k, flow_text(v) if v.kind == 'scalar' else '0')]
            root.items = [[a, b] for a, b in root.items if a != k]
            self.feat('schema overlay: @overlay/remove')
        else:
            k = self.fresh_keys(1, [k for k, _ in root.items])[0]
            lines += ['%s: 1' % k]
            self.mark_bad('schema overlay of an unknown key')
        self.files[f] = '\n'.join(lines) + '\n'

    def use_star(self, root, f):
        strs = [v for k, v in root.items if v.kind == 'scalar' and v.meta.get('stype') == 'str' and not v.meta.get('any')
                and not any(a.startswith('schema/default') for a in v.anns)]
        ints = [v for k, v in root.items if v.kind == 'scalar' and v.meta.get('stype') == 'int' and not v.meta.get('any')
                and not any(a.startswith('schema/validation') for a in v.anns)]
        if strs and (not ints or self.p(0.5)):
            n = self.ch(strs)
            n.anns.insert(0, 'schema/default default_name()')
            n.meta['py'] = 'from-star'
            self.load(f, 'helpers.star', 'default_name')
            self.star_extra.append('default_name')
        elif ints:
            n = self.ch(ints)
            n.anns.append('schema/validation ("a port", is_port)')
            n.meta['pred'] = lambda v: 0 < v < 65536
            self.load(f, 'helpers.star', 'is_port')
            self.star_extra.append('is_port')
        else:
            return
        self.feat('.star file loaded by schema')

    def write_star(self):
        lines = ['load("@ytt:assert", "assert")', '']
        for fn in self.star_fns:
            for ln in DEFS[fn]:
                s = ln[3:] if ln.startswith('#@ ') else ln[2:]
                lines.append(s)
            lines.append('')
        if self.p(0.5) or 'default_name' in self.star_extra:
            lines += ['def default_name():', '  return "from-star"', 'end', '']
        if not self.star_fns or 'is_port' in self.star_extra:
            lines += ['def is_port(v):', '  return v > 0 and v < 65536', 'end', '']
        self.files[self.star] = '\n'.join(lines)

    def write_values_file(self, f, root, wrong, no_schema, seq_ind):
        docs = []
        ndocs = 1 if self.p(0.85) else 2
        loads = set()
        for _ in range(ndocs):
            if no_schema:
                v = self.value_for(root, full=True)
                if self.p(0.4):
                    k, n = self.ch(v.items)
                    rule = self.ch(['("not empty", lambda v: v != "")', '("small", lambda v: len(str(v)) < 5)',
                                    '("positive", lambda v: type(v) != "int" or v > 0)',
                                    'max_len=3', 'min=1'])
                    n.anns.append('assert/validate ' + rule)
                    self.feat('@assert/validate')
            else:
                v = self.value_for(root, wrong=wrong)
                self.overlay_annotations(v, root, loads)
                if self.p(0.03) and v.kind == "map" and v.items:
                    v.items.append([v.items[0][0], self.ch(v.items)[1].copy()])
                    self.mark_bad('duplicate key in values')
            if not v.items and self.p(0.9):
                continue
            lines = ['#@data/values', '---']
            if self.p(0.01):
                lines = ['#@data/values']
                self.mark_bad('#@data/values without ---')
            body = render_doc(v, seq_ind)
            docs.append(lines + body)
        if not docs and self.p(0.1) or not root.items:
            docs.append(['#@data/values', '---'])
            self.feat('empty #@data/values document')
            self.mark_bad('empty #@data/values document')
        elif not docs:
            k, n = self.ch(root.items)
            v = Y('map', [[k, self.value_for(n, full=True)]])
            self.overlay_annotations(v, root, loads)
            docs.append(['#@data/values', '---'] + render_doc(v, seq_ind))
        out = sorted(loads) + [ln for d in docs for ln in d]
        self.files[f] = '\n'.join(out) + '\n'
        self.feat('#@data/values document')

    def overlay_annotations(self, v, snode, loads, depth=0):
        if v.kind == 'map' and snode.kind == 'map':
            skeys = dict((k, n) for k, n in snode.items)
            for k, child in v.items:
                if k in skeys and skeys[k].meta.get('any'):
                    if child.kind != 'scalar' or skeys[k].kind != 'scalar':
                        child.anns.append('overlay/replace')
                        self.feat('values: @overlay/replace')
                elif k in skeys:
                    self.overlay_annotations(child, skeys[k], loads, depth + 1)
                    if child.kind == 'seq' and self.p(0.1):
                        child.anns.append('overlay/replace')
                        self.feat('values: @overlay/replace')
            if self.p(0.03):
                k = self.fresh_keys(1, list(skeys))[0]
                n = self.scalar('int')[0]
                if self.p(0.5):
                    n.anns.append('overlay/match missing_ok=True')
                    self.feat('values: @overlay/match missing_ok=True')
                v.items.append([k, n])
                self.mark_bad('unknown key in data values')
            if self.p(0.04) and snode.items:
                k = self.ch(snode.items)[0]
                if k not in [a for a, _ in v.items]:
                    n = Y('scalar', text='')
                    n.anns.append('overlay/remove')
                    v.items.append([k, n])
                    self.feat('values: @overlay/remove')
        elif v.kind == 'seq' and snode.kind == 'seq':
            item = snode.items[0]
            for it in v.items:
                if self.p(0.08):
                    it.anns.append('overlay/append')
                    self.feat('values: @overlay/append')
                elif item.kind == 'map' and it.kind == 'map' and it.items and self.p(0.1):
                    if self.p(0.5):
                        it.anns.append('overlay/match by="%s", missing_ok=True' % it.items[0][0])
                        self.feat('values: @overlay/match by=')
                    else:
                        it.anns.append('overlay/match by=overlay.all, expects="0+"')
                        loads.add('#@ load("@ytt:overlay", "overlay")')
                        self.feat('values: @overlay/match by=overlay.all')

    def write_plain_values(self, root, wrong, flags):
        v = self.value_for(root, wrong=wrong)
        if self.p(0.25):
            self.files['dvs/a.yml'] = '\n'.join(render_doc(v)) + '\n'
            self.files['dvs/b.yaml'] = '\n'.join(render_doc(self.value_for(root, wrong=wrong))) + '\n'
            flags += ['--data-values-file', 'dvs/']
            self.feat('--data-values-file directory')
        else:
            text = '\n'.join(render_doc(v)) + '\n'
            if not v.items:
                text = '{}\n' if self.p(0.5) else ''
            self.files['dv.yml'] = text
            flags += ['--data-values-file', 'dv.yml']
            self.feat('--data-values-file')

    def bad_flag(self, flags):
        b = self.ch([['--data-value', 'noequals'], ['--data-value-yaml', 'a=[1'], ['--data-values-file', 'missing.yml'],
                     ['-f', 'missing.yml'], ['--bogus-flag'], ['-o', 'xml'], ['--data-value-yaml', '=1'],
                     ['--data-value-file', 'x=nofile.txt'], ['--data-values-env']])
        flags += b
        self.mark_bad('bad flag ' + b[0])

    def mutate_text(self):
        yml = sorted(f for f in self.files if f.endswith(('.yml', '.yaml')))
        if not yml:
            return
        f = self.ch(yml)
        lines = self.files[f].split('\n')
        i = self.r.randint(0, max(0, len(lines) - 2))
        m = self.ch(['yaml', 'tab', 'dup', 'star', 'ann'])
        if m == 'yaml':
            lines.insert(i, self.ch(['key: [1, 2', 'bad: "unterminated', '  - : x', 'a: b: c', '{']))
        elif m == 'tab':
            lines.insert(i, '\tindented: 1')
        elif m == 'dup':
            lines.insert(i, lines[i])
        elif m == 'star':
            lines.insert(i, self.ch(['#@ x = undefined_fn()', '#@ if True:', '#@ load("nofile.star", "x")',
                                     '#@ 1 / 0']))
        else:
            lines.insert(i, self.ch(['#@schema/nullable 1', '#@schema/default', '#@schema/type any=1',
                                     '#@schema/type', '#@schema/validation', '#@schema/desc 1',
                                     '#@schema/title', '#@overlay/match nope=1', '#@schema/nullable()']))
        self.files[f] = '\n'.join(lines)
        self.mark_bad('mutated text (%s)' % m)


class CaseStart:
    """What a generator's case starts with: its random source, its files and arguments, the
    environment of its run, its features (for run.py's summary) and its deliberate defect
    (None: a valid case)."""

    def __init__(self, seed, files, args):
        self.r = random.Random(seed)
        self.files = dict(files)
        self.args = list(args)
        self.env = {}
        self.features = set()
        self.bad = None


def generator(case_class):
    """A generator module's `generate(seed)`: the case of `seed`, built by `case_class`."""
    def generate(seed):
        c = case_class(seed)
        c.build()
        return c
    return generate


generate = generator(Case)


def write_case(c, d):
    os.makedirs(d, exist_ok=True)
    for name, text in c.files.items():
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        # (a byte that is not UTF-8 comes as a surrogate escape: mutreal.py)
        with open(p, 'w', encoding='utf-8', errors='surrogateescape') as fh:
            fh.write(text)
    with open(os.path.join(d, 'args'), 'w', encoding='utf-8') as fh:
        fh.write(''.join(a + '\n' for a in c.args))
    with open(os.path.join(d, 'env'), 'w', encoding='utf-8') as fh:
        fh.write(''.join('%s=%s\n' % kv for kv in sorted(c.env.items())))
    with open(os.path.join(d, 'features'), 'w', encoding='utf-8') as fh:
        fh.write(''.join(f + '\n' for f in sorted(c.features)))


def parse_range(s):
    a, _, b = s.partition(':')
    return range(int(a), int(b))

def case_cli(doc, generate):
    """The command line of a generator module: `--seed N [--print] [--out DIR]` writes or
    prints the case of seed N (its files, then its arguments)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seed', type=int, required=True)
    ap.add_argument('--print', action='store_true')
    ap.add_argument('--out')
    o = ap.parse_args()
    c = generate(o.seed)
    if o.out:
        write_case(c, o.out)
    if o.print or not o.out:
        for name, text in c.files.items():
            print('==> %s <==' % name)
            print(text.encode('utf-8', 'surrogateescape').decode('utf-8', 'replace'))
        print('args:', ' '.join(c.args))
    return 0


def coverage(seeds):
    counts = {}
    n = 0
    for s in seeds:
        c = generate(s)
        n += 1
        for f in c.features:
            counts[f] = counts.get(f, 0) + 1
    print('| feature | cases | share |')
    print('|---|---:|---:|')
    for f in sorted(counts, key=lambda k: (-counts[k], k)):
        print('| %s | %d | %.1f%% |' % (f.replace('|', '\\|'), counts[f], 100.0 * counts[f] / n))
    print()
    print('%d cases (seeds %d:%d)' % (n, seeds.start, seeds.stop))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seed', type=int)
    ap.add_argument('--seeds')
    ap.add_argument('--out')
    ap.add_argument('--coverage', action='store_true')
    ap.add_argument('--print', action='store_true')
    o = ap.parse_args()
    if o.coverage:
        coverage(parse_range(o.seeds or '0:1000'))
        return 0
    seeds = [o.seed] if o.seed is not None else list(parse_range(o.seeds or '0:1'))
    for s in seeds:
        c = generate(s)
        if o.print:
            for name in sorted(c.files):
                print('==> %s <==' % name)
                print(c.files[name], end='' if c.files[name].endswith('\n') else '\n')
            print('==> args <==\n' + ' '.join(c.args))
            if c.env:
                print('==> env <==\n' + '\n'.join('%s=%s' % kv for kv in sorted(c.env.items())))
            print('==> features <==\n' + ', '.join(sorted(c.features)))
        if o.out:
            write_case(c, o.out if o.seed is not None else os.path.join(o.out, str(s)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
