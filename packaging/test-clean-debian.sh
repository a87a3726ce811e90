#!/usr/bin/env bash
# The README's two commands on a clean Debian 12, as a new user meets them:
#
#   1. a fresh Debian 12 root made by debootstrap, with Swift installed as swift.org's tarball guide says (its
#      Debian 12 packages, then the toolchain this machine's `swift` runs from), and its apt lists emptied;
#   2. as root, no sudo installed, the clone in /root (mode 0700): the README's first command, then its second;
#   3. as a user with sudo, the clone in their home: the same two commands;
#   4. the README's Package.swift and example, built as a package of their own (packaging/check-readme-package.sh);
#   5. the Debian package (packaging/build-deb.sh) built there, installed, used and removed.
#
# Each step's output goes to LOG_DIR/STEP.log; the script stops at the first step that fails and says which.
# It takes an hour or more on 2 cores (two clean builds and two full test runs). Needs root and the network.
#
#   packaging/test-clean-debian.sh [--keep] [--root DIR] [--logs DIR] [--only make-root|root|user|package-snippet|package]
#
# --only runs one step in the root a full run left with --keep (or that `--only make-root` made).
set -euo pipefail
repository="$(cd "$(dirname "$0")/.." && pwd)"
keep=no chroot_dir="/var/tmp/coffer-clean-debian" logs="$PWD/clean-debian-logs" only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --keep) keep=yes ;;
        --root) chroot_dir="$2"; shift ;;
        --logs) logs="$2"; shift ;;
        --only) only="$2"; shift ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "test-clean-debian.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
    shift
done
[ "$(id -u)" = 0 ] || { echo "test-clean-debian.sh: run it as root (it makes a Debian root with debootstrap)" >&2; exit 1; }
toolchain="$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")"
mkdir -p "$logs"

step() {
    local name="$1"; shift
    echo "== $name"
    if ! "$@" > "$logs/$name.log" 2>&1; then
        echo "FAILED: $name (see $logs/$name.log)" >&2
        tail -20 "$logs/$name.log" >&2
        exit 1
    fi
}

# Where this machine fetches Swift packages from, when its git configuration points GitHub at local mirrors
# (`url.DIR.insteadOf`, as on machines without access to GitHub): the same folders, mounted read-only in the root,
# and the same rules in the root's /etc/gitconfig. Empty on a machine that fetches from GitHub itself.
mirrors="$(git config --get-regexp '^url\..*\.insteadof$' 2>/dev/null | sed -n 's/^url\.\(\/[^ ]*\)\.insteadof .*/\1/p' | sort -u)"

# Runs a shell command inside the root, with /proc, /sys, /dev, the network's name resolution and the package mirrors.
inside() {
    unshare --mount --fork /bin/sh -c '
        root="$1"; shift
        mount --make-rprivate /
        mount -t proc proc "$root/proc"
        mount --rbind /sys "$root/sys"
        mount --rbind /dev "$root/dev"
        mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
        mount -t tmpfs -o mode=0755 tmpfs "$root/run"
        cp /etc/resolv.conf "$root/etc/resolv.conf"
        for mirror in $MIRRORS; do
            mkdir -p "$root$mirror" && mount --rbind -o ro "$mirror" "$root$mirror"
        done
        exec chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$@"
    ' sh "$chroot_dir" "$@"
}
export MIRRORS="$mirrors"

# The README's two commands: the first two lines of its first ```sh block.
readme_commands() {
    awk '/^```sh/ {block = 1; next} block && /^```/ {exit} block {print}' "$repository/README.md" | head -2
}

