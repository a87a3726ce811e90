#!/usr/bin/env bash
# Sync's figures against a private PostgreSQL cluster (Debian's postgresql, installed when missing; run as the
# postgres user when this script is root): the first sync of ITEMS items to a new device, the server's storage per
# item beside the sealed record, and propagation between two running cofferd daemons (add on one, find through the
# other). Prints Markdown rows for BENCHMARKS.md.
# Usage: Benchmarks/sync.sh BIN_DIR [ITEMS] [COUNT]   (release builds of coffer, coffer-sync, cofferd, CofferSyncBenchmarks)
set -euo pipefail
bin="$1"
items="${2:-10000}"
count="${3:-300}"
source "$(dirname "$0")/postgres-cluster.sh"
start_postgres_cluster
daemons=()
cleanup() {
    for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    stop_postgres_cluster
}
trap cleanup EXIT
printf '%s' "$superuser_password" | "$bin/coffer-sync" server init "$admin" --password-stdin >/dev/null
account="$(printf '%s' "$superuser_password" | "$bin/coffer-sync" server add-account "$admin" --password-stdin)"
role="$(printf '%s\n' "$account" | sed -n 's/^role: //p')"
export PGPASSWORD="$(printf '%s\n' "$account" | sed -n 's/^password: //p')"
dsn="postgresql://$role@$socket_host:$port/postgres"

echo "| measure ($items items, PostgreSQL $(basename "$(dirname "$pg")") on a Unix socket) | value |"
echo "| --- | --- |"
COFFER_BENCH_DSN="$dsn" "$bin/CofferSyncBenchmarks" first-sync "$items"

# Two machines' daemons: each keychain joins the account first, then its cofferd serves and syncs it.
second_account="$(printf '%s' "$superuser_password" | "$bin/coffer-sync" server add-account "$admin" --password-stdin)"
role="$(printf '%s\n' "$second_account" | sed -n 's/^role: //p')"
export PGPASSWORD="$(printf '%s\n' "$second_account" | sed -n 's/^password: //p')"
dsn="postgresql://$role@$socket_host:$port/postgres"
recovery="$(COFFER_HOME="$work/a" "$bin/coffer-sync" setup "$dsn" --name a | tail -1 | tr -d ' ')"
printf '%s\n' "$recovery" | COFFER_HOME="$work/b" "$bin/coffer-sync" join "$dsn" --name b --recovery-key >/dev/null
unset PGPASSWORD
for side in a b; do
    COFFER_LOG="${COFFER_LOG:-}" COFFER_HOME="$work/$side" "$bin/cofferd" --user --socket "$work/$side.socket" 2>"$work/$side.log" &
    daemons+=($!)
done
for side in a b; do for _ in $(seq 200); do [ -S "$work/$side.socket" ] && break; sleep 0.05; done; done
echo
echo "| propagation between two cofferd on one machine | p50 | p99 | min | max |"
echo "| --- | --- | --- | --- | --- |"
"$bin/CofferSyncBenchmarks" propagation "$count" "$work/a.socket" "$work/b.socket" || { for side in a b; do tail -n 20 "$work/$side.log" >&2; done; exit 1; }
