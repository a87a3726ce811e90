#!/usr/bin/env bash
# Installs the Debian packages Coffer builds against, when any is missing: the SQLite headers GRDB links against,
# libsystemd's sd-bus (Biometry talks to fprintd through it) and OpenSSL's libcrypto (PKCS#12's legacy ciphers, the
# item store's blind indexes and row tags). Does nothing when all are present. As root it runs apt-get itself (a fresh
# container has no sudo); otherwise through sudo.
set -euo pipefail
packages=(libsqlite3-dev libsystemd-dev libssl-dev)
missing=()
for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[ "${#missing[@]}" -eq 0 ] && exit 0
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y "${missing[@]}"
