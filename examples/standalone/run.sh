#!/usr/bin/env bash
# Builds this package's validator with `schemac build` and runs it on good and bad values.
# Usage: examples/standalone/run.sh [path/to/schemac]   (default: target/release/schemac)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
schemac=$(realpath "${1:-$here/../../target/release/schemac}")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$here"
"$schemac" build schema.yml -o "$out/harbor-values"
echo "--- what it was built from"
"$out/harbor-values" --version
echo "--- good-values.yml"
"$out/harbor-values" -f good-values.yml
echo "--- bad-values.yml (must fail)"
if "$out/harbor-values" -f bad-values.yml; then
  echo "bad-values.yml was accepted" >&2
  exit 1
fi
echo "--- the validator agrees with schemac check"
diff <("$out/harbor-values" -f bad-values.yml 2>&1 || true) <("$schemac" check -f schema.yml -f bad-values.yml 2>&1 || true)
echo "--- built again: a cache hit, the same bytes"
mkdir "$out/again"
"$schemac" build schema.yml -o "$out/again/harbor-values" 2>&1 | grep 'compile: cache hit'
cmp "$out/harbor-values" "$out/again/harbor-values"
echo "standalone example: ok"
