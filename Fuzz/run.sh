#!/usr/bin/env bash
# Fuzzes the daemon protocol's decoders with libFuzzer (swiftc -sanitize=fuzzer,address).
#
#   Fuzz/run.sh [time SECONDS]   fuzz for SECONDS (default 60), starting from Fuzz/corpus
#   Fuzz/run.sh runs N           fuzz for N executions
#   Fuzz/run.sh check            replay every file of Fuzz/corpus once (a regression test; seconds)
#   Fuzz/run.sh merge            fold what the runs found into Fuzz/corpus: the seeds plus a smallest set of
#                                inputs that covers every edge (-set_cover_merge=1 -use_counters=0)
#   Fuzz/run.sh seeds            rewrite the seed-* files of Fuzz/corpus from Fuzz/Seeds/main.swift
#
# Builds into .build/fuzz (ignored by git); new inputs go to .build/fuzz/work, crashes to fuzz-artifacts/.
# Prints "fuzz: N executions in S s, no crash" at the end, or the crashing input's path and exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${COFFER_FUZZ_BUILD:-$ROOT/.build/fuzz}
WORK=$BUILD/work
CORPUS=$ROOT/Fuzz/corpus
ARTIFACTS=$ROOT/fuzz-artifacts
mkdir -p "$BUILD/instrumented" "$BUILD/plain" "$WORK" "$ARTIFACTS"

SWIFTC=$(command -v swiftc)
TOOLCHAIN_LIB=$(dirname "$(readlink -f "$SWIFTC")")/../lib
ARCH=$(uname -m)

