#!/usr/bin/env bash
# kube-scheduler's DRA allocator at scale (issue 32): one `gantry cycle --profile kube-default` on a
# cluster whose GPUs only the NVIDIA DRA driver publishes (bench/make_dra_snapshot.py: NODES nodes of
# eight H100s, PODS pending pods claiming one or two GPUs each through templates). Prints the wall
# time, the peak memory and how many pods were bound and claims allocated.
#
#   bench/dra_cycle.sh [NODES [PODS]]      defaults: 1000 nodes, 4000 pods (every GPU asked for)
#   PROFILE=volcano bench/dra_cycle.sh ...   the same under Volcano's default configuration (its
#                                            predicates plugin allocates the claims)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
nodes="${1:-1000}"
pods="${2:-4000}"
gantry="${GANTRY:-$root/build/studio/gantry}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
profile="${PROFILE:-kube-default}"
scheduler=()
[ "$profile" = volcano ] && scheduler=(volcano)
python3 "$root/bench/make_dra_snapshot.py" "$nodes" "$pods" "${scheduler[@]}" > "$work/dra.yaml"
/usr/bin/time -f "%e s wall, %M KiB peak" -o "$work/time" \
    "$gantry" cycle --profile "$profile" --snapshot "$work/dra.yaml" --json > "$work/out.json" 2>/dev/null
python3 - "$work/out.json" "$nodes" "$pods" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
claims = f", {len(d['claims'])} claims allocated" if "claims" in d else ""
print(f"{sys.argv[2]} nodes, {sys.argv[3]} pods: {len(d['bindings'])} bound{claims}, "
      f"{len(d['pending'])} pending")
PY
cat "$work/time"
