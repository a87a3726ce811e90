#!/usr/bin/env bash
# A keychain of 150,000 items (issue #33), filled by `coffer import --from keepassxc`, embedded, in one run:
#
#   - whole `coffer find-generic-password … -w` processes by label, next to the same find by service and account
#     (hyperfine, 30 runs each, in one run): the label is indexed from schema v5, so the two should cost the same;
#   - `dump-keychain`, `dump-keychain --json`, `backup` and `restore` (into a fresh keychain) of every item, with a
#     password and with a recovery key: the time and the peak resident memory of each (GNU time). Goal: under
#     100 MB each, streamed. A password's scrypt work area alone takes 128 MiB (N = 2^17, r = 8).
#
# Installs hyperfine and time from Debian when missing. Prints a Markdown section.
# Usage: Benchmarks/large-keychain.sh PATH_TO_COFFER [ITEMS]
set -euo pipefail
coffer="$1"
items="${2:-150000}"
source "$(dirname "$0")/debian-packages.sh"
ensure_debian_packages hyperfine time
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export COFFER_HOME="$work/keychain"

python3 - "$work/export.csv" "$items" <<'PY'
import csv, sys
with open(sys.argv[1], "w", newline="") as out:
    writer = csv.writer(out, quoting=csv.QUOTE_ALL)
    writer.writerow(["Group", "Title", "Username", "Password", "URL", "Notes"])
    for index in range(int(sys.argv[2])):
        writer.writerow(["Root", f"entry {index}", f"user{index}@example.com", f"password-{index:08d}-xyz", "", ""])
PY
"$coffer" import --from keepassxc "$work/export.csv" > /dev/null 2>&1
middle=$((items / 2))
[ "$("$coffer" find-generic-password -l "entry $middle" -w)" = "$(printf 'password-%08d-xyz' "$middle")" ]
hyperfine -N --warmup 3 --runs 30 --export-json "$work/find.json" \
    "$coffer find-generic-password -l 'entry $middle' -w" \
    "$coffer find-generic-password -s 'entry $middle' -a user$middle@example.com -w" > /dev/null

measure() {
    local name="$1"; shift
    /usr/bin/time -f "%e %M" -o "$work/$name.time" "$@" > /dev/null 2>"$work/$name.err" || { cat "$work/$name.err" >&2; exit 1; }
}
measure dump "$coffer" dump-keychain
measure dump-json "$coffer" dump-keychain --json
printf 'benchmark-backup-password\n' > "$work/password"
measure backup "$coffer" backup -o "$work/keychain.cbak" < "$work/password"
COFFER_HOME="$work/restored" measure restore "$coffer" restore "$work/keychain.cbak" < "$work/password"
# The same with a recovery key: no scrypt work area (128 MiB), so the peak is what holding the items costs.
/usr/bin/time -f "%e %M" -o "$work/backup-key.time" "$coffer" backup -o "$work/keychain-key.cbak" --recovery-key \
    > "$work/recovery-key" 2>"$work/backup-key.err" || { cat "$work/backup-key.err" >&2; exit 1; }
head -n 1 "$work/recovery-key" > "$work/recovery-key.line"
COFFER_HOME="$work/restored-key" measure restore-key "$coffer" restore "$work/keychain-key.cbak" < "$work/recovery-key.line"

python3 - "$work" "$items" "$coffer" <<'PY'
import json, os, statistics, sys
work, items = sys.argv[1], int(sys.argv[2])
results = json.load(open(os.path.join(work, "find.json")))["results"]
print(f"### A keychain of {items:,} items: finds by label, dump, backup and restore (issue #33)")
print()
print(f"Reproduce with `Benchmarks/large-keychain.sh .build-release/release/coffer {items}` (release, static Swift stdlib; embedded")
print("keychain filled by `coffer import`). Whole processes; the finds by hyperfine (30 runs, one run), the rest by GNU time.")
print()
print("| command | median | min | max |")
print("| --- | --- | --- | --- |")
for name, result in zip(["find by label (`-l`)", "find by service and account (`-s -a`)"], results):
    times = sorted(result["times"])
    print(f"| {name} | {statistics.median(times) * 1000:.1f} ms | {times[0] * 1000:.1f} ms | {times[-1] * 1000:.1f} ms |")
print()
print("| command | time | peak resident |")
print("| --- | --- | --- |")
for name, label in [("dump", "`dump-keychain`"), ("dump-json", "`dump-keychain --json`"), ("backup", "`backup -o FILE`"), ("restore", "`restore FILE` (fresh keychain)"),
                    ("backup-key", "`backup -o FILE --recovery-key`"), ("restore-key", "`restore FILE` (recovery key, fresh keychain)")]:
    seconds, kib = open(os.path.join(work, f"{name}.time")).read().split()
    print(f"| {label} | {float(seconds):.1f} s | {int(kib) / 1024:.0f} MiB |")
PY
