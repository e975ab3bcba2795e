#!/usr/bin/env bash
# Command 1 of the README: install what is missing, build, and open the studio on the bundled sample.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
build="${GANTRY_BUILD_DIR:-$root/build}"
sample="$(find "$root/resources/samples" -maxdepth 1 -type f | LC_ALL=C sort | head -n 1)"
echo "Opening $sample"
exec "$build/studio/gantry-studio" "$sample" "$@"
