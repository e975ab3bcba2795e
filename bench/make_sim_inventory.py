#!/usr/bin/env python3
"""Writes a Gantry inventory for the simulation scale benchmark (bench/simulate_scale.sh).

NODES GPU nodes of 8 GPUs in four pools (H100, A100, L40S, shared-GPU L40S), four team queues
with deserved shares, and workload templates whose jobs add up to PODS pods: single-GPU and
shared-GPU inference pods, 2- and 8-GPU fine-tuning jobs, and 4- and 8-pod training gangs.
Arrivals are Poisson, sized so the cluster runs at about 80 % of its GPUs with queues forming
behind the gangs; durations are lognormal or exponential. Everything is scaled from NODES
and PODS, so smaller runs keep the same shape.

With --queues N (N >= 8) the four team queues become parents of leaf queues, N queues in all
(YuniKorn's scale run asks for a 50-queue tree): each team's share is split evenly over its leaves
and each workload template evenly over the leaves of its team.

With --volcano-tree as well, the parents sit under a queue named root and every queue carries its
volcano.sh/hierarchy path (weights: the teams' shares in percent), the two forms of a tree Volcano's
capacity plugin with enableHierarchy and hierarchical drf read.

With --topology the inventory declares its HyperNodes (racks of 16 nodes in two zones, from the
pools' layout) and the training gangs must run inside one HyperNode of tier 2 at most (hard
networkTopology), the input of network-topology-aware (bench/network-topology.conf).

usage: make_sim_inventory.py NODES PODS [--queues N [--volcano-tree]] [--topology] > inventory.yaml
"""
import argparse

ap = argparse.ArgumentParser()
ap.add_argument("nodes", type=int, nargs="?", default=10000)
ap.add_argument("pods", type=int, nargs="?", default=1000000)
ap.add_argument("--queues", type=int, default=0)
ap.add_argument("--volcano-tree", action="store_true")
ap.add_argument("--topology", action="store_true")
args = ap.parse_args()
if args.volcano_tree and not args.queues:
    ap.error("--volcano-tree needs --queues")
nodes, pods = args.nodes, args.pods
gpus = nodes * 8
teams = [("serving", 0.4), ("research", 0.25), ("training", 0.25), ("batch", 0.1)]
# The N - 4 leaf queues dealt out over the teams in turn.
leaves = {team: [] for team, _ in teams}
if args.queues:
    if args.queues < 2 * len(teams):
        ap.error("--queues needs at least 8 (four parents with a leaf each)")
    for k in range(args.queues - len(teams)):
        team = teams[k % len(teams)][0]
        leaves[team].append(f"{team}-{len(leaves[team]) + 1:02d}")

# name, queue, priority class, replicas, gpu per pod, gpu milli per pod (shared), cpu, memory,
# share of the pods, duration (YAML), checkpoint
mix = [
    ("infer-1g", "serving", "production", 1, 1, None, 8, "64Gi", 0.30,
     "{kind: exponential, mean: 40m}", None),
    ("infer-share", "serving", "production", 1, 1, 500, 4, "32Gi", 0.20,
     "{kind: exponential, mean: 30m}", None),
    ("finetune-2g", "research", "research", 1, 2, None, 16, "200Gi", 0.15,
     "{kind: lognormal, median: 1h, sigma: 0.5}", "20m"),
    ("finetune-8g", "research", "research", 1, 8, None, 64, "800Gi", 0.05,
     "{kind: lognormal, median: 2h, sigma: 0.5}", "30m"),
    ("train-4x8", "training", "research-high", 4, 8, None, 64, "800Gi", 0.15,
     "{kind: lognormal, median: 3h, sigma: 0.4}", "30m"),
    ("eval-8x1", "batch", "best-effort", 8, 1, None, 8, "64Gi", 0.15,
     "{kind: uniform, min: 10m, max: 50m}", None),
]
mean_minutes = {"infer-1g": 40, "infer-share": 30, "finetune-2g": 68, "finetune-8g": 136,
                "train-4x8": 196, "eval-8x1": 30}

