#!/usr/bin/env bash
# The Secret Service at scale (issue #33), coffer-secret-service over an embedded keychain in a private D-Bus session,
# one Python client (Gio) on one bus connection, in one run:
#
#   - a store (CreateItem of a new item) at 1,000 items and at 50,000: goal, within 1.5x (flat);
#   - a search by one attribute that matches one item (SearchItems), at 1,000, 50,000 and 100,000 items: goal, flat;
#   - one SearchItems that matches 50,000 items, the D-Bus call alone (goal: under 1 s), and beside it what a
#     SecretStorage-like client then pays to read every item's label and attributes (one Get per property).
#
# Installs dbus and python3-gi from Debian when missing (the client runs on Debian's /usr/bin/python3, which has them).
# Prints a Markdown section.
# Usage: Benchmarks/secret-service-50k.sh RELEASE_BIN_DIR   (RELEASE_BIN_DIR holds coffer-secret-service)
set -euo pipefail
bin="$(cd "$1" && pwd)"
source "$(dirname "$0")/debian-packages.sh"
ensure_debian_packages dbus python3-gi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cat > "$work/client.py" <<'PY'
import statistics, sys, time
from gi.repository import Gio, GLib
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
def call(method, signature, arguments, path='/org/freedesktop/secrets', interface='org.freedesktop.Secret.Service'):
    return bus.call_sync('org.freedesktop.secrets', path, interface, method,
                         GLib.Variant(signature, arguments) if signature else None, None, 0, 600000, None)
session = call('OpenSession', '(sv)', ('plain', GLib.Variant('s', ''))).unpack()[1]
filled = 0
def store(number):
    properties = {'org.freedesktop.Secret.Item.Label': GLib.Variant('s', 'bench %d' % number),
                  'org.freedesktop.Secret.Item.Attributes': GLib.Variant('a{ss}', {
                      'service': 'bench', 'account': 'user-%d' % number, 'xdg:schema': 'org.example.Bench'})}
    call('CreateItem', '(a{sv}(oayays)b)', (properties, (session, b'', b'secret-%d' % number, 'text/plain'), False),
         path='/org/freedesktop/secrets/aliases/default', interface='org.freedesktop.Secret.Collection')
def fill_to(count):
    global filled
    while filled < count:
        store(filled)
        filled += 1
def median_ms(body, rounds):
    durations = []
    for round in range(rounds):
        started = time.perf_counter()
        body(round)
        durations.append(time.perf_counter() - started)
    return statistics.median(durations) * 1000
def store_cost():
    global filled
    def one(round):
        global filled
        store(filled)
        filled += 1
    return median_ms(one, 50)
def search_cost():
    def one(round):
        number = (round * 7919) % filled
        found = call('SearchItems', '(a{ss})', ({'account': 'user-%d' % number},)).unpack()[0]
        assert len(found) == 1, found
    return median_ms(one, 100)
rows = []
fill_to(1000)
rows.append(('store a new item', 1000, store_cost()))
rows.append(('search by one attribute (1 match)', 1000, search_cost()))
fill_to(50000)
rows.append(('store a new item', 50000, store_cost()))
rows.append(('search by one attribute (1 match)', 50000, search_cost()))
started = time.perf_counter()
found = call('SearchItems', '(a{ss})', ({'service': 'bench'},)).unpack()[0]
broad = time.perf_counter() - started
matched = len(found)
started = time.perf_counter()
for path in found:
    call('Get', '(ss)', ('org.freedesktop.Secret.Item', 'Label'), path=path, interface='org.freedesktop.DBus.Properties')
    call('Get', '(ss)', ('org.freedesktop.Secret.Item', 'Attributes'), path=path, interface='org.freedesktop.DBus.Properties')
properties = time.perf_counter() - started
fill_to(100000)
rows.append(('search by one attribute (1 match)', 100000, search_cost()))
for name, count, cost in rows:
    print('ROW\t%s\t%d\t%.3f' % (name, count, cost))
print('BROAD\t%d\t%.3f\t%.3f' % (matched, broad, properties))
PY

cat > "$work/inside-session.sh" <<'INNER'
#!/usr/bin/env bash
set -euo pipefail
export HOME="$WORK/home" COFFER_HOME="$WORK/keychain"
mkdir -p "$HOME"
"$BIN/coffer-secret-service" > "$WORK/provider.log" 2>&1 &
provider=$!
for _ in $(seq 200); do grep -q serving "$WORK/provider.log" 2>/dev/null && break; sleep 0.05; done
/usr/bin/python3 "$WORK/client.py" > "$WORK/results.tsv"
grep VmHWM "/proc/$provider/status" | awk '{print $2}' > "$WORK/provider.rss"
kill "$provider"; wait "$provider" 2>/dev/null || true
INNER
chmod +x "$work/inside-session.sh"
WORK="$work" BIN="$bin" dbus-run-session -- "$work/inside-session.sh"

python3 - "$work" <<'PY'
import os, sys
work = sys.argv[1]
rows, broad = [], None
for line in open(os.path.join(work, "results.tsv")):
    fields = line.rstrip("\n").split("\t")
    if fields[0] == "ROW": rows.append((fields[1], int(fields[2]), float(fields[3])))
    if fields[0] == "BROAD": broad = (int(fields[1]), float(fields[2]), float(fields[3]))
rss = int(open(os.path.join(work, "provider.rss")).read().strip()) / 1024
print("### The Secret Service at 50,000 and 100,000 items (issue #33)")
print()
print("Reproduce with `Benchmarks/secret-service-50k.sh .build-release/release` (release, static Swift stdlib):")
print("coffer-secret-service over an embedded keychain in a private D-Bus session, one Gio client; medians of 50 stores")
print("and 100 searches, each a whole D-Bus call as the client sees it.")
print()
print("| call | items | median |")
print("| --- | --- | --- |")
for name, count, cost in rows:
    print(f"| {name} | {count} | {cost:.2f} ms |")
store = {count: cost for name, count, cost in rows if name.startswith("store")}
search = {count: cost for name, count, cost in rows if name.startswith("search")}
print()
print(f"- store at 50,000 items vs 1,000: {store[50000] / store[1000]:.2f}x (goal: within 1.5x)")
print(f"- search at 50,000 vs 1,000: {search[50000] / search[1000]:.2f}x; at 100,000 vs 1,000: {search[100000] / search[1000]:.2f}x (goal: flat)")
if broad:
    print(f"- one SearchItems matching {broad[0]} items: {broad[1]:.2f} s (goal: under 1 s); the client then reading each item's")
    print(f"  label and attributes (two Get calls per item, as SecretStorage does): {broad[2]:.1f} s")
print(f"- the provider's peak resident memory: {rss:.0f} MiB")
PY
