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
        '"ǅx"', '"Ab Cd"', '"a1 B2"',
        # Bytes that are not UTF-8 (starlark-go's strings are bytes; twenty-eighth session).
        '"a\\xffb c\\xfe"']
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
             'assert', 'data', 'ip'}
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


def rule_idiom_exprs():
    """What custom rules write: formatting, slicing, sorting, conversions of odd text, module
    calls with their options and odd values."""
    out = []
    for v in ['1', '-1', '255', '3.14159', '-0.5', '1e21', '"x"', 'True', 'None', '[1]',
              '(1, 2)', '{"a": 1}', '(1 << 70)', 'float("inf")']:
        for f in ['%s', '%d', '%r', '%x', '%X', '%o', '%e', '%f', '%g', '%5s', '%-5s|',
                  '%05d', '%+d', '%.2f', '%8.3f', '%-8.2e|', '%.0f', '%10r', '%.3s', '%c',
                  '%i', '%u', '% d', '%#x', '%*d']:
            out.append('"%s" %% (%s,)' % (f, v))
    out += ['"%s %s" % ("a",)', '"%s" % ("a", "b")', '"%(a)s" % {"a": 1}', '"%z" % 1',
            '"%" % 1', '"a%" % ()', '"%s" % ()', '"%d%%" % 50', '"%s" % {"a": 1}',
            '"%s-%s" % [1, 2]', '"%5.1f%%" % 99.55', '"%.1f" % 0.05', '"%.1f" % 0.25',
            '"%.2f" % 2.675', '"%g" % 100000', '"%g" % 1000000', '"%g" % 0.0001',
            '"%e" % 0', '"%x" % 3.0', '"%d" % True', '"%s" % True', '"%r" % None',
            '"%o" % -8', '"%X" % 255', '"%c" % 0x1F600', '"%c" % -1', '"%c" % "ab"',
            '"{}".format()', '"{0}{1}{0}".format("a", "b")', '"{a}-{b}".format(a=1, b=2)',
            '"{} {}".format(1)', '"{0} {}".format(1, 2)', '"{x}".format(1)', '"{{{}}}".format(1)',
            '"{".format(1)', '"}".format(1)', '"{0!s}".format(1.5)', '"{0!r}".format(1.5)',
            '"{0!x}".format(1)', '"{:d}".format(1)', '"{0:5}".format(1)', '"{a.b}".format(a=1)',
            '"{0[0]}".format([1])', '"{}".format(1e21)', '"{}".format(0.1)', '"{}".format(1.0)',
            '"{}".format([1.5, "a"])', '"{}".format((1,))', '"{}".format({"a": None})',
            '"{}".format(True)', '"{-1}".format(1)', '"{1}".format(1)', '"{ }".format(1)',
            '"{0}".format(*[7])', '"{k}".format(**{"k": 3})']
    for seq in ['"abcdef"', '[0, 1, 2, 3, 4, 5]', '(0, 1, 2, 3, 4, 5)', 'range(6)']:
        for sl in ['[::2]', '[1::2]', '[::-2]', '[-2:]', '[:-2]', '[-100:]', '[:100]', '[4:1]',
                   '[-1:-4:-1]', '[5:-7:-2]', '[2:2]', '[1:5:3]', '[::-1][::2]', '[-3:-1]',
                   '[None:None:None]', '[:None]', '[True:]', '[1.0:]', '[::1 << 70]']:
            out.append(seq + sl)
    out += ['sorted(["b", "A", "c"], key=lambda s: s.lower())', 'sorted([3, 1, 2], reverse=True)',
            'sorted([(2, "a"), (1, "b")], key=lambda p: p[1])', 'sorted({"b": 2, "a": 1})',
            'sorted([{"n": 2}, {"n": 1}], key=lambda d: d["n"])',
            'sorted(["aa", "b", "ccc"], key=len, reverse=True)', 'sorted([1, 1.5, 0])',
            'sorted([True, 0, 2])', 'sorted(["b", "a"], reverse=False)',
            'sorted([2, 1], key=lambda x: x, reverse=1 > 0)', 'sorted([[2], [1, 0]])',
            'sorted([1, 2], key=lambda x: "a" if x == 1 else 0)',
            'min([3, 1, 2], key=lambda x: -x)', 'max(["a", "bbb", "cc"], key=len)',
            'max([], key=len)', 'min("bca")', 'max(1, 2, key=lambda x: -x)',
            'max([{"a": 2}, {"a": 1}], key=lambda d: d["a"])', 'min(1)', 'min(None, 1)',
            'max([1, 2], key=None)', 'max(1, 2, 3)', 'min([1], [0])', 'max((1, 2), (1, 3))',
            'list(enumerate("ab"))', 'list(enumerate(["a", "b"], 10))', 'enumerate(["a"], -1)',
            'list(enumerate({"k": 1}))', 'enumerate()', 'list(zip())', 'list(zip([1, 2, 3], [4, 5]))',
            'zip([1], [2], [3])', 'list(zip(range(3), "ab".elems()))', 'zip({"a": 1}, [1])',
            'any([[], {}, 0, 1])', 'all(["a", 1, True])', 'any(range(0))', 'all(range(1, 3))',
            'any({"a": 0})', 'all({})', 'any(x > 2 for x in [1, 3])' if False else 'any([x > 2 for x in [1, 3]])',
            'all([x for x in []])', 'any(None)', 'all()', 'any([1], [2])']
    dict_ops = ['get("a")', 'get("z", [])', 'get("a", default=1)', 'pop("a")', 'pop("z", 0)',
                'pop("z")', 'pop()', 'setdefault("a", 9)', 'setdefault("n", [])', 'setdefault()',
                'update({"c": 3})', 'update(c=3)', 'update([["c", 3]])', 'update({"c": 3}, d=4)',
                'update(None)', 'update({}, {})', 'items()', 'keys()', 'values()', 'popitem()',
                'clear()', 'get()', 'keys(1)', 'copy()' if False else 'items()[0]']
    for d in ['{"a": 1, "b": 2}', '{}', '{1: [1], None: 2}']:
        for m in dict_ops:
            out.append('(lambda d: [d.%s, d])(%s)' % (m, d))
    list_ops = ['append(4)', 'append()', 'append(1, 2)', 'extend([4, 5])', 'extend(range(2))',
                'extend(("x",))', 'extend(None)', 'insert(0, 9)', 'insert(1.5, 9)',
                'insert(99, 9)', 'remove(2)', 'remove("2")', 'pop()', 'pop(0)', 'pop(-3)',
                'pop(3)', 'pop("0")', 'index(3)', 'index(9)', 'index(1, -1)', 'index(1, 0, 1)',
                'index(2, 5)', 'clear()', 'count(1)' if False else 'index(1, None)']
    for l in ['[1, 2, 3]', '[]', '["a", 1, None]']:
        for m in list_ops:
            out.append('(lambda l: [l.%s, l])(%s)' % (m, l))
    out += ['"héllo".elems()', 'list("héllo".codepoints())', '"ab".codepoint_ords()',
            'list("aé".codepoint_ords())', 'list("aé".elem_ords())', '"ab".elems()[1]',
            'len("aé".codepoints())', '"aé".codepoints()[1]', 'list("".elems())',
            '[c for c in "ab".elems()]', '"a" in "ab".elems()', '"ab".elems() == ["a", "b"]',
            'sorted("ba".elems())', '",".join("ab".elems())', 'reversed("ab".elems())',
            'list("abc".elems())[::-1]', 'list("😀".codepoints())', 'list("😀".elem_ords())',
            'hash("a") == hash("a")', 'hash(1) == hash(1)', 'hash("")', 'hash("héllo")',
            'hash(1.5)', 'hash(-1)', 'hash((1, "a"))', 'hash(struct.make(a=1))' if False else 'hash(len)',
            'type(struct.make())', 'type(assert.min(1))', 'type(1 << 70)', 'type(json)',
            'type(regexp.match)', 'type(range)', 'type("a".upper)', 'type(x for x in [])' if False else 'type({}.get)',
            'getattr("a", "upper")()', 'getattr([], "nope", "d")', 'getattr({}, "keys")()',
            'getattr(struct.make(a=1), "b", 2)', 'hasattr("", "elems")', 'hasattr(1, "x")',
            'hasattr(struct.make(a=None), "a")', 'hasattr(json, "encode")', 'dir(json)',
            'dir(struct)', 'dir(assert)', 'dir(regexp)', 'dir(base64)', 'dir(url)',
            'dir(math)' if False else 'dir(yaml)', 'getattr(json, "encode")([1])',
            'bool("False")', 'bool("0")', 'bool(0.0)', 'bool([0])', 'bool(struct.make())',
            'int("0x1f", 0)', 'int("1_000")', 'float("1e5")', 'int(" 3 ")', 'int("3 ")',
            'int("+3")', 'int(True)', 'int(False)', 'int(-0.0)', 'int(1e18)', 'int(-1e-9)',
            'int("١")', 'int("0b1", 2)', 'int("0o7", 8)', 'int("0x", 16)', 'int("1" * 50)',
            'float("1_000.5")', 'float("-0")', 'float("0.1e-2")', 'float(1 << 70)',
            'float(-(1 << 1023))', 'float("infinity")', 'float("-inf") < 0', 'float("  ")',
            'float("1.5.5")', 'float(False)', 'str(True)', 'str(None)', 'str(1e21)',
            'str(-1e-7)', 'str(1.0e16)', 'str([1, "a", None])', 'str(("a",))', 'str({"a": 1.5})',
            'str(struct.make(a=1))', 'str(range(3))', 'str(len)', 'str("a\\nb")', 'str(1 << 70)',
            'repr("a\\nb")', 'repr("\\t\\"")', 'repr(1 << 70)', 'repr(-0.0)']
    out += ['1 < "a"', '"a" < 1', '1 == "1"', '[1] == (1,)', 'None < 1', 'None == False',
            '0 == False', '1 == True', 'True < 2', '1.0 == 1', '[1, "a"] < [1, "b"]',
            '[1, "a"] < [1, 2]', '(1, 2) < (1, 2, 0)', '{"a": 1} == {"a": 1.0}',
            '{"a": 1} < {"a": 2}', '"abc" < "abd"', '"Z" < "a"', '"é" > "z"', '"" < "a"',
            '[] < [[]]', 'range(2) < range(3)', 'struct.make() == None', 'len == len',
            '(lambda: 1) == (lambda: 1)', '1 != 1.0', '"a" != "a"', '[1] != [1]',
            '"ab" in "xaby"', '"" in "abc"', '"x" in ""', '"a" in ["a"]', '"a" in ("a",)',
            '["a"] in [["a"]]', '1 in {1: 2}', '2 in {1: 2}', '1.0 in {1: 2}', 'None in [None]',
            '"a" in {"a": 1}.keys()', '1 in {"a": 1}.values()', '("a", 1) in {"a": 1}.items()',
            '"a" not in []', '1 in range(0, 10, 3)', '9 in range(0, 10, 3)', '"a" in "ABC".lower()']
    out += ['9223372036854775807 + 9223372036854775807', '-9223372036854775808 * -1',
            '(1 << 100) // (1 << 50)', '(1 << 100) % 7', '-(1 << 100) % 7', '(1 << 64) - 1',
            '2 ** 64' if False else 'int("18446744073709551616") + 1', '(1 << 200) / (1 << 100)',
            '(1 << 1000) / 3', '1 / (1 << 1100)', 'float(1 << 1024)', '(1 << 1100) * 1.0',
            '(1 << 1100) > 1e308', '(1 << 70) == 1180591620717411303424', 'abs(-(1 << 70))',
            '-7 // 2', '-7 % 2', '7 // -2', '7 % -2', '-7 // -2', '-7 % -2', '-7.0 // 2',
            '-7.0 % 2', '7.5 // -2', '7.5 % 2', '-0.0 % 5', '5 % -0.5', '-1 // 3', '-1 % 3',
            '1 % 0', '1 // 0', '1 / 0', '1.0 % 0', '1.0 // 0.0', '0 % 0.0', '-1 // 0.0',
            '"%d" % 0 if False else 5 % 5', '7 / 2', '-7 / 2', '6 / 3', '1 / 3 * 3',
            '10 // 3.0', '2 ** 10' if False else '1e308 + 1e308', '-1e308 - 1e308',
            '(1e308 * 10) - (1e308 * 10)', '0.1 * 3', '1.1 + 2.2', '100 * 1.1']
    out += ['"ab" * 0', '"ab" * -5', '[1] * -1', '(1,) * 0', '"ab" * 3', '3 * [0]',
            '"x" * (1 << 70)', '[0] * (1 << 70)', '"x" * (1 << 40)', '[None] * (1 << 40)',
            '"ab" * 1.0', '"ab" * None', '[1] * "a"']
    out += ['struct.encode(struct.make(a=[struct.make(b=1)]))', 'struct.decode({"a": [{"b": 1}]}).a[0].b',
            'struct.decode([1, {"a": 2}])', 'struct.decode("x")', 'struct.decode({1: 2})',
            'struct.encode({"a": struct.make(b=None)})', 'struct.encode(1)',
            'struct.make(a=1, b=struct.make(c=2)).b.c', 'struct.make(**{"a": 1}).a',
            'struct.make(a=1).a + 1', 'struct.make()', 'struct.make(a=1)["a"]',
            'struct.make_and_bind(struct.make(x=1), get=lambda s: s.x).get()',
            'struct.make(a=lambda: 1).a()', 'len(struct.make(a=1))', 'list(struct.make(a=1))',
            'assert.try_to(lambda: int("x"))', 'assert.try_to(lambda: [1][5])',
            'assert.try_to(lambda: {"a": 1}["b"])', 'assert.try_to(lambda: None)',
            'assert.try_to(1)', 'assert.try_to(lambda x: x)', 'assert.equals("a", "a")',
            'assert.equals(None, None)', 'assert.equals(1, 1.0)', 'assert.equals([1, 2], [2, 1])',
            'assert.equals({"a": [1]}, {"a": [1]})', 'assert.equals(struct.make(a=1), struct.make(a=1))',
            'assert.equals()', 'assert.fail()', 'assert.fail("a", "b")', 'assert.fail("x %s" % [1])',
            'assert.min(2).check(1)', 'assert.min(2).check(2)', 'assert.min(2).check("a")',
            'assert.min("b").check("a")', 'assert.max(2).check(3.5)', 'assert.max(2).check(2)',
            'assert.min_len(2).check("ab")', 'assert.min_len(2).check({"a": 1})',
            'assert.min_len(2).check(1)', 'assert.max_len(1).check([1, 2])',
            'assert.max_len(1).check(None)', 'assert.one_of(["a", "b"]).check("c")',
            'assert.one_of("a", "b").check("a")', 'assert.one_of([1, 2]).check(1.0)',
            'assert.one_of([]).check(1)', 'assert.one_of(1).check(1)',
            'assert.not_null().check(0)', 'assert.not_null(1).check(None)', 'assert.not_null(None)',
            'assert.min(1)', 'assert.max_len(1)', 'assert.min_len("a").check("ab")',
            'assert.max(None).check(1)', 'assert.min(1).check(None)', 'assert.min(1).check(True)']
    out += ['regexp.match("^[a-z]+$", "abc")', 'regexp.match("^[a-z]+$", "aBc")',
            'regexp.match("(?i)^abc$", "ABC")', 'regexp.match("^\\\\d{3}-\\\\d{4}$", "555-1234")',
            'regexp.match("[", "a")', 'regexp.match("a", "")', 'regexp.match("", "")',
            'regexp.match("^(a|b)+$", "abba")', 'regexp.match("\\\\p{L}+", "é")',
            'regexp.match("(?P<x>a)(?P=x)", "aa")', 'regexp.match("a(?=b)", "ab")',
            'regexp.match("^.$", "é")', 'regexp.match("^\\\\w+$", "é")',
            'regexp.replace("(\\\\w+)@(\\\\w+)", "me@host", "$2 at $1")',
            'regexp.replace("(a)(b)?", "a", "[$2]")', 'regexp.replace("a", "aaa", "$0")',
            'regexp.replace("(?P<first>a)", "ab", "${first}!")', 'regexp.replace("a", "aaa", "$$")',
            'regexp.replace("\\\\s+", "a  b   c", " ")', 'regexp.replace("^", "ab", ">")',
            'regexp.replace("$", "ab", "<")', 'regexp.replace("b*", "abc", "-")',
            'regexp.replace("a", "aaa", lambda m: "<" + m + ">")', 'regexp.replace("a", "aaa", 1)',
            'regexp.replace("(", "a", "b")', 'regexp.replace("a", "bab", "$1")',
            'regexp.replace("a(b)", "ab", "$1x")', 'regexp.replace("a(b)", "ab", "${1}x")',
            'regexp.replace("é", "éa", "e")']
    out += ['json.encode({"a": 1}, indent=4)', 'json.encode([1, [2, {}]], indent=2)',
            'json.encode([], indent=2)', 'json.encode({}, indent=2)', 'json.encode(1, indent=2)',
            'json.encode({"a": 1}, indent=9)', 'json.encode({"a": 1}, indent=-1)',
            'json.encode({"a": 1}, indent="2")', 'json.encode("<&>")', 'json.encode("\\u2028")',
            'json.encode("\\x7f\\x01")', 'json.encode(1.0)', 'json.encode(-0.0)', 'json.encode(0.1)',
            'json.encode(1e-7)', 'json.encode(123456789.0)', 'json.encode(float("inf"))',
            'json.encode(None)', 'json.encode(True)', 'json.encode((1, 2))', 'json.encode(set([1]))',
            'json.encode({"b": 1, "a": 2})', 'json.encode(range(2))', 'json.encode(struct.make(a=[]))',
            'json.decode("{\\"b\\": 1, \\"a\\": 2}")', 'json.decode("true")', 'json.decode("null")',
            'json.decode("\\"x\\"")', 'json.decode("1.5e3")', 'json.decode("-0")', 'json.decode(" 1 ")',
            'json.decode("[1] x")', 'json.decode("{a: 1}")', 'json.decode("\'a\'")', 'json.decode(1)',
            'json.decode("NaN")', 'json.decode("1E2")', 'json.decode("\\"\\\\u00e9\\"")',
            'yaml.encode({"a": {"b": [1, 2]}})', 'yaml.encode([{"a": 1}, {"b": 2}])',
            'yaml.encode("a: b")', 'yaml.encode("- x")', 'yaml.encode("null")', 'yaml.encode("true")',
            'yaml.encode("123")', 'yaml.encode("1e3")', 'yaml.encode(" lead")', 'yaml.encode("trail ")',
            'yaml.encode("#c")', 'yaml.encode("a\\tb")', 'yaml.encode("é")', 'yaml.encode(None)',
            'yaml.encode(True)', 'yaml.encode(-0.0)', 'yaml.encode(0.1)', 'yaml.encode(1 << 62)',
            'yaml.encode(float("inf"))', 'yaml.encode(float("nan"))', 'yaml.encode((1,))',
            'yaml.encode({"a": []})', 'yaml.encode({"a": {}})', 'yaml.encode({1: 2})',
            'yaml.encode({"x": "multi\\nline\\n"})', 'yaml.encode("~")', 'yaml.encode("0o17")',
            'yaml.decode("a: 1\\na: 2")', 'yaml.decode("[1, 2")', 'yaml.decode("a: b: c")',
            'yaml.decode("--- 1\\n--- 2")', 'yaml.decode("!!str 1")', 'yaml.decode("&a 1")',
            'yaml.decode("a: &x 1\\nb: *x")', 'yaml.decode("? a\\n: 1")', 'yaml.decode("1: a")',
            'yaml.decode("null: a")', 'yaml.decode("True")', 'yaml.decode("off")', 'yaml.decode("+1")',
            'yaml.decode(".5")', 'yaml.decode("0b11")', 'yaml.decode("1:2")', 'yaml.decode("\\t")',
            'yaml.decode(1)', 'yaml.decode("|\\n  a\\n  b\\n")', 'yaml.decode("a: |-\\n  x\\n")',
            'base64.encode("")', 'base64.encode("a")', 'base64.encode("ab")', 'base64.encode("abc")',
            'base64.encode("a", url=True)', 'base64.encode("???", url=True)', 'base64.encode("a", raw=True)',
            'base64.encode("a", url=True, raw=True)', 'base64.encode(1)', 'base64.decode("YQ==")',
            'base64.decode("YQ")', 'base64.decode("YQ", raw=True)', 'base64.decode("Pz8_", url=True)',
            'base64.decode("Pz8/")', 'base64.decode("Y Q==")', 'base64.decode("YQ==\\n")',
            'base64.decode("YWJj", strict=True)', 'base64.decode("YR==", strict=True)', 'base64.decode(1)',
            'base64.decode("w6k=")', 'base64.decode("/w==")',
            'url.path_segment_encode("a b/c?d")', 'url.path_segment_decode("a%20b%2Fc")',
            'url.path_segment_decode("a+b")', 'url.path_segment_decode("%zz")',
            'url.query_param_value_encode("a b&c=d")', 'url.query_param_value_decode("a+b%26c")',
            'url.query_param_value_decode("%")', 'url.query_param_value_encode(1)',
            'url.query_params_encode({"a": ["1"], "b": []})', 'url.query_params_encode({"a": "1"})',
            'url.query_params_encode({})', 'url.query_params_encode({"é": ["ü"]})',
            'url.query_params_decode("")', 'url.query_params_decode("a")', 'url.query_params_decode("a=1;b=2")',
            'url.query_params_decode("a=1&a=2&b")', 'url.query_params_decode("%C3%A9=1")',
            'url.parse("https://u:p@h.io:8080/a/b?q=1#f").host', 'url.parse("http://x").path',
            'url.parse("://bad")', 'url.parse("https://h.io/a b").string()',
            'url.parse("https://u:p@h.io").user.name', 'url.parse("https://u:p@h.io").user.password',
            'url.parse("https://h.io").without_user().string()', 'url.parse("mailto:a@b").scheme' if False else 'url.parse("https://h.io/?a=1").query_params()',
            'ip.parse_addr("10.0.0.1").is_ipv4()', 'ip.parse_addr("::1").is_ipv6()',
            'ip.parse_addr("10.0.0.256")', 'ip.parse_addr("1.2.3.4").string()',
            'ip.parse_addr(" 1.2.3.4")', 'ip.parse_addr("fe80::1%eth0")', 'ip.parse_addr("::ffff:1.2.3.4").is_ipv4()',
            'ip.parse_addr("127.0.0.1").is_loopback()' if False else 'ip.parse_addr("1.2.3.4")',
            'ip.parse_cidr("10.0.0.0/8").addr.string()' if False else 'ip.parse_cidr("10.0.0.0/8").string()',
            'ip.parse_cidr("10.0.0.1/8").string()', 'ip.parse_cidr("10.0.0.0/33")', 'ip.parse_cidr("10.0.0.0")',
            'ip.parse_cidr("::/0").is_ipv6()', 'ip.parse_cidr("10.1.2.3/16").addr()' if False else 'ip.parse_cidr("2001:db8::/32").string()',
            'ip.parse_addr(1)', 'type(ip.parse_addr("1.2.3.4"))', 'dir(ip.parse_addr("1.2.3.4"))',
            'dir(ip.parse_cidr("1.2.3.0/24"))', 'ip.parse_addr("1.2.3.4") == ip.parse_addr("1.2.3.4")',
            'md5.sum("")', 'sha256.sum("")', 'md5.sum("é")', 'sha256.sum(1)',
            'math.floor(1.5)', 'math.ceil(1.2)', 'math.round(0.5)', 'math.sqrt(-1)', 'math.pow(0, -1)',
            'math.floor(1 << 70)', 'math.ceil(1e300)', 'math.log(math.e)', 'math.log10(1000)' if False else 'math.abs(-2.5)',
            'math.max' if False else 'math.fabs(-0.0)', 'math.mod(7.5, 2)', 'math.floor(None)']
    return out


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
    exprs = string_exprs() + number_exprs() + collection_exprs() + mods + rule_idiom_exprs()
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
    fy, fs = found(y[2]), found(s[2])
    # (a batch that fails as a whole alike on both sides, a parse error of one expression,
    # still has its other expressions to compare)
    if y == s and (len(exprs) == 1 or len(fy) == len(exprs)):
        return []
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
