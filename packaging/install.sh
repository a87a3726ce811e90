#!/usr/bin/env bash
# Installs cofferd as a system service: builds (release, static stdlib), creates the `coffer`
# system user, installs the binaries and systemd units, and starts the socket.
# Usage (as root, from the repository): packaging/install.sh [--no-start]
# Idempotent: running it again upgrades the binaries and leaves existing keychains untouched.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" != 0 ]; then
    echo "install.sh: run as root (it creates a system user and installs systemd units)" >&2
    exit 1
fi

swift build -c release --static-swift-stdlib --product cofferd
swift build -c release --static-swift-stdlib --product coffer
swift build -c release --static-swift-stdlib --product coffer-secret-service
bin="$(swift build -c release --show-bin-path)"

if ! getent passwd coffer >/dev/null; then
    useradd --system --home-dir /var/lib/coffer --no-create-home --shell /usr/sbin/nologin coffer
fi
# The trusted front end's identity: the CLI runs setgid to coffer-cli (a group with no members), which the
# daemon reads from SO_PEERCRED at connect (cofferd --trusted-group, default coffer-cli).
if ! getent group coffer-cli >/dev/null; then
    groupadd --system coffer-cli
fi

install -m 0755 "$bin/cofferd" /usr/local/bin/cofferd
install -m 0755 "$bin/coffer-secret-service" /usr/local/bin/coffer-secret-service
install -o root -g coffer-cli -m 2755 "$bin/coffer" /usr/local/bin/coffer
install -d -m 0700 -o coffer -g coffer /var/lib/coffer
install -d -m 0755 /usr/local/share/doc/coffer
install -m 0644 SECURITY.md README.md /usr/local/share/doc/coffer/
install -m 0644 packaging/systemd/cofferd.service packaging/systemd/cofferd.socket /etc/systemd/system/
install -d -m 0755 /etc/systemd/user
install -m 0644 packaging/systemd/cofferd-user.service /etc/systemd/user/cofferd.service
install -m 0644 packaging/systemd/coffer-prompt-agent.service /etc/systemd/user/coffer-prompt-agent.service
install -m 0644 packaging/systemd/coffer-ssh-agent.socket packaging/systemd/coffer-ssh-agent.service /etc/systemd/user/
install -m 0644 packaging/systemd/coffer-secret-service.service /etc/systemd/user/
# The Secret Service activation file is not put where the bus reads it: that would replace every user's
# gnome-keyring at once. Each user opts in by copying it to ~/.local/share/dbus-1/services/ (README).
install -d -m 0755 /usr/local/share/coffer/dbus-1/services
install -m 0644 packaging/dbus/org.freedesktop.secrets.service /usr/local/share/coffer/dbus-1/services/

if [ "${1:-}" != "--no-start" ] && command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    systemctl enable --now cofferd.socket
    echo "cofferd.socket is listening on /run/coffer/socket"
else
    echo "installed; start it with: systemctl enable --now cofferd.socket"
    echo "or by hand: runuser -u coffer -- /usr/local/bin/cofferd --state-dir /var/lib/coffer --socket /run/coffer/socket"
fi
