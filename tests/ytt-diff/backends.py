#!/usr/bin/env python3
"""Generated cases through every back end: built validators and the typed API against `schemac check`.

usage: backends.py [--seeds A:B] [--gen MODULE] [--batch N] [--jobs N] [--xfail FILE] [--work DIR]
                   [--no-shrink] [--max-shrink N] [--verbose] [--without-oracle]

For every seed, gen.py (or the --gen module, as run.py's) writes a case into WORK/cases/<seed>
(the same cases run.py gives to ytt). The schema files of its command line (split as
.ci/differential splits them) are compiled with `schemac gen`, one module per distinct schema,
into one crate per batch (two crates: with and without the Starlark interpreter; .ci/backend_crates.py), each built with one
`cargo build` in the workspace's target directory; a batch is --batch seeds. A case whose values
files hold template code that the validator without the interpreter says it cannot run is run
on the schema's module built into the crate with it (`schemac build --with-starlark`). Then, in
the case directory with the case's env:

* validator: the module's built validator runs with the rest of the arguments, and its stdout,
  stderr and exit status must equal `schemac check`'s on the whole command line, byte for byte;
* typed: when the rest of the arguments are only data values files (`-f`, or only
  `--data-values-file`) and output flags (`-o json`, `--data-values-inspect`), the module's
  `DataValues::load` (or `load_plain`) of those files must succeed exactly when `check` does,
  print the same bytes with `to_yaml()`/`to_json()` (and pass `validate()` again), or fail
  with `check`'s report (its stderr after `schemac: Error: `);
* build: a schema `schemac gen` rejects must fail the whole `check` run too, and gen's report
  must be `check`'s on the schema files alone.

A built validator names itself `schemac:` in messages, as `check` does: stderr needs no
normalising.

Cases a back end cannot take are counted by reason, not compared. Differences are grouped by
signature (run.signature with `check` as the reference), prefixed with the back end; groups
listed in --xfail (`SIGNATURE -- reason`) are known. Each unknown group's first case is shrunk
(shrink.py, the schema files kept: the validator is built from them) into WORK/repro/<group>.
Exit status: 0 when every difference is known (or ../shared/oracle is missing: CI's range goes
with the ytt run), 1 otherwise, 2 when a crate does not build.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import run  # noqa: E402

sys.path.insert(0, os.path.join(run.ROOT, '.ci'))
import backend_crates  # noqa: E402

typed_call = backend_crates.typed_call
typed_expected = backend_crates.typed_expected


def same_data(a, b):
    """Whether two YAML texts hold the same data, key order aside (False without PyYAML)."""
    try:
        import yaml
        return yaml.safe_load(a) == yaml.safe_load(b)
    except Exception:
        return False


def compare_typed(check, typed):
    """None when the typed API agrees with check, else a signature."""
    want_rc, want = typed_expected(check)
    rc, out, _ = typed
    if rc == want_rc and (out if rc == 0 else out.rstrip()) == want:
        return None
    if rc not in (0, 1):
        return 'typed: crash rc=%s %s' % (rc, run.norm_line(out.decode('utf-8', 'replace').split('\n')[0]))
    if rc != want_rc:
        return 'typed: %s: %s' % ('typed fails, check ok' if rc else 'check fails, typed ok',
                                  run.detail(out.decode('utf-8', 'replace') if rc else
                                             check[2].decode('utf-8', 'replace')))
    i, a, b = run.first_diff(want.decode('utf-8', 'replace'), out.decode('utf-8', 'replace'))
    if rc == 0 and same_data(want, out):
        return 'typed: key order: check `%s` / typed `%s`' % (run.norm_line(a), run.norm_line(b))
    return 'typed: %s: check `%s` / typed `%s`' % ('stdout' if rc == 0 else 'report', run.norm_line(a), run.norm_line(b))


def check_of(d, args, env):
    return run.run_one([backend_crates.schemac_binary(), 'check'] + args, d, env)


def env_of(env):
    e = dict(os.environ)
    e.update(env)
    return e


def schema_text(path):
    """What a schema argument holds: a file's text, or a package folder's files (names and texts)."""
    def text(p):
        with open(p, encoding='utf-8', errors='replace') as fh:
            return fh.read()
    if os.path.isdir(path):
        return tuple((os.path.relpath(os.path.join(root, n), path), text(os.path.join(root, n)))
                     for root, _, names in sorted(os.walk(path)) for n in sorted(names))
    return text(path)


def run_batch(o, seeds, index, skips, plan, results, rejected):
    """Writes the cases of seeds, builds their crates (named after the batch's index, so that
    every batch's binaries stay for shrinking) and runs them; appends to plan, results and
    rejected (the signatures of cases whose schema `schemac gen` rejects). Returns the name of a crate that does not build, or None."""
    started = time.time()
    cases_dir = os.path.join(o.work, 'cases')
    os.makedirs(cases_dir, exist_ok=True)
    # crates are named after the work folder too: their binaries share the target directory
    tag = hashlib.sha1(os.path.abspath(o.work).encode()).hexdigest()[:6]
    batch = backend_crates.Batch('ytt-diff-backends-%s-%d' % (tag, index), o.work)
    modules = {}                   # schema files and their text -> handle or rejection

    def write(seed):
        d = os.path.join(cases_dir, str(seed))
        shutil.rmtree(d, ignore_errors=True)
        gen.write_case(__import__(o.gen).generate(seed), d)
        return seed, d

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, o.jobs)) as pool:
        written = list(pool.map(write, seeds))
    rejects = []                   # cases whose schema `schemac gen` rejects
    mine = []
    for seed, d in written:
        args, env = run.read_case(d)
        split = backend_crates.split_args(d, args)
        if isinstance(split, str):
            skips.setdefault('validator and typed: ' + split, []).append(seed)
            continue
        schema, rest = split
        if not schema:
            skips.setdefault('validator and typed: no schema (data values only)', []).append(seed)
            continue
        flags = backend_crates.gen_flags(rest)
        key = tuple((f, schema_text(os.path.join(d, f))) for f in schema) + tuple(flags)
        if key not in modules:
            modules[key] = batch.add_generated(schema, d, fallback=True, flags=flags)
        handle, err = modules[key]
        if handle is None:
            rejects.append((seed, d, args, env, schema, err))
            continue
        mine.append((seed, d, args, env, rest, (batch, handle), schema))
    without, withs = batch.counts()
    print('batch %d: seeds %d:%d, %d distinct schemas compiled (%d without Starlark, %d with) in %.0fs' % (
        index, seeds[0], seeds[-1] + 1, without + withs, without, withs, time.time() - started), flush=True)
    t = time.time()
    # The crate without Starlark first: a case whose values files hold template code, which
    # such a validator reports it cannot run (as designed), is compared on the schema's
    # validator built with the interpreter instead (`schemac build --with-starlark`), in the
    # other crate, as .ci/differential does.
    failed = batch.build(only=False)
    if failed:
        return failed
    with_starlark = {}
    for k, (seed, d, args, env, rest, (_, handle), schema) in enumerate(mine):
        if not handle[0] and batch.built(handle) and any(
                m in batch.validator(handle, rest, d, env=env_of(env), timeout=run.TIMEOUT)[2]
                for m in backend_crates.NO_STARLARK):
            if handle not in with_starlark:
                code = batch.modules[False][handle[1]][0]
                with_starlark[handle] = batch.add(code, True, batch.has_typed(handle))
            mine[k] = (seed, d, args, env, rest, (batch, with_starlark[handle]), schema)
    failed = batch.build(only=True)
    if failed:
        return failed
    print('batch %d: built in %.0fs' % (index, time.time() - t), flush=True)

    def one(item):
        seed, d, args, env, rest, (batch, handle), schema = item
        if not batch.built(handle):
            return seed, 'validator: not compared', 'validator: the module does not compile', None
        check = check_of(d, args, env)
        validator = batch.validator(handle, rest, d, env=env_of(env), timeout=run.TIMEOUT)
        sig_v = run.signature(check, validator, names=('check', 'validator'))
        call = typed_call(rest) if batch.has_typed(handle) else "typed: the schema's root is not a map (no typed API)"
        sig_t = None
        if batch.broken.get(handle, ('',))[0] == 'typed' and not isinstance(typed_call(rest), str):
            call, sig_t = typed_call(rest), 'typed: the typed API does not compile'
        elif not isinstance(call, str):
            files, plain, as_json = call
            typed = batch.typed(handle, files, d, plain=plain, json=as_json, env=env_of(env), timeout=run.TIMEOUT)
            sig_t = compare_typed(check, typed)
        return seed, call, sig_v and 'validator: ' + sig_v, sig_t

    def one_rejected(item):
        # `schemac gen` (and so `schemac build`) rejects the schema: check must reject the run
        # too, and report as gen does when given only the schema files
        seed, d, args, env, schema, gen = item
        if check_of(d, args, env)[0] == 0:
            return seed, 'build: schemac gen rejects a schema that check accepts'
        alone = check_of(d, sum((['-f', f] for f in schema), []), env)
        sig = run.signature(alone, gen, names=('check', 'gen'))
        return seed, sig and 'build: ' + sig

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, o.jobs)) as pool:
        results += pool.map(one, mine)
        rejected += pool.map(one_rejected, rejects)
    plan += mine
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seeds', default='0:200')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--xfail')
    ap.add_argument('--work', default='/tmp/ytt-diff-backends')
    ap.add_argument('--no-shrink', action='store_true')
    ap.add_argument('--max-shrink', type=int, default=20)
    ap.add_argument('--verbose', action='store_true')
    ap.add_argument('--batch', type=int, default=300, help='seeds per batch (one crate build each)')
    ap.add_argument('--gen', default='gen', help="the generator module (run.py's --gen)")
    ap.add_argument('--without-oracle', action='store_true',
                    help='run even when ../shared/oracle/ytt is missing (no oracle is used)')
    o = ap.parse_args()

    if not o.without_oracle and not os.access(os.path.join(run.ROOT, '..', 'shared', 'oracle', 'ytt'), os.X_OK):
        print('ytt-diff backends: ../shared/oracle is not beside the repository: skipped')
        return 0
    schemac = backend_crates.schemac_binary()
    if not os.access(schemac, os.X_OK):
        print('ytt-diff backends: schemac not found at %s' % schemac)
        return 2
    started = time.time()
    skips = {}                     # reason -> seeds
    plan, results, rejected = [], [], []
    seeds = list(gen.parse_range(o.seeds))
    for b in range(0, len(seeds), o.batch):
        failed = run_batch(o, seeds[b:b + o.batch], b // o.batch, skips, plan, results, rejected)
        if failed:
            print('ytt-diff backends: the crate %s does not build' % failed)
            return 2

    groups = {}
    typed_runs = 0
    for seed, call, sig_v, sig_t in results:
        if isinstance(call, str):
            skips.setdefault(call, []).append(seed)
        else:
            typed_runs += 1
        for sig in (sig_v, sig_t):
            if sig:
                groups.setdefault(sig, []).append(seed)
                if o.verbose:
                    print('seed %d: %s' % (seed, sig))
    for seed, sig in rejected:
        if sig:
            groups.setdefault(sig, []).append(seed)
        skips.setdefault('validator and typed: schemac gen rejects the schema (compared as build)', []).append(seed)

    n_v = len(results)
    agree_v = sum(1 for r in results if r[2] is None)
    agree_t = sum(1 for r in results if not isinstance(r[1], str) and r[3] is None)
    print('validator: %d/%d cases agree with check byte for byte' % (agree_v, n_v))
    print('typed:     %d/%d cases agree with check (values or report)' % (agree_t, typed_runs))
    print('build:     %d/%d schemas that schemac gen rejects are reported as check reports them' % (
        sum(1 for r in rejected if r[1] is None), len(rejected)))
    print('not compared (cases, by reason):')
    for why in sorted(skips, key=lambda k: (-len(skips[k]), k)):
        print('  %5d  %s' % (len(skips[why]), why))

    xfail = run.load_xfail(o.xfail)
    unexplained = 0
    summary = []
    for sig in sorted(groups, key=lambda g: (-len(groups[g]), g)):
        reason = run.known(sig, xfail)
        if reason is None:
            unexplained += len(groups[sig])
        summary.append({'signature': sig, 'id': run.group_id(sig), 'count': len(groups[sig]),
                        'seeds': groups[sig][:20], 'known': reason})
        print('%s %4d  %s%s' % (run.group_id(sig), len(groups[sig]), sig, '  [known: %s]' % reason if reason else ''))

    if not o.no_shrink:
        shrink_groups(o, summary, plan)
    with open(os.path.join(o.work, 'results.json'), 'w') as fh:
        json.dump({'seeds': o.seeds, 'validator': [agree_v, n_v], 'typed': [agree_t, typed_runs],
                   'build': [sum(1 for r in rejected if r[1] is None), len(rejected)],
                   'skips': {k: len(v) for k, v in skips.items()}, 'groups': summary}, fh, indent=1)
    print('ytt-diff backends: %.0fs in all' % (time.time() - started))
    if unexplained:
        print('ytt-diff backends: %d differences in %d unexplained group(s)' % (
            unexplained, sum(1 for e in summary if not e['known'])))
        return 1
    print('ytt-diff backends: no unexplained differences')
    return 0


def shrink_groups(o, summary, plan):
    """Shrinks the first case of each unknown group, its schema files kept."""
    import shrink
    by_seed = {p[0]: p for p in plan}
    repro = os.path.join(o.work, 'repro')
    for entry in [e for e in summary if not e['known'] and e['seeds'][0] in by_seed][:o.max_shrink]:
        seed, d, args, env, rest, (batch, handle), schema = by_seed[entry['seeds'][0]]
        typed = entry['signature'].startswith('typed: ')

        def pair(case):
            args, env = run.read_case(case)
            split = backend_crates.split_args(case, args)
            if isinstance(split, str) or split[0] != schema:
                return (None, b'', b''), ('schema split changed', b'', b'')
            e = dict(os.environ)
            e.update(env)
            check = check_of(case, args, env)
            if not typed:
                return check, batch.validator(handle, split[1], case, env=e, timeout=run.TIMEOUT)
            call = typed_call(split[1])
            if isinstance(call, str):
                return check, ('not typed', b'', b'')
            return check, batch.typed(handle, call[0], case, plain=call[1], json=call[2], env=e, timeout=run.TIMEOUT)

        def sig(check, other):
            if typed:
                return compare_typed(check, other) if check[0] is not None and isinstance(other[0], int) else None
            s = run.signature(check, other, names=('check', 'validator'))
            return s and 'validator: ' + s

        dst = os.path.join(repro, entry['id'])
        shutil.rmtree(dst, ignore_errors=True)
        got = shrink.shrink(d, dst, entry['signature'], pair, sig, keep=schema)
        check, other = pair(dst)
        for who, (rc, out, err) in (('check', check), ('typed' if typed else 'validator', other)):
            for ext, data in (('stdout', out), ('stderr', err)):
                with open(os.path.join(dst, '%s.%s' % (who, ext)), 'wb') as fh:
                    fh.write(data)
            with open(os.path.join(dst, who + '.rc'), 'w') as fh:
                fh.write('%s\n' % rc)
        with open(os.path.join(dst, 'signature'), 'w', encoding='utf-8') as fh:
            fh.write('%s\nseed %d (%d cases: %s)\n' % (entry['signature'], seed, entry['count'],
                                                       ' '.join(map(str, entry['seeds']))))
        print('shrunk %s -> %s%s' % (entry['id'], dst, '' if got == entry['signature'] else ' (signature drifted!)'))


if __name__ == '__main__':
    sys.exit(main())
