#!/usr/bin/env bash
# What binding a keychain to a TPM costs, on Debian's swtpm (a software TPM: a hardware TPM is slower per command):
#   1. times: an unlock and an open with the device key in a file and in the TPM (the same KDF), TPM2_HMAC alone,
#      and a P-256 signature inside the TPM beside swift-crypto's, with the TPM commands one unlock sends;
#   2. instructions (callgrind) per add and per find as Apple code makes them, on an embedded keychain bound to the
#      TPM and on one whose device key is a file: after the open, items never reach the TPM.
# Usage: Benchmarks/tpm.sh [--quick]   (installs swtpm, tpm2-tools and valgrind when missing; release build)
set -euo pipefail
cd "$(dirname "$0")/.."
for package in swtpm swtpm-tools valgrind; do
    if ! dpkg -s "$package" >/dev/null 2>&1; then apt-get update && apt-get install -y swtpm swtpm-tools valgrind; break; fi
done
build=(swift build -c release --scratch-path .build-release --static-swift-stdlib --disable-local-rpath)
"${build[@]}" --product CofferBenchmarks >&2
bin="$("${build[@]}" --show-bin-path)"
work="$(mktemp -d)"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
swtpm socket --tpm2 --tpmstate dir="$work" --server type=tcp,port="$port",bindaddr=127.0.0.1 \
    --ctrl type=tcp,port=$((port + 1)),bindaddr=127.0.0.1 --flags not-need-init,startup-clear &
swtpm_pid=$!
trap 'kill "$swtpm_pid" 2>/dev/null; rm -rf "$work"' EXIT
sleep 1
tcti="swtpm:host=127.0.0.1,port=$port"

COFFER_BENCH_TPM="$tcti" "$bin/CofferBenchmarks" tpm "$@"

objcopy --strip-debug "$bin/CofferBenchmarks" "$work/CofferBenchmarks"
export SWIFT_DETERMINISTIC_HASHING=1
inclusive() {
    callgrind_annotate --inclusive=yes --threshold=100 "$1" | tr -d , | awk -v name="$2" 'index($0, name) { print $1; exit }'
}
per() { awk -v total="$1" -v count="$2" 'BEGIN { printf "%.0f", total / count }'; }
echo
echo "| per operation, embedded keychain, 300 of each | device key in a file | device key in the TPM |"
echo "| --- | --- | --- |"
declare -A counts
for binding in none "$tcti"; do
    COFFER_TPM="$binding" valgrind --tool=callgrind --callgrind-out-file="$work/items.out" \
        --toggle-collect='*ProfilingLoopO10countedAdd*' --toggle-collect='*TPMBenchmarkO13countedLookup*' \
        "$work/CofferBenchmarks" add-find-loop > "$work/items.log" 2> "$work/items.err"
    counts["$binding-add"]=$(per "$(inclusive "$work/items.out" ProfilingLoopO10countedAdd)" 300)
    counts["$binding-find"]=$(per "$(inclusive "$work/items.out" TPMBenchmarkO13countedLookup)" 300)
done
echo "| \`SecItemAdd\` (instructions) | ${counts[none-add]} | ${counts[$tcti-add]} |"
echo "| \`SecItemCopyMatching\` (instructions) | ${counts[none-find]} | ${counts[$tcti-find]} |"
