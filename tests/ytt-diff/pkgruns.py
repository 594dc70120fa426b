#!/usr/bin/env python3
"""Users' runs against whole package folders: write them, then compare ytt with `schemac check`.

    pkgruns.py write OUT PACKAGES_FILE [--seed N] [--leaves N] [--mutations N]
    pkgruns.py compare OUT [--schemac PATH] [--only WORD]

PACKAGES_FILE holds one package a line: `NAME ROOT CONFIG SCHEMA [EXAMPLES]`, ROOT a folder
copied whole (a package's source tree), CONFIG the folder a user gives as `-f` (relative to
ROOT: `package/config`, `bundle/config`), SCHEMA its schema file, EXAMPLES an optional folder of
plain example values files (as `--data-values-file`). `write` makes OUT/NAME/pkg (and
OUT/NAME/pkg-env for the `--data-values-env` runs, its `env` file), each holding the package
and `args.RUN` files, one argument a line, as `.ci/differential` reads them (so the same folder
goes through the validators and the typed API).

The runs: the folder's defaults, `-o json`, `--data-values-schema-inspect -o openapi-v3`, the
schema file alone; each example as `--data-values-file`, as a `#@data/values` file, against the
schema alone; then, from the final values (the first example that passes when the defaults do
not), up to --leaves leaves with --mutations each (another type, null, a string reading as a
number, an empty or unknown map, ...) as an overlay file, `-v` and `--data-value-yaml` flags,
`#@overlay/match missing_ok=True` and plain unknown keys; a user's schema extension beside the
package's (`#@overlay/match missing_ok=True` in a `#@data/values-schema` document), with values
and flags; `--data-values-env(-yaml)`, `--data-value-file` on string and number leaves, `0042`
and `0o17` for numbers, appends to arrays, `--dangerous-data-values-disable-validation`, a
three-document values file, `--ignore-unknown-comments`, `--implicit-map-key-overrides`, `-s`,
several `-o`. `--debug` and `-o pos` are left out (documented deviations, README).

`compare` runs every `args.*` of OUT through the oracle (YTT, default ../shared/oracle/ytt) and
`schemac check` in the case folder, with PATH and the case's `env` lines only, and prints each
run whose stdout, stderr (`ytt: ` read as `schemac: `) or exit status differ, then the count.
The seventy-fourth session's hunt (h74a, FINDINGS.md): 62 package folders, 11,000 runs.
"""
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
YTT = os.environ.get('YTT', os.path.join(HERE, '../../../shared/oracle/ytt'))
INSPECT = ('--data-values-inspect', '--data-values-schema-inspect')


def leaves(v, path=()):
    """(path, value) of every leaf, empty map and array; array items as `(0,)` steps."""
    if isinstance(v, dict):
        if not v:
            yield path, v
        for k, x in v.items():
            yield from leaves(x, path + (k,))
    elif isinstance(v, list):
        yield path, v
        for x in v[:2]:
            if isinstance(x, dict):
                for p, y in leaves(x, ()):
                    yield path + ((0,),) + p, y
    else:
        yield path, v


def key_text(k):
    return k if isinstance(k, str) and re.fullmatch(r'[A-Za-z0-9_-]+', k) else json.dumps(k)


def render(path, val, ann=None):
    """A `#@data/values` document setting `path` to `val` (YAML text); `ann` above the last key."""
    lines = ['#@data/values', '---']
    if ann:
        lines.insert(0, '#@ load("@ytt:overlay", "overlay")')
    ind = ''
    for i, k in enumerate(path):
        if isinstance(k, tuple):
            lines.append(ind + '-')
            ind += '  '
            continue
        if i == len(path) - 1:
            if ann:
                lines.append(ind + ann)
            lines.append('%s%s: %s' % (ind, key_text(k), val))
        else:
            lines.append('%s%s:' % (ind, key_text(k)))
            ind += '  '
    return '\n'.join(lines) + '\n'


