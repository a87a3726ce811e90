#!/usr/bin/env bash
# Builds a Debian package of Coffer: every executable in /usr/bin (coffer and coffer-sync setgid to coffer-cli, the trusted front
# end's group, through dpkg-statoverride), the system units (cofferd.socket enabled on install when systemd runs),
# the user units, the Secret Service activation file (not where the bus reads it: each user opts in, README), the
# bash completion, the man pages (packaging/generate-man-pages.sh) and the docs.
# Removing the package leaves the keychains in /var/lib/coffer and in the users' folders.
#
#   packaging/build-deb.sh [--bin DIR [--man DIR]] [--output DIR] [--uncompressed]
#
# --bin DIR takes executables already built there (release, static stdlib) instead of building them, and --man DIR
# man pages already generated (without it such a package has none); the package is written to the folder --output
# names (default: the current folder) as coffer_VERSION_ARCH.deb, whose path is printed. --uncompressed skips xz
# (for checking a package of debug executables quickly).
set -euo pipefail
repository="$(cd "$(dirname "$0")/.." && pwd)"
bin="" man="" output="$PWD" compression=xz
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin="$(cd "$2" && pwd)"; shift ;;
        --output) output="$(cd "$2" && pwd)"; shift ;;
        --man) man="$(cd "$2" && pwd)"; shift ;;
        --uncompressed) compression=none ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build-deb.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
    shift
done
cd "$repository"
executables=(coffer cofferd coffer-secret-service coffer-sync git-credential-coffer docker-credential-coffer coffer-lint)
built_here=no
if [ -z "$bin" ]; then
    # A build folder of its own: the man-page plugin builds release without --static-swift-stdlib in .build, and
    # alternating the two in one folder leaves SwiftPM's incremental state broken ("circular dependency between
    # modules").
    for name in "${executables[@]}"; do swift build -c release --static-swift-stdlib --disable-local-rpath --scratch-path .build-deb --product "$name"; done
    bin="$(swift build -c release --static-swift-stdlib --scratch-path .build-deb --show-bin-path)"
    built_here=yes
fi
for name in "${executables[@]}"; do
    [ -x "$bin/$name" ] || { echo "build-deb.sh: $bin/$name is missing; build it first or leave out --bin" >&2; exit 1; }
done

version="$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/Core/KeychainModel/Product/CofferVersion.swift)"
architecture="$(dpkg --print-architecture)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
if [ -z "$man" ] && [ "$built_here" = yes ]; then
    man="$stage/man"
    packaging/generate-man-pages.sh "$man" release
fi
root="$stage/coffer_${version}_$architecture"

install -d -m 0755 "$root/DEBIAN" "$root/usr/bin" "$root/lib/systemd/system" "$root/usr/lib/systemd/user" \
    "$root/usr/share/coffer/dbus-1/services" "$root/usr/share/bash-completion/completions" "$root/usr/share/doc/coffer" \
    "$root/usr/share/man/man1"
for name in "${executables[@]}"; do install -m 0755 "$bin/$name" "$root/usr/bin/$name"; done
for unit in cofferd.service cofferd.socket cofferd-tpm.socket; do
    sed -e "s|/usr/local/bin/|/usr/bin/|g" -e "s|/usr/local/share/doc/|/usr/share/doc/|g" "packaging/systemd/$unit" > "$root/lib/systemd/system/$unit"
done
for unit in coffer-prompt-agent.service coffer-ssh-agent.socket coffer-ssh-agent.service coffer-secret-service.service cofferd-user.service; do
    sed "s|/usr/local/bin/|/usr/bin/|g" "packaging/systemd/$unit" > "$root/usr/lib/systemd/user/$unit"
