#!/usr/bin/env python3
"""Records what ytt prints for data values that are hard to write back: strings that read as
something else in YAML 1.1 or 1.2, integers beyond 64 bits, floats without a JSON form.

    tests/record-output-cases.py [path/to/ytt]   (default: ../shared/oracle/ytt)

writes tests/fixtures/output/cases.json, which tests/tests/output.rs replays through
`schemac check`. Never edit that file by hand: change the candidates here and run this again.
"""
import itertools
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
YTT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "shared", "oracle", "ytt")
OUT = os.path.join(HERE, "fixtures", "output", "cases.json")

SCHEMAS = {
    "string": '#@data/values-schema\n---\nx: ""\n',
    "int": "#@data/values-schema\n---\nx: 0\n",
    "float": "#@data/values-schema\n---\nx: 0.0\n",
    "any": "#@data/values-schema\n---\n#@schema/type any=True\nx: 0\n",
}


def cased(*words):
    """Each word as written, in lower case, upper case, capitalised and with its case flipped."""
    out = []
    for w in words:
        out += [w, w.lower(), w.upper(), w.capitalize(), w.swapcase()]
    return out


def signed(*bodies):
    return [s + b for b in bodies for s in ("", "+", "-")]


NULLS_AND_BOOLS = cased("null", "true", "false", "yes", "no", "on", "off", "y", "n") + ["~", "", " ", "~~", "nil", "None"]
INTS = signed(
    "0", "00", "1", "7", "007", "08", "09", "010", "0o17", "0O17", "0o8", "0o", "0x1F", "0X1F", "0x1f", "0xG", "0x",
    "0b101", "0B101", "0b2", "0b", "1_000", "_1000", "1000_", "1__000", "0x_1F", "0b_101", "0_7", "1,000",
    "9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616",
    "99999999999999999999999", "0x7FFFFFFFFFFFFFFF", "0x8000000000000000", "0xFFFFFFFFFFFFFFFF",
    "0x10000000000000000", "0o1777777777777777777777", "01777777777777777777777", "0b" + "1" * 64,
)
SEXAGESIMAL = signed("1:20", "190:20:30", "1:60", "1:20.5", "190:20:30.15", "1:2", "1:02", "1::2", "1:2:", ":1", "1:a", "1_0:20", "0:0")
FLOATS = signed(
    "1.0", "1.", "0.", ".5", "0.5", "1e3", "1E3", "1e+3", "1e-3", "1.5e3", "1.5e+3", "1.e3", ".e3", "1e", "e3",
    "1e400", "1e-400", "1e308", "6.8523015e+5", "685.230_15e+03", "685_230.15", "1_000.5", "0.1_0", "1._5",
    "._5", ".5_", "1.2.3", "1e3.5", "1e+", "1.5E-2", "0.", "00.5", "1e03", "1e0_3",
) + cased(".inf", ".nan", "inf", "nan", "infinity") + signed(".inf", ".Inf", ".INF", ".nan", "Infinity", "inf") + ["."]
TIMESTAMPS = [
    "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2001-12-15T02:59:43.1Z",
    "2001-12-15 2:59:43.10", "2001-1-1", "2001-01-1", "2001-02-30", "2000-02-29", "1900-02-29", "2001-12-14T21:59:43",
    "2001-12-14 21:59:43", "2001-12-14T21:59:43+05", "2001-12-14T21:59:43+05:00", "2001-12-14T25:00:00Z",
    "2001-12-14T21:59:43.5Z", "2001-12-14T21:59:43Z", "2001-12-14t21:59:43z", "2001-12-14  21:59:43", "2001-13-01",
    "2001-12-14T21:59", "2001-12-14T21:59:43+24:00", "2001-12-14T21:59:43+23:60", "2001-12-14T21:59:43,5Z",
    "2001-12-14T21:59:43.Z", "12001-12-14", "2001-12-14 ", "2001-12-14T21:59:43 Z", "2001-12-14 21:59:43 +05:00",
    "2001-12-14 21:59:43.10", "2001-12-14T1:2:3Z", "2001-12-14t01:02:03-01:00", "99-12-14", "2001/12/14",
]
OTHERS = [
    "<<", "=", "-", "--", "---", "...", "?", ":", "- a", "? a", ": a", "a:", "a: b", "a :b", "#", "a #b", "a#b",
    "!", "!!str", "&a", "*a", "|", ">", "%", "@", "`", "'", '"', "[", "]", "{", "}", ",", "a,b", "[a]", "{a: b}",
    " a", "a ", "\ta", "a\t", "a\nb", "a\n", "\n", "é", "\U0001F600", "\u00a0", "\ufeffa", "a\u2028b", "\u0085",
    "0x1F ", " 1", "1 ", "1\n", "+", "-.", "+.", "1-2", "1+1", "12:30", "12:30:00", "1h30m", "1.5Gi", "v1.2.3",
    "1.2.3.4", "::1", "-1-", "0e0", "0e", "1_", "_", "__", "0x_", "0b_", "0o_", "+_1", "-_1", "1 2", "yes no", "on_",
    "<", ">", "&", "<a&b>", "\x01", "\x7f", "\x08", "\x0c", "\r", "a\r\nb", "\\", '"q"', "a\u2029", "\x1b[0m",
]
STRINGS = list(dict.fromkeys(NULLS_AND_BOOLS + INTS + SEXAGESIMAL + FLOATS + TIMESTAMPS + OTHERS))

NUMBERS = list(dict.fromkeys([
    "9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616",
    "-9223372036854775808", "-9223372036854775809", "99999999999999999999999", "0x8000000000000000",
    "0xFFFFFFFFFFFFFFFF", "-0x8000000000000001", "0x10000000000000000", "0o1777777777777777777777",
    "01777777777777777777777", "0b" + "1" * 64, "-0b" + "1" * 63, "1_8446_7440_7370_9551_615",
    ".inf", "-.inf", "+.inf", ".nan", "1e400", "-1e400", "1e-400", "1e308", "1.7976931348623157e308", "5e-324",
    "1e21", "1e20", "1e-7", "1e-6", "0.1", "-0.0", "123456789.123", "1.0", "1e3", "1e+3", "1.5e-2",
]))


def run(schema, flag, value, output):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "schema.yml")
        with open(path, "w") as f:
            f.write(SCHEMAS[schema])
        p = subprocess.run(
            [YTT, "-f", path, flag, "x=" + value, "--data-values-inspect", "-o", output],
            capture_output=True, text=True,
        )
    return {"schema": schema, "flag": flag, "value": value, "output": output, "status": p.returncode, "stdout": p.stdout}


def main():
    cases = []
    for value, output in itertools.product(STRINGS, ("yaml", "json")):
        cases.append(run("string", "--data-value", value, output))
    for schema, value, output in itertools.product(("int", "float", "any"), NUMBERS, ("yaml", "json")):
        cases.append(run(schema, "--data-value-yaml", value, output))
    lines = [json.dumps(c, ensure_ascii=False) for c in cases]
    with open(OUT, "w") as f:
        f.write('{"schemas": ' + json.dumps(SCHEMAS) + ',\n"cases": [\n' + ",\n".join(lines) + "\n]}\n")
    print(f"{len(cases)} cases written to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