def mutations(val):
    if isinstance(val, bool):
        return ['"true"', '1', 'null', 'yes']
    if isinstance(val, int):
        return ['"%d"' % (val + 1), '%d.5' % val, 'null', '"0x1F"', str(val + 7)]
    if isinstance(val, float):
        return ['1', '"1.5"', 'null']
    if isinstance(val, str):
        return ['123', '"123"', '0.5', 'true', 'null', '[a]', '{a: 1}', json.dumps(val + '-x'), "''", '1e3']
    if isinstance(val, list):
        return ['[]', 'null', '"x"', '[1, "a", null]', '[{}]']
    if isinstance(val, dict):
        return ['{}', 'null', '{extra_key: 1}', '"x"']
    return ['"s"', '1', '[]', '{}', 'true']


def ytt(args, cwd):
    return subprocess.run([YTT] + args, cwd=cwd, capture_output=True)


def final_values(case, pre):
    p = ytt(pre + ['--data-values-inspect', '-o', 'json', '--dangerous-data-values-disable-validation'], case)
    try:
        return json.loads(p.stdout) if p.returncode == 0 else None
    except ValueError:  # no data values at all: empty output
        return None


def write_file(case, name, text):
    with open(os.path.join(case, name), 'w', encoding='utf-8') as fh:
        fh.write(text)


