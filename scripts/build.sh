#!/usr/bin/env bash
# Configures (once) and builds Gantry into build/ (override with GANTRY_BUILD_DIR).
#   scripts/build.sh                  everything: libraries, CLI, studio, tests, benchmarks
#   scripts/build.sh TARGET...        only these targets and what they need (e.g. gantry-studio)
# A new build directory uses Ninja when it is installed; progress reads "building N of M".
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${GANTRY_BUILD_DIR:-$root/build}"
if [ ! -f "$build/CMakeCache.txt" ]; then
    generator=()
    command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
    echo "build: configuring $build (CMake${generator:+, Ninja})"
    mkdir -p "$build"
    # GANTRY_CMAKE_ARGS: extra options of a new build folder (run-tests.sh --sanitize sets it).
    # shellcheck disable=SC2086
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${generator[@]}" ${GANTRY_CMAKE_ARGS:-} \
        >"$build/configure.log" 2>&1 || {
        cat "$build/configure.log"
        echo "build: CMake configure failed (above; kept in $build/configure.log)" >&2
        exit 1
    }
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
export NINJA_STATUS="  building %f of %t: "
cmake --build "$build" -j"$(nproc)" "${targets[@]}"
