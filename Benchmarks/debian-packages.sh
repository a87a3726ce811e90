# Sourced by the benchmark scripts: `ensure_debian_packages NAME…` installs the Debian packages that are missing
# (after one `apt-get update`), and does nothing when every one is installed.
ensure_debian_packages() {
    local missing=() package
    for package in "$@"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        apt-get update >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
    fi
}