def package_runs(case, cfg, schema, exs, rng, leaves_n, muts_n):
    runs = {'defaults': ['-f', cfg], 'json': ['-f', cfg, '-o', 'json'],
            'openapi': ['-f', cfg, '--data-values-schema-inspect', '-o', 'openapi-v3'],
            'schema': ['-f', schema],
            'schemaopenapi': ['-f', schema, '--data-values-schema-inspect', '-o', 'openapi-v3']}
    for i, e in enumerate(exs):
        runs['ex%d' % i] = ['-f', cfg, '--data-values-file', e]
        runs['ex%djson' % i] = ['-f', cfg, '--data-values-file', e, '-o', 'json']
        with open(os.path.join(case, e), encoding='utf-8') as fh:
            write_file(case, 'user-ex%d.yml' % i, '#@data/values\n---\n' + fh.read())
        runs['ex%dfile' % i] = ['-f', cfg, '-f', 'user-ex%d.yml' % i]
        runs['ex%dschema' % i] = ['-f', schema, '--data-values-file', e]
    pre = ['-f', cfg]
    if ytt(pre + ['--data-values-inspect'], case).returncode != 0:
        for e in exs:
            if ytt(pre + ['--data-values-file', e, '--data-values-inspect'], case).returncode == 0:
                pre = pre + ['--data-values-file', e]
                break
    d = final_values(case, pre)
    if not isinstance(d, dict):
        d = {}
    named = [(p, v) for p, v in leaves(d) if p]
    rng.shuffle(named)
    n = 0
    for p, v in named[:leaves_n]:
        for m in rng.sample(mutations(v), min(muts_n, len(mutations(v)))):
            n += 1
            write_file(case, 'mut%02d.yml' % n, render(p, m))
            base = pre + (['--data-values-file', exs[0]] if exs and n % 3 == 0 else []) + ['-f', 'mut%02d.yml' % n]
            runs['mut%02d' % n] = base
            if n % 4 == 0:
                runs['mut%02djson' % n] = base + ['-o', 'json']
        if all(isinstance(k, str) for k in p):
            n += 1
            dotted = '.'.join(p)
            runs['flag%02dv' % n] = pre + ['-v', '%s=%s' % (dotted, rng.choice(['123', 'true', 'x', '', '1.5']))]
            runs['flag%02dyaml' % n] = pre + ['--data-value-yaml', '%s=%s' % (dotted, rng.choice(mutations(v)))]
            newp = p[:-1] + ('brand_new_key',)
            write_file(case, 'mok%02d.yml' % n, render(newp, '"v"', ann='#@overlay/match missing_ok=True'))
            runs['mok%02d' % n] = pre + ['-f', 'mok%02d.yml' % n]
            write_file(case, 'extra%02d.yml' % n, render(newp, '1'))
            runs['extra%02d' % n] = pre + ['-f', 'extra%02d.yml' % n]
    # a user's schema extension beside the package's, its values and flags
    write_file(case, 'ext-schema.yml', '#@ load("@ytt:overlay", "overlay")\n#@data/values-schema\n---\n'
               '#@overlay/match missing_ok=True\nmy_extra:\n  enabled: false\n  #@schema/nullable\n  port: 8080\n'
               '  #@schema/validation min_len=2\n  name: "ab"\n')
    write_file(case, 'ext-values.yml', '#@data/values\n---\nmy_extra:\n  port: "8080"\n  name: a\n')
    ext = pre + ['-f', 'ext-schema.yml']
    runs['extschema'] = ext
    runs['extschemaopenapi'] = ext + ['--data-values-schema-inspect', '-o', 'openapi-v3']
    runs['extschemavalues'] = ext + ['-f', 'ext-values.yml']
    runs['extschemaflags'] = ext + ['-v', 'my_extra.port=080', '--data-value-yaml', 'my_extra.enabled=yes']
    runs['extschemaflags2'] = ext + ['--data-value-yaml', 'my_extra.port=080', '--data-value-yaml',
                                     'my_extra.name=~', '-o', 'json']
    dotted = lambda p: '.'.join(p)  # noqa: E731
    plain = [(p, v) for p, v in leaves(d) if p and all(isinstance(x, str) for x in p)]
    strs = [p for p, v in plain if isinstance(v, str)]
    nums = [p for p, v in plain if isinstance(v, (int, bool))]
    arrs = [p for p, v in plain if isinstance(v, list)]
    write_file(case, 'blob.txt', '-----BEGIN X-----\nabc: def\n123\n')
    for i, p in enumerate(strs[:3]):
        runs['dvfile%d' % i] = pre + ['--data-value-file', dotted(p) + '=blob.txt']
    for i, p in enumerate(nums[:3]):
        runs['dvfileint%d' % i] = pre + ['--data-value-file', dotted(p) + '=blob.txt']
        runs['numstr%d' % i] = pre + ['-v', dotted(p) + '=0042']
        runs['numyaml%d' % i] = pre + ['--data-value-yaml', dotted(p) + '=0o17']
    for i, p in enumerate(arrs[:3]):
        ind = '  ' * (len(p) - 1)
        write_file(case, 'arr%d.yml' % i, '#@ load("@ytt:overlay", "overlay")\n' + render(p, '').rstrip() + '\n'
                   + ind + '#@overlay/append\n' + ind + '- "appended"\n')
        runs['arrappend%d' % i] = pre + ['-f', 'arr%d.yml' % i]
        runs['arrflag%d' % i] = pre + ['--data-value-yaml', dotted(p) + '=[1, two, {three: 3}]']
    runs['novalidate'] = pre + ['--dangerous-data-values-disable-validation']
    if strs:
        runs['novalidate2'] = pre + ['-v', dotted(strs[0]) + '=', '--dangerous-data-values-disable-validation',
                                     '-o', 'json']
    if len(strs) > 1:
        write_file(case, 'multi.yml', render(strs[0], '"first"') + render(strs[1], '"second"')
                   + render(strs[0], '"third"'))
        runs['multidoc'] = pre + ['-f', 'multi.yml']
        runs['multidocdvf'] = pre + ['--data-values-file', 'multi.yml']
    for i, opt in enumerate([['--ignore-unknown-comments'], ['--implicit-map-key-overrides'], ['-s'],
                             ['-o', 'json', '-o', 'yaml'], ['--output', 'openapi-v3'], ['-o', 'yaml,json']]):
        runs['opt%d' % i] = pre + opt
        runs['optschema%d' % i] = pre + opt + ['--data-values-schema-inspect', '-o', 'openapi-v3']
    env_runs = {}
    if d:
        k, v = next(iter(d.items()))
        env_runs = {'env': pre + ['--data-values-env', 'DVS'], 'envyaml': pre + ['--data-values-env-yaml', 'DVS'],
                    'envext': ext + ['--data-values-env-yaml', 'DVS'],
                    'env-text': 'DVS_%s=%s\nDVS_my_extra__nope=1\n' % (k, 'x' if isinstance(v, int) else '123')}
    return runs, env_runs


