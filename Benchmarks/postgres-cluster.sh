# Sourced by the sync benchmark scripts: `start_postgres_cluster [SERVER-OPTIONS]` makes a private PostgreSQL cluster
# (Debian's postgresql, installed when missing; run as the postgres user when this script is root) in a new folder,
# listening on a Unix socket only, and sets: work (the folder), pg (the server's programs), as_owner, port,
# superuser_password, socket_host (the socket folder, percent-encoded) and admin (the superuser's connection URI).
# `stop_postgres_cluster` stops it and deletes the folder.
source "$(dirname "${BASH_SOURCE[0]}")/debian-packages.sh"

start_postgres_cluster() {
    local options="${1:-}"
    ensure_debian_packages postgresql
    pg="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
    work="$(mktemp -d /tmp/coffer-sync-bench-XXXXXX)"
    chmod 0755 "$work"
    as_owner=()
    if [ "$(id -u)" = 0 ]; then as_owner=(runuser -u postgres --); fi
    mkdir -m 0700 "$work/data" "$work/socket"
    if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$work/data" "$work/socket"; fi
    superuser_password="$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
    printf '%s' "$superuser_password" > "$work/pw"; chmod 0644 "$work/pw"
    "${as_owner[@]}" "$pg/initdb" -D "$work/data" -U coffer_admin --pwfile="$work/pw" --auth=scram-sha-256 --locale=C --encoding=UTF8 --no-instructions >/dev/null
    rm -f "$work/pw"
    port=$(( 20000 + RANDOM % 20000 ))
    "${as_owner[@]}" "$pg/pg_ctl" -D "$work/data" -l "$work/data/log" -o "-k $work/socket -c listen_addresses='' -p $port $options" -w start >/dev/null
    socket_host="$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$work/socket")"
    admin="postgresql://coffer_admin@$socket_host:$port/postgres"
}

stop_postgres_cluster() {
    "${as_owner[@]}" "$pg/pg_ctl" -D "$work/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