# Total GPU-hours the workload asks for, and the time over which it arrives so that about 80 %
# of the GPUs are busy on average.
gpu_hours = 0.0
for name, _, _, replicas, gpu, milli, _, _, share, _, _ in mix:
    per_pod = gpu * (milli / 1000 if milli else 1)
    gpu_hours += pods * share * per_pod * mean_minutes[name] / 60
span_hours = gpu_hours / (0.8 * gpus)

out = []
w = out.append
w("apiVersion: gantry.io/v1alpha1")
w("kind: Inventory")
w(f"name: sim-scale-{nodes}-{pods}")
if args.topology:
    w("hyperNodes: true")
w("pools:")
quarter = nodes // 4
for i, (pool, model) in enumerate([("h100", "NVIDIA-H100"), ("a100", "NVIDIA-A100"),
                                   ("l40s", "NVIDIA-L40S"), ("l40s-shared", "NVIDIA-L40S")]):
    count = quarter if i < 3 else nodes - 3 * quarter
    w(f"  - name: {pool}")
    w(f"    count: {count}")
    w("    cpu: 192")
    w("    memory: 2000Gi")
    w(f"    gpu: {{model: {model}, count: 8}}")
    w("    layout: {zones: [zone-a, zone-b], nodesPerRack: 16}")
w("priorityClasses:")
w("  - {name: production, value: 100000}")
w("  - {name: research-high, value: 10000}")
w("  - {name: research, value: 1000, globalDefault: true}")
w("  - {name: best-effort, value: 0, preemptionPolicy: Never}")
w("queues:")
# With --volcano-tree the teams are indented under root and each queue names its path.
pad = "    " if args.volcano_tree else ""
if args.volcano_tree:
    w("  - name: root")
    w("    queues:")
def hierarchy(indent, *path_weights):
    if args.volcano_tree:
        path = "/".join(["root"] + [p for p, _ in path_weights])
        weights = "/".join(["1"] + [str(x) for _, x in path_weights])
        w(f"{indent}annotations: {{volcano.sh/hierarchy: {path}, volcano.sh/hierarchy-weights: '{weights}'}}")
for team, share in teams:
    w(f"{pad}  - name: {team}")
    w(f"{pad}    deserved: {{nvidia.com/gpu: {int(gpus * share)}}}")
    hierarchy(f"{pad}    ", (team, int(share * 100)))
    if leaves[team]:
        w(f"{pad}    queues:")
    for leaf in leaves[team]:
        w(f"{pad}      - name: {leaf}")
        w(f"{pad}        deserved: {{nvidia.com/gpu: {int(gpus * share) // len(leaves[team])}}}")
        hierarchy(f"{pad}        ", (team, int(share * 100)), (leaf, 1))
w("workloads:")
for name, team, pc, replicas, gpu, milli, cpu, mem, share, duration, checkpoint in mix:
    queues = leaves[team] or [team]
    for queue in queues:
        jobs = max(1, int(pods * share / len(queues) / replicas))
        w(f"  - name: {name if queue == team else name + '-' + queue}")
        if args.topology and name == "train-4x8":
            w("    networkTopology: {mode: hard, highestTierAllowed: 2}")
        w(f"    queue: {queue}")
        w(f"    priorityClass: {pc}")
        w(f"    jobs: {jobs}")
        w(f"    replicas: {replicas}")
        if milli:
            w(f"    gpu: {{count: {gpu}, milli: {milli}}}")
        else:
            w(f"    gpu: {gpu}")
        w(f"    resources: {{cpu: {cpu}, memory: {mem}}}")
        w(f"    arrival: {{ratePerHour: {jobs / span_hours:.3f}}}")
        w(f"    duration: {duration}")
        if checkpoint:
            w(f"    checkpoint: {checkpoint}")
print("\n".join(out))
