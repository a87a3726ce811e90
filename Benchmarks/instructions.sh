#!/usr/bin/env bash
# Instructions per find, counted by valgrind's callgrind: a measure that does not move with a shared machine's
# load, for comparing builds and the parts of one find. Costs differ from time where the hardware differs:
# under valgrind SHA-256 runs without the CPU's SHA extensions, so hashing weighs about ten times more here.
#
# Three runs, each of a profiling loop of CofferBenchmarks (on 1 000-item keychains):
#   1. security-loop: finds through the client API and through SecItemCopyMatching, as Apple code makes them;
#   2. daemon-loop, this program counted (cofferd running natively): an embedded find, a daemon find, and a no-op
#      round trip through the daemon;
#   3. daemon-loop, cofferd counted (this program running natively): what cofferd executes for each.
# Only those calls are counted: runs 1 and 2 collect inside the loop's counted functions alone, and run 3 zeroes
# cofferd's counts once both keychains are filled and warm, then dumps them after each part of the loop.
# 4. add-sign-loop: an add, a software signature and a kept key's signature, as Apple code makes them.
# Usage: Benchmarks/instructions.sh [--add-sign-only]   (installs valgrind when missing; builds CofferBenchmarks and
# cofferd in release; --add-sign-only runs the fourth alone)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! dpkg -s valgrind >/dev/null 2>&1; then apt-get update && apt-get install -y valgrind; fi
build=(swift build -c release --scratch-path .build-release --static-swift-stdlib --disable-local-rpath)
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

if [ "${1:-}" != "--add-sign-only" ]; then
# 1. SecItemCopyMatching next to the client API.
callgrind "$work/security.out" --toggle-collect='*SecurityBenchmarkO10clientFind*' --toggle-collect='*SecurityBenchmarkO9appleFind*' \
    -- security-loop > "$work/security.log"
read -r client apple < <(sed -n 's/^security loop: \([0-9]*\) finds through the client API, \([0-9]*\) through.*/\1 \2/p' "$work/security.log")
client_find=$(per "$(inclusive "$work/security.out" SecurityBenchmarkO10clientFind)" "$client")
apple_find=$(per "$(inclusive "$work/security.out" SecurityBenchmarkO9appleFind)" "$apple")
sec_item=$(per "$(inclusive "$work/security.out" 8Security19SecItemCopyMatching)" "$apple")
service=$(per "$(inclusive "$work/security.out" 15KeychainServiceAAC6handle_6caller)" $((client + apple)))
# The audit journal's record of each find (issue #41): the record encoded, sealed, chained and written.
audit=$(per "$(inclusive "$work/security.out" 15KeychainServiceAAC11recordAudit)" $((client + apple)))
echo "| find (data), 1 000 items | instructions |"
echo "| --- | --- |"
echo "| through the client API (\`copyMatching\` with a \`QueryDictionary\`) | $client_find |"
echo "| as Apple code makes it (\`[String: Any]\` bridged, \`SecItemCopyMatching\`, \`as? Data\`) | $apple_find |"
echo "| of which \`SecItemCopyMatching\` | $sec_item |"
echo "| of which the keychain service's own work (\`KeychainService.handle\`, both kinds) | $service |"
echo "| of which the audit journal's record (\`KeychainService.recordAudit\`: encoded, sealed, chained, written) | $audit |"
echo
echo "The audit record adds $(awk -v a="$audit" -v f="$client_find" 'BEGIN { printf "%.1f", 100 * a / (f - a) }')% to a client-API find without it, $(awk -v a="$audit" -v f="$apple_find" 'BEGIN { printf "%.1f", 100 * a / (f - a) }')% to an Apple-style find."
echo "Apple-style find over client API find: $(ratio "$apple_find" "$client_find")× in instructions ($client and $apple finds counted)."
echo

# 2. The client's side of a daemon find and of a no-op round trip, next to an embedded find.
callgrind "$work/client.out" --toggle-collect='*14DaemonFindLoopO*counted*' -- daemon-loop > "$work/client.log"
pattern='s/^daemon loop: \([0-9]*\) embedded finds, \([0-9]*\) through the daemon, then \([0-9]*\) no-op round trips.*/\1 \2 \3/p'
read -r embedded_count daemon_count trip_count < <(sed -n "$pattern" "$work/client.log")
embedded_find=$(per "$(inclusive "$work/client.out" countedLocalLookup)" "$embedded_count")
embedded_service=$(per "$(inclusive "$work/client.out" 15KeychainServiceAAC7respond33_)" "$embedded_count")
client_find=$(per "$(inclusive "$work/client.out" countedRemoteLookup)" "$daemon_count")
client_trip=$(per "$(inclusive "$work/client.out" countedNoOpTrip)" "$trip_count")

