"""gen.py's productions for its thin areas (the h64b session): values overlays matching array
items `by=` (overlay.subset, a key name, overlay.map_key, overlay.index, overlay.all, a lambda,
with `missing_ok`/`expects`), a third schema file editing nested keys (`@overlay/replace`,
`@overlay/remove`, `@overlay/match missing_ok=True`), `--data-values-schema-inspect` with other
formats, `@schema/nullable` with `@schema/default`, `@schema/validation ... when=` on maps and
arrays on nullable nodes (and `when_null_skip`, which the oracle's ytt refuses), `@schema/type any=True` on array items.

Every choice here is made with a side random source (`Case.side()`), so a seed whose case takes
none of these branches is the same case as before; one that takes a branch changes the schema
the rest of the case is built from, so its later choices differ from before.
"""
import contextlib
import random

from gen_yaml import Y, flow_text, render_doc

STYPES = ['int', 'float', 'bool', 'str']


def walk(node, path=()):
    """(path, node, parent) of every node under a schema map, array items as '[]'."""
    if node.kind == 'map':
        for k, v in node.items:
            yield path + (k,), v, node
            if not v.meta.get('any'):
                yield from walk(v, path + (k,))
    elif node.kind == 'seq' and node.items:
        yield path + ('[]',), node.items[0], node
        if not node.items[0].meta.get('any'):
            yield from walk(node.items[0], path + ('[]',))


def has_ann(node, prefix):
    return any(a.startswith(prefix) for a in node.anns)