make_root() {
    dpkg -s debootstrap >/dev/null 2>&1 || { apt-get update && apt-get install -y debootstrap; }
    rm -rf "$chroot_dir"
    debootstrap --variant=minbase bookworm "$chroot_dir" http://deb.debian.org/debian
    inside 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ca-certificates \
        binutils-gold gcc git libcurl4-openssl-dev libedit-dev libicu-dev libncurses-dev libpython3-dev libsqlite3-dev \
        libxml2-dev pkg-config tzdata uuid-dev python3 procps'
    mkdir -p "$chroot_dir/opt"
    cp -a "$toolchain" "$chroot_dir/opt/swift"
    git config --get-regexp '^url\..*\.insteadof$' 2>/dev/null | while read -r key value; do
        git config --file "$chroot_dir/etc/gitconfig" --add "$key" "$value"
    done
    # The mirrors belong to root; the user step's git must read them too.
    [ -z "$mirrors" ] || git config --file "$chroot_dir/etc/gitconfig" --add safe.directory '*'
    # As a fresh container has them: no lists until the first apt-get update.
    rm -rf "$chroot_dir"/var/lib/apt/lists/*
    inside 'swift --version'
}

# The README's commands as a script, run with `set -e` in the clone at $1.
write_commands() {
    { echo 'set -euo pipefail'; echo "cd $1"; readme_commands; } > "$chroot_dir$1/../readme-commands.sh"
}

run_as_root() {
    # As a container has it: no sudo (a user step run before this one installs it).
    inside 'if command -v sudo >/dev/null; then SUDO_FORCE_REMOVE=yes DEBIAN_FRONTEND=noninteractive apt-get purge -y sudo; fi'
    chmod 0700 "$chroot_dir/root"
    rm -rf "$chroot_dir/root/coffer"
    git clone -q "$repository" "$chroot_dir/root/coffer"
    write_commands /root/coffer
    inside '! command -v sudo && bash /root/readme-commands.sh'
}

run_as_user() {
    inside 'DEBIAN_FRONTEND=noninteractive apt-get install -y sudo || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y sudo)
        id alice >/dev/null 2>&1 || useradd --create-home --shell /bin/bash alice
        echo "alice ALL=(ALL) NOPASSWD: ALL" > /etc/sudoers.d/alice'
    rm -rf "$chroot_dir"/var/lib/apt/lists/* "$chroot_dir/home/alice/coffer"
    git clone -q "$repository" "$chroot_dir/home/alice/coffer"
    write_commands /home/alice/coffer
    inside 'chown -R alice: /home/alice/coffer /home/alice/readme-commands.sh
        runuser -u alice -- env HOME=/home/alice PATH="$PATH" bash /home/alice/readme-commands.sh'
}

# The root step's clone, brought to the repository's commit (a step run alone may follow an older root step).
update_root_clone() {
    git -C "$chroot_dir/root/coffer" pull -q --ff-only
}

readme_package() {
    update_root_clone
    inside 'cd /root/coffer && packaging/check-readme-package.sh'
}

install_package() {
    update_root_clone
    inside 'cd /root/coffer && packaging/build-deb.sh --output /root > /root/package-path' || return 1
    inside 'set -e
        package="$(tail -n 1 /root/package-path)"
        dpkg -i "$package" || (apt-get update && apt-get -f install -y)
        test "$(stat -c %a:%G /usr/bin/coffer)" = 2755:coffer-cli
        test "$(stat -c %a:%G /usr/bin/coffer-sync)" = 2755:coffer-cli
        coffer --version
        cofferd --version
        printf "pkg-secret\n" | COFFER_HOME=/tmp/pkg-keychain coffer add-generic-password -s pkg -a me -w
        test "$(COFFER_HOME=/tmp/pkg-keychain coffer find-generic-password -s pkg -a me -w)" = pkg-secret
        test -f /usr/share/bash-completion/completions/coffer
        test -f /usr/share/man/man1/coffer.1.gz && test -f /usr/share/man/man1/coffer.find-generic-password.1.gz
        dpkg -r coffer
        ! test -e /usr/bin/coffer
        ! dpkg-statoverride --list /usr/bin/coffer'
}

if [ -n "$only" ] && [ "$only" != make-root ] && [ ! -x "$chroot_dir/opt/swift/usr/bin/swift" ]; then
    echo "test-clean-debian.sh: no Debian root at $chroot_dir: make it with --only make-root (or a full run with --keep)" >&2
    exit 1
fi
case "$only" in
    "") step make-root make_root; step readme-as-root run_as_root; step readme-as-user run_as_user
        step readme-package readme_package; step debian-package install_package ;;
    package-snippet) step readme-package readme_package ;;
    make-root) step make-root make_root ;;
    root) step readme-as-root run_as_root ;;
    user) step readme-as-user run_as_user ;;
    package) step debian-package install_package ;;
    *) echo "test-clean-debian.sh: --only takes make-root, root, user, package-snippet or package" >&2; exit 64 ;;
esac
echo "all steps passed; logs in $logs"
[ "$keep" = yes ] || [ -n "$only" ] || rm -rf "$chroot_dir"
