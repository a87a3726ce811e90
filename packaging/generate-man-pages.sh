#!/usr/bin/env bash
# Writes the man pages of every executable to DIR, generated from the commands themselves by swift-argument-parser's
# manual generator (the GenerateManual plugin): `coffer.1`, one page per subcommand (`coffer.find-generic-password.1`…),
# `cofferd.1` and the helpers'. CONFIGURATION (release or debug, default release) is the build the plugin runs.
#
#   packaging/generate-man-pages.sh DIR [CONFIGURATION]
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 64; }
mkdir -p "$1"
output="$(cd "$1" && pwd)"
configuration="${2:-release}"
cd "$(dirname "$0")/.."
# A build folder of its own (.build-man): the plugin builds without --static-swift-stdlib, and alternating that with
# the static builds of build-deb.sh or install.sh in one folder breaks SwiftPM's incremental state.
swift package --scratch-path .build-man plugin generate-manual --multi-page --configuration "$configuration" >&2
found=0
for page in .build-man/plugins/GenerateManual/outputs/*/*.1; do
    [ -e "$page" ] || continue
    install -m 0644 "$page" "$output/"
    found=$((found + 1))
done
[ "$found" -gt 0 ] || { echo "generate-man-pages.sh: the plugin wrote no pages" >&2; exit 1; }
echo "$found pages in $output" >&2
