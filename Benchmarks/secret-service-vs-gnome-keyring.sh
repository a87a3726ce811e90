#!/usr/bin/env bash
# The Secret Service through coffer-secret-service next to gnome-keyring, in the same run on the same machine:
# whole `secret-tool lookup` and `secret-tool store` processes with 1,000 and 10,000 items in the collection,
# and `git credential fill` through git-credential-coffer next to git-credential-libsecret on gnome-keyring.
#
# Each provider runs in a private D-Bus session (dbus-run-session) with a throwaway HOME; the collection is
# filled by one Python client (Gio, one CreateItem per item), and the measured item is stored by secret-tool
# itself (Coffer keeps programs apart, so secret-tool reads what it stored). gnome-keyring's login collection
# is written to disk after every change, so filling it with 10,000 items takes long: the figures it gets are
# for the counts given (default: 1000 10000).
#
# Installs from Debian when missing: gnome-keyring, libsecret-tools, dbus, hyperfine, python3-gi, git, and what
# git-credential-libsecret builds with (libsecret-1-dev, libglib2.0-dev, gcc, make, pkg-config); builds
# git-credential-libsecret from git's contrib sources. Prints a Markdown section.
# GNOME_LIMIT=N leaves gnome-keyring out above N items (filling it grows quadratically: about 55 minutes for 10,000).
# Usage: [GNOME_LIMIT=N] Benchmarks/secret-service-vs-gnome-keyring.sh RELEASE_BIN_DIR [COUNT…]
#   RELEASE_BIN_DIR holds coffer-secret-service and git-credential-coffer (release build).
set -euo pipefail
bin="$(cd "$1" && pwd)"
shift
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 10000)
source "$(dirname "$0")/debian-packages.sh"
ensure_debian_packages gnome-keyring libsecret-tools dbus hyperfine python3-gi git libsecret-1-dev libglib2.0-dev gcc make pkg-config
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r /usr/share/doc/git/contrib/credential/libsecret "$work/libsecret-helper"
make -s -C "$work/libsecret-helper" >/dev/null 2>&1
libsecret_helper="$work/libsecret-helper/git-credential-libsecret"

cat > "$work/client.py" <<'PY'
# One Secret Service client, through one bus connection. `fill COUNT`: fills the default collection with COUNT
# items {service: bench, account: user-N} and prints the seconds it took. `measure COUNT`: the provider's own cost
# without a process start, as medians in milliseconds: a no-op round trip (ReadAlias), 200 lookups (SearchItems
# on two attributes, then GetSecrets) of filled items, and 30 stores (CreateItem replacing a filled item).
import statistics, sys, time
from gi.repository import Gio, GLib
mode, count = sys.argv[1], int(sys.argv[2])
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
def call(method, signature, arguments, path='/org/freedesktop/secrets', interface='Service'):
    return bus.call_sync('org.freedesktop.secrets', path, 'org.freedesktop.Secret.' + interface,
                         method, GLib.Variant(signature, arguments), None, 0, -1, None)
session = call('OpenSession', '(sv)', ('plain', GLib.Variant('s', ''))).unpack()[1]
def store(number, replace):
    properties = {'org.freedesktop.Secret.Item.Label': GLib.Variant('s', 'bench %d' % number),
                  'org.freedesktop.Secret.Item.Attributes': GLib.Variant('a{ss}', {'service': 'bench', 'account': 'user-%d' % number})}
    call('CreateItem', '(a{sv}(oayays)b)', (properties, (session, b'', b'secret-%d' % number, 'text/plain'), replace),
         path='/org/freedesktop/secrets/aliases/default', interface='Collection')
def timed(body, rounds):
    durations = []
    for round in range(rounds):
        started = time.perf_counter()
        body(round)
        durations.append(time.perf_counter() - started)
    return statistics.median(durations) * 1000
def lookup(round):
    number = (round * 7919) % count
    found = call('SearchItems', '(a{ss})', ({'service': 'bench', 'account': 'user-%d' % number},)).unpack()[0]
    secrets = call('GetSecrets', '(aoo)', (found, session)).unpack()[0]
    assert len(found) == 1 and bytes(secrets[found[0]][2]) == b'secret-%d' % number
if mode == 'fill':
    started = time.monotonic()
    for number in range(count):
        store(number, False)
    print('%.1f' % (time.monotonic() - started))
else:
    noop = timed(lambda round: call('ReadAlias', '(s)', ('default',)), 200)
    print('%.3f %.3f %.3f' % (noop, timed(lookup, 200), timed(lambda round: store((round * 104729) % count, True), 30)))
PY

cat > "$work/inside-session.sh" <<'INNER'
#!/usr/bin/env bash
# Runs in a private session bus: starts the provider, fills it, measures. $1 provider, $2 count.
set -euo pipefail
provider="$1"
count="$2"
out="$WORK/$provider-$count"
export HOME="$out/home"
mkdir -p "$HOME"
if [ "$provider" = gnome ]; then
    eval "$(printf 'throwaway-login-password' | gnome-keyring-daemon --unlock --components=secrets)"
    helper="$LIBSECRET_HELPER"
else
    export COFFER_HOME="$out/keychain"
    "$BIN/coffer-secret-service" > "$out/provider.log" 2>&1 &
    for _ in $(seq 200); do grep -q serving "$out/provider.log" 2>/dev/null && break; sleep 0.05; done
    helper="$BIN/git-credential-coffer"
