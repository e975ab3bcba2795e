#!/usr/bin/env bash
# CPU time (user + sys, median of RUNS) and peak memory of the Kueue profile's benchmarks with
# farm-bench: Kueue's scheduler performance scenarios `baseline` and `tas` (GENERATOR_DIR holds their
# generator configs, test/performance/scheduler/configs/{baseline,tas}/generator.yaml of
# kubernetes-sigs/kueue) and the scale run of 100 ClusterQueues in 10 cohorts (1,000 nodes /
# 100,000 pods and 10,000 nodes / 1,000,000 pods).
#
#   bench/kueue/bench.sh GENERATOR_DIR [RUNS]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
gantry="${GANTRY_BUILD_DIR:-$root/build}/studio/gantry"
configs="${1:?usage: bench/kueue/bench.sh GENERATOR_DIR [RUNS]}"
runs="${2:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for scenario in baseline tas; do
    python3 "$root/bench/kueue/perf_snapshot.py" "$configs/$scenario/generator.yaml" > "$work/$scenario.yaml"
done
python3 "$root/bench/kueue/scale_inventory.py" 1000 100000 > "$work/scale-1k.yaml"
python3 "$root/bench/kueue/scale_inventory.py" 10000 1000000 > "$work/scale-10k.yaml"
uptime
for scenario in baseline tas; do
    echo "== $scenario"
    farm-bench -n "$runs" --warmup 0 --timeout 3600 -- "$gantry" simulate "$work/$scenario.yaml" \
        --profile kueue --cycle 100ms --sample 1s --eviction-grace 0 --json
done
for scale in 1k 10k; do
    echo "== scale $scale"
    farm-bench -n "$runs" --warmup 0 --timeout 3600 -- "$gantry" simulate "$work/scale-$scale.yaml" \
        --profile kueue --json
done
uptime
