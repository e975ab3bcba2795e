#!/usr/bin/env bash
# Replays the FGD paper's whole table (17 task lists x 6 policies x seeds 42-51 = 1,020 runs) and
# prints every deviation from the authors' medians and per-seed rows. Extra arguments go to
# fgd_table (--policy NAME, --workload openb_pod_list_X, --quiet).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${GANTRY_BUILD_DIR:-$root/build}"
if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build" --target fgd_table -j"$(nproc)"
exec "$build/bench/fgd_table" --data "$root/resources/traces/alibaba-gpu-v2023" "$@"
