#!/usr/bin/env bash
# Post-quantum keys the keychain keeps (issue #39), beside swift-crypto's own keys:
#   1. times: ML-KEM-768 decapsulation and ML-DSA-65 signing with CryptoKit's SecureEnclave.MLKEM768 / .MLDSA65 keys,
#      embedded and through cofferd, and with swift-crypto's MLKEM768 / MLDSA65 keys, in one run;
#   2. instructions (callgrind) per decapsulation and per signature, swift-crypto alone and embedded keychain.
# Usage: Benchmarks/post-quantum.sh [--quick]   (installs valgrind when missing; release build)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! dpkg -s valgrind >/dev/null 2>&1; then apt-get update && apt-get install -y valgrind; fi
build=(swift build -c release --scratch-path .build-release --static-swift-stdlib --disable-local-rpath)
"${build[@]}" --product CofferBenchmarks >&2
"${build[@]}" --product cofferd >&2
bin="$("${build[@]}" --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$bin/CofferBenchmarks" post-quantum "$@"

objcopy --strip-debug "$bin/CofferBenchmarks" "$work/CofferBenchmarks"
export SWIFT_DETERMINISTIC_HASHING=1
valgrind --tool=callgrind --callgrind-out-file="$work/pq.out" \
    --toggle-collect='*PostQuantumBenchmarkO*counted*' "$work/CofferBenchmarks" post-quantum-loop > "$work/pq.log" 2> "$work/pq.err"
inclusive() {
    callgrind_annotate --inclusive=yes --threshold=100 "$work/pq.out" | tr -d , | awk -v name="$1" 'index($0, name) { print $1; exit }'
}
per() { awk -v total="$1" 'BEGIN { printf "%.0f", total / 200 }'; }
kem_software=$(per "$(inclusive countedSoftwareDecapsulate)")
kem_keychain=$(per "$(inclusive countedKeychainDecapsulate)")
dsa_software=$(per "$(inclusive countedSoftwareSign)")
dsa_keychain=$(per "$(inclusive countedKeychainSign)")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo
echo "| per operation, 200 of each (instructions) | swift-crypto alone | embedded keychain | ratio |"
echo "| --- | --- | --- | --- |"
echo "| ML-KEM-768 decapsulate | $kem_software | $kem_keychain | $(ratio "$kem_keychain" "$kem_software")× |"
echo "| ML-DSA-65 sign | $dsa_software | $dsa_keychain | $(ratio "$dsa_keychain" "$dsa_software")× |"
