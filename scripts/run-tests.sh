#!/usr/bin/env bash
# Command 2 of the README: build whatever is needed and run the whole test suite.
#   scripts/run-tests.sh [CTEST ARGS...]
#   scripts/run-tests.sh --sanitize [CTEST ARGS...]   the same under AddressSanitizer and
#       UndefinedBehaviorSanitizer, built in build-sanitize/ (GANTRY_BUILD_DIR overrides)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${1:-}" = "--sanitize" ]; then
    shift
    export GANTRY_BUILD_DIR="${GANTRY_BUILD_DIR:-$root/build-sanitize}"
    # Warnings are the normal build's business: under ASan, GCC 12's flow analysis reports false
    # maybe-uninitialized in libstdc++ (std::regex), so they do not stop this build.
    export GANTRY_CMAKE_ARGS="-DGANTRY_SANITIZE=ON -DGANTRY_WERROR=OFF"
    # Leaks are reported by the tests that own them; Qt's and fontconfig's caches live until exit.
    export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
fi
# What only the tests need (clang-format for the `format` test), when it is missing.
"$root/scripts/install-deps.sh" --test
"$root/scripts/build.sh"
build="${GANTRY_BUILD_DIR:-$root/build}"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" "$@"
