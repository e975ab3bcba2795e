#!/usr/bin/env bash
# Runs Gantry's fuzz targets (tests/fuzz/) with libFuzzer under AddressSanitizer and
# UndefinedBehaviorSanitizer, built with clang in build-fuzz/ (override with GANTRY_FUZZ_BUILD_DIR).
#   scripts/fuzz.sh                  every target, 60 seconds each
#   scripts/fuzz.sh TARGET [SECONDS] one target (snapshot, kubeconfig, ... see tests/fuzz/CMakeLists.txt)
#   scripts/fuzz.sh all SECONDS      every target, SECONDS each
# Each run starts from the seeds in tests/fuzz/corpus/TARGET/ and keeps what it learns in
# build-fuzz/corpus/TARGET/ (the repository's corpus is never written). A crash, leak, sanitizer report
# or uncaught exception stops the run and leaves its input in build-fuzz/crashes/TARGET/: fix the
# defect, then add the input to tests/fuzz/corpus/TARGET/ so CTest replays it from then on.
# Needs clang (Debian 12: apt install clang); scripts/install-deps.sh --dev installs it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${GANTRY_FUZZ_BUILD_DIR:-$root/build-fuzz}"
target="${1:-all}"
seconds="${2:-60}"
command -v clang++ >/dev/null 2>&1 || {
    echo "fuzz: clang++ is needed (Debian: apt install clang, or scripts/install-deps.sh --dev)" >&2
    exit 1
}
# Target names: both set(...) lists of tests/fuzz/CMakeLists.txt (their continuation lines too).
all=$(awk '/^set\(GANTRY_FUZZ_(PROFILE_)?TARGETS/ {on = 1; sub(/^set\(GANTRY_FUZZ_(PROFILE_)?TARGETS/, "")}
           on {line = $0; if (sub(/\).*/, "", line)) on = 0; printf "%s ", line}' \
      "$root/tests/fuzz/CMakeLists.txt" | tr -s ' \n' ' ')
if [ "$target" = all ]; then targets=($all); else targets=("$target"); fi
for t in "${targets[@]}"; do
    [[ " $all " == *" $t "* ]] || { echo "fuzz: no target '$t' (targets: $all)" >&2; exit 1; }
done
if [ ! -f "$build/CMakeCache.txt" ]; then
    generator=()
    command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
    command -v ccache >/dev/null 2>&1 && generator+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    echo "fuzz: configuring $build (clang, libFuzzer, ASan + UBSan)"
    mkdir -p "$build"
    CC=clang CXX=clang++ cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DGANTRY_FUZZ=ON -DGANTRY_WERROR=OFF -DGANTRY_BUILD_STUDIO=OFF >"$build/configure.log" 2>&1 || {
        cat "$build/configure.log"
        exit 1
    }
fi
build_targets=()
for t in "${targets[@]}"; do build_targets+=(--target "fuzz_$t"); done
cmake --build "$build" -j"${GANTRY_FUZZ_JOBS:-$(nproc)}" "${build_targets[@]}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
status=0
for t in "${targets[@]}"; do
    mkdir -p "$build/corpus/$t" "$build/crashes/$t"
    echo "fuzz: $t for $seconds s"
    # -rss_limit_mb bounds memory; -timeout makes a hang a finding.
    # cycle_<profile> and simulate_<profile> start from their command's seeds.
    seeds="$root/tests/fuzz/corpus/$t"
    [ -d "$seeds" ] || seeds="$root/tests/fuzz/corpus/${t%%_*}"
    "$build/tests/fuzz/fuzz_$t" "$build/corpus/$t" "$seeds" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$build/crashes/$t/" 2>&1 | tee "$build/fuzz-$t.log" | grep -E "^#|ERROR|SUMMARY|stat::|Done" || true
    if grep -qE "ERROR: |SUMMARY: |deadly signal|uncaught exception" "$build/fuzz-$t.log"; then
        echo "fuzz: $t found a defect; input in $build/crashes/$t/, log in $build/fuzz-$t.log" >&2
        status=1
    fi
done
exit $status