# libFuzzer's runtime ships with the Swift toolchain (lib/clang/N/lib/linux). If a toolchain lacks it,
# use Debian's compiler-rt (libclang-rt-14-dev), linked by path, with the same coverage instrumentation.
SANITIZE=(-sanitize=fuzzer,address)
LINK_FUZZER=()
if [[ "${COFFER_FUZZ_RUNTIME:-}" == debian ]] || ! ls "$TOOLCHAIN_LIB"/clang/*/lib/linux/libclang_rt.fuzzer-"$ARCH".a >/dev/null 2>&1; then
    dpkg -s libclang-rt-14-dev >/dev/null 2>&1 || { apt-get update; apt-get install -y libclang-rt-14-dev; }
    RUNTIME=$(ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-"$ARCH".a | head -n 1)
    SANITIZE=(-sanitize=address -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp)
    LINK_FUZZER=(-Xlinker "$RUNTIME" -Xlinker -lstdc++)
fi

# module_folder NAME : the folder of a target's sources (Sources/LAYER/NAME).
module_folder() {
    local found
    found=$(find "$ROOT/Sources" -mindepth 2 -maxdepth 2 -type d -name "$1" | head -n 1)
    [ -n "$found" ] || { echo "run.sh: no target $1 under Sources" >&2; exit 1; }
    echo "$found"
}

# build_module DIR NAME FLAGS... : a static library and module for one target's sources.
build_module() {
    local dir=$1 name=$2
    shift 2
    local sources=()
    mapfile -t sources < <(find "$(module_folder "$name")" -name '*.swift' | sort)
    swiftc -O -wmo -parse-as-library -module-name "$name" "$@" -I "$dir" \
        -emit-module -emit-module-path "$dir/$name.swiftmodule" \
        -emit-library -static -o "$dir/lib$name.a" "${sources[@]}"
}

# build_c_shim DIR : the CCofferSystem C target (secure zeroing), as a static library with a module map.
build_c_shim() {
    local dir=$1
    mkdir -p "$dir/CCofferSystem"
    printf 'module CCofferSystem {\n    header "%s"\n    export *\n}\n' "$ROOT/Sources/CShims/CCofferSystem/include/CCofferSystem.h" \
        > "$dir/CCofferSystem/module.modulemap"
    clang -O2 -c "$ROOT/Sources/CShims/CCofferSystem/CCofferSystem.c" -I "$ROOT/Sources/CShims/CCofferSystem/include" -o "$dir/CCofferSystem.o"
    ar rcs "$dir/libCCofferSystem.a" "$dir/CCofferSystem.o"
}

build_libraries() {
    local dir=$1
    shift
    mkdir -p "$dir"
    build_c_shim "$dir"
    for module in KeychainModel Query KeychainOperations DaemonProtocol; do build_module "$dir" "$module" -I "$dir/CCofferSystem" "$@"; done
}

LIBS=(-lDaemonProtocol -lKeychainOperations -lQuery -lKeychainModel -lCCofferSystem)

build_fuzzer() {
    build_libraries "$BUILD/instrumented" "${SANITIZE[@]}"
    swiftc -O -parse-as-library -module-name ProtocolFuzzer "${SANITIZE[@]}" -I "$BUILD/instrumented" -I "$BUILD/instrumented/CCofferSystem" \
        -L "$BUILD/instrumented" "${LIBS[@]}" "${LINK_FUZZER[@]}" \
        "$ROOT"/Fuzz/Harness/*.swift -o "$BUILD/protocol-fuzzer" 2> >(grep -v "Cannot export local symbol '__asan" >&2)
}

# fuzz LIBFUZZER_FLAGS... : runs from the committed corpus, new inputs into $WORK; reports the count.
fuzz() {
    build_fuzzer
    local log=$BUILD/last-run.log status
    set +e +o pipefail
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$BUILD/protocol-fuzzer" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$ARTIFACTS/" "$@" "$WORK" "$CORPUS" 2>&1 | tee "$log" |
        grep -E "^#[0-9]+[[:space:]]+(pulse|DONE)|^Done|ERROR|crash|=="
    status=${PIPESTATUS[0]}
    set -e -o pipefail
    local done_line
    done_line=$(grep -E "^Done [0-9]+ runs" "$log" | tail -n 1 || true)
    if [[ $status -ne 0 || -z "$done_line" ]]; then
        echo "fuzz: FAILED (exit $status); see $log and $ARTIFACTS" >&2
        exit 1
    fi
    read -r _ runs _ _ seconds _ <<<"$done_line"
    echo "fuzz: $runs executions in $seconds s, no crash ($(date -u +%Y-%m-%d), $(swiftc --version 2>&1 | head -n 1))"
}

case "${1:-time}" in
    time) fuzz -max_total_time="${2:-60}" ;;
    runs) fuzz -runs="${2:?runs needs a count}" ;;
    check)
        build_fuzzer
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$BUILD/protocol-fuzzer" -runs=0 "$CORPUS" 2>&1 | tail -n 3
        echo "fuzz check: $(find "$CORPUS" -type f | wc -l) corpus inputs replayed, no crash"
        ;;
    merge)
        build_fuzzer
        rm -rf "$BUILD/merged" && mkdir -p "$BUILD/merged"
        cp "$CORPUS"/seed-* "$BUILD/merged/"
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$BUILD/protocol-fuzzer" -set_cover_merge=1 -use_counters=0 -max_len=4096 "$BUILD/merged" "$CORPUS" "$WORK" 2>&1 | tail -n 2
        find "$CORPUS" -type f ! -name 'seed-*' -delete
        cp "$BUILD/merged"/* "$CORPUS/"
        echo "corpus: $(find "$CORPUS" -type f | wc -l) files, $(du -sh "$CORPUS" | cut -f1)"
        ;;
    seeds)
        build_libraries "$BUILD/plain"
        swiftc -O -module-name SeedWriter -I "$BUILD/plain" -I "$BUILD/plain/CCofferSystem" -L "$BUILD/plain" "${LIBS[@]}" \
            "$ROOT/Fuzz/Seeds/main.swift" -o "$BUILD/seed-writer"
        "$BUILD/seed-writer" "$CORPUS"
        ;;
    *) sed -n '2,13p' "$0" >&2; exit 2 ;;
esac
