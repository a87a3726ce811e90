#!/usr/bin/env bash
# Installs Coffer, or removes it.
#
#   packaging/install.sh [--no-start] [--bin DIR]              as root: the system service (cofferd as the `coffer`
#                                                             user), every executable in /usr/local/bin, the units
#   packaging/install.sh --user [--prefix DIR] [--no-start] [--bin DIR]
#                                                             as yourself, no root: the executables in ~/.local/bin
#                                                             (or DIR/bin), the per-user daemon and the user units
#   packaging/install.sh [--user [--prefix DIR]] --uninstall  removes what the same install put there; keychains stay
#
# --bin DIR takes executables already built there instead of building them (release, static stdlib); the man pages
# are generated when the script builds (packaging/generate-man-pages.sh), and taken from --man DIR with --bin.
# Idempotent: running it again upgrades the executables and leaves existing keychains untouched.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=system start=yes uninstall=no bin="" prefix="" man=""
while [ $# -gt 0 ]; do
    case "$1" in
        --user) mode=user ;;
        --no-start) start=no ;;
        --uninstall) uninstall=yes ;;
        --bin) bin="$2"; shift ;;
        --prefix) prefix="$2"; shift ;;
        --man) man="$2"; shift ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
    shift
done

executables=(coffer cofferd coffer-secret-service coffer-sync git-credential-coffer docker-credential-coffer coffer-lint)
user_units=(coffer-prompt-agent.service coffer-ssh-agent.socket coffer-ssh-agent.service coffer-secret-service.service cofferd-user.service)

