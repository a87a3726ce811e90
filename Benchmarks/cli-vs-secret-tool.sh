#!/usr/bin/env bash
# Whole-process lookup: `coffer find-generic-password -w` (release, static Swift stdlib) next to
# `secret-tool lookup` on gnome-keyring, in the same run on the same machine. secret-tool asks a daemon
# (gnome-keyring over D-Bus), so the like-for-like figure is coffer asking cofferd; coffer on the embedded
# keychain (which opens the keystore and the database in the process) is measured too.
# Installs gnome-keyring, libsecret-tools, dbus and hyperfine from Debian when missing, runs gnome-keyring
# in a private D-Bus session with a throwaway HOME and cofferd on a private socket. Prints a Markdown section.
# Usage: Benchmarks/cli-vs-secret-tool.sh PATH_TO_COFFER PATH_TO_COFFERD
set -euo pipefail
coffer="$1"
cofferd="$2"
source "$(dirname "$0")/debian-packages.sh"
ensure_debian_packages gnome-keyring libsecret-tools dbus hyperfine
work="$(mktemp -d)"
mkdir -m 0700 "$work/cofferd-state"
"$cofferd" --state-dir "$work/cofferd-state" --socket "$work/cofferd.socket" 2>/dev/null &
daemon=$!
trap 'kill $daemon 2>/dev/null; wait $daemon 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -S "$work/cofferd.socket" ] && break; sleep 0.05; done
COFFER_SOCKET="$work/cofferd.socket" "$coffer" add-generic-password -s bench -a me -w bench-secret-value
COFFER_HOME="$work/embedded" "$coffer" add-generic-password -s bench -a me -w bench-secret-value

cat > "$work/inside-session.sh" <<'INNER'
#!/usr/bin/env bash
set -euo pipefail
export HOME="$WORK/home"; mkdir -p "$HOME"
eval "$(printf 'throwaway-login-password' | gnome-keyring-daemon --unlock --components=secrets)"
printf 'bench-secret-value' | secret-tool store --label=bench service bench account me
lookup="$COFFER find-generic-password -s bench -a me -w"
[ "$(secret-tool lookup service bench account me)" = bench-secret-value ]
[ "$(COFFER_SOCKET="$WORK/cofferd.socket" $lookup)" = bench-secret-value ]
[ "$(COFFER_HOME="$WORK/embedded" $lookup)" = bench-secret-value ]
COFFER_SOCKET="$WORK/cofferd.socket" hyperfine -N --warmup 10 --runs 200 --export-json "$WORK/daemon.json" \
    "$lookup" "secret-tool lookup service bench account me" >/dev/null
COFFER_HOME="$WORK/embedded" hyperfine -N --warmup 10 --runs 200 --export-json "$WORK/embedded.json" "$lookup" >/dev/null
INNER
chmod +x "$work/inside-session.sh"
WORK="$work" COFFER="$coffer" dbus-run-session -- "$work/inside-session.sh" 2>/dev/null

python3 - "$work/daemon.json" "$work/embedded.json" <<'PY'
import json, sys
(daemon, secret_tool), (embedded,) = (json.load(open(path))["results"] for path in sys.argv[1:3])
rows = [
    ("`coffer find-generic-password -s bench -a me -w`, through cofferd", daemon),
    ("`coffer find-generic-password -s bench -a me -w`, embedded keychain", embedded),
    ("`secret-tool lookup service bench account me` (gnome-keyring)", secret_tool),
]
print("\n### Whole-process lookup: coffer vs secret-tool (gnome-keyring)\n")
print("| command | median | mean ± σ |")
print("| --- | --- | --- |")
for label, r in rows:
    print(f"| {label} | {r['median']*1000:.1f} ms | {r['mean']*1000:.1f} ± {r['stddev']*1000:.1f} ms |")
ratio = daemon["median"] / secret_tool["median"]
print(f"\nThrough cofferd, as secret-tool goes through gnome-keyring-daemon, coffer's median is {ratio:.2f}× "
      f"secret-tool's (goal ≤ 0.33×); on the embedded keychain it is {embedded['median'] / secret_tool['median']:.2f}×. "
      "hyperfine, 200 runs after 10 warm-ups each.")
PY
