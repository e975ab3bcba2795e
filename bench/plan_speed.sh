#!/usr/bin/env bash
# Speed of `gantry plan` (issue 16), timed as whole processes with /usr/bin/time:
#   1. the bundled sample: a plan of at most 12 points (target: under 2 s), with --jobs 1 and
#      --jobs 2, and the speed-up between them;
#   2. the bench/simulate_scale.sh inventory (make_sim_inventory.py NODES PODS, default 10,000 nodes
#      and 100,000 pods): a plan of the h100 pool (target: under 60 s on 2 cores), with the default
#      3 seeds with --jobs 2 and --jobs 1 (the same output, checked), and with --seeds 1.
# Prints wall and CPU seconds, the points and simulations run, and the load average before each run:
# on a shared machine the wall time is only meaningful next to it.
#
#   bench/plan_speed.sh [NODES [PODS]]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${GANTRY_BUILD_DIR:-$root/build}"
gantry="$build/studio/gantry"
nodes="${1:-10000}"
pods="${2:-100000}"
[ -x "$gantry" ] || { echo "build gantry first (./scripts/build.sh)" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# run NAME ARGS...: one timed plan; prints a line and leaves NAME.wall for the speed-up.
run() {
    local name="$1"
    shift
    local load
    load="$(cut -d' ' -f1 /proc/loadavg)"
    /usr/bin/time -f "%e %U %S" -o "$work/$name.time" "$gantry" plan "$@" --json > "$work/$name.json"
    python3 - "$work/$name.json" "$work/$name.time" "$name" "$load" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
wall, user, sys_ = (float(x) for x in open(sys.argv[2]).read().split()[-3:])
points = len(d["points"])
runs = sum(len(p["seeds"]) for p in d["points"])
answer = d["answer"]
print(f"{sys.argv[3]:<18} answer {answer['nodes']:+d} (met {str(answer['met']).lower()}), "
      f"{points} points, {runs} simulations: wall {wall:.2f} s, CPU {user + sys_:.2f} s "
      f"(load average {sys.argv[4]})")
open(sys.argv[2] + ".wall", "w").write(str(wall))
PY
}

sample="$root/resources/samples/gpu-cloud-east.yaml"
sample_plan=("$sample" --node-type a100 --slo 'queue[detection].wait.p95<2h' --min -8 --max 8)
echo "== sample ($(basename "$sample")): ${sample_plan[*]:1}"
run sample-jobs-1 "${sample_plan[@]}" --jobs 1
run sample-jobs-2 "${sample_plan[@]}" --jobs 2
cmp -s "$work/sample-jobs-1.json" "$work/sample-jobs-2.json" && echo "same answer and points for --jobs 1 and 2" ||
    { echo "--jobs 1 and --jobs 2 differ" >&2; exit 1; }
python3 -c "import sys; a, b = (float(open(f).read()) for f in sys.argv[1:]); print(f'speed-up --jobs 1 -> 2: {a / b:.2f}x')" \
    "$work/sample-jobs-1.time.wall" "$work/sample-jobs-2.time.wall"

python3 "$root/bench/make_sim_inventory.py" "$nodes" "$pods" > "$work/scale.yaml"
scale_plan=("$work/scale.yaml" --node-type h100 --slo 'wait.p99<30m' --min -256 --max 256)
echo "== scale ($nodes nodes, $pods pods): ${scale_plan[*]:1}"
run scale-seeds-3 "${scale_plan[@]}" --jobs 2
run scale-seeds-3-j1 "${scale_plan[@]}" --jobs 1
cmp -s "$work/scale-seeds-3.json" "$work/scale-seeds-3-j1.json" && echo "same answer and points for --jobs 1 and 2" ||
    { echo "--jobs 1 and --jobs 2 differ" >&2; exit 1; }
python3 -c "import sys; a, b = (float(open(f).read()) for f in sys.argv[1:]); print(f'speed-up --jobs 1 -> 2 (scale, 3 seeds): {a / b:.2f}x')" \
    "$work/scale-seeds-3-j1.time.wall" "$work/scale-seeds-3.time.wall"
run scale-seeds-1 "${scale_plan[@]}" --jobs 2 --seeds 1
