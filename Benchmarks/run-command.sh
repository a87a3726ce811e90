#!/usr/bin/env bash
# `coffer run` beside plain exec (issue #41): how much reading a secret from the keychain and handing it to the command
# adds to the command's start, in one hyperfine run (release build, embedded keychain in a scratch folder, one item).
# Also `coffer find-generic-password -w` of the same item, which is the read `coffer run` makes before its exec.
# Usage: Benchmarks/run-command.sh [RUNS]   (installs hyperfine when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v hyperfine >/dev/null 2>&1; then apt-get update && apt-get install -y hyperfine; fi
runs="${1:-300}"
build=(swift build -c release --scratch-path .build-release --static-swift-stdlib --disable-local-rpath)
"${build[@]}" --product coffer >&2
bin="$("${build[@]}" --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export COFFER_HOME="$work/keychain"
unset COFFER_SOCKET XDG_RUNTIME_DIR
printf 'bench-secret\n' | "$bin/coffer" add-generic-password -s bench.example -a runner -w >/dev/null
# -N: no shell in between; each command is exec'd as it is.
hyperfine -N --warmup 20 --runs "$runs" --export-markdown "$work/run.md" \
    -n "/bin/true (plain exec)" "/bin/true" \
    -n "coffer run --env TOKEN=… -- /bin/true" "$bin/coffer run --env TOKEN=coffer://generic/bench.example/runner -- /bin/true" \
    -n "coffer run --file TOKEN=… -- /bin/true" "$bin/coffer run --file TOKEN=coffer://generic/bench.example/runner -- /bin/true" \
    -n "coffer find-generic-password -w (the read alone)" "$bin/coffer find-generic-password -s bench.example -a runner -w" >&2
cat "$work/run.md"
