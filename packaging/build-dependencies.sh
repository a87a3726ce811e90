#!/usr/bin/env bash
# Installs the Debian packages Coffer builds against, when any is missing: the SQLite headers GRDB links against,
# libsystemd's sd-bus (Biometry talks to fprintd through it), OpenSSL's libcrypto (PKCS#12's legacy ciphers, the
# item store's blind indexes and row tags), tpm2-tss's headers (the keystore's TPM; its libraries are loaded at run time) and the C++ standard library's headers (swift-nio-ssl's BoringSSL is C++;
# swift.org's list of Debian packages for Swift leaves them out). Does nothing when all are present. As root it runs
# apt-get itself (a fresh container has no sudo); otherwise through sudo.
set -euo pipefail
gcc_major="$(gcc -dumpversion 2>/dev/null | cut -d. -f1)"
packages=(libsqlite3-dev libsystemd-dev libssl-dev libtss2-dev "libstdc++-${gcc_major:-12}-dev")
missing=()
for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[ "${#missing[@]}" -eq 0 ] && exit 0
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y "${missing[@]}"
