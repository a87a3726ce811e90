#!/usr/bin/env bash
# Builds the benchmarks in release mode and writes BENCHMARKS.md. Usage: Benchmarks/run.sh [suite…]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --scratch-path .build-release --product CofferBenchmarks
binary="$(swift build -c release --scratch-path .build-release --show-bin-path)/CofferBenchmarks"
{
    echo "# Benchmarks"
    echo
    echo "Reproduce with \`Benchmarks/run.sh\` (a release build; medians of repeated rounds)."
    echo
    echo "- Date: $(date -u +%Y-%m-%d)"
    echo "- Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
    echo "- Swift: $(swift --version 2>&1 | head -1)"
    "$binary" "$@"
} > BENCHMARKS.md.new
mv BENCHMARKS.md.new BENCHMARKS.md
cat BENCHMARKS.md
