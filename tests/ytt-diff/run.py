#!/usr/bin/env python3
"""Differential run: generated cases through ytt and `schemac check`, compared byte for byte.

usage: run.py [--seeds A:B] [--jobs N] [--schemac PATH] [--ytt PATH] [--xfail FILE]
              [--work DIR] [--repro DIR] [--no-shrink] [--max-shrink N] [--verbose]

For every seed, gen.py writes a case into WORK/cases/<seed>; ytt runs with the case's args
(plus `--data-values-inspect` unless the args already hold an inspect action) and schemac runs
as `schemac check` with the same args, both in the case directory with the case's `env` added
to the environment. stdout, stderr (a `ytt: ` at the start of a line read as `schemac: `) and
the exit status must be identical.

Differences are grouped by a signature (see `signature()`); each group's first case is shrunk
(shrink.py) while the signature persists and written to REPRO/<group>/ with `args`, `env`,
`ytt.*` and `schemac.*` outputs. Groups whose signature is listed in --xfail count as known.
Exit status: 0 when every difference is known (or the oracle is missing), 1 otherwise.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402

TIMEOUT = 20
INSPECT = ('--data-values-inspect', '--data-values-schema-inspect')


def read_case(d):
    with open(os.path.join(d, 'args'), encoding='utf-8') as fh:
        args = [ln for ln in fh.read().split('\n')[:-1]]
    env = {}
    p = os.path.join(d, 'env')
    if os.path.exists(p):
        for ln in open(p, encoding='utf-8').read().splitlines():
            if '=' in ln:
                k, _, v = ln.partition('=')
                env[k] = v
    return args, env


def run_one(cmd, cwd, env):
    e = dict(os.environ)
    e.update(env)
    try:
        p = subprocess.run(cmd, cwd=cwd, env=e, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as ex:
        return 'timeout', ex.stdout or b'', ex.stderr or b''


# Flags whose value is the next argument (`--data-values-env --data-values-inspect` makes
# `--data-values-inspect` the prefix, not an action).
TAKES_VALUE = ('-f', '--file', '-v', '--data-value', '--data-value-yaml', '--data-value-file',
               '--data-values-file', '--data-values-env', '--data-values-env-yaml', '-o', '--output')


def ytt_args(args):
    # in front, so that a flag missing its argument at the end of the line stays without one
    actions = [a for i, a in enumerate(args) if a in INSPECT and (i == 0 or args[i - 1] not in TAKES_VALUE)]
    return args if actions else ['--data-values-inspect'] + args


def run_pair(d, ytt, schemac):
    args, env = read_case(d)
    y = run_one([ytt] + ytt_args(args), d, env)
    s = run_one([schemac, 'check'] + args, d, env)
    return y, s


def norm_stderr(b):
    t = b.decode('utf-8', errors='replace')
    return re.sub(r'(?m)^ytt: ', 'schemac: ', t)


KEYRE = re.compile(r'\b(%s)\b' % '|'.join(re.escape(k) for k in sorted(gen.KEYS, key=len, reverse=True)))


def norm_line(ln):
    ln = ln.strip()
    ln = re.sub(r'^(ytt|schemac): ', '', ln)
    ln = re.sub(r'[\w./-]*\.(?:ya?ml|star|txt)(?::\d+)?', 'F', ln)
    ln = re.sub(r'"(?:[^"\\]|\\.)*"', '"S"', ln)
    ln = re.sub(r"'[^']*'", "'S'", ln)
    ln = KEYRE.sub('K', ln)
    ln = re.sub(r'-?\b\d[\d_.e+x]*\b', 'N', ln)
    ln = re.sub(r'\d+', 'N', ln)
    ln = re.sub(r'^\s*\|?\s*N\s*\|', 'N |', ln)
    ln = re.sub(r'(K\.)+K', 'K', ln)
    ln = re.sub(r'(: )[A-Za-z][\w.-]*$', r'\1W', ln) if re.match(r'^-? ?K:', ln) else ln
    return ln[:140]


def headline(stderr_text):
    for ln in stderr_text.split('\n'):
        if ln.strip() and not ln.startswith('Warning:'):
            return norm_line(ln)
    return ''


def first_diff(a, b):
    al, bl = a.split('\n'), b.split('\n')
    for i in range(max(len(al), len(bl))):
        x = al[i] if i < len(al) else '<EOF>'
        y = bl[i] if i < len(bl) else '<EOF>'
        if x != y:
            return i, x, y
    return None


def signature(y, s, names=('ytt', 'schemac')):
    """None when equal, else a short normalised description of the first difference between
    y (the reference: ytt, or `schemac check` for the other back ends) and s."""
    a, b = names
    yrc, yout, yerr = y
    src, sout, serr = s
    yerr_t, serr_t = norm_stderr(yerr), serr.decode('utf-8', errors='replace')
    if src == 'timeout' or (isinstance(src, int) and src < 0) or 'panicked at' in serr_t:
        return 'crash: %s rc=%s %s' % (b, src, headline(serr_t))
    if yrc != src:
        if yrc == 0:
            return '%s fails, %s ok: %s' % (b, a, detail(serr_t))
        if src == 0:
            return '%s fails, %s ok: %s' % (a, b, detail(yerr_t))
        return 'rc %s=%s %s=%s: %s %s / %s %s' % (a, yrc, b, src, a, headline(yerr_t), b, headline(serr_t))
    if yout != sout:
        i, x, z = first_diff(yout.decode('utf-8', 'replace'), sout.decode('utf-8', 'replace'))
        return 'stdout: %s `%s` / %s `%s`' % (a, norm_line(x), b, norm_line(z))
    if yerr_t != serr_t:
        strip = lambda t: '\n'.join(x.rstrip() for x in t.rstrip().split('\n'))
        if strip(yerr_t) != strip(serr_t):
            i, x, z = first_diff(strip(yerr_t), strip(serr_t))
        else:
            i, x, z = first_diff(yerr_t, serr_t)
        if strip(yerr_t) == strip(serr_t):
            return 'stderr whitespace: %s `%s` / %s `%s`' % (a, norm_line(x) + '⏎' * (x != x.rstrip()),
                                                           b, norm_line(z) + '⏎' * (z != z.rstrip()))
        sig = 'stderr [%s]: %s `%s` / %s `%s`' % (headline(yerr_t), a, norm_line(x), b, norm_line(z))
        where = ('Document on line', 'Templating file')
        if norm_line(x) == headline(yerr_t) or (norm_line(x).startswith(where) and norm_line(z).startswith(where)):
            # the kind of error differs (or the two fail in different places: ytt overlaying
            # a document, schemac templating its file): say what each side complains about
            sig += ' … %s `%s` / %s `%s`' % (a, detail(yerr_t).split(' … ')[-1], b, detail(serr_t).split(' … ')[-1])
        return sig
    return None


def detail(err):
    """headline plus the first line that says what was found/wanted."""
    h = headline(err)
    for ln in err.split('\n'):
        if re.search(r'found:|must be:|expected|Expected|not declared|Unknown|unknown|Error:|schemac cannot|Unsupported value type', ln) and norm_line(ln) != h:
            return '%s … %s' % (h, norm_line(ln))
    return h


def load_xfail(path):
    out = []
    if not path:
        return out
    for ln in open(path, encoding='utf-8'):
        ln = ln.rstrip('\n')
        if not ln.strip() or ln.startswith('#'):
            continue
        sig, _, reason = ln.partition(' -- ')
        out.append((sig.strip(), reason.strip()))
    return out


def matches(sig, pat):
    """Whether a signature matches an xfail pattern, where each `*` matches any text."""
    parts = pat.split('*')
    if not sig.startswith(parts[0]):
        return False
    if len(parts) == 1:
        return sig == pat
    pos = len(parts[0])
    for mid in parts[1:-1]:
        pos = sig.find(mid, pos)
        if pos < 0:
            return False
        pos += len(mid)
    return len(sig) - len(parts[-1]) >= pos and sig.endswith(parts[-1])


def known(sig, xfail):
    for pat, reason in xfail:
        if matches(sig, pat):
            return reason
    return None


def group_id(sig):
    return hashlib.sha1(sig.encode()).hexdigest()[:8]


def write_outputs(d, y, s):
    for who, (rc, out, err) in (('ytt', y), ('schemac', s)):
        with open(os.path.join(d, who + '.stdout'), 'wb') as fh:
            fh.write(out)
        with open(os.path.join(d, who + '.stderr'), 'wb') as fh:
            fh.write(err)
        with open(os.path.join(d, who + '.rc'), 'w') as fh:
            fh.write('%s\n' % rc)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seeds', default='0:200')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--schemac', default=os.path.join(ROOT, 'target', 'release', 'schemac'))
    ap.add_argument('--ytt', default=os.path.join(ROOT, '..', 'shared', 'oracle', 'ytt'))
    ap.add_argument('--xfail')
    ap.add_argument('--work', default='/tmp/ytt-diff-work')
    ap.add_argument('--repro', default=None, help='where shrunken reproducers go (default WORK/repro)')
    ap.add_argument('--no-shrink', action='store_true')
    ap.add_argument('--max-shrink', type=int, default=40, help='shrink at most this many groups')
    ap.add_argument('--json', help='write per-seed results here')
    ap.add_argument('--verbose', action='store_true')
    ap.add_argument('--gen', default='gen', help='the generator module (gen, or yamlgram for YAML syntax)')
    o = ap.parse_args()
    genmod = __import__(o.gen)
    why = getattr(genmod, 'unavailable', lambda: None)()
    if why:
        print(why)
        return 0

    ytt = os.path.abspath(o.ytt)
    if not os.access(ytt, os.X_OK):
        print('ytt-diff: oracle not found at %s: skipped' % ytt)
        return 0
    schemac = os.path.abspath(o.schemac)
    if not os.access(schemac, os.X_OK):
        print('ytt-diff: schemac not found at %s' % schemac)
        return 2
    seeds = gen.parse_range(o.seeds)
    cases_dir = os.path.join(o.work, 'cases')
    repro = os.path.abspath(o.repro or os.path.join(o.work, 'repro'))
    os.makedirs(cases_dir, exist_ok=True)

    def one(seed):
        d = os.path.join(cases_dir, str(seed))
        shutil.rmtree(d, ignore_errors=True)
        c = genmod.generate(seed)
        gen.write_case(c, d)
        y, s = run_pair(d, ytt, schemac)
        return seed, c, y, s, signature(y, s)

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, o.jobs)) as pool:
        for res in pool.map(one, seeds):
            results.append(res)
            if o.verbose and res[4]:
                print('seed %d: %s' % (res[0], res[4]))

    xfail = load_xfail(o.xfail)
    n = len(results)
    agree = sum(1 for r in results if r[4] is None)
    ytt_ok = sum(1 for r in results if r[2][0] == 0)
    valid_constr = [r for r in results if r[1].bad is None]
    groups = {}
    for seed, c, y, s, sig in results:
        if sig:
            groups.setdefault(sig, []).append(seed)
    print('ytt-diff: %d cases (seeds %s), agreement %d/%d = %.1f%%' % (n, o.seeds, agree, n, 100.0 * agree / max(1, n)))
    print('ytt accepts %d/%d = %.1f%% of the cases; %d cases are valid by construction (ytt accepts %d of them)' % (
        ytt_ok, n, 100.0 * ytt_ok / max(1, n), len(valid_constr), sum(1 for r in valid_constr if r[2][0] == 0)))
    ok_agree = sum(1 for r in results if r[2][0] == 0 and r[4] is None)
    bad_agree = sum(1 for r in results if r[2][0] != 0 and r[4] is None)
    print('agreement where ytt succeeds: %d/%d; where ytt fails: %d/%d' % (ok_agree, ytt_ok, bad_agree, n - ytt_ok))

    unexplained = 0
    order = sorted(groups, key=lambda g: (-len(groups[g]), g))
    summary = []
    for i, sig in enumerate(order):
        reason = known(sig, xfail)
        if reason is None:
            unexplained += len(groups[sig])
        gid = group_id(sig)
        entry = {'signature': sig, 'id': gid, 'count': len(groups[sig]), 'seeds': groups[sig][:20], 'known': reason}
        summary.append(entry)
        print('%s %4d  %s%s' % (gid, len(groups[sig]), sig, '  [known: %s]' % reason if reason else ''))
    if not o.no_shrink and order:
        import shrink
        os.makedirs(repro, exist_ok=True)
        for entry in summary[:o.max_shrink]:
            if entry['known']:
                continue
            seed = entry['seeds'][0]
            src = os.path.join(cases_dir, str(seed))
            dst = os.path.join(repro, entry['id'])
            shutil.rmtree(dst, ignore_errors=True)
            sig = shrink.shrink(src, dst, entry['signature'], lambda d: run_pair(d, ytt, schemac), signature)
            y, s = run_pair(dst, ytt, schemac)
            write_outputs(dst, y, s)
            with open(os.path.join(dst, 'signature'), 'w', encoding='utf-8') as fh:
                fh.write('%s\nseed %d (%d cases: %s)\n' % (entry['signature'], seed, entry['count'],
                                                           ' '.join(map(str, entry['seeds']))))
            entry['repro'] = dst
            entry['shrunk_ok'] = sig == entry['signature']
            print('shrunk %s -> %s%s' % (entry['id'], dst, '' if entry['shrunk_ok'] else ' (signature drifted!)'))
    out = {'seeds': o.seeds, 'cases': n, 'agree': agree, 'ytt_ok': ytt_ok, 'groups': summary,
           'per_seed': {str(r[0]): {'sig': r[4], 'ytt_rc': r[2][0], 'schemac_rc': r[3][0], 'bad': r[1].bad,
                                    'features': sorted(r[1].features)} for r in results}}
    with open(o.json or os.path.join(o.work, 'results.json'), 'w') as fh:
        json.dump(out, fh, indent=1)
    if unexplained:
        print('ytt-diff: %d cases differ in %d unexplained group(s)' % (
            unexplained, sum(1 for e in summary if not e['known'])))
        return 1
    print('ytt-diff: no unexplained differences')
    return 0


if __name__ == '__main__':
    sys.exit(main())