if [ "$mode" = system ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "install.sh: the system service needs root (it creates a system user and installs units); use --user to install for yourself" >&2
        exit 1
    fi
    [ -n "$prefix" ] || prefix=/usr/local
    unit_dir=/etc/systemd/user
    bus_dir="$prefix/share/coffer/dbus-1/services"
    systemctl_user=()
else
    if [ "$(id -u)" = 0 ]; then
        echo "install.sh: --user installs for the user who runs it; run it as that user, not as root" >&2
        exit 1
    fi
    [ -n "$prefix" ] || prefix="$HOME/.local"
    unit_dir="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"
    bus_dir="${XDG_DATA_HOME:-$HOME/.local/share}/coffer/dbus-1/services"
    systemctl_user=(--user)
fi
bin_dir="$prefix/bin"
completion_dir="$prefix/share/bash-completion/completions"
man_dir="$prefix/share/man/man1"
doc_dir="$prefix/share/doc/coffer"

can_run_systemctl() {
    [ "$start" = yes ] && command -v systemctl >/dev/null && [ -d /run/systemd/system ] &&
        { [ "$mode" = system ] || systemctl --user show-environment >/dev/null 2>&1; }
}

if [ "$uninstall" = yes ]; then
    if can_run_systemctl; then
        if [ "$mode" = system ]; then systemctl disable --now cofferd.socket cofferd-tpm.socket cofferd.service 2>/dev/null || true; fi
        systemctl "${systemctl_user[@]}" daemon-reload 2>/dev/null || true
    fi
    for name in "${executables[@]}"; do rm -f "$bin_dir/$name"; done
    for unit in "${user_units[@]}"; do rm -f "$unit_dir/$unit"; done
    if [ "$mode" = system ]; then rm -f /etc/systemd/system/cofferd.service /etc/systemd/system/cofferd.socket /etc/systemd/system/cofferd-tpm.socket; fi
    rm -f "$bus_dir/org.freedesktop.secrets.service" "$completion_dir/coffer"
    for name in "${executables[@]}"; do rm -f "$man_dir/$name.1" "$man_dir/$name".*.1; done
    rm -rf "$doc_dir"
    echo "removed Coffer from $prefix; keychains are left where they are"
    exit 0
fi

if [ -z "$bin" ]; then
    for name in "${executables[@]}"; do swift build -c release --static-swift-stdlib --disable-local-rpath --product "$name"; done
    bin="$(swift build -c release --show-bin-path)"
    [ -n "$man" ] || { man="$(mktemp -d)"; packaging/generate-man-pages.sh "$man" release; }
fi
for name in "${executables[@]}"; do
    [ -x "$bin/$name" ] || { echo "install.sh: $bin/$name is missing; build it first or leave out --bin" >&2; exit 1; }
done

install -d -m 0755 "$bin_dir" "$completion_dir" "$doc_dir" "$unit_dir" "$bus_dir"
for name in cofferd coffer-secret-service git-credential-coffer docker-credential-coffer coffer-lint; do
    install -m 0755 "$bin/$name" "$bin_dir/$name"
done
if [ "$mode" = system ]; then
    if ! getent passwd coffer >/dev/null; then
        useradd --system --home-dir /var/lib/coffer --no-create-home --shell /usr/sbin/nologin coffer
    fi
    # The kernel's TPM resource manager (/dev/tpmrm0) belongs to group tss: cofferd seals keychains with it.
    if getent group tss >/dev/null; then usermod -a -G tss coffer; fi
    # The trusted front end's identity: the CLI runs setgid to coffer-cli (a group with no members), which the
    # daemon reads from SO_PEERCRED at connect (cofferd --trusted-group, default coffer-cli). coffer-sync, which
    # `coffer sync` runs, is one too: it sets up and joins the account of a keychain the daemon serves.
    getent group coffer-cli >/dev/null || groupadd --system coffer-cli
    install -o root -g coffer-cli -m 2755 "$bin/coffer" "$bin_dir/coffer"
    install -o root -g coffer-cli -m 2755 "$bin/coffer-sync" "$bin_dir/coffer-sync"
    install -d -m 0700 -o coffer -g coffer /var/lib/coffer
    sed "s|/usr/local/bin/|$bin_dir/|g" packaging/systemd/cofferd.service > /etc/systemd/system/cofferd.service
    install -m 0644 packaging/systemd/cofferd.socket /etc/systemd/system/cofferd.socket
    install -m 0644 packaging/systemd/cofferd-tpm.socket /etc/systemd/system/cofferd-tpm.socket
else
    install -m 0755 "$bin/coffer" "$bin_dir/coffer"
    install -m 0755 "$bin/coffer-sync" "$bin_dir/coffer-sync"
fi
# The units and the activation file name the executables where this install put them.
for unit in "${user_units[@]}"; do
    sed "s|/usr/local/bin/|$bin_dir/|g" "packaging/systemd/$unit" > "$unit_dir/$unit"
    chmod 0644 "$unit_dir/$unit"
done
# The Secret Service activation file is not put where the bus reads it: that would replace gnome-keyring at once.
# Each user opts in by copying it to ~/.local/share/dbus-1/services/ (README).
sed "s|/usr/local/bin/|$bin_dir/|g" packaging/dbus/org.freedesktop.secrets.service > "$bus_dir/org.freedesktop.secrets.service"
"$bin_dir/coffer" --generate-completion-script bash > "$completion_dir/coffer"
install -m 0644 SECURITY.md README.md "$doc_dir/"
if [ -n "$man" ]; then
    install -d -m 0755 "$man_dir"
    for page in "$man"/*.1; do [ -e "$page" ] && install -m 0644 "$page" "$man_dir/"; done
fi

if can_run_systemctl; then
    if [ "$mode" = system ]; then
        systemctl daemon-reload
        systemctl enable --now cofferd.socket cofferd-tpm.socket
        echo "installed in $prefix; cofferd.socket is listening on /run/coffer/socket"
    else
        systemctl --user daemon-reload
        echo "installed in $prefix; start the per-user daemon with: systemctl --user enable --now cofferd-user.service"
    fi
else
    echo "installed in $prefix"
    if [ "$mode" = system ]; then
        echo "start it with: systemctl enable --now cofferd.socket"
        echo "or by hand: runuser -u coffer -- $bin_dir/cofferd --state-dir /var/lib/coffer --socket /run/coffer/socket"
    fi
fi
case ":$PATH:" in *":$bin_dir:"*) ;; *) echo "note: $bin_dir is not on your PATH" ;; esac
