#!/usr/bin/env python3
"""Users' values against published schemas, for `run.py --gen realvalues`.

Each case takes one of the published package schemas of `../shared/realworld` (the seed picks
it) with its helper files, and a data values file a user might write for it: a few values set
along the schema's own paths (from the package's final values with its `values-ok.yml`, read
once through the oracle as JSON and kept in RV_CACHE), some of them wrong: another type, null,
an empty or unknown map, an extra array item, an unknown key, a string that reads as a number
or a boolean, an overlay annotation. Sometimes the values come as `--data-value-yaml` or
`-v` flags instead, and the output is JSON. Not run in CI (it needs `../shared/realworld`):
the forty-second session's hunt (FINDINGS.md).

RV_REALWORLD may name another corpus laid out the same way (a folder a package with `args.ok`
and `values-ok.yml`), its `args.ok` naming files or whole folders (a package's `config/`, read
with every file under it: templates, `.star` libraries, `_ytt_lib`), as the seventy-second
session's check of 89 published packages' config folders did.

    tests/ytt-diff/run.py --gen realvalues --seeds 0:400 --jobs 2 --no-shrink --work /tmp/rv
    tests/ytt-diff/realvalues.py --seed 7 --print
"""
import copy
import json
import os
import random
import re
import subprocess

import gen

HERE = os.path.dirname(os.path.abspath(__file__))
REALWORLD = os.environ.get('RV_REALWORLD', os.path.join(HERE, '../../../shared/realworld'))
YTT = os.environ.get('RV_YTT', os.path.join(HERE, '../../../shared/oracle/ytt'))
CACHE = os.environ.get('RV_CACHE', '/tmp/ytt-diff-realvalues')


def packages():
    if not os.path.isdir(REALWORLD):
        raise SystemExit('realvalues: no realworld corpus at %s' % REALWORLD)
    return sorted(p for p in os.listdir(REALWORLD)
                  if os.path.isfile(os.path.join(REALWORLD, p, 'args.ok')))


def schema_args(pkg):
    """The package's `-f` arguments without its values file (the schema and helpers)."""
    with open(os.path.join(REALWORLD, pkg, 'args.ok'), encoding='utf-8') as fh:
        args = fh.read().split('\n')
    files = [a for a in args if a and not a.startswith('-')]
    return [f for f in files if f != 'values-ok.yml']


def final_values(pkg):
    """The package's final values with its `values-ok.yml`, as JSON (asked of the oracle once)."""
    path = os.path.join(CACHE, pkg + '.json')
    if not os.path.exists(path):
        os.makedirs(CACHE, exist_ok=True)
        cmd = [YTT]
        for f in schema_args(pkg) + ['values-ok.yml']:
            cmd += ['-f', f]
        p = subprocess.run(cmd + ['--data-values-inspect', '-o', 'json'], cwd=os.path.join(REALWORLD, pkg),
                           capture_output=True, text=True)
        text = p.stdout if p.returncode == 0 and p.stdout.strip() else 'null'
        with open(path + '.tmp', 'w', encoding='utf-8') as fh:
            fh.write(text)
        os.replace(path + '.tmp', path)
    with open(path, encoding='utf-8') as fh:
        return json.load(fh)


WORD = re.compile(r'^[A-Za-z_][A-Za-z0-9_-]*$')
ODD_STRINGS = ['', 'yes', 'no', 'on', '~', 'null', '0x1F', '0o17', '1e3', '1_000', '08', '.inf',
               '-', 'a: b', '#x', '"q"', "it's", ' lead', 'trail ', 'two\nlines', '*', '@x', '12:30']
ODD_SCALARS = [0, -1, 1, 65536, 2 ** 63 - 1, 1.5, -0.0, 1e100, True, False, None]
# Annotations a package author might add to a schema's key (its type unknown here).
SCHEMA_ANNOTATIONS = [
    'schema/nullable', 'schema/type any=True', 'schema/validation min_len=1',
    'schema/validation min=0', 'schema/validation max=10', 'schema/validation not_null=True',
    'schema/validation one_of=["a", "b", 1]', 'schema/validation min=1, when=lambda v: v != None',
    'schema/validation ("non-empty", lambda v: len(v) > 0)',
    'schema/validation ("an int", lambda v: type(v) == "int")',
    'schema/default 5', 'schema/default "x"', 'schema/default None', 'schema/default []',
    'schema/default {"k": 1}', 'schema/desc "d"', 'schema/title "t"',
    'schema/examples ("e", 1)', 'schema/deprecated "old"', 'schema/validation min_len=1, max_len=3',
]
DEFAULT_TEXTS = ['1', '""', '"x"', 'null', '[]', '{}', '1.5', 'true', '[1]', '- a']
KEY_LINE = re.compile(r'^(\s*)(- )?([A-Za-z_][A-Za-z0-9_-]*):( .*)?$')


def key_text(k):
    return k if WORD.match(k) else json.dumps(k)


