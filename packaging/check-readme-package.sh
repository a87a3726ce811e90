#!/usr/bin/env bash
# Builds and runs a package made of exactly what the README shows: its `Package.swift` lines (the first ```swift
# block of "Apple's API on Linux"), with Coffer cloned beside it as `coffer`, and its `import Security` example (the
# second block) as the program, which then prints what it stored and read back. Exits non-zero, saying where, when
# the snippet does not resolve, does not build, or the program does not read back its secret.
# Takes a few minutes: the sample builds Coffer's Security module and its dependencies from scratch.
#
#   packaging/check-readme-package.sh [--keep]
set -euo pipefail
repository="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
[ "${1:-}" = --keep ] && echo "working in $work" || trap 'rm -rf "$work"' EXIT

# The blocks of the section, in order.
block() {
    awk -v wanted="$1" '
        /^## Apple.s API on Linux/ {section = 1; next}
        section && /^## / {exit}
        section && /^```swift/ {count++; inside = (count == wanted); next}
        inside && /^```/ {inside = 0; next}
        inside {print}' "$repository/README.md"
}

git clone -q "$repository" "$work/coffer"
mkdir -p "$work/MyApp/Sources/MyApp"
{
    echo '// swift-tools-version:6.0'
    echo 'import PackageDescription'
    echo 'let package = Package('
    echo '    name: "MyApp",'
    block 1 | grep -v '^// Package.swift' | sed 's/^/    /'
    echo ')'
} > "$work/MyApp/Package.swift"
{
    block 2
    echo 'print("status \(status), read back: \(String(decoding: secret ?? Data(), as: UTF8.self))")'
} > "$work/MyApp/Sources/MyApp/main.swift"

cd "$work/MyApp"
swift build
output="$(COFFER_HOME="$work/keychain" swift run --skip-build MyApp)"
echo "$output"
[ "$output" = "status 0, read back: s3cret" ] || { echo "check-readme-package.sh: unexpected output" >&2; exit 1; }
echo "the README's Package.swift and example build and run"