def write_args(case, runs):
    for r, a in runs.items():
        if not any(x in a for x in INSPECT):
            a = a + ['--data-values-inspect']
        write_file(case, 'args.' + r, '\n'.join(a) + '\n')


def write(out, packages_file, seed, leaves_n, muts_n):
    total = 0
    with open(packages_file, encoding='utf-8') as fh:
        specs = [ln.split() for ln in fh if ln.strip() and not ln.startswith('#')]
    for i, spec in enumerate(specs):
        name, root, cfg, schema = spec[:4]
        case = os.path.join(out, name, 'pkg')
        if os.path.exists(os.path.join(out, name)):
            shutil.rmtree(os.path.join(out, name))
        shutil.copytree(root, case, symlinks=True)
        exs = []
        if len(spec) > 4:
            exs = [os.path.join(spec[4], f) for f in sorted(os.listdir(os.path.join(case, spec[4])))]
        runs, env_runs = package_runs(case, cfg, schema, exs, random.Random(seed + i), leaves_n, muts_n)
        write_args(case, runs)
        total += len(runs)
        if env_runs:
            envcase = case + '-env'
            shutil.copytree(case, envcase, symlinks=True, ignore=shutil.ignore_patterns('args.*'))
            write_file(envcase, 'env', env_runs.pop('env-text'))
            write_args(envcase, env_runs)
            total += len(env_runs)
        print('%s: %d runs' % (name, len(runs) + len(env_runs)))
    print('runs', total)


def run(cmd, cwd):
    env = {'PATH': os.environ.get('PATH', '')}
    path = os.path.join(cwd, 'env')
    if os.path.exists(path):
        with open(path, encoding='utf-8') as fh:
            env.update(ln.split('=', 1) for ln in fh.read().split('\n') if '=' in ln)
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=120, env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 'timeout', b'', b''


def compare(out, schemac, only):
    jobs = []
    for pkg in sorted(os.listdir(out)):
        for c in sorted(os.listdir(os.path.join(out, pkg))):
            case = os.path.join(out, pkg, c)
            jobs += [(case, f[5:]) for f in sorted(os.listdir(case))
                     if f.startswith('args.') and (not only or only in '%s:%s' % (case, f[5:]))]

    def one(job):
        case, r = job
        with open(os.path.join(case, 'args.' + r), encoding='utf-8') as fh:
            args = [a for a in fh.read().split('\n')][:-1]
        y = run([YTT] + args, case)
        s = run([schemac, 'check'] + args, case)
        y = (y[0], y[1], re.sub(rb'(?m)^ytt: ', b'schemac: ', y[2]))
        return case, r, args, y, s

    same = accepted = 0
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        for case, r, args, y, s in ex.map(one, jobs):
            if y == s:
                same += 1
                accepted += y[0] == 0
                continue
            print('=== DIFF %s:%s  %s' % (case, r, ' '.join(args)))
            print('  exit ytt %s, schemac %s' % (y[0], s[0]))
            for what, a, b in (('stdout', y[1], s[1]), ('stderr', y[2], s[2])):
                if a != b:
                    print('  %s ytt:\n%s\n  %s schemac:\n%s' % (what, a[:1500].decode('utf-8', 'replace'), what,
                                                             b[:1500].decode('utf-8', 'replace')))
    print('identical %d / %d runs (ytt accepts %d of them)' % (same, len(jobs), accepted))
    return same == len(jobs)


def main(argv):
    def opt(name, default):
        if name in argv:
            i = argv.index(name)
            v = argv[i + 1]
            del argv[i:i + 2]
            return v
        return default
    if len(argv) >= 3 and argv[0] == 'write':
        seed, leaves_n, muts_n = int(opt('--seed', 0)), int(opt('--leaves', 14)), int(opt('--mutations', 3))
        write(argv[1], argv[2], seed, leaves_n, muts_n)
        return 0
    if len(argv) >= 2 and argv[0] == 'compare':
        schemac = opt('--schemac', os.path.join(os.environ.get('CARGO_TARGET_DIR', os.path.join(HERE, '../../target')),
                                                'release/schemac'))
        only = opt('--only', None)
        return 0 if compare(argv[1], schemac, only) else 1
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
