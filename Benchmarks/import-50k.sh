#!/usr/bin/env bash
# Fifty thousand logins: `coffer import --from keepassxc` of a 50,000-entry KeePassXC CSV export into a fresh
# embedded keychain and into a fresh one behind `cofferd --user`, then the same import again (every item already
# there), each timed by hyperfine (3 runs, a fresh keychain before each) with the peak resident memory of one run
# (GNU time). Goal (issue #33): under 30 s. Prints a Markdown section.
# Usage: Benchmarks/import-50k.sh PATH_TO_COFFER PATH_TO_COFFERD
set -euo pipefail
coffer="$1"
cofferd="$2"
source "$(dirname "$0")/debian-packages.sh"
ensure_debian_packages hyperfine time
work="$(mktemp -d)"
daemon=""
trap '[ -n "$daemon" ] && kill $daemon 2>/dev/null; rm -rf "$work"' EXIT

python3 - "$work/export.csv" <<'PY'
import csv, sys
with open(sys.argv[1], "w", newline="") as out:
    writer = csv.writer(out, quoting=csv.QUOTE_ALL)
    writer.writerow(["Group", "Title", "Username", "Password", "URL", "Notes", "TOTP", "Icon", "Last Modified", "Created"])
    for index in range(50_000):
        url = f"https://site-{index}.example.com/login" if index % 2 == 0 else ""
        writer.writerow(["Root/Imported", f"entry {index}", f"user{index}@example.com", f"password-{index:08d}-xyz", url, "", "", "0", "", ""])
PY

import="$coffer import --from keepassxc $work/export.csv"
fresh="rm -rf $work/keychain"
COFFER_HOME="$work/keychain" hyperfine -N --runs 3 --prepare "$fresh" --export-json "$work/embedded.json" "$import" >/dev/null 2>&1
COFFER_HOME="$work/keychain" hyperfine -N --runs 3 --export-json "$work/embedded-again.json" "$import" >/dev/null 2>&1
rm -rf "$work/keychain"
COFFER_HOME="$work/keychain" /usr/bin/time -f "%M" -o "$work/embedded.rss" $import >/dev/null 2>&1

start_daemon() {
    rm -rf "$work/daemon-keychain" "$work/socket"
    COFFER_HOME="$work/daemon-keychain" "$cofferd" --user --socket "$work/socket" 2>/dev/null &
    daemon=$!
    for _ in $(seq 200); do [ -S "$work/socket" ] && break; sleep 0.05; done
}
stop_daemon() { kill "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null || true; daemon=""; }
for run in 1 2 3; do
    start_daemon
    COFFER_SOCKET="$work/socket" hyperfine -N --runs 1 --export-json "$work/daemon-$run.json" "$import" >/dev/null 2>&1
    [ "$run" = 3 ] && COFFER_SOCKET="$work/socket" hyperfine -N --runs 3 --export-json "$work/daemon-again.json" "$import" >/dev/null 2>&1
    [ "$run" = 3 ] && grep VmHWM "/proc/$daemon/status" | awk '{print $2}' > "$work/daemon.rss"
    stop_daemon
done

python3 - "$work" <<'PY'
import json, statistics, sys, os
work = sys.argv[1]
def times(name):
    return json.load(open(os.path.join(work, name)))["results"][0]["times"]
def row(label, values, rss=None):
    values = sorted(values)
    mem = f"{int(rss) / 1024:.0f} MiB" if rss else "—"
    print(f"| {label} | {statistics.median(values):.2f} s | {values[0]:.2f} s | {values[-1]:.2f} s | {mem} |")
daemon = [times(f"daemon-{run}.json")[0] for run in (1, 2, 3)]
print("### Importing 50,000 logins: `coffer import --from keepassxc` (issue #33)")
print()
print("Reproduce with `Benchmarks/import-50k.sh .build-release/release/coffer .build-release/release/cofferd` (release, static Swift stdlib).")
print("A 50,000-entry KeePassXC CSV export (half with a URL: internet passwords; half generic passwords), 500 items to a")
print("transaction; each run on a fresh keychain, and again on the keychain it filled (every item already there).")
print("Peak memory is the importing `coffer`'s (embedded) or `cofferd`'s (daemon). Goal: under 30 s.")
print()
print("| import | median | min | max | peak resident |")
print("| --- | --- | --- | --- | --- |")
row("embedded, fresh keychain", times("embedded.json"), open(os.path.join(work, "embedded.rss")).read().strip())
row("embedded, again (all already there)", times("embedded-again.json"))
row("through cofferd --user, fresh keychain", daemon, open(os.path.join(work, "daemon.rss")).read().strip())
row("through cofferd --user, again", times("daemon-again.json"))
PY
