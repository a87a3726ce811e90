#!/usr/bin/env bash
# Builds the benchmarks, cofferd and coffer in release mode and writes BENCHMARKS.md.
# Usage: Benchmarks/run.sh [--quick] [--sizes 1000,100000,1000000] [suite…]   (suites: apple, keystore, items, daemon, …)
#        Benchmarks/run.sh --apple [--quick]   Apple's calls beside SQLite alone (same process, same rows) and whole
#        processes beside `true` and secret-tool; prints its sections and leaves BENCHMARKS.md as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
build=(swift build -c release --scratch-path .build-release --static-swift-stdlib --disable-local-rpath)
products=(CofferBenchmarks cofferd coffer git-credential-coffer docker-credential-coffer)
if [ "${1:-}" = --apple ]; then
    shift
    for product in "${products[@]}"; do "${build[@]}" --product "$product"; done
    bin="$("${build[@]}" --show-bin-path)"
    echo "Reproduce: \`Benchmarks/run.sh --apple $*\` ($(date -u +%Y-%m-%d), $(nproc) cores, $(swift --version 2>&1 | head -1))."
    "$bin/CofferBenchmarks" "$@" apple
    Benchmarks/processes-vs-peers.sh "$bin"
    exit 0
fi
for product in "${products[@]}"; do "${build[@]}" --product "$product"; done
bin="$("${build[@]}" --show-bin-path)"
{
    echo "# Benchmarks"
    echo
    echo "Reproduce with \`Benchmarks/run.sh\` (release builds, static Swift stdlib; medians/p50 of repeated runs)."
    echo
    echo "- Date: $(date -u +%Y-%m-%d)"
    echo "- Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
    echo "- Swift: $(swift --version 2>&1 | head -1)"
    "$bin/CofferBenchmarks" "$@"
    if [ $# -eq 0 ]; then Benchmarks/processes-vs-peers.sh "$bin"; fi
    if [ -f Fuzz/README.md ]; then echo; echo "Fuzzing of the daemon's frame decoder: see Fuzz/README.md."; fi
} > BENCHMARKS.md.new
mv BENCHMARKS.md.new BENCHMARKS.md
cat BENCHMARKS.md