class Thin:
    """A mixin of gen.Case: the thin-area productions, each behind a side-random branch."""

    def init_side(self, seed):
        self.x = random.Random(seed * 7919 + 0x64b)

    @contextlib.contextmanager
    def side(self):
        """Make the case's own helpers (p, ch, scalar, value_for...) draw from the side source."""
        main, self.r = self.r, self.x
        try:
            yield
        finally:
            self.r = main

    def new_scalar(self, st=None):
        st = st or self.ch(STYPES)
        n, lit = self.scalar(st)
        n.meta.update(stype=st, lit=lit, py=eval(lit))
        return n, lit

    # schema annotations -------------------------------------------------------------------
    def thin_schema(self, root, f):
        """After gen.annotate: some nodes get the thin annotation combinations."""
        with self.side():
            nodes = [(p, n, par) for p, n, par in walk(root)]
            if self.p(0.07):
                self.nullable_default(nodes)
            if self.p(0.07):
                self.when_on_collections(nodes, root, f)
            if self.p(0.12):
                self.any_items(nodes)

    def nullable_default(self, nodes):
        cands = [(p, n) for p, n, _ in nodes if p[-1] != '[]' and not n.meta.get('any')
                 and not has_ann(n, 'schema/default') and not has_ann(n, 'schema/nullable')]
        for p, n in self.r.sample(cands, min(len(cands), self.r.randint(1, 2))):
            pred = n.meta.get('pred')
            if n.kind == 'scalar' and n.meta.get('stype') in STYPES and self.p(0.6):
                lit = self.scalar(n.meta['stype'])[1]
                if pred is not None and not _ok(pred, eval(lit)):
                    continue
                dflt, py = lit, eval(lit)
            elif n.kind == 'seq' and self.p(0.3):
                dflt, py = '[]', []
            else:
                dflt, py = 'None', None
            if n.meta.get('not_null') and py is None:
                continue
            anns = ['schema/nullable', 'schema/default %s' % dflt]
            if self.p(0.4):
                anns.reverse()
            n.anns[:0] = anns
            n.meta.update(nullable=True, py=py)
            self.feat('@schema/nullable with @schema/default' + (' None' if py is None else ''))

    def when_on_collections(self, nodes, root, f):
        cands = [(p, n, par) for p, n, par in nodes if n.kind in ('map', 'seq') and not n.meta.get('any')
                 and not has_ann(n, 'schema/validation') and not has_ann(n, 'schema/default')]
        for p, n, par in self.r.sample(cands, min(len(cands), self.r.randint(1, 2))):
            if n.kind == 'map':
                opts = self.map_rules(n)
                whens = ['when=lambda v: len(v) > 0', 'when=lambda v: "%s" in v' % n.items[0][0]] if n.items else []
            else:
                opts = self.seq_rules(n)
                whens = ['when=lambda v: len(v) > 1', 'when=lambda v, ctx: len(ctx.parent) > 0']
            if not opts:
                continue
            sib = [k for k, v in (par.items if par.kind == 'map' else []) if v is not n and v.kind == 'scalar'
                   and v.meta.get('stype') == 'bool' and not v.meta.get('nullable') and not v.meta.get('any')]
            if sib:
                whens.append('when=lambda v, ctx: ctx.parent["%s"]' % sib[0])
            if p[0] != '[]' and len(p) > 1:
                whens.append('when=lambda v, ctx: len(ctx.root) > 0')
            rules, pred = self.ch(opts)
            self.rule_feats(rules, f)
            rules = list(rules)
            if whens:
                rules.append(self.ch(whens))
                self.feat('when= on a map or array')
            if p[-1] != '[]' and self.p(0.4):
                if not has_ann(n, 'schema/nullable'):
                    n.anns.append('schema/nullable')
                    n.meta['nullable'] = True
                if self.p(0.2):
                    # not a keyword of the oracle's @schema/validation (ytt 0.4x): an error probe
                    rules.append('when_null_skip=' + self.ch(['True', 'False']))
                    self.mark_bad('when_null_skip= (unknown keyword)')
            n.anns.append('schema/validation ' + ', '.join(rules))
            n.meta['pred'] = pred
            self.feat('@schema/validation')

    def any_items(self, nodes):
        seqs = [n for _, n, _ in nodes if n.kind == 'seq' and not n.meta.get('any')]
        for n in self.r.sample(seqs, min(len(seqs), 1)):
            item = n.items[0]
            item.anns = [a for a in item.anns if not a.startswith('schema/validation')]
            item.meta.pop('pred', None)
            item.anns.insert(0, 'schema/type any=True')
            item.meta['any'] = True
            if self.p(0.6):
                v = self.any_value(1)
                item.kind, item.items, item.text, item.block, item.flow = v.kind, v.items, v.text, v.block, v.flow
            if self.p(0.3):
                n.anns.append('schema/validation ("mixed ok", lambda v: len(v) >= 0), max_len=4')
            self.feat('@schema/type any=True on array items')

    # a third schema file -----------------------------------------------------------------
    def thin_schema_file(self, root, f):
        """A schema file overlaying nested keys of the first; True if one was written."""
        with self.side():
            if not self.p(0.08):
                return False
            doc = Y('map')
            for _ in range(self.r.randint(1, 3)):
                maps = [(p, n) for p, n, _ in walk(root) if n.kind == 'map' and n.items and '[]' not in p
                        and not n.meta.get('any')]
                p, parent = self.ch(maps) if maps and self.p(0.7) else ((), root)
                at = doc
                for k in p:
                    nxt = next((v for kk, v in at.items if kk == k), None)
                    if nxt is None:
                        nxt = Y('map', path=True)
                        at.items.append([k, nxt])
                    at = nxt
                if not at.meta.get('path') and at is not doc:
                    continue
                edit = self.schema_edit(parent, [kk for kk, _ in at.items])
                if edit is not None:
                    at.items.append(edit)
            if not doc.items:
                return False
            head = ['#@data/values-schema']
            if self.p(0.2):
                head.append('#@overlay/match-child-defaults missing_ok=True')
                self.feat('schema overlay: document annotated match-child-defaults missing_ok')
                if self.p(0.5):
                    # the document's default covers the new keys
                    drop_anns(doc, 'overlay/match missing_ok=True')
            lines = ['#@ load("@ytt:overlay", "overlay")'] + head + ['---'] + render_doc(doc)
            self.files[f] = '\n'.join(lines) + '\n'
            self.feat('three schema files (nested overlay edits)')
            return True

    def schema_edit(self, parent, edited):
        """One overlay edit of a key of `parent` not in `edited` (the model follows it): [key,
        overlay node]."""
        roll = self.r.random()
        taken = [k for k, _ in parent.items] + edited
        if roll < 0.35 or not parent.items:
            k = self.fresh_keys(1, taken)[0]
            n = self.new_scalar()[0] if self.p(0.7) else Y('map', [[self.fresh_keys(1)[0], self.new_scalar()[0]]], stype='map')
            if self.p(0.3) and n.kind == 'scalar':
                n.anns.append('schema/nullable')
                n.meta['nullable'] = True
            parent.items.append([k, n])
            o = n.copy()
            o.anns.insert(0, 'overlay/match missing_ok=True')
            self.feat('schema overlay: nested missing_ok new key')
            return [k, o]
        left = [(k, v) for k, v in parent.items if k not in edited]
        if not left:
            return None
        k, v = self.ch(left)
        if roll < 0.6:
            parent.items[:] = [[a, b] for a, b in parent.items if a != k]
            o = Y('scalar', text=flow_text(v) if v.kind == 'scalar' and v.block is None else '', anns=['overlay/remove'])
            self.feat('schema overlay: nested @overlay/remove')
            return [k, o]
        if roll < 0.85:
            n = self.new_scalar()[0] if self.p(0.6) else Y('seq', [self.new_scalar()[0]], stype='seq', py=[])
            extra = []
            if self.p(0.35):
                extra = ['schema/nullable']
                n.meta['nullable'] = True
            elif n.kind == 'scalar' and self.p(0.3):
                lit = self.scalar(n.meta['stype'])[1]
                extra = ['schema/default %s' % lit]
                n.meta['py'] = eval(lit)
            i = next(j for j, (a, _) in enumerate(parent.items) if a == k)
            parent.items[i] = [k, n]
            o = n.copy()
            o.anns = ['overlay/replace'] + extra
            self.feat('schema overlay: nested @overlay/replace')
            return [k, o]
        # the same key again, matched explicitly, with a new default
        if v.kind == 'scalar' and v.meta.get('stype') in STYPES and not v.meta.get('any'):
            n = self.scalar(v.meta['stype'])[0]
            n.anns = [self.ch(['overlay/match missing_ok=True', 'overlay/match expects=1',
                               'overlay/match expects="0+"', 'overlay/merge'])]
            self.feat('schema overlay: nested @overlay/match on an existing key')
            return [k, n]
        return None

    # values overlays by= ------------------------------------------------------------------
    def thin_values_file(self, root, f):
        """A values file that sets an array of maps and edits its items `by=`; True if written."""
        with self.side():
            if not self.p(0.25):
                return False
            arrs = [(p, n) for p, n, _ in walk(root) if n.kind == 'seq' and '[]' not in p and n.items[0].kind == 'map'
                    and not n.items[0].meta.get('any') and not n.meta.get('any') and 'on' not in p
                    and any(v.kind == 'scalar' and v.meta.get('stype') in STYPES for _, v in n.items[0].items)]
            if not arrs:
                return False
            p, arr = self.ch(arrs)
            item = arr.items[0]
            keys = [k for k, v in item.items if v.kind == 'scalar' and v.meta.get('stype') in STYPES]
            base = []
            for _ in range(self.r.randint(1, 3)):
                m, lits = Y('map'), {}
                for k, v in item.items:
                    if k in keys:
                        n, lits[k] = self.scalar(v.meta['stype'])
                    else:
                        n = self.value_for(v, full=True)
                    m.items.append([k, n])
                base.append((m, lits))
            first = Y('seq', [m for m, _ in base], anns=['overlay/replace'])
            edits = Y('seq', [self.item_edit(item, keys, base) for _ in range(self.r.randint(1, 3))])
            if self.p(0.25):
                edits.anns.append(self.ch(['overlay/match missing_ok=True', 'overlay/match expects=1',
                                           'overlay/match expects="0+"', 'overlay/match by=overlay.all, expects="1+"',
                                           'overlay/match by=overlay.map_key("x")', 'overlay/merge']))
                self.feat('values: map item annotated ' + edits.anns[-1].split(',')[0])
            docs = []
            for body in (first, edits):
                head = ['#@data/values']
                if self.p(0.12):
                    head.append(self.ch(['#@overlay/match-child-defaults missing_ok=True', '#@overlay/match by=overlay.all',
                                         '#@overlay/match-child-defaults expects="0+"', '#@overlay/match expects=1']))
                    self.feat('values: document annotated ' + head[-1][2:].split(' ')[0])
                docs += head + ['---'] + render_doc(nest(p, body))
            self.files[f] = '\n'.join(['#@ load("@ytt:overlay", "overlay")'] + docs) + '\n'
            self.feat('values: array items edited by= (second values file)')
            return True

    def item_edit(self, item, keys, base):
        k = self.ch(keys)
        i = self.r.randint(0, len(base))
        m = self.value_for(item, full=self.p(0.5))
        if i < len(base):
            have = dict(m.items)
            have[k] = base[i][0].items[[a for a, _ in base[i][0].items].index(k)][1].copy()
            m.items = [[a, have[a]] for a, _ in item.items if a in have]
            lit = base[i][1][k]
        else:
            lit = self.scalar(item.items[[a for a, _ in item.items].index(k)][1].meta['stype'])[1]
        by = self.ch(['overlay.subset({"%s": %s})' % (k, lit), '"%s"' % k, 'overlay.map_key("%s")' % k,
                      'overlay.index(%d)' % i, 'overlay.all', 'lambda i, l, r: l["%s"] == r["%s"]' % (k, k),
                      'lambda i, l, r: i == %d' % i, 'overlay.not_op(overlay.subset({"%s": %s}))' % (k, lit),
                      'overlay.or_op(overlay.index(%d), overlay.subset({"%s": %s}))' % (self.r.randint(0, 2), k, lit),
                      'overlay.and_op(overlay.all, overlay.map_key("%s"))' % k])
        self.feat('values: @overlay/match by=' + ('KEY' if by.startswith('"') else by.split('(')[0].split(' ')[0]))
        extra = self.ch(['', '', ', missing_ok=True', ', expects="0+"', ', expects=1', ', expects=[0, 1]',
                         ', expects="1+"', ', expects=2', ', when=1', ', expects=lambda n: n < 2'])
        if extra:
            self.feat('values: by= with ' + extra[2:].split('=')[0])
        m.anns = ['overlay/match by=%s%s' % (by, extra)]
        if self.p(0.25):
            m.anns.append(self.ch(['overlay/replace', 'overlay/remove', 'overlay/merge', 'overlay/insert before=True',
                                   'overlay/append']))
            self.feat('values: by= with @' + m.anns[-1].split(' ')[0])
        return m

    # output flags -------------------------------------------------------------------------
    def thin_output(self, out, no_schema):
        with self.side():
            if not self.p(0.06):
                return out
            forms = [['--data-values-schema-inspect'], ['--data-values-schema-inspect', '-o', 'yaml'],
                     ['--data-values-schema-inspect', '-o', 'json'], ['--data-values-schema-inspect', '--output', 'openapi-v3'],
                     ['--data-values-schema-inspect', '--output=openapi-v3'], ['--data-values-schema-inspect', '-oopenapi-v3'],
                     ['--data-values-schema-inspect', '-o', 'openapi-v3', '--data-values-inspect'],
                     ['-o', 'openapi-v3'], ['--data-values-inspect', '-o', 'openapi-v3'],
                     ['--data-values-schema-inspect', '-o', 'openapi-v3', '-o', 'json'],
                     ['--data-values-schema-inspect', '-o', 'json', '-o', 'openapi-v3'],
                     ['--data-values-schema-inspect', '-o', 'OpenAPI-v3'], ['--data-values-schema-inspect', '-o', 'pos'],
                     ['--data-values-schema-inspect', '-o', 'openapi-v3', '--dangerous-data-values-disable-validation']]
            out = self.ch(forms)
            self.feat('schema inspect form: ' + ' '.join(out[1:]) if out[0] == '--data-values-schema-inspect'
                      else 'openapi-v3 without schema inspect')
            return out


def drop_anns(node, ann):
    node.anns = [a for a in node.anns if a != ann]
    for it in node.items:
        drop_anns(it[1] if node.kind == 'map' else it, ann)


def nest(path, body):
    for k in reversed(path):
        body = Y('map', [[k, body]])
    return body


def _ok(pred, v):
    try:
        return bool(pred(v))
    except Exception:
        return False
