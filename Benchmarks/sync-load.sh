#!/usr/bin/env bash
# Sync under load: ACCOUNTS accounts of DEVICES simulated devices each (every device a keychain of its own with its
# background sync and listening connection) against one private PostgreSQL cluster, while items are added on random
# devices at RATE per second for SECONDS. Prints Markdown rows for BENCHMARKS.md: deliveries, losses, propagation and
# CPU per change. Exits non-zero when a device misses an item.
# Usage: Benchmarks/sync-load.sh BIN_DIR [ACCOUNTS] [DEVICES] [RATE] [SECONDS]   (release build of CofferSyncBenchmarks)
set -euo pipefail
bin="$1"
accounts="${2:-100}"
devices="${3:-5}"
rate="${4:-50}"
seconds="${5:-120}"
source "$(dirname "$0")/postgres-cluster.sh"
# One connection per device, and a few for the administrator.
start_postgres_cluster "-c max_connections=$(( accounts * devices + 20 ))"
trap stop_postgres_cluster EXIT
echo "PostgreSQL $(basename "$(dirname "$pg")") on a Unix socket, $(nproc) cores"
echo
COFFER_BENCH_ADMIN_DSN="$admin" PGPASSWORD="$superuser_password" COFFER_BENCH_PGDATA="$work/data" \
    "$bin/CofferSyncBenchmarks" load "$accounts" "$devices" "$rate" "$seconds"
