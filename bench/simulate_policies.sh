#!/usr/bin/env bash
# The scale benchmark under several policies (issue 19): `gantry simulate` on the inventory of
# bench/make_sim_inventory.py NODES PODS, once with the inventory's own policy (plain: enqueue,
# allocate, backfill) and once with each --conf FILE (default bench/preempt-reclaim.conf: preempt
# and reclaim enabled, as operators run them). With --tree the inventory has a 50-queue tree under
# a queue named root with volcano.sh/hierarchy paths (make_sim_inventory.py --queues 50
# --volcano-tree), which bench/capacity-hierarchy.conf and bench/hierarchical-drf.conf need; with
# --topology it has HyperNodes and hard-topology training gangs (make_sim_inventory.py --topology),
# which bench/network-topology.conf needs. Each run is timed as a whole process with
# /usr/bin/time -v; prints both wall and CPU times (on a shared machine the CPU time is the
# steadier), their ratios over plain, each run's peak memory per pod and how many pods each run
# evicted, so that a fast run that evicts nothing is seen for what it is.
# Targets on a 2-core machine: 1,000,000 pods in under 30 s plain and under 60 s with preempt and
# reclaim; with --horizon 8h, preempt and reclaim within 3x plain; under 200 bytes per pod.
#
#   bench/simulate_policies.sh [NODES [PODS [--tree] [--topology] [--conf FILE]...
#                              [extra gantry simulate options, e.g. --horizon 8h]]]
#   e.g. bench/simulate_policies.sh 10000 1000000 --tree --conf bench/capacity-hierarchy.conf \
#        --conf bench/hierarchical-drf.conf --horizon 8h
#
# GANTRY_TIMEOUT (seconds, default 900) bounds each run. Run it alone on the machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${GANTRY_BUILD_DIR:-$root/build}"
gantry="$build/studio/gantry"
nodes="${1:-10000}"
pods="${2:-1000000}"
shift $(($# > 2 ? 2 : $#))
tree=()
topology=()
confs=()
while [ $# -gt 0 ]; do
    case "$1" in
    --tree) tree=(--queues 50 --volcano-tree) ;;
    --topology) topology=(--topology) ;;
    --conf) confs+=("$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"); shift ;;
    *) break ;;
    esac
    shift
done
[ ${#confs[@]} -gt 0 ] || confs=("$root/bench/preempt-reclaim.conf")
limit="${GANTRY_TIMEOUT:-900}"
[ -x "$gantry" ] || { echo "build gantry first (./scripts/build.sh)" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$root/bench/make_sim_inventory.py" "$nodes" "$pods" "${tree[@]}" "${topology[@]}" >"$work/inventory.yaml"

run() { # NAME [options]
    local name="$1"
    shift
    local rc=0
    /usr/bin/time -v timeout "$limit" "$gantry" simulate "$work/inventory.yaml" --json "$@" \
        >"$work/$name.json" 2>"$work/$name.time" || rc=$?
    echo "$rc" >"$work/$name.rc"
}
run plain "$@"
names=(plain)
for conf in "${confs[@]}"; do
    name="$(basename "$conf" .conf)"
    run "$name" --scheduler-conf "$conf" "$@"
    names+=("$name")
done

python3 - "$work" "$nodes" "$limit" "${names[@]}" <<'PY'
import json, re, sys
work, nodes, limit, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def measure(name):
    times = open(f"{work}/{name}.time").read()
    def field(label):
        m = re.search(re.escape(label) + r": (.*)", times)
        return m.group(1).strip() if m else "0"
    parts = [float(p) for p in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")]
    wall = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    rc = int(open(f"{work}/{name}.rc").read())
    result = json.load(open(f"{work}/{name}.json")) if rc == 0 else None
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    return wall, cpu, int(field("Maximum resident set size (kbytes)")), rc, result
rows = {name: measure(name) for name in names}
for name, (wall, cpu, rss_kb, rc, result) in rows.items():
    if result is None:
        print(f"{name:20} did not finish (exit {rc}; {limit} s bound) after {wall:.2f} s wall, {cpu:.2f} s cpu")
        continue
    pods = result["pods"]["total"]
    print(f"{name:20} wall {wall:8.2f} s  cpu {cpu:8.2f} s  peak {rss_kb / 1024:7.1f} MiB = "
          f"{rss_kb * 1024 / max(pods, 1):4.0f} bytes/pod  simulated {result['end_seconds'] / 3600:5.1f} h  "
          f"sessions {result['sessions']}  placed at end {result['pods']['placed_at_end']}  "
          f"evicted pods {result['preemption']['pod_evictions']}")
pw, pc, _, prc, _ = rows["plain"]
for name in names[1:]:
    ew, ec, _, erc, _ = rows[name]
    note = "" if prc == 0 and erc == 0 else " (at least; a run did not finish)"
    print(f"nodes {nodes}: {name} / plain = {ew / max(pw, 1e-9):.2f} wall, "
          f"{ec / max(pc, 1e-9):.2f} cpu{note}")
PY
