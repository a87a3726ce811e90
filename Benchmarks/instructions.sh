#!/usr/bin/env bash
# Instructions per find, counted by valgrind's callgrind: a measure that does not move with a shared machine's
# load, for comparing builds and the parts of one find. Costs differ from time where the hardware differs:
# under valgrind SHA-256 runs without the CPU's SHA extensions, so hashing weighs about ten times more here.
# Usage: Benchmarks/instructions.sh   (installs valgrind when missing; builds CofferBenchmarks in release)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! dpkg -s valgrind >/dev/null 2>&1; then apt-get update && apt-get install -y valgrind; fi
build=(swift build -c release --scratch-path .build-release --static-swift-stdlib)
"${build[@]}" --product CofferBenchmarks >&2
bin="$("${build[@]}" --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Valgrind 3.19 cannot read the DWARF 5 Swift writes; the symbol table is enough to name functions.
objcopy --strip-debug "$bin/CofferBenchmarks" "$work/CofferBenchmarks"
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$work/CofferBenchmarks" security-loop > "$work/run.log" 2>&1
read -r client apple < <(sed -n 's/^security loop: \([0-9]*\) finds through the client API, \([0-9]*\) through.*/\1 \2/p' "$work/run.log")
callgrind_annotate --inclusive=yes --threshold=100 "$work/callgrind.out" | tr -d , > "$work/inclusive.txt"
# The inclusive count of the first function whose mangled name contains $1.
inclusive() { awk -v name="$1" 'index($0, name) { print $1; exit }' "$work/inclusive.txt"; }
per() { awk -v total="$1" -v count="$2" 'BEGIN { printf "%.0f", total / count }'; }
client_find=$(per "$(inclusive SecurityBenchmarkO10clientFind)" "$client")
apple_find=$(per "$(inclusive SecurityBenchmarkO9appleFind)" "$apple")
sec_item=$(per "$(inclusive 8Security19SecItemCopyMatching)" "$apple")
service=$(per "$(inclusive 15KeychainServiceAAC6handle_6caller)" $((client + apple)))
echo "| find (data), 1 000 items | instructions |"
echo "| --- | --- |"
echo "| through the client API (\`copyMatching\` with a \`QueryDictionary\`) | $client_find |"
echo "| as Apple code makes it (\`[String: Any]\` bridged, \`SecItemCopyMatching\`, \`as? Data\`) | $apple_find |"
echo "| of which \`SecItemCopyMatching\` | $sec_item |"
echo "| of which the keychain service's own work (\`KeychainService.handle\`, both kinds) | $service |"
echo
echo "Apple-style find over client API find: $(awk -v a="$apple_find" -v c="$client_find" 'BEGIN { printf "%.2f", a / c }')× in instructions ($client and $apple finds counted)."
