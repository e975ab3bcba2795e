#!/usr/bin/env bash
# Records the outputs a change of structure must not alter, into DIR, so two builds can be compared
# with `diff -r`: every conformance case (gantry cycle --json, with the suite's profile), `gantry trace` for each FGD policy on
# the default Alibaba trace (seed 42), `gantry simulate` on the bundled sample under each profile,
# on the scale benchmark's inventory (8 simulated hours) and under a preempt/reclaim policy, and
# `gantry export` of the sample for each target.
#
#   scripts/record-outputs.sh DIR [GANTRY]      (GANTRY defaults to build/studio/gantry)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: scripts/record-outputs.sh DIR [GANTRY]}"
gantry="${2:-${GANTRY_BUILD_DIR:-$root/build}/studio/gantry}"
[ -x "$gantry" ] || { echo "record-outputs: no gantry at $gantry (build first)" >&2; exit 1; }
mkdir -p "$out"/{conformance,trace,simulate,export}
sample="$root/resources/samples/gpu-cloud-east.yaml"
traces="$root/resources/traces/alibaba-gpu-v2023"

# Each run keeps stdout, stderr and the exit code: a changed warning is a changed output too.
record() {
    local name="$1"
    shift
    local rc=0
    "$@" >"$out/$name.out" 2>"$out/$name.err" || rc=$?
    echo "$rc" >"$out/$name.rc"
}

for dir in "$root"/tests/data/conformance/*/*/; do
    [ -f "$dir/snapshot.yaml" ] || continue
    suite="$(basename "$(dirname "$dir")")"
    case="$(basename "$dir")"
    args=(cycle --snapshot "$dir/snapshot.yaml" --json)
    [ -f "$dir/scheduler.yaml" ] && args+=(--scheduler-conf "$dir/scheduler.yaml")
    [ "$suite" = kube-default ] && args+=(--profile kube-default)
    if [ "${suite%%-*}" = yunikorn ]; then
        args+=(--profile yunikorn)
        passes="$(grep -o '"passes": *[0-9]*' "$dir/expected.json" | grep -o '[0-9]*$' || true)"
        [ -n "$passes" ] && args+=(--passes "$passes")
    fi
    case "$suite" in kueue*)
        args+=(--profile kueue)
        [ -f "$dir/config.yaml" ] && args+=(--scheduler-conf "$dir/config.yaml")
        ;;
    esac
    # GPUs as clusters expose them: the case's name says which command (dra-mig/README.md).
    if [ "${suite%%-*}" = dra ]; then
        case "$case" in
        *-inspect-*) args=(inspect "$dir/snapshot.yaml" --json) ;;
        *-kd-*) args+=(--profile kube-default) ;;
        *-yk-*) args+=(--profile yunikorn) ;;
        *-kueue-*) args+=(--profile kueue --scheduler-conf "$dir/config.yaml") ;;
        esac
    fi
    record "conformance/$suite-$case" "$gantry" "${args[@]}"
done

for policy in random dotprod gpuclustering gpupacking bestfit fgd; do
    record "trace/$policy" "$gantry" trace --nodes "$traces/openb_node_list_gpu_node.csv" \
        --pods "$traces/openb_pod_list_default.csv" --policy "$policy" --seed 42 --json
done

for profile in volcano kube-default yunikorn; do
    record "simulate/sample-$profile" "$gantry" simulate "$sample" --profile "$profile" --json
done
scale="$out/simulate/scale-inventory.yaml"
[ -f "$scale" ] || python3 "$root/bench/make_sim_inventory.py" 10000 1000000 >"$scale"
record "simulate/scale-8h" "$gantry" simulate "$scale" --horizon 8h --json
record "simulate/contended-preempt" "$gantry" simulate "$root/tests/data/sim/contended.yaml" \
    --scheduler-conf "$root/bench/preempt-reclaim.conf" --horizon 6h --json
rm -f "$scale"

for target in volcano yunikorn kueue; do
    rm -rf "$out/export/$target"
    record "export/$target-run" "$gantry" export --from "$sample" --target "$target" --out "$out/export/$target"
done
# Paths of the checkout and of DIR read the same from any clone.
find "$out" -type f | xargs sed -i -e "s|$root|ROOT|g" -e "s|$out|OUT|g"
echo "record-outputs: $(find "$out" -type f | wc -l) files in $out"
