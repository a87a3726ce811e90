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

# One folder of uniquely named copies: swiftc -parse refuses two files of one name in one invocation.
mkdir "$work/corpus"
n=0
while read -r file; do
    n=$((n + 1))
    cp "$file" "$work/corpus/$(printf '%04d' "$n")-$(basename "$file")"
done < <(find Sources Tests -name '*.swift' | sort)
lines=$(cat "$work"/corpus/*.swift | wc -l)
echo "corpus: $n files, $lines lines of Swift" >&2
# From the corpus's folder, so no configuration file leaves anything out; findings go to /dev/null.
hyperfine --warmup 1 --runs "$runs" -i --export-markdown "$work/lint.md" \
    -n "coffer-lint ($lines lines)" "cd $work/corpus && $bin/coffer-lint *.swift > /dev/null" \
    -n "swiftc -parse ($lines lines)" "cd $work/corpus && swiftc -parse *.swift > /dev/null" >&2
cat "$work/lint.md"