fi
/usr/bin/python3 "$WORK/client.py" fill "$count" > "$out/fill-seconds"
/usr/bin/python3 "$WORK/client.py" measure "$count" > "$out/calls"
printf 'measured-secret' | secret-tool store --label=measured service bench account measured
[ "$(secret-tool lookup service bench account measured)" = measured-secret ]
hyperfine -N --warmup 5 --runs 100 --export-json "$out/lookup.json" "secret-tool lookup service bench account measured" >/dev/null
hyperfine -N --warmup 2 --runs "$STORE_RUNS" --export-json "$out/store.json" \
    "sh -c 'printf measured-secret | secret-tool store --label=measured service bench account measured'" >/dev/null
printf 'protocol=https\nhost=git.example.org\nusername=ada\npassword=measured-token\n\n' \
    | git -c credential.helper="$helper" credential approve
printf 'protocol=https\nhost=git.example.org\n\n' > "$out/fill-input"
[ "$(git -c credential.helper="$helper" credential fill < "$out/fill-input" | grep password=)" = password=measured-token ]
hyperfine -N --warmup 5 --runs 100 --export-json "$out/git.json" --input "$out/fill-input" \
    "git -c credential.helper=$helper credential fill" >/dev/null 2>&1 \
  || hyperfine -N --warmup 5 --runs 100 --export-json "$out/git.json" \
    "sh -c 'git -c credential.helper=$helper credential fill < $out/fill-input'" >/dev/null
INNER
chmod +x "$work/inside-session.sh"
for count in "${counts[@]}"; do
    providers=(coffer gnome)
    [ "$count" -gt "${GNOME_LIMIT:-1000000}" ] && providers=(coffer)
    for provider in "${providers[@]}"; do
        mkdir -p "$work/$provider-$count"
        store_runs=30
        [ "$provider" = gnome ] && [ "$count" -gt 2000 ] && store_runs=10
        WORK="$work" BIN="$bin" LIBSECRET_HELPER="$libsecret_helper" STORE_RUNS="$store_runs" \
            dbus-run-session -- "$work/inside-session.sh" "$provider" "$count" 2>"$work/$provider-$count/errors" \
            || { echo "the $provider run with $count items failed:" >&2; cat "$work/$provider-$count/errors" >&2; exit 1; }
    done
done

python3 - "$work" "${counts[@]}" <<'PY'
import json, math, os, sys
work, counts = sys.argv[1], sys.argv[2:]
def median(provider, count, what):
    path = f"{work}/{provider}-{count}/{what}.json"
    return json.load(open(path))["results"][0]["median"] * 1000 if os.path.exists(path) else math.nan
def fill(provider, count):
    path = f"{work}/{provider}-{count}/fill-seconds"
    return float(open(path).read()) if os.path.exists(path) else math.nan
def calls(provider, count):
    path = f"{work}/{provider}-{count}/calls"
    return [float(x) for x in open(path).read().split()] if os.path.exists(path) else [math.nan] * 3
def ms(value, digits=1):
    return "not measured" if math.isnan(value) else f"{value:.{digits}f} ms"
def faster(slow, fast):
    return "" if math.isnan(slow) or math.isnan(fast) else f"{slow / fast:.1f}× faster"
print("\n### Secret Service: coffer-secret-service vs gnome-keyring (D-Bus calls from one connection)\n")
print("| items | no-op round trip: Coffer | gnome-keyring | lookup (SearchItems + GetSecrets): Coffer | gnome-keyring | ratio | store (CreateItem, replace): Coffer | gnome-keyring | ratio |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for count in counts:
    (cn, cl, cs), (gn, gl, gs) = calls("coffer", count), calls("gnome", count)
    print(f"| {int(count):,} | {ms(cn, 2)} | {ms(gn, 2)} | {ms(cl, 2)} | {ms(gl, 2)} | {faster(gl, cl)} | {ms(cs, 2)} | {ms(gs, 2)} | {faster(gs, cs)} |")
print("\n### Secret Service: coffer-secret-service vs gnome-keyring (whole secret-tool processes)\n")
print("| items | `secret-tool lookup`: Coffer | gnome-keyring | ratio | `secret-tool store` (replace): Coffer | gnome-keyring | ratio | filling the collection: Coffer | gnome-keyring |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for count in counts:
    cl, gl = median("coffer", count, "lookup"), median("gnome", count, "lookup")
    cs, gs = median("coffer", count, "store"), median("gnome", count, "store")
    fills = [fill(provider, count) for provider in ("coffer", "gnome")]
    print(f"| {int(count):,} | {ms(cl)} | {ms(gl)} | {faster(gl, cl)} | {ms(cs)} | {ms(gs)} | {faster(gs, cs)} | "
          + " | ".join("not measured" if math.isnan(x) else f"{x:.0f} s" for x in fills) + " |")
print("\n### git credential fill: git-credential-coffer vs git-credential-libsecret (gnome-keyring)\n")
print("| items in the keychain | git-credential-coffer | git-credential-libsecret | ratio |")
print("| --- | --- | --- | --- |")
for count in counts:
    c, g = median("coffer", count, "git"), median("gnome", count, "git")
    print(f"| {int(count):,} | {ms(c)} | {ms(g)} | {faster(g, c)} |")
print("\nMedians; hyperfine, 100 runs after 5 warm-ups (store: 30 runs, 10 for gnome-keyring above 2,000 items); the store "
      "runs `sh -c 'printf … | secret-tool store …'` for both. Coffer's provider uses the embedded keychain (COFFER_HOME) "
      "with per-program isolation on.")
PY
