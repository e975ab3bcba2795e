#!/usr/bin/env bash
# Scale benchmark of the time-based simulator (issue 4): `gantry simulate` on a synthetic inventory
# of NODES GPU nodes (8 GPUs each) and workload templates adding up to PODS pods (see
# bench/make_sim_inventory.py), timed as a whole process with /usr/bin/time -v. Prints the wall
# and CPU time, the peak resident memory and the peak memory per pod. Targets: 10,000 nodes and
# 1,000,000 pods in under 30 s on one core, under 200 bytes per pod.
#
#   bench/simulate_scale.sh [NODES [PODS [extra gantry simulate options, e.g. --horizon 1h]]]
#
# QUEUES=N in the environment gives the inventory a tree of N queues (make_sim_inventory.py
# --queues); YuniKorn's scale run: QUEUES=50 bench/simulate_scale.sh 10000 1000000 --profile yunikorn
#
# Run it alone on the machine (it is single-threaded); build first with ./scripts/build.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${GANTRY_BUILD_DIR:-$root/build}"
gantry="$build/studio/gantry"
nodes="${1:-10000}"
pods="${2:-1000000}"
shift $(( $# > 2 ? 2 : $# ))
[ -x "$gantry" ] || { echo "build gantry first (./scripts/build.sh)" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$root/bench/make_sim_inventory.py" "$nodes" "$pods" ${QUEUES:+--queues "$QUEUES"} > "$work/inventory.yaml"
/usr/bin/time -v "$gantry" simulate "$work/inventory.yaml" --json "$@" > "$work/result.json" 2> "$work/time.txt" || {
    cat "$work/time.txt" >&2
    exit 1
}
python3 - "$work/result.json" "$work/time.txt" "$nodes" "$pods" <<'PY'
import json, re, sys
result = json.load(open(sys.argv[1]))
times = open(sys.argv[2]).read()
def field(name):
    m = re.search(re.escape(name) + r": (.*)", times)
    return m.group(1).strip() if m else "?"
wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
parts = [float(p) for p in wall.split(":")]
seconds = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
rss_kb = int(field("Maximum resident set size (kbytes)"))
pods_total = result["pods"]["total"]
print(f"nodes {sys.argv[3]}, pods {pods_total} in {result['jobs']['total']} jobs, "
      f"simulated {result['end_seconds'] / 3600:.1f} h")
print(f"jobs arrived {result['jobs']['arrived']}, started {result['jobs']['started']}, "
      f"completed {result['jobs']['completed']}; sessions {result['sessions']}, "
      f"cycles skipped {result['cycles_skipped']}")
print(f"mean GPU allocation {result['gpu']['mean_allocation_pct']:.1f} %, "
      f"wait p95 {result['wait_seconds']['p95']:.0f} s")
print(f"wall {seconds:.2f} s, user {field('User time (seconds)')} s, "
      f"sys {field('System time (seconds)')} s")
print(f"peak RSS {rss_kb / 1024:.1f} MiB = {rss_kb * 1024 / max(pods_total, 1):.0f} bytes per pod")
PY
