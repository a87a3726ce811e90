#!/usr/bin/env bash
# Whole processes as git, docker and scripts run them, in one hyperfine run: `true`; `coffer find-generic-password -w`
# through cofferd and on the embedded keychain; `secret-tool lookup` on gnome-keyring (a daemon over D-Bus, the
# like-for-like peer of coffer through cofferd); and the git and docker credential helpers' `get` through cofferd.
# The helpers read their request on standard input, which hyperfine 1.15 cannot give, so every command runs under
# `sh -c '… < request'` and `sh -c 'true < request'` is measured beside them: subtract it to compare.
# Installs gnome-keyring, libsecret-tools, dbus and hyperfine from Debian when missing. Prints a Markdown section.
# Usage: Benchmarks/processes-vs-peers.sh BIN_DIR   (release builds of coffer, cofferd and both helpers)
set -euo pipefail
bin="$1"
source "$(dirname "$0")/debian-packages.sh"
ensure_debian_packages gnome-keyring libsecret-tools dbus hyperfine
work="$(mktemp -d)"
mkdir -m 0700 "$work/cofferd-state"
"$bin/cofferd" --state-dir "$work/cofferd-state" --socket "$work/cofferd.socket" 2>/dev/null &
daemon=$!
trap 'kill $daemon 2>/dev/null; wait $daemon 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -S "$work/cofferd.socket" ] && break; sleep 0.05; done
export COFFER_SOCKET="$work/cofferd.socket"
"$bin/coffer" add-generic-password -s bench -a me -w bench-secret-value
COFFER_HOME="$work/embedded" "$bin/coffer" add-generic-password -s bench -a me -w bench-secret-value
printf 'protocol=https\nhost=git.example.com\nusername=me\npassword=git-secret\n\n' | "$bin/git-credential-coffer" store
printf 'protocol=https\nhost=git.example.com\n\n' > "$work/git-request"
printf '{"ServerURL":"https://registry.example.com","Username":"me","Secret":"docker-secret"}' | "$bin/docker-credential-coffer" store
printf 'https://registry.example.com' > "$work/docker-request"
: > "$work/empty"

cat > "$work/inside-session.sh" <<'INNER'
#!/usr/bin/env bash
set -euo pipefail
export HOME="$WORK/home"; mkdir -p "$HOME"
eval "$(printf 'throwaway-login-password' | gnome-keyring-daemon --unlock --components=secrets)"
printf 'bench-secret-value' | secret-tool store --label=bench service bench account me
[ "$(secret-tool lookup service bench account me)" = bench-secret-value ]
[ "$("$BIN/coffer" find-generic-password -s bench -a me -w)" = bench-secret-value ]
[ "$(COFFER_HOME="$WORK/embedded" "$BIN/coffer" find-generic-password -s bench -a me -w)" = bench-secret-value ]
"$BIN/git-credential-coffer" get < "$WORK/git-request" | grep -q '^password=git-secret$'
"$BIN/docker-credential-coffer" get < "$WORK/docker-request" | grep -q docker-secret
hyperfine -N --warmup 10 --runs 200 --export-json "$WORK/plain.json" \
    "true" \
    "$BIN/coffer find-generic-password -s bench -a me -w" \
    "secret-tool lookup service bench account me" >/dev/null
COFFER_HOME="$WORK/embedded" hyperfine -N --warmup 10 --runs 200 --export-json "$WORK/embedded.json" \
    "$BIN/coffer find-generic-password -s bench -a me -w" >/dev/null
hyperfine --shell=none --warmup 10 --runs 200 --export-json "$WORK/helpers.json" \
    "sh -c 'true < $WORK/empty'" \
    "sh -c '$BIN/git-credential-coffer get < $WORK/git-request'" \
    "sh -c '$BIN/docker-credential-coffer get < $WORK/docker-request'" >/dev/null
INNER
chmod +x "$work/inside-session.sh"
WORK="$work" BIN="$bin" dbus-run-session -- "$work/inside-session.sh" >/dev/null 2>&1

python3 - "$work/plain.json" "$work/embedded.json" "$work/helpers.json" <<'PY'
import json, sys
(true, daemon, secret_tool), (embedded,), (shell, git, docker) = (json.load(open(p))["results"] for p in sys.argv[1:4])
ms = lambda r: f"{r['median']*1000:.2f} ms | {r['mean']*1000:.2f} ± {r['stddev']*1000:.2f} ms"
print("\n### Whole processes: coffer, its credential helpers, secret-tool and `true`\n")
print("| command | median | mean ± σ |")
print("| --- | --- | --- |")
for label, r in [
    ("`true`", true),
    ("`coffer find-generic-password -s bench -a me -w`, through cofferd", daemon),
    ("`coffer find-generic-password -s bench -a me -w`, embedded keychain", embedded),
    ("`secret-tool lookup service bench account me` (gnome-keyring)", secret_tool),
    ("`sh -c 'true < request'`", shell),
    ("`sh -c 'git-credential-coffer get < request'`, through cofferd", git),
    ("`sh -c 'docker-credential-coffer get < request'`, through cofferd", docker),
]:
    print(f"| {label} | {ms(r)} |")
t, s = true["median"], secret_tool["median"]
def goal(name, value, limit):
    return f"- {name}: {value:.2f}× (goal ≤ {limit}×: {'met' if value <= limit else 'not met'})"
print()
print(goal("coffer through cofferd over `true`", daemon["median"] / t, 2.5))
print(goal("coffer through cofferd over secret-tool", daemon["median"] / s, 0.2))
print(goal("coffer embedded over secret-tool", embedded["median"] / s, 0.3))
for name, r in [("git helper", git), ("docker helper", docker)]:
    own = r["median"] - shell["median"]
    print(goal(f"{name} through cofferd (its `sh -c` subtracted) over `true`", own / t, 2.5))
    print(goal(f"{name} through cofferd (its `sh -c` subtracted) over secret-tool", own / s, 0.2))
print("\nhyperfine 1.15, 200 runs after 10 warm-ups each, all in one run.")
PY
