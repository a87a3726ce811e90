#!/usr/bin/env bash
# coffer-lint over about 100,000 lines of Swift (issue #40): this package's own Sources and Tests, beside
# `swiftc -parse` of the same files, in one hyperfine run (release build).
# Usage: Benchmarks/lint.sh [RUNS]   (installs hyperfine when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v hyperfine >/dev/null 2>&1; then apt-get update && apt-get install -y hyperfine; fi
runs="${1:-10}"
build=(swift build -c release --scratch-path .build-release --static-swift-stdlib --disable-local-rpath)
"${build[@]}" --product coffer-lint >&2
bin="$("${build[@]}" --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

find Sources Tests -name '*.swift' | sort > "$work/files"
files=$(wc -l < "$work/files")
lines=$(xargs cat < "$work/files" | wc -l)
echo "corpus: $files files, $lines lines of Swift" >&2
# From an empty folder, so no configuration file leaves anything out; findings go to /dev/null.
sed "s|^|$PWD/|" "$work/files" > "$work/abs"
hyperfine --warmup 1 --runs "$runs" -i --export-markdown "$work/lint.md" \
    -n "coffer-lint ($lines lines)" "cd $work && xargs $bin/coffer-lint < abs > /dev/null" \
    -n "swiftc -parse ($lines lines)" "cd $work && xargs swiftc -parse < abs > /dev/null" >&2
cat "$work/lint.md"
