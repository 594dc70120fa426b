#!/usr/bin/env python3
"""Dense flow collections of tags, anchors, aliases and `?`, for `run.py --gen flowprops`.

A data values file whose `root` (or an item under it) is a flow collection packed from short
pieces, mostly without blanks between them: plain text, quoted scalars, `?`, `:`, `,`, brackets,
tags (`!x`, `!x!y`, `!!int`, `!<x>`, `!`), anchors and aliases. go-yaml's scanner (ytt's) ends a
flow plain scalar at a `?` and takes `,[]` into a tag, where libyaml-safer (schemac's source of
go-yaml's errors) does neither; these texts exercise that, and the order of the scanner's and
the parser's errors. Nearly all are broken. Not run in CI: the sixty-first session's hunt
(FINDINGS.md).

    tests/ytt-diff/run.py --gen flowprops --seeds 0:2000 --jobs 2 --no-shrink
    tests/ytt-diff/flowprops.py --seed 7 --print
"""
import random

import gen
import yamlflow

PIECES = ['a', 'x', '1', '-', 'x y', '"q"', "'s'", '?', '?', '? ', ':', ': ', ',', ', ', '[', ']',
          '{', '}', '!x', '!x!y', '!!int', '!!str', '!<x>', '!', '&a', '&a ', '*a', '*b', '#c',
          ' ', ' ', 'k: v', '~']
CONTEXTS = ['root: ', 'root:\n- ', 'root: &a ', 'root: !x ', 'c: &b x\nroot: ', 'root:\n  k: ']


class Case(yamlflow.Case):
    """yamlflow's case (its schema: `root` and `other` of any type), another values file."""

    def build(self):
        r = self.r
        opener = r.choice('[{')
        parts = [opener]
        for _ in range(r.randint(2, 12)):
            parts.append(r.choice(PIECES))
            if r.random() < 0.08:
                parts.append('\n' + ' ' * r.randint(0, 3))
        if r.random() < 0.8:
            parts.append(']' if opener == '[' else '}')
        text = '#@data/values\n---\n' + r.choice(CONTEXTS) + ''.join(parts)
        if r.random() < 0.2:
            text += r.choice(['\nother: 1', ' # t', '\n---\nroot: 3'])
        if r.random() < 0.6:
            text += '\n'
        else:
            self.features.add('no final line break')
        self.features.add('flow properties')
        self.files['values.yml'] = text


generate = gen.generator(Case)


if __name__ == '__main__':
    raise SystemExit(gen.case_cli(__doc__, generate))
