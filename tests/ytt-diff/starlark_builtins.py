#!/usr/bin/env python3
"""Starlark builtins and operators: ytt's starlark-go against schemac's interpreter.

usage: starlark_builtins.py [--schemac PATH] [--ytt PATH] [--work DIR] [--batch N] [--only WORD]
                   [--list] [--verbose]

Every expression of `expressions()` (string, number, list, dict and tuple builtins and
operators, `@ytt:` modules) becomes a validation rule `lambda v: fail(repr(EXPR))` of a schema
key, BATCH keys a schema file: ytt reports each rule's answer (the value's repr, or the error
that computing it raised) as one `found:` line, so one run compares BATCH expressions. A batch
whose outputs differ is split into its keys; a batch that fails as a whole on one side (a
parse error) is run one expression a file. `--only WORD` keeps the expressions containing WORD.
A few expressions run as template code too (`TEMPLATE`), where an error has a traceback.
Prints each differing expression with both answers, and the counts.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

STRS = ['""', '"a b  c"', '" x "', '"a,b,,c"', '"Hello World"', '"école ÉTÉ"', '"ß"',
        '"abc123"', '"  "', '"\\t\\n"', '"aaa"', '"hello_world"', '"123"', '"x\\ny\\r\\nz"',
        '"ǅx"', '"Ab Cd"', '"a1 B2"']
NUMS = ['0', '1', '-1', '7', '-7', '3', '2.5', '-2.5', '0.0', '-0.0', '1e300', '(1 << 70)',
        '(-(1 << 64))', '9223372036854775807', 'float("inf")', 'float("nan")']
OTHERS = ['True', 'None', '"s"', '[1]', '(1,)', '{"a": 1}', 'range(3)', 'len', 'lambda x: x']
LISTS = ['[]', '[1, 2, 3]', '[3, 1, 2]', '["b", "a"]', '[1, "a"]', '[[1], [0]]', '[None]',
         '[1.5, 1]', '[True, False]', '[2, 2, 1]']
DICTS = ['{}', '{"a": 1, "b": 2}', '{1: "x", "1": "y"}', '{"b": 1, "a": 2}']


def string_exprs():
    out = []
    for s in STRS:
        for m in ['split()', 'split(" ")', 'split(" ", 1)', 'split(",", -1)', 'split(",", 0)',
                  'split(None, 1)', 'rsplit()', 'rsplit(" ", 1)', 'rsplit(",", 2)',
                  'rsplit(None, 1)', 'strip()', 'strip("a")', 'strip(" x")', 'strip("")',
                  'lstrip("a ")', 'rstrip("c ")', 'strip(None)', 'partition(" ")',
                  'partition(",")', 'rpartition(" ")', 'partition("zz")',
                  'replace("a", "-")', 'replace("a", "-", 1)', 'replace("a", "-", 0)',
                  'replace("a", "-", -1)', 'replace("", "-")', 'replace("", "-", 2)',
                  'find("a")', 'find("a", 1)', 'find("a", -2)', 'find("a", 1, 2)', 'rfind("a")',
                  'rfind("")', 'find("", 100)', 'index("a")', 'rindex("a")', 'count("a")',
                  'count("")', 'count("a", 1, -1)', 'startswith("a")',
                  'startswith(("x", "a"))', 'startswith("b", 1)', 'endswith(("c", " "))',
                  'endswith("")', 'title()', 'capitalize()', 'upper()', 'lower()',
                  'elems()', 'codepoints()', 'elem_ords()', 'codepoint_ords()',
                  'isalnum()', 'isalpha()', 'isdigit()', 'islower()', 'isupper()',
                  'isspace()', 'istitle()', 'splitlines()', 'splitlines(True)',
                  'removeprefix("a")', 'removesuffix("c")', 'swapcase()', 'zfill(5)',
                  'ljust(3)', 'isnumeric()', 'casefold()', 'format(1)']:
            out.append('%s.%s' % (s, m))
        out += ['list(%s.elems())' % s, 'list(%s.codepoints())' % s, '%s[::-1]' % s,
                '%s[1:-1:2]' % s, '%s[5:0:-1]' % s, '%s * 2' % s, '%s * -1' % s,
                '"a" in %s' % s, 'len(%s)' % s, '%s < "b"' % s, 'hash(%s)' % s]
    out += ['"a".split("")', '"a".rsplit("")', '"abc".partition("")', '"a".strip(1)',
            '"a".replace(1, "b")', '",".join([1, 2])', '",".join(["a", None])',
            '",".join("abc")', '",".join(("a", "b"))', '",".join({"a": 1, "b": 2})',
            '",".join([])', '"".join(["a"], 1)', '"abc".find(1)', '"abc".index("z")',
            '"abc".rindex("z")', '"a".startswith(1)', '"a".startswith(("a", 1))',
            '"a".endswith(["a"])', '"a" * True', '2 * "ab"', '"a" + 1', '1 + "a"',
            '"a" * 1.5', '"a" < 1', '"a" == 1', '"a" != None', '"ab"[5]', '"ab"[-3]',
            '"ab"["x"]', '"ab"[1.0]', '"ab"[::0]', '"abc"[None:2]', '"abc"["a":]',
            '"x" in 1', '1 in "abc"', '"%s-%d" % ("a", 2)', '"%r" % "a"', '"%5s" % "a"',
            '"{} {}".format(1, "a")', '"{0!r}".format("a")', '"{x}".format(x=[1.5])',
            '"{}".format(None)', '"{{}}".format()', '"%s" % [1, "a"]', '"%s" % (1.0,)',
            '"%d" % 2.7', '"%d" % (1 << 70)', '"%x" % -255', '"%o" % 8', '"%e" % 12345.678',
            '"%g" % 1e-7', '"%f" % 1', '"%.3f" % 1', '"%c" % 65', '"%c" % "é"', '"%%"',
            '"%%" % ()', '"ab".elems()[0]', '"ab".codepoints()', 'repr("ab".elems())',
            'str("ab".elems())', 'type("a".elems())', 'len("ab".elems())', '"é".elems()',
            'list("é".elems())', 'ord("é")', 'ord("ab")', 'ord("")', 'chr(233)', 'chr(-1)',
            'chr(0x110000)', 'chr("a")', 'ord(1)', 'str(b"a")' if False else 'repr("\\x7f")',
            'repr("\u00e9\U0001F600")', 'repr("\\x00\\x1b")', 'repr("\'")', 'repr("\\"")',
            '"a\\tb".expandtabs()', '"%s" % "\\xff"', 'len("\U0001F600")',
            '"ǅ".title()', '"ǅ".istitle()', '"ǅ".isupper()', '"ǅ".islower()',
            '"ΣΑΣ".lower()', '"straße".upper()', '"ﬁ".upper()', '"İ".lower()',
            '"hello world".title()', '"HELLO wORLD".capitalize()', '"1a".title()',
            '"a\u0301b".title()', '"٣".isdigit()', '"²".isdigit()', '"Ⅳ".isalpha()',
            '"\u00a0".isspace()', '"\u2003".strip()', '" \u00a0x\u3000".strip()',
            '"a\\x1cb".splitlines()', '"a\\vb\\fc".splitlines()',
            '"a\u00a0b".split()', '"a\\x1cb".split()', '"a\u3000b".split()']
    return out


def number_exprs():
    out = []
    ops = ['+', '-', '*', '/', '//', '%', '<', '<=', '==', '!=', '&', '|', '^', '<<', '>>']
    for a in NUMS:
        for b in NUMS[:12]:
            for op in ops:
                out.append('%s %s %s' % (a, op, b))
        out += ['-%s' % a, '+%s' % a, '~%s' % a, 'int(%s)' % a, 'float(%s)' % a,
                'str(%s)' % a, 'bool(%s)' % a, 'hash(%s)' % a, 'type(%s)' % a]
    for a in NUMS[:8] + OTHERS:
        for b in OTHERS:
            for op in ['+', '*', '<', '==', '%', '-', '|', 'in']:
                out.append('%s %s %s' % (a, op, b))
    for s in ['"0x1f"', '"0o17"', '"0b101"', '"  12 "', '"12 "', '"-0x1f"', '"+5"', '"1_000"',
              '"010"', '"0"', '"-0"', '""', '"1.5"', '"1e3"', '"abc"', '"0X1F"', '"९"',
              '"99999999999999999999999"', '"-"', '"0x"', '"00"', '"0_1"', '" 0x1f"']:
        out += ['int(%s)' % s, 'int(%s, 0)' % s, 'int(%s, 16)' % s, 'int(%s, 8)' % s,
                'float(%s)' % s]
    for s in ['"inf"', '"-inf"', '"Inf"', '"infinity"', '"nan"', '"NaN"', '"1e400"', '"-1e400"',
              '"1e-400"', '" 1.5"', '"1.5 "', '"1_0.5"', '"0x1p3"', '".5"', '"5."', '"+.5e1"',
              '"1e"', '"e1"', '"١.٥"']:
        out.append('float(%s)' % s)
    out += ['int("12", 1)', 'int("12", 37)', 'int(12, 10)', 'int("z", 36)', 'int(1e100)',
            'int(float("nan"))', 'int(float("inf"))', 'int(-2.7)', 'int(2.7)', 'int(None)',
            'int([1])', 'int("1", base=2)', 'int(x="1")', 'int()', 'float()', 'float(True)',
            'float(1 << 1100)', 'float("1" * 400)', 'float(None)', 'float([])', 'int(True)',
            'int("0b2", 0)', 'int("08", 0)', 'int("0", 0)', 'int("00", 0)', 'int("-0b1", 0)',
            '1e308 * 10', '-1e308 * 10', '1 / 3', '2 / 2', '10 / 4', '-7 // 2', '-7 % 3',
            '7 % -3', '-7.5 // 2', '7.5 % -2', '(1 << 70) // 3', '(1 << 70) % 7',
            '-(1 << 70) // 7', '(1 << 70) / 3', '(1 << 70) * 1.0', '(1 << 63) - 1',
            '-(1 << 63)', '(1 << 1100) / 3', '1 << 64', '1 << -1', '1 >> 64', '-1 >> 100',
            '1 << 1000', '(1 << 70) >> 3', '(1 << 70) & (1 << 70)', '~(1 << 70)',
            '1.0 & 1', '0.1 + 0.2', '1e21', '1e20', '1e16', '123456789.0', '1e-5', '1e-4',
            '0.000123', '100.0', '1.5e300 * 1.5e300', 'float("nan") == float("nan")',
            'float("nan") < 1', '[float("nan")] == [float("nan")]', '1 == 1.0', '1 < 1.5',
            '(1 << 70) == float(1 << 70)', '(1 << 53) + 1 == float((1 << 53) + 1)',
            '(1 << 53) + 1 < float((1 << 53) + 1)', 'float(1 << 70) < (1 << 70) + 1',
            '3 // 0.0', '3 % 0.0', '3.0 / 0', '0 / 0', '0.0 // 0', '(1 << 70) % 0',
            'hash(1.0)', 'hash(1)', 'abs(-1)', 'round(1.5)', 'pow(2, 3)', 'divmod(7, 2)',
            '2 ** 3', 'min(1, 2.5)', 'max(1, 2.5)', 'max(1, True)', 'min("a", 1)',
            'max()', 'max([])', 'max(1)', 'max([3, 1], key=lambda x: -x)',
            'min([3, 1], key=lambda x: -x)', 'max("abc")', 'min(3, 1, 2, key=lambda x: x % 3)',
            'max([1, 2], default=0)', 'max([[1], [0]])', 'min([(1, "b"), (1, "a")])',
            'str(1.0)', 'str(-0.0)', 'str(1e100)', 'repr(1.0)', 'str(1.5e-10)',
            'str(float(1 << 70))', '"%s" % 1e21', '"%r" % 0.1', '"%d" % -0.0',
            'str(12345678901234567890.0)', 'str(0.1 * 3)', 'str(2.0 ** 0.5)' if False
            else 'str(1 / 7)', 'str(-1 / 3)', 'str(1e15 + 0.3)', 'str(float(123))',
            'int("123456789012345678901234567890") * 2', '-9223372036854775808 - 1',
            '9223372036854775807 + 1', '9223372036854775807 * 2', '2147483647 + 1',
            '-2147483648 - 1', '2147483648 * 2147483648', '-(-2147483648)',
            '-(-9223372036854775808)', '(-9223372036854775808) // -1', '(-2147483648) // -1',
            '(-2147483648) % -1', '2147483647 * -2147483648', '1 << 31', '1 << 62',
            '1 << 63', '(1 << 31) * 2', 'abs', 'int("-9223372036854775809")',
            'int(9223372036854775807.0)', 'int(-9223372036854775808.0)', 'int(1e19)',
            'range(1 << 31)', 'len(range(0, 1 << 40, 1 << 20))', 'True + True',
            'True * 2', 'True < False', 'True == 1', 'None < None', 'None == None',
            '-True', 'not 0.0', 'not -0.0', 'not float("nan")', 'bool(float("nan"))']
    return out


def collection_exprs():
    out = []
    for l in LISTS:
        out += ['sorted(%s)' % l, 'sorted(%s, reverse=True)' % l, 'reversed(%s)' % l,
                'list(reversed(%s))' % l, 'enumerate(%s)' % l, 'list(enumerate(%s, 1))' % l,
                'enumerate(%s, start=2)' % l, 'zip(%s, %s)' % (l, l), 'zip(%s)' % l,
                'any(%s)' % l, 'all(%s)' % l, 'max(%s)' % l, 'min(%s)' % l, '%s[::-1]' % l,
                '%s[5:0:-2]' % l, '%s[-100:100]' % l, '%s[::0]' % l, '%s[1]' % l,
                '%s[-4]' % l, '%s + (1,)' % l, '%s * 2' % l, '%s * -1' % l, '0 * %s' % l,
                '%s == tuple(%s)' % (l, l), '%s < [2]' % l, 'tuple(%s)' % l, 'set(%s)' % l,
                'dict(%s)' % l, 'hash(%s)' % l, 'str(%s)' % l, 'bool(%s)' % l,
                '1 in %s' % l, '%s.index(1)' % l, '%s.index(1, 1)' % l, '%s.index(2, -2, -1)' % l,
                '(lambda l: [l.pop(), l])(list(%s))' % l, '(lambda l: [l.pop(1), l])(list(%s))' % l,
                '(lambda l: [l.pop(-1), l])(list(%s))' % l, '(lambda l: [l.pop(5), l])(list(%s))' % l,
                '(lambda l: [l.insert(10, 9), l])(list(%s))' % l,
                '(lambda l: [l.insert(-10, 9), l])(list(%s))' % l,
                '(lambda l: [l.insert(-1, 9), l])(list(%s))' % l,
                '(lambda l: [l.remove(1), l])(list(%s))' % l,
                '(lambda l: [l.remove(9), l])(list(%s))' % l,
                '(lambda l: [l.extend("ab"), l])(list(%s))' % l,
                '(lambda l: [l.extend({"k": 1}), l])(list(%s))' % l,
                '(lambda l: [l.extend(1), l])(list(%s))' % l,
                '(lambda l: [l.append(l), len(l)])(list(%s))' % l,
                '(lambda l: [l.clear(), l])(list(%s))' % l,
                '(lambda l: [l.sort(), l])(list(%s))' % l,
                '[x for x in %s if x]' % l, '[(i, x) for i, x in enumerate(%s)]' % l,
                '{x: 1 for x in %s}' % l, 'sorted(%s, key=str)' % l,
                'sorted(%s, key=lambda x: -x)' % l, 'sorted(%s, key=repr, reverse=True)' % l]
    for d in DICTS:
        out += ['%s.get("a")' % d, '%s.get("a", 0)' % d, '%s.get([])' % d, '%s.keys()' % d,
                '%s.values()' % d, '%s.items()' % d, 'list(%s)' % d, 'sorted(%s)' % d,
                '%s["a"]' % d, '%s[1]' % d, '"a" in %s' % d, '[] in %s' % d, 'len(%s)' % d,
                '(lambda d: [d.setdefault("a", 5), d])(dict(%s))' % d,
                '(lambda d: [d.setdefault("z"), d])(dict(%s))' % d,
                '(lambda d: [d.update({"z": 1, "a": 0}), d])(dict(%s))' % d,
                '(lambda d: [d.update([("z", 1)], y=2), d])(dict(%s))' % d,
                '(lambda d: [d.update(1), d])(dict(%s))' % d,
                '(lambda d: [d.update([1]), d])(dict(%s))' % d,
                '(lambda d: [d.update([("a", 1, 2)]), d])(dict(%s))' % d,
                '(lambda d: [d.pop("a"), d])(dict(%s))' % d,
                '(lambda d: [d.pop("a", 9), d])(dict(%s))' % d,
                '(lambda d: [d.pop("zz"), d])(dict(%s))' % d,
                '(lambda d: [d.popitem(), d])(dict(%s))' % d,
                '(lambda d: [d.clear(), d])(dict(%s))' % d,
                '(lambda d: [d.pop("a", None), d.setdefault("a", 3), list(d)])(dict(%s))' % d,
                '%s | {"a": 9}' % d, '%s == {"a": 1, "b": 2}' % d, '%s < {}' % d,
                '%s + {}' % d, 'dict(%s, c=3)' % d, 'dict(%s.items())' % d, 'str(%s)' % d,
                'bool(%s)' % d, 'hash(%s)' % d, '{k: v for k, v in %s.items()}' % d,
                'max(%s)' % d, 'any(%s)' % d, 'enumerate(%s)' % d, 'zip(%s, "ab")' % d,
                '%s.keys()[0]' % d, 'type(%s.items())' % d, 'dir(%s)' % d]
    out += ['dir([])', 'dir(())', 'dir(1)', 'dir(None)', 'dir("")', 'dir(range(2))',
            'dir(len)', 'dir(lambda: 1)', 'dir(True)', 'dir(1.5)', 'hasattr("", "split")',
            'hasattr("", "removeprefix")', 'hasattr([], "pop")', 'hasattr({}, "popitem")',
            'hasattr(1, "real")', 'getattr("a", "upper")()', 'getattr(1, "x", None)',
            'getattr(1, "x")', 'getattr("a", "x", 1, 2)', 'getattr("a", 1)', 'hasattr("a")',
            'type(1)', 'type(1.5)', 'type("")', 'type([])', 'type({})', 'type(())',
            'type(None)', 'type(True)', 'type(len)', 'type(lambda: 1)', 'type(range(1))',
            'type(type)', 'type(enumerate([]))', 'type(reversed([]))', 'type(zip())',
            'type(set())', 'repr(len)', 'repr(lambda x: x)', 'str(lambda x: x)', 'repr(range(3))',
            'repr(range(1, 5, 2))', 'repr(range(0, 3))', 'str(range(-1))', 'repr(set([1]))',
            'repr(set())', 'repr(None)', 'repr(True)', 'repr(((1,),))', 'repr([(), {}])',
            'repr({(1, 2): [None]})', 'repr([1.0, -0.0, 1e100])', 'repr(("a", 1.5))',
            'range(10)[2:8:3]', 'range(10)[::-1]', 'list(range(10)[::-3])', 'range(5)[7]',
            'range(5)[-1]', 'list(range(0, 10, 3))', 'list(range(10, 0, -3))',
            'list(range(5, 1))', 'range(1, 2, 0)', 'range(1.5)', 'range()', 'range(1, 2, 3, 4)',
            'range(3) == range(3)', 'range(0) == range(2, 2)', 'range(3) == [0, 1, 2]',
            '2 in range(3)', '"a" in range(3)', 'len(range(10, 0, -3))', 'range(3) + [1]',
            'range(3) * 2', 'sorted(range(3), reverse=True)', 'reversed(range(3))',
            'list(zip([1, 2], "ab"))', 'zip([1], 1)', 'zip([1, 2], [3])', 'enumerate(1)',
            'enumerate([], 1.5)', 'sorted([1], key=1)', 'sorted([3, 1], reverse=None)',
            'sorted("cba")', 'sorted({"b": 1, "a": 2}.items())', 'sorted([1, "a"])',
            'sorted(["a", 1])', 'sorted([[1], ["a"]])', 'sorted([None, None])',
            'sorted([(1, 2), (1, "a")])', 'any()', 'all(1)', 'any("")', 'all("ab")',
            'any([0, None, ""])', 'all([])', 'list()', 'list(1)', 'list("ab")', 'list({"a": 1})',
            'tuple("ab")', 'tuple()', 'tuple(None)', 'dict()', 'dict(a=1, b=2)',
            'dict([("a", 1)], a=2)', 'dict([1, 2])', 'dict(1)', 'dict([("a",)])',
            'dict({"a": 1}, {"b": 2})', 'dict([[1, 2]])', 'dict(["ab"])', '{[1]: 1}',
            '{"a": 1, "a": 2}', '{1: 1, 1.0: 2}', '{True: 1, 1: 2}', '{None: 1}[None]',
            '{(1, [2]): 1}', 'hash([1])', 'hash((1, [2]))', 'hash(None)', 'hash("")',
            'hash("abc")', 'hash((1, 2))', 'hash(True)', 'len(1)', 'len(None)', 'len(())',
            'len(True)', '() + ()', '(1,) + [2]', '(1, 2) * 2', '(1,) < (1, 2)', '(1,) < ("a",)',
            '() == ()', '(1, 2)[::-1]', '(1, 2)[5]', '(1,).index(1)', '(1, 2).count(1)',
            '[1] < [1, 2]', '[1, 2] == [1, 2.0]', '[1] == 1', '[1] < (1,)', '[] < None',
            '{} == {}', 'set([1]) == set([1])', 'set([1, 2]) | set([3])',
            'set([1]).union([2])', 'bool(None)', 'bool(())', 'bool(range(0))', 'bool(len)',
            'not []', 'not {}', 'not "a"', '[1, 2][True]', '"ab"[True]', 'print("x")',
            'fail()', 'fail(1)', 'fail("a", "b")', 'fail("a", 1, None, sep="-")',
            'fail(x=1)', 'fail("a", [1, "b"])', 'fail(None)', 'fail("")',
            '[x for x in [1, 2] for y in [x] if y > 1]', '[x for x in "ab"]',
            '[x for x in {"a": 1}]', '[a + b for a, b in [(1, 2), (3, 4)]]',
            '[a for a, b in [(1, 2, 3)]]', '[a for a, b in [1]]', '[a for (a, b) in [[1, 2]]]',
            '[y for x in [1] for y in range(x)]', '{x: y for x, y in [("a", 1), ("a", 2)]}',
            '[x for x in 1]', '(lambda x, y=2: x + y)(1)', '(lambda x, y=2: x + y)(1, 2, 3)',
            '(lambda x: x)()', '(lambda x: x)(y=1)', '(lambda *a: a)(1, 2)',
            '(lambda **k: k)(a=1)', '(lambda x, *, y: y)(1, y=2)', '(lambda x, *, y: y)(1)',
            '(lambda x: x)(1, x=2)', '(lambda: 1)(*[1])', '(lambda a, b: a)(*[1], **{"b": 2})',
            '(lambda: 1)(**{1: 2})', 'len(*[1, 2])', 'len(**{"x": 1})', 'str(x=1)',
            '"a".upper(1)', '"a".split(sep=",")', '"a".split(maxsplit=1)',
            '"a b".split(None, maxsplit=1)', '"a".replace("a", "b", count=1)',
            '[1].index(x=1)', 'sorted([1], lambda x: x)', 'sorted(iterable=[1])',
            '(1 if True else 2)', '[1, 2, 3][1:2] == [2]', '"abc"[-1:-4:-1]',
            'None.x', '1 .real', '[].foo', '{}.foo', '"a".foo', 'len.foo', '(lambda: 1).foo',
            'True.foo', '(1,).foo', 'range(1).foo', 'None()', '1()', '"a"()', '[1]()',
            'None[0]', '1[0]', '{}[[]]', '[1]["a"]', '(1,)[None]', '[1, 2][1.5]',
            '"ab"[0] == "a"', 'type(type(1))', 'str(type)', 'repr(str)', 'repr(dir)',
            'repr([len, repr])']
    return out


def module_exprs():
    out = []
    loads = {'json', 'yaml', 'base64', 'url', 'md5', 'sha256', 'regexp', 'math', 'struct',
             'assert', 'data'}
    out += ['json.encode({"b": 1, "a": [1.5, None, True]})', 'json.encode(1e21)',
            'json.encode(float("nan"))', 'json.encode(1 << 70)', 'json.encode("é<>&")',
            'json.encode(("a",))', 'json.encode({1: 2})', 'json.encode(len)',
            'json.encode(struct.make(a=1))', 'json.decode("1e400")', 'json.decode("1.0")',
            'json.decode("[1, 2.5, \\"x\\", null, {\\"a\\": {}}]")', 'json.decode("12345678901234567890")',
            'json.decode("")', 'json.decode("[1,]")', 'json.decode("{\\"a\\":1,\\"a\\":2}")',
            'json.decode("\\"\\\\ud800\\"")', 'json.encode({"a": 1}, indent=2)',
            'yaml.encode({"b": [1, {"c": None}], "a": "x: y"})', 'yaml.encode([])',
            'yaml.encode("1.0")', 'yaml.encode(1.0)', 'yaml.encode(1e21)', 'yaml.encode("")',
            'yaml.encode("yes")', 'yaml.encode("multi\\nline")', 'yaml.encode(struct.make(a=1))',
            'yaml.decode("a: 1\\nb: [1, 2.0]")', 'yaml.decode("yes")', 'yaml.decode("0x10")',
            'yaml.decode("1_000")', 'yaml.decode("~")', 'yaml.decode("- a\\n- b")',
            'yaml.decode("a: [")', 'yaml.decode("")', 'yaml.decode("0o17")', 'yaml.decode(".inf")',
            'yaml.decode("1e3")', 'yaml.decode("2001-12-14")', 'yaml.decode("\\"\\\\u00e9\\"")',
            'base64.encode("héllo")', 'base64.decode("aGk=")', 'base64.decode("aGk")',
            'base64.decode("!!")', 'base64.encode("hi", url=True)', 'base64.encode("\\xff\\xfe", url=True)',
            'base64.encode("ab", raw=True)', 'base64.encode("ab", strict=True)',
            'url.encode("a b&c=d/é")', 'url.decode("a%20b+c")', 'url.decode("%zz")',
            'url.query_params_encode({"b": ["1", "2"], "a": ["x y"]})',
            'url.query_params_decode("a=1&b=2&a=3")', 'url.query_params_decode("a=%zz")',
            'md5.sum("abc")', 'sha256.sum("abc")', 'md5.sum(1)', 'sha256.sum("é")',
            'regexp.match("^a+$", "aaa")', 'regexp.match("(", "a")', 'regexp.match("a", 1)',
            'regexp.replace("a(b)", "xabyab", "<$1>")', 'regexp.replace("a", "aaa", "b")',
            'regexp.replace("(?i)A", "aAa", "x")', 'regexp.match("\\\\d+", "x12")',
            'regexp.replace("a", "aaa", lambda m: m.upper())', 'regexp.match("(?P<n>a)", "a")',
            'regexp.match("a{2,}", "aa")', 'regexp.match("\\\\bfoo\\\\b", "a foo b")',
            'regexp.replace("(\\\\w+)", "ab cd", "${1}x")', 'regexp.replace("x*", "abc", "-")',
            'math.floor(2.5)', 'math.ceil(-2.5)', 'math.round(2.5)', 'math.round(-2.5)',
            'math.sqrt(2)', 'math.pow(2, 0.5)', 'math.log(0)', 'math.log(-1)', 'math.fabs(-1)',
            'math.mod(7, -3)', 'math.remainder(7, 3)', 'math.pi', 'math.e', 'math.inf',
            'math.floor("a")', 'math.exp(1000)', 'math.trunc(-2.7)', 'math.abs(-3)',
            'math.copysign(1, -0.0)', 'math.degrees(math.pi)', 'math.hypot(3, 4)',
            'math.atan2(1, 1)', 'math.gamma(0.5)' if False else 'math.sin(0)',
            'struct.make(a=1, b="x")', 'struct.make(a=1).a', 'struct.make(a=1).b',
            'struct.encode(struct.make(a=struct.make(b=[1])))', 'struct.decode({"a": {"b": 1}}).a.b',
            'dir(struct.make(b=1, a=2))', 'hasattr(struct.make(a=1), "a")',
            'getattr(struct.make(a=1), "a")', 'struct.make(a=1) == struct.make(a=1)',
            'type(struct.make())', 'str(struct.make(a=[1]))', 'struct.make(a=1) < struct.make(a=2)',
            'struct.make(1)', 'struct.make_and_bind(struct.make(), f=lambda s: s)',
            'assert.fail("boom")', 'assert.fail("a %s" % 1)', 'assert.fail(1)',
            'assert.equals(1, 1)', 'assert.equals(1, 2)', 'assert.equals([1], [1.0])',
            'assert.equals({"a": 1}, {"a": "1"})', 'assert.try_to(lambda: 1 // 0)',
            'assert.try_to(lambda: 1)', 'assert.try_to(lambda: fail("x"))',
            'assert.min(1).check(0)', 'assert.max_len(1).check("ab")',
            'assert.one_of([1, 2]).check(3)', 'assert.not_null().check(None)',
            'assert.min_len(2).check([1])', 'assert.format(1)' if False else 'assert.max(2.5).check(3)']
    return loads, out


def template_exprs():
    """(name, template body lines): errors inside a `def` called from template code."""
    return [
        ('frozen-global', ['#@ L = [1]', '#@ def f():', '#@   L.append(2)', '#@   return L',
                           '#@ end', 'v: #@ f()']),
        ('frozen-dict', ['#@ D = {"a": 1}', '#@ def f():', '#@   D["b"] = 2', '#@   return D',
                         '#@ end', 'v: #@ f()']),
        ('mutate-while-iterating', ['#@ def f():', '#@   l = [1, 2]', '#@   for x in l:',
                                    '#@     l.append(x)', '#@   end', '#@   return l',
                                    '#@ end', 'v: #@ f()']),
        ('dict-mutate-while-iterating', ['#@ def f():', '#@   d = {"a": 1}', '#@   for k in d:',
                                         '#@     d["b"] = 2', '#@   end', '#@   return d',
                                         '#@ end', 'v: #@ f()']),
        ('recursion', ['#@ def f(n):', '#@   return f(n)', '#@ end', 'v: #@ f(1)']),
        ('local-before-assign', ['#@ def f():', '#@   x = y', '#@   y = 1', '#@   return x',
                                 '#@ end', 'v: #@ f()']),
        ('global-reassign', ['#@ x = 1', '#@ x = 2', 'v: #@ x']),
        ('comprehension-scope', ['#@ x = 5', '#@ l = [x for x in [1, 2]]', 'v: #@ [x, l]']),
        ('for-at-toplevel', ['#@ t = 0', '#@ for i in range(3):', '#@   t += i', '#@ end',
                             'v: #@ t']),
        ('augmented-list', ['#@ def f():', '#@   l = [1]', '#@   l += (2,)', '#@   return l',
                            '#@ end', 'v: #@ f()']),
        ('augmented-list-str', ['#@ def f():', '#@   l = [1]', '#@   l += "ab"', '#@   return l',
                                '#@ end', 'v: #@ f()']),
        ('while', ['#@ def f():', '#@   while True:', '#@     break', '#@   end', '#@   return 1',
                   '#@ end', 'v: #@ f()']),
        ('if-expression-chain', ['v: #@ 1 if False else 2 if False else 3']),
        ('unpack-error', ['#@ def f():', '#@   a, b = [1, 2, 3]', '#@   return a', '#@ end',
                          'v: #@ f()']),
        ('unpack-error-few', ['#@ def f():', '#@   a, b, c = [1, 2]', '#@   return a', '#@ end',
                              'v: #@ f()']),
        ('unpack-non-iterable', ['#@ def f():', '#@   a, b = 1', '#@   return a', '#@ end',
                                 'v: #@ f()']),
        ('return-none', ['#@ def f():', '#@   pass', '#@ end', 'v: #@ f()']),
        ('float-key', ['v: #@ {1.5: 2}']),
        ('int-key', ['v: #@ {1: 2, "1": 3}']),
        ('big-int-value', ['v: #@ 1 << 70']),
        ('nan-value', ['v: #@ float("nan")']),
        ('inf-value', ['v: #@ float("-inf")']),
        ('tuple-value', ['v: #@ (1, "a")']),
        ('range-value', ['v: #@ range(3)']),
        ('function-value', ['v: #@ len']),
        ('set-value', ['v: #@ set([1])']),
        ('struct-value', ['#@ load("@ytt:struct", "struct")', 'v: #@ struct.make(a=1, b=[2])']),
        ('nested-struct-value', ['#@ load("@ytt:struct", "struct")',
                                 'v: #@ {"x": struct.make(a=struct.make(b=1))}']),
        ('fail-in-def', ['#@ def f():', '#@   fail("no", 1)', '#@ end', 'v: #@ f()']),
        ('assert-fail-in-def', ['#@ load("@ytt:assert", "assert")', '#@ def f():',
                                '#@   assert.fail("no")', '#@ end', 'v: #@ f()']),
        ('string-methods-chain', ['v: #@ " A,B ".strip().lower().split(",")']),
        ('print', ['#@ print("hello", 1)', 'v: 1']),
        ('load-unknown-symbol', ['#@ load("@ytt:math", "nope")', 'v: 1']),
        ('dict-dup-literal', ['v: #@ {"a": 1, "a": 2}']),
        ('keys-order', ['#@ d = {"b": 1, "a": 2}', '#@ d.pop("b")', '#@ d["b"] = 3', 'v: #@ d']),
        ('lambda-in-list', ['v: #@ [(lambda: 1)()]']),
        ('nested-def', ['#@ def f():', '#@   def g():', '#@     return 2', '#@   end',
                        '#@   return g()', '#@ end', 'v: #@ f()']),
        ('closure', ['#@ def f(x):', '#@   return lambda: x + 1', '#@ end', 'v: #@ f(1)()']),
        ('string-float-key', ['v: #@ {"a": 1.0, "b": 1e21, "c": -0.0, "d": 1e-7}']),
    ]


# Values a rule gets (`v`), in YAML, and expressions over them.
VALUES = ['"abc"', '"Hello World"', '"a,b,c"', '" x "', '"10"', '"1.5"', '"http://x.io/a?b=c"',
          '42', '-7', '0', '3.75', '-0.5', '1e3', 'true', 'null', '""',
          '[1, 2, 3]', '["b", "a", "c"]', '[]', '[{name: a, port: 80}, {name: b}]', '[1, "a", null]',
          '{a: 1, b: [2, 3]}', '{}', '{name: x, labels: {k: v}}', '{"1": one, "2": two}']
VALUE_EXPRS = [
    'v', 'str(v)', 'type(v)', 'len(v)', 'bool(v)', 'not v', 'v == v', 'v != None', 'v == 42',
    'v == "abc"', 'v == [1, 2, 3]', 'v == {"a": 1}', 'v < 10', 'v > "a"', 'v + 1', 'v + "x"',
    'v + [1]', 'v * 2', 'v % 7', 'v // 2', 'v / 2', '-v', 'int(v)', 'float(v)', 'hash(v)',
    '"x" in v', '1 in v', '"a" in v', '"name" in v', 'v[0]', 'v[-1]', 'v[1:]', 'v[::-1]',
    'v["a"]', 'v["name"]', 'v[0]["name"]', 'v[0].name', 'v.a', 'v.name', 'list(v)', 'tuple(v)',
    'sorted(v)', 'reversed(v)', 'enumerate(v)', 'dict(v)', 'set(v)', 'any(v)', 'all(v)',
    'max(v)', 'min(v)', '[x for x in v]', '{x: 1 for x in v}', 'v.keys()', 'v.values()',
    'v.items()', 'v.get("a")', 'v.get("zz", 0)', 'v.append(1)', 'v.pop()', 'v.index(1)',
    'v.split(",")', 'v.upper()', 'v.startswith("h")', 'v.format(1)', 'v.isdigit()',
    'v.strip()', '"%s" % v', '"%d" % v', '"{}".format(v)', '",".join(v)', 'json.encode(v)',
    'yaml.encode(v)', 'struct.encode(v)', 'struct.decode(v)', 'dir(v)', 'hasattr(v, "a")',
    'getattr(v, "a", None)', '[p.name for p in v]', '[p["name"] for p in v]',
    '[p.get("port", 0) for p in v]', 'sorted(v, key=lambda p: p["name"])', 'v or "d"',
    'v and 1', 'v if v else 0', 'regexp.match("^h", v)', 'url.query_param_value_encode(v)',
    'base64.encode(v)', 'math.floor(v)', 'assert.min(1).check(v)', 'assert.one_of(["abc"]).check(v)',
    'assert.max_len(2).check(v)', 'assert.min_len(1).check(v)', 'assert.not_null().check(v)',
    'assert.equals(v, v)', 'assert.try_to(lambda: v + 1)', 'v.keys()[0]', 'list(v.items())[0]',
    'len(v.keys())', 'v.items()[0][1]', 'sorted(v.keys())', '{k: v for k, v in v.items()}',
]


def value_cases():
    """(yaml value, expression) pairs: every expression over every value."""
    return [(val, e) for val in VALUES for e in VALUE_EXPRS]


def value_schema(loads, pairs):
    lines = ['#@ load("@ytt:%s", "%s")' % (m, m) for m in sorted(loads)]
    lines += ['#@data/values-schema', '---']
    for i, (val, e) in enumerate(pairs):
        lines.append('#@schema/type any=True')
        lines.append('#@schema/validation ("e%03d", lambda v: fail(repr(%s)))' % (i, e))
        lines.append('e%03d: %s' % (i, val))
    return '\n'.join(lines) + '\n'


def expressions():
    loads, mods = module_exprs()
    exprs = string_exprs() + number_exprs() + collection_exprs() + mods
    seen, out = set(), []
    for e in exprs:
        if e not in seen:
            seen.add(e)
            out.append(e)
    return loads, out


def schema(loads, exprs):
    lines = ['#@ load("@ytt:%s", "%s")' % (m, m) for m in sorted(loads)]
    lines += ['#@data/values-schema', '---']
    for i, e in enumerate(exprs):
        lines.append('#@schema/validation ("e%03d", lambda v: fail(repr(%s)))' % (i, e))
        lines.append('e%03d: 1' % i)
    return '\n'.join(lines) + '\n'


def run(binary, d, args):
    p = subprocess.run(binary + args, cwd=d, stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=60)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), \
        re.sub(r'(?m)^ytt: ', 'schemac: ', p.stderr.decode('utf-8', 'replace'))


def found(stderr):
    """key -> its `found:` text (all lines of the key's block)."""
    blocks, key = {}, None
    for ln in stderr.split('\n'):
        m = re.match(r'^  (e\d{3})$', ln)
        if m:
            key = m.group(1)
            blocks[key] = []
        elif key:
            blocks[key].append(ln)
    out = {}
    for k, v in blocks.items():
        text = '\n'.join(v).strip()
        out[k] = text.split('found: ', 1)[1] if 'found: ' in text else text
    return out


def compare(ytt, schemac, work, name, loads, exprs):
    """Differences of a batch: `exprs` are expressions, or (value, expression) pairs."""
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'schema.yml'), 'w', encoding='utf-8') as fh:
        pairs = exprs and isinstance(exprs[0], tuple)
        fh.write(value_schema(loads, exprs) if pairs else schema(loads, exprs))
    y = run([ytt], d, ['-f', 'schema.yml', '--data-values-inspect'])
    s = run([schemac, 'check'], d, ['-f', 'schema.yml'])
    if y == s:
        return []
    fy, fs = found(y[2]), found(s[2])
    if len(exprs) > 1 and (len(fy) != len(exprs) or len(fs) != len(exprs)):
        # a failure of the whole file on one side: one expression a file
        out = []
        for i, e in enumerate(exprs):
            out += compare(ytt, schemac, work, '%s-%d' % (name, i), loads, [e])
        return out
    if len(exprs) == 1 and (len(fy) != 1 or len(fs) != 1):
        return [(exprs[0], y, s)]
    return [(e, fy.get('e%03d' % i), fs.get('e%03d' % i)) for i, e in enumerate(exprs)
            if fy.get('e%03d' % i) != fs.get('e%03d' % i)]