# 3. cofferd's side of the same: the benchmark zeroes its counts once the keychains are warm and dumps them after the
# finds (daemon.out.1) and after the round trips (daemon.out.2).
rm "$work/cofferd"
printf '#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file=%s "%s" "$@" 2>%s\n' \
    "$work/daemon.out" "$work/cofferd-native" "$work/daemon.out.log" > "$work/cofferd"
chmod +x "$work/cofferd"
COFFER_BENCH_COUNTED_DAEMON=1 "$work/CofferBenchmarks" daemon-loop > "$work/daemon.log"
read -r _ daemon_finds daemon_trips < <(sed -n "$pattern" "$work/daemon.log")
total() { callgrind_annotate "$1" | tr -d , | awk '/PROGRAM TOTALS/ { print $1; exit }'; }
daemon_find=$(per "$(total "$work/daemon.out.1")" "$daemon_finds")
daemon_trip=$(per "$(total "$work/daemon.out.2")" "$daemon_trips")
# RequestJob.answer: decoding, the service, encoding and writing the answer, without the event loop's and the
# polling worker's part, which depends on how valgrind's slowness falls between them and the client.
answer_find=$(per "$(inclusive "$work/daemon.out.1" 6Daemon10RequestJobV6answer33_)" "$daemon_finds")
answer_trip=$(per "$(inclusive "$work/daemon.out.2" 6Daemon10RequestJobV6answer33_)" "$daemon_trips")
decode=$(per "$(inclusive "$work/daemon.out.1" 15RequestEnvelopeV15decodingPayload)" "$daemon_finds")
daemon_service=$(per "$(inclusive "$work/daemon.out.1" 15KeychainServiceAAC7respond33_)" "$daemon_finds")
daemon_audit=$(per "$(inclusive "$work/daemon.out.1" 15KeychainServiceAAC11recordAudit)" "$daemon_finds")
find_total=$((client_find + daemon_find))
trip_total=$((client_trip + daemon_trip))
echo "| 1 000 items | in this program | in cofferd | both |"
echo "| --- | --- | --- | --- |"
echo "| find (data), embedded | $embedded_find | — | $embedded_find |"
echo "| of which the keychain service's own work (\`KeychainService.respond\`) | $embedded_service | — | |"
echo "| find (data), through the daemon | $client_find | $daemon_find | $find_total |"
echo "| of which answering it (decoding, the service, encoding, writing) | — | $answer_find | $((client_find + answer_find)) |"
echo "| of which decoding the request | — | $decode | |"
echo "| of which the keychain service's own work (\`KeychainService.respond\`) | — | $daemon_service | |"
echo "| of which the audit journal's record (\`KeychainService.recordAudit\`) | — | $daemon_audit | |"
echo "| no-op round trip (\`lock\`, no passcode) | $client_trip | $daemon_trip | $trip_total |"
echo "| of which answering it | — | $answer_trip | $((client_trip + answer_trip)) |"
echo
echo "A daemon find executes $(ratio "$find_total" "$embedded_find")× the instructions of an embedded find, $((find_total - embedded_find)) more, against $((2 * trip_total)) for two no-op round trips ($embedded_count embedded finds, $daemon_count daemon finds and $trip_count round trips counted in the client; $daemon_finds and $daemon_trips in cofferd)."
echo "Counting only cofferd's answering (its watcher and polling take what valgrind's timing gives them): $((client_find + answer_find - embedded_find)) more, against $((2 * (client_trip + answer_trip)))."
echo
fi

# 4. An add and a signature as Apple code makes them, on an embedded keychain: the parts of the seam every front end
# takes (the key layer, the client, the service) next to the store's and the cryptography's own work.
callgrind "$work/add-sign.out" --toggle-collect='*ProfilingLoopO10countedAdd*' \
    --toggle-collect='*ProfilingLoopO24countedSoftwareSignature*' --toggle-collect='*ProfilingLoopO20countedKeptSignature*' \
    -- add-sign-loop > "$work/add-sign.log"
read -r adds signs kept_signs < <(sed -n 's/^add and sign loop: \([0-9]*\) adds, \([0-9]*\) software signatures, \([0-9]*\) signatures.*/\1 \2 \3/p' "$work/add-sign.log")
add=$(per "$(inclusive "$work/add-sign.out" ProfilingLoopO10countedAdd)" "$adds")
sign=$(per "$(inclusive "$work/add-sign.out" ProfilingLoopO24countedSoftwareSignature)" "$signs")
kept_sign=$(per "$(inclusive "$work/add-sign.out" ProfilingLoopO20countedKeptSignature)" "$kept_signs")
echo "| embedded keychain | instructions |"
echo "| --- | --- |"
echo "| add (\`SecItemAdd\`, a generic password, as Apple code makes it) | $add |"
echo "| signature, software P-256 key (\`SecKeyCreateSignature\`, ECDSA SHA-256) | $sign |"
echo "| signature, P-256 key the keychain keeps | $kept_sign |"
echo
echo "($adds adds and $signs and $kept_signs signatures counted.)"
