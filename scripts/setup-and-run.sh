#!/usr/bin/env bash
# Command 1 of the README: install what is missing, build the studio (only what it needs: the test
# suites wait for command 2), and open it on the bundled sample. Each step says how long it took.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${GANTRY_BUILD_DIR:-$root/build}"
start=$SECONDS
step() { printf '\n== setup [%dm%02ds] %s\n' $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)) "$1"; }
step "1/3 installing the Debian packages Gantry needs (skipped when all are present)"
"$root/scripts/install-deps.sh"
step "2/3 building the studio into $build"
"$root/scripts/build.sh" gantry-studio
sample="$(find "$root/resources/samples" -maxdepth 1 -type f | LC_ALL=C sort | head -n 1)"
step "3/3 opening the studio on $sample (the CLI and tests build with scripts/run-tests.sh)"
exec "$build/studio/gantry-studio" "$sample" "$@"
