#!/usr/bin/env bash
# Whole-process lookup: `coffer find-generic-password -w` (release, static Swift stdlib, embedded
# keychain) next to `secret-tool lookup` on gnome-keyring, in the same run on the same machine.
# Installs gnome-keyring, libsecret-tools, dbus and hyperfine from Debian when missing, and runs
# gnome-keyring in a private D-Bus session with a throwaway HOME. Prints a Markdown section.
# Usage: Benchmarks/cli-vs-secret-tool.sh PATH_TO_COFFER
set -euo pipefail
coffer="$1"
missing=()
for package in gnome-keyring libsecret-tools dbus hyperfine; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export COFFER_HOME="$work/coffer"
"$coffer" add-generic-password -s bench -a me -w bench-secret-value

cat > "$work/inside-session.sh" <<'INNER'
#!/usr/bin/env bash
set -euo pipefail
export HOME="$WORK/home"; mkdir -p "$HOME"
eval "$(printf 'throwaway-login-password' | gnome-keyring-daemon --unlock --components=secrets)"
printf 'bench-secret-value' | secret-tool store --label=bench service bench account me
[ "$(secret-tool lookup service bench account me)" = bench-secret-value ]
[ "$("$COFFER" find-generic-password -s bench -a me -w)" = bench-secret-value ]
hyperfine -N --warmup 10 --runs 200 --export-json "$WORK/results.json" \
    "$COFFER find-generic-password -s bench -a me -w" \
    "secret-tool lookup service bench account me" >/dev/null
INNER
chmod +x "$work/inside-session.sh"
WORK="$work" COFFER="$coffer" dbus-run-session -- "$work/inside-session.sh" 2>/dev/null

python3 - "$work/results.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
coffer, secret_tool = (r["median"] * 1000 for r in results)
print("\n### Whole-process lookup: coffer vs secret-tool (gnome-keyring)\n")
print("| command | median | mean ± σ |")
print("| --- | --- | --- |")
for r in results:
    print(f"| `{r['command'].split('/')[-1]}` | {r['median']*1000:.1f} ms | {r['mean']*1000:.1f} ± {r['stddev']*1000:.1f} ms |")
print(f"\nCoffer's median is {coffer / secret_tool:.2f}× secret-tool's (goal ≤ 0.33×). hyperfine, 200 runs after 10 warm-ups.")
PY