def compare_template(ytt, schemac, work, name, body):
    d = os.path.join(work, 'tpl-' + name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'values.yml'), 'w', encoding='utf-8') as fh:
        fh.write('\n'.join(body[:-1] + ['#@data/values', '---', body[-1]]) + '\n'
                 if not body[-1].startswith('#@') else '\n'.join(body) + '\n')
    y = run([ytt], d, ['-f', 'values.yml', '--data-values-inspect'])
    s = run([schemac, 'check'], d, ['-f', 'values.yml'])
    return [] if y == s else [(name, y, s)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--schemac', default=os.path.join(
        os.environ.get('CARGO_TARGET_DIR', os.path.join(ROOT, 'target')), 'release', 'schemac'))
    ap.add_argument('--ytt', default=os.path.join(os.path.dirname(ROOT), 'shared', 'oracle', 'ytt'))
    ap.add_argument('--work', default='/tmp/ytt-diff-builtins')
    ap.add_argument('--batch', type=int, default=60)
    ap.add_argument('--only', default=None)
    ap.add_argument('--list', action='store_true')
    ap.add_argument('--verbose', action='store_true')
    a = ap.parse_args()
    loads, exprs = expressions()
    exprs += value_cases()
    templates = template_exprs()
    if a.only:
        exprs = [e for e in exprs if a.only in str(e)]
        templates = [t for t in templates if a.only in t[0]]
    if a.list:
        print('\n'.join(map(str, exprs)))
        return
    if not os.path.exists(a.ytt):
        print('starlark_builtins: no oracle at %s: skipped' % a.ytt)
        return
    shutil.rmtree(a.work, ignore_errors=True)
    diffs = []
    for n in range(0, len(exprs), a.batch):
        diffs += compare(a.ytt, a.schemac, a.work, 'b%04d' % n, loads, exprs[n:n + a.batch])
    tdiffs = []
    for name, body in templates:
        tdiffs += compare_template(a.ytt, a.schemac, a.work, name, body)
    for e, y, s in diffs:
        print('EXPR %s\n  ytt:     %s\n  schemac: %s' % (e, y, s))
    for name, y, s in tdiffs:
        print('TEMPLATE %s\n  ytt:     %r\n  schemac: %r' % (name, y, s))
    print('expressions: %d, differ: %d; templates: %d, differ: %d'
          % (len(exprs), len(diffs), len(templates), len(tdiffs)))
    sys.exit(1 if diffs or tdiffs else 0)


if __name__ == '__main__':
    main()
