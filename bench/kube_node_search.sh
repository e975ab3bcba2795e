#!/usr/bin/env bash
# kube-scheduler's percentageOfNodesToScore in `gantry simulate --profile kube-default` (issue 33):
# the same synthetic inventory (bench/make_sim_inventory.py) simulated twice, as kube-scheduler
# searches by default (from 100 nodes on it stops after numFeasibleNodesToFind nodes passed: 500 of
# 10,000) and with percentageOfNodesToScore: 100 (every feasible node scored, Gantry's behaviour
# before the search was emulated). Prints bench/simulate_scale.sh's figures for each run.
#
#   bench/kube_node_search.sh [NODES [PODS [extra gantry simulate options, e.g. --horizon 8h]]]
#       defaults: 10000 nodes, 100000 pods
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
nodes="${1:-10000}"
pods="${2:-100000}"
shift $(( $# > 2 ? 2 : $# ))
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/all-nodes.yaml" <<'YAML'
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
percentageOfNodesToScore: 100
YAML
echo "== kube-scheduler's default search (adaptive percentageOfNodesToScore)"
"$root/bench/simulate_scale.sh" "$nodes" "$pods" --profile kube-default "$@"
echo "== percentageOfNodesToScore: 100 (every feasible node scored)"
"$root/bench/simulate_scale.sh" "$nodes" "$pods" --profile kube-default --scheduler-conf "$work/all-nodes.yaml" "$@"