def node(v, anns=None):
    """A gen_yaml node for a JSON value (scalars as JSON text, which YAML reads the same)."""
    if isinstance(v, dict):
        return gen.Y('map', [[key_text(k), node(x)] for k, x in v.items()], anns=anns)
    if isinstance(v, list):
        return gen.Y('seq', [node(x) for x in v], anns=anns)
    if isinstance(v, str) and '\n' in v:
        return gen.Y('scalar', block=('|', v.rstrip('\n').split('\n')), anns=anns)
    if isinstance(v, float):
        text = repr(v) if v == v and abs(v) != float('inf') else '.nan'
        return gen.Y('scalar', text=text, anns=anns)
    return gen.Y('scalar', text=json.dumps(v), anns=anns)


def paths(v, at=()):
    """Every path into `v` (tuples of keys and indexes), with the value there."""
    out = [(at, v)]
    if isinstance(v, dict):
        for k, x in v.items():
            out += paths(x, at + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out += paths(x, at + (i,))
    return out


class Case:
    def __init__(self, seed):
        self.r = random.Random(seed)
        pkgs = packages()
        self.pkg = pkgs[seed % len(pkgs)]
        self.files = {}
        self.args = []
        self.env = {}
        self.features = set()
        self.bad = None

    def wrong(self, v):
        """A value in place of `v` that a user might write by mistake (or on purpose)."""
        r = self.r
        k = r.random()
        if isinstance(v, (dict, list)) and k < 0.3:
            self.features.add('collection emptied or nulled')
            return r.choice([{}, [], None, 'x'])
        if k < 0.35:
            self.features.add('odd string')
            return r.choice(ODD_STRINGS)
        if k < 0.7:
            self.features.add('other scalar')
            return r.choice(ODD_SCALARS)
        if k < 0.85:
            self.features.add('collection for scalar')
            return r.choice([{'unknown': 1}, [1, 'a'], {}, []])
        self.features.add('same type')
        if isinstance(v, bool):
            return not v
        if isinstance(v, int):
            return v + r.choice([-1, 1, 1000])
        if isinstance(v, str):
            return v + r.choice(['x', '-1', ''])
        return v

    def pick(self, values):
        """Paths the user sets: a few, with the values set there (some changed)."""
        r = self.r
        every = [(p, v) for p, v in paths(values) if p]
        if not every:
            return []
        chosen = r.sample(every, min(len(every), r.randint(1, 4)))
        out = []
        for p, v in chosen:
            if r.random() < 0.6:
                v = self.wrong(v)
            elif r.random() < 0.3 and isinstance(v, dict):
                v = dict(v)
                v[r.choice(['extra', 'enabled', 'name', 'x-y'])] = r.choice(ODD_SCALARS + ['s'])
                self.features.add('key added')
            out.append((p, v))
        return out

    def tree(self, sets, values):
        """The values file's document: each set path, with the maps (and arrays) above it."""
        root = {}
        for p, v in sets:
            if any(isinstance(k, int) for k in p):
                # An array item set: the whole array written, as users must (arrays replace).
                i = next(j for j, k in enumerate(p) if isinstance(k, int))
                arr = json.loads(json.dumps(self.at(values, p[:i])))
                inside = p[i + 1:]
                if not inside:
                    arr[p[i]] = v
                elif isinstance(arr[p[i]], dict) and all(isinstance(k, str) for k in inside):
                    self.put(arr[p[i]], inside, v)
                if self.r.random() < 0.3:
                    arr.append(json.loads(json.dumps(arr[-1])))
                    self.features.add('array item added')
                p, v = p[:i], arr
            # (a copy: a later set under `p` must not change `values`, read by later sets)
            self.put(root, p, copy.deepcopy(v))
        return root

    @staticmethod
    def at(v, p):
        for k in p:
            v = v[k]
        return v

    @staticmethod
    def put(root, p, v):
        """Sets `v` at `p` in `root`, making the maps above it (a path that an earlier set
        made a scalar or a list of goes through a new map; one through a list is dropped)."""
        if not p:
            return
        cur = root
        for k in p[:-1]:
            if not isinstance(cur, dict):
                return
            nxt = cur.get(k)
            if not isinstance(nxt, dict):
                nxt = cur[k] = {}
            cur = nxt
        if isinstance(cur, dict):
            cur[p[-1]] = v

    def annotate(self, doc):
        """Overlay annotations on some of the document's nodes."""
        r = self.r
        maps = [(p, v) for p, v in paths(doc) if isinstance(v, dict) and v]
        if not maps or r.random() < 0.7:
            return {}
        p, m = r.choice(maps)
        k = r.choice(list(m))
        ann = r.choice(['overlay/match missing_ok=True', 'overlay/replace', 'overlay/remove',
                        'overlay/match by="name"', 'schema/nullable'])
        self.features.add('annotation ' + ann.split()[0])
        return {p + (k,): ann}

    def render(self, doc, anns):
        def build(v, at):
            if isinstance(v, dict):
                items = []
                for k, x in v.items():
                    child = build(x, at + (k,))
                    if at + (k,) in anns:
                        child.anns = [anns[at + (k,)]]
                    items.append([key_text(k), child])
                return gen.Y('map', items)
            if isinstance(v, list):
                return gen.Y('seq', [build(x, at + (i,)) for i, x in enumerate(v)])
            return node(v)
        root = build(doc, ())
        lines = gen.render_doc(root, seq_ind=self.r.choice([0, 2]))
        return '#@data/values\n---\n' + '\n'.join(lines) + '\n'

    def flags(self, sets):
        """The set values as `--data-value-yaml` / `-v` flags (scalars, paths of map keys)."""
        out = []
        for p, v in sets:
            if any(isinstance(k, int) for k in p) or any('.' in k for k in p):
                continue
            name = '.'.join(p)
            k = self.r.random()
            if isinstance(v, str) and k < 0.3:
                out += ['-v', '%s=%s' % (name, v)]
                self.features.add('-v flag')
            elif k < 0.45:
                # An environment variable: `DVAL_a__b` for `a.b` (keys holding `__` aside).
                if any('__' in key for key in p):
                    continue
                yaml_env = not isinstance(v, str) or self.r.random() < 0.5
                text = json.dumps(v) if yaml_env else v
                self.env['DVAL_' + '__'.join(p)] = text.replace('\n', ' ')
                flag = '--data-values-env-yaml' if yaml_env else '--data-values-env'
                if flag not in out:
                    out += [flag, 'DVAL']
                self.features.add(flag)
            elif isinstance(v, str) and k < 0.6:
                fname = 'value%d.txt' % len(self.files)
                self.files[fname] = v
                out += ['--data-value-file', '%s=%s' % (name, fname)]
                self.features.add('--data-value-file flag')
            else:
                out += ['--data-value-yaml', '%s=%s' % (name, json.dumps(v))]
                self.features.add('--data-value-yaml flag')
        return out

    def mutate_schema(self, text):
        """An annotation added above a few of the schema's key lines, or a default changed
        (a block scalar's lines may be taken for keys: both tools then answer the same text)."""
        r = self.r
        lines = text.split('\n')
        keys = [i for i, ln in enumerate(lines) if KEY_LINE.match(ln)]
        for i in sorted(r.sample(keys, min(len(keys), r.randint(1, 3))), reverse=True):
            indent, dash, key, rest = KEY_LINE.match(lines[i]).groups()
            pad = indent + ('  ' if dash else '')
            if r.random() < 0.75:
                ann = r.choice(SCHEMA_ANNOTATIONS)
                self.features.add('schema ' + ann.split()[0].split('(')[0])
                if dash:
                    # Above an array item's first key: the annotation is the item's.
                    lines.insert(i, indent + '#@' + ann)
                else:
                    lines.insert(i, pad + '#@' + ann)
            elif rest and rest.strip() and rest.strip()[0] not in '|>':
                lines[i] = '%s%s%s: %s' % (indent, dash or '', key, r.choice(DEFAULT_TEXTS))
                self.features.add('schema default changed')
        return '\n'.join(lines)

    def read_files(self, src, f):
        """The package's file `f`, or every file under it when it is a directory (a whole
        package's `config/`: RV_REALWORLD may hold such packages, their `args.ok` naming it)."""
        path = os.path.join(src, f)
        if os.path.isdir(path):
            for name in sorted(os.listdir(path)):
                self.read_files(src, os.path.join(f, name))
            return
        with open(path, encoding='utf-8', errors='surrogateescape') as fh:
            self.files[f] = fh.read()

    def build(self):
        r = self.r
        src = os.path.join(REALWORLD, self.pkg)
        files = schema_args(self.pkg)
        for f in files:
            self.read_files(src, f)
        for f in files:
            self.args += ['-f', f]
        if 'schema.yml' in self.files and r.random() < 0.4:
            self.files['schema.yml'] = self.mutate_schema(self.files['schema.yml'])
            if r.random() < 0.3:
                self.args += ['--data-values-schema-inspect', '-o', 'openapi-v3']
                self.features.add('openapi')
                return
        values = final_values(self.pkg)
        sets = self.pick(values) if values is not None else []
        self.features.add('package ' + self.pkg)
        if sets and r.random() < 0.2:
            self.args += self.flags(sets)
        else:
            doc = self.tree(sets, values) if sets else {}
            if r.random() < 0.2:
                # A plain YAML file of values (no annotations: ytt refuses them there).
                text = self.render(doc, {})
                self.files['values.yml'] = text[len('#@data/values\n'):]
                self.args += ['--data-values-file', 'values.yml']
                self.features.add('--data-values-file')
            else:
                self.files['values.yml'] = self.render(doc, self.annotate(doc))
                self.args += ['-f', 'values.yml']
        if r.random() < 0.25:
            self.args += ['--data-values-inspect', '-o', 'json']
            self.features.add('json output')


generate = gen.generator(Case)

if __name__ == '__main__':
    raise SystemExit(gen.case_cli(__doc__, generate))