done
sed "s|/usr/local/bin/|/usr/bin/|g" packaging/dbus/org.freedesktop.secrets.service > "$root/usr/share/coffer/dbus-1/services/org.freedesktop.secrets.service"
"$bin/coffer" --generate-completion-script bash > "$root/usr/share/bash-completion/completions/coffer"
install -m 0644 README.md SECURITY.md "$root/usr/share/doc/coffer/"
if [ -n "$man" ]; then
    for page in "$man"/*.1; do [ -e "$page" ] && gzip -9n < "$page" > "$root/usr/share/man/man1/$(basename "$page").gz"; done
fi
find "$root" -type f ! -path "$root/DEBIAN/*" -exec chmod go-w {} +

# The C libraries the executables link (the Swift runtime is static), and those they open on first use (libcrypto
# through CLibCryptoLoader, libsystemd through CSystemdLoader), as Debian packages.
opened_on_demand=(libcrypto.so.3 libsystemd.so.0)
depends="$({
    for name in "${executables[@]}"; do ldd "$bin/$name"; done | awk '/=> \// {print $3}'
    for soname in "${opened_on_demand[@]}"; do ldconfig -p | awk -v soname="$soname" '$1 == soname {print $NF; exit}'; done
} | sort -u |
    while read -r library; do dpkg -S "$(readlink -f "$library")" 2>/dev/null || dpkg -S "$library" 2>/dev/null || true; done |
    cut -d: -f1 | sort -u | paste -sd, | sed 's/,/, /g')"

cat > "$root/DEBIAN/control" <<CONTROL
Package: coffer
Version: $version
Architecture: $architecture
Maintainer: Coffer developers <coffer@localhost>
Depends: ${depends:-libc6}, adduser
Recommends: libtss2-esys-3.0.2-0, libtss2-tctildr0, libtss2-mu0, libtss2-rc0, libtss2-tcti-device0
Section: admin
Priority: optional
Description: Apple's keychain for Linux: items, keys, certificates, per-program isolation
 Coffer gives Linux and server-side Swift what the iOS keychain gives: an encrypted item database with
 Apple's calls, names and error codes, a daemon (cofferd) that keeps one program's secrets from another's,
 a Secret Service provider, git and docker credential helpers and an ssh-agent.
CONTROL

cat > "$root/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
    getent passwd coffer >/dev/null || adduser --system --group --home /var/lib/coffer --no-create-home --shell /usr/sbin/nologin coffer
    # The kernel's TPM resource manager (/dev/tpmrm0) belongs to group tss: cofferd seals keychains with it.
    if getent group tss >/dev/null; then adduser coffer tss >/dev/null; fi
    getent group coffer-cli >/dev/null || addgroup --system coffer-cli
    dpkg-statoverride --list /usr/bin/coffer >/dev/null || dpkg-statoverride --update --add root coffer-cli 2755 /usr/bin/coffer
    dpkg-statoverride --list /usr/bin/coffer-sync >/dev/null || dpkg-statoverride --update --add root coffer-cli 2755 /usr/bin/coffer-sync
    install -d -m 0700 -o coffer -g coffer /var/lib/coffer
    if [ -d /run/systemd/system ]; then
        systemctl daemon-reload
        systemctl enable --now cofferd.socket cofferd-tpm.socket || true
    fi
fi
SCRIPT

cat > "$root/DEBIAN/prerm" <<'SCRIPT'
#!/bin/sh
set -e
if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
    systemctl disable --now cofferd.socket cofferd-tpm.socket cofferd.service 2>/dev/null || true
fi
SCRIPT

cat > "$root/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = remove ] || [ "$1" = purge ]; then
    dpkg-statoverride --list /usr/bin/coffer >/dev/null 2>&1 && dpkg-statoverride --remove /usr/bin/coffer || true
    dpkg-statoverride --list /usr/bin/coffer-sync >/dev/null 2>&1 && dpkg-statoverride --remove /usr/bin/coffer-sync || true
    [ -d /run/systemd/system ] && systemctl daemon-reload || true
fi
if [ "$1" = purge ]; then
    echo "coffer: the keychains in /var/lib/coffer and in users' folders are left in place" >&2
fi
SCRIPT
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"

package="$output/coffer_${version}_$architecture.deb"
dpkg-deb --root-owner-group "-Z$compression" --build "$root" "$package" >/dev/null
echo "$package"
