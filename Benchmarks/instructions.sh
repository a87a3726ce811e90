#!/usr/bin/env bash
# Instructions per find, counted by valgrind's callgrind: a measure that does not move with a shared machine's
# load, for comparing builds and the parts of one find. Costs differ from time where the hardware differs:
# under valgrind SHA-256 runs without the CPU's SHA extensions, so hashing weighs about ten times more here.
#
# Three runs, each of a profiling loop of CofferBenchmarks (finds on 1 000-item keychains, in turns):
#   1. security-loop: finds through the client API and through SecItemCopyMatching, as Apple code makes them;
#   2. daemon-loop, this program counted (cofferd running natively): an embedded find next to a daemon find;
#   3. daemon-loop, cofferd counted (this program running natively): what cofferd executes per find.
# Only the finds are counted: runs 1 and 2 collect inside the loop's find functions alone, and run 3 zeroes
# cofferd's counts once both keychains are filled and warm.
# Usage: Benchmarks/instructions.sh   (installs valgrind when missing; builds CofferBenchmarks and cofferd in release)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! dpkg -s valgrind >/dev/null 2>&1; then apt-get update && apt-get install -y valgrind; fi
build=(swift build -c release --scratch-path .build-release --static-swift-stdlib)
"${build[@]}" --product CofferBenchmarks >&2
"${build[@]}" --product cofferd >&2
bin="$("${build[@]}" --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Valgrind 3.19 cannot read the DWARF 5 Swift writes; the symbol table is enough to name functions.
objcopy --strip-debug "$bin/CofferBenchmarks" "$work/CofferBenchmarks"
objcopy --strip-debug "$bin/cofferd" "$work/cofferd-native"
# The benchmark starts the cofferd beside it: natively for runs 1 and 2, under callgrind for run 3.
ln -s cofferd-native "$work/cofferd"
# The same hash seed in every run, so that dictionaries probe alike from run to run.
export SWIFT_DETERMINISTIC_HASHING=1

# callgrind PROFILE [valgrind options…] -- [benchmark arguments…]: runs the benchmark under callgrind into PROFILE.
callgrind() {
    local profile="$1"
    shift
    local options=()
    while [ "$1" != "--" ]; do options+=("$1"); shift; done
    shift
    valgrind --tool=callgrind --callgrind-out-file="$profile" "${options[@]}" "$work/CofferBenchmarks" "$@" 2>"$profile.log"
}
# inclusive PROFILE NAME: the inclusive count of the first function whose mangled name contains NAME.
inclusive() {
    callgrind_annotate --inclusive=yes --threshold=100 "$1" | tr -d , | awk -v name="$2" 'index($0, name) { print $1; exit }'
}
per() { awk -v total="$1" -v count="$2" 'BEGIN { printf "%.0f", total / count }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# 1. SecItemCopyMatching next to the client API.
callgrind "$work/security.out" --toggle-collect='*SecurityBenchmarkO10clientFind*' --toggle-collect='*SecurityBenchmarkO9appleFind*' \
    -- security-loop > "$work/security.log"
read -r client apple < <(sed -n 's/^security loop: \([0-9]*\) finds through the client API, \([0-9]*\) through.*/\1 \2/p' "$work/security.log")
client_find=$(per "$(inclusive "$work/security.out" SecurityBenchmarkO10clientFind)" "$client")
apple_find=$(per "$(inclusive "$work/security.out" SecurityBenchmarkO9appleFind)" "$apple")
sec_item=$(per "$(inclusive "$work/security.out" 8Security19SecItemCopyMatching)" "$apple")
service=$(per "$(inclusive "$work/security.out" 15KeychainServiceAAC6handle_6caller)" $((client + apple)))
echo "| find (data), 1 000 items | instructions |"
echo "| --- | --- |"
echo "| through the client API (\`copyMatching\` with a \`QueryDictionary\`) | $client_find |"
echo "| as Apple code makes it (\`[String: Any]\` bridged, \`SecItemCopyMatching\`, \`as? Data\`) | $apple_find |"
echo "| of which \`SecItemCopyMatching\` | $sec_item |"
echo "| of which the keychain service's own work (\`KeychainService.handle\`, both kinds) | $service |"
echo
echo "Apple-style find over client API find: $(ratio "$apple_find" "$client_find")× in instructions ($client and $apple finds counted)."
echo

# 2. The client's side of a daemon find, next to an embedded find.
# One pattern for both functions (`DaemonFindLoop.embeddedFind` and `.daemonFind`, mangled `O08embedded…` and
# `O06daemon…`): with one pattern for each, callgrind collected in the first alone.
callgrind "$work/client.out" --toggle-collect='*14DaemonFindLoopO0?*' -- daemon-loop > "$work/client.log"
read -r embedded_count daemon_count < <(sed -n 's/^daemon loop: \([0-9]*\) embedded finds, \([0-9]*\) through the daemon.*/\1 \2/p' "$work/client.log")
embedded_find=$(per "$(inclusive "$work/client.out" DaemonFindLoopO08embedded)" "$embedded_count")
client_side=$(per "$(inclusive "$work/client.out" DaemonFindLoopO06daemon)" "$daemon_count")
embedded_service=$(per "$(inclusive "$work/client.out" 15KeychainServiceAAC6answer33_)" "$embedded_count")

# 3. cofferd's side of a daemon find.
rm "$work/cofferd"
printf '#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file=%s "%s" "$@" 2>%s\n' \
    "$work/daemon.out" "$work/cofferd-native" "$work/daemon.out.log" > "$work/cofferd"
chmod +x "$work/cofferd"
COFFER_BENCH_ZERO_DAEMON_COUNTS=1 "$work/CofferBenchmarks" daemon-loop > "$work/daemon.log"
read -r _ daemon_finds < <(sed -n 's/^daemon loop: \([0-9]*\) embedded finds, \([0-9]*\) through the daemon.*/\1 \2/p' "$work/daemon.log")
daemon_total=$(callgrind_annotate "$work/daemon.out" | tr -d , | awk '/PROGRAM TOTALS/ { print $1; exit }')
daemon_side=$(per "$daemon_total" "$daemon_finds")
decode=$(per "$(inclusive "$work/daemon.out" 15RequestEnvelopeV15decodingPayload)" "$daemon_finds")
daemon_service=$(per "$(inclusive "$work/daemon.out" 15KeychainServiceAAC6answer33_)" "$daemon_finds")
echo "| find (data), 1 000 items | instructions |"
echo "| --- | --- |"
echo "| embedded (\`copyMatching\` on an \`EmbeddedKeychain\`) | $embedded_find |"
echo "| of which the keychain service's own work (\`KeychainService.answer\`) | $embedded_service |"
echo "| through the daemon, in the client (encode, send, wait, decode) | $client_side |"
echo "| through the daemon, in cofferd (everything it executes, per find) | $daemon_side |"
echo "| of which decoding the request | $decode |"
echo "| of which the keychain service's own work (\`KeychainService.answer\`) | $daemon_service |"
echo
echo "A daemon find executes $(ratio $((client_side + daemon_side)) "$embedded_find")× the instructions of an embedded find, both processes counted ($embedded_count embedded and $daemon_count daemon finds in the client's run, $daemon_finds in cofferd's)."
