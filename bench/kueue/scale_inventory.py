#!/usr/bin/env python3
"""Writes a Gantry inventory for the Kueue scale benchmark: NODES GPU nodes of 8 GPUs, 10 teams
(Volcano-style parent queues, which the Kueue mapping turns into 10 cohorts) of 10 queues each
(100 ClusterQueues, each deserving 1 % of the GPUs), and per queue two workload templates whose
jobs add up to PODS pods: single-GPU inference pods (half the pods) and 4-pod training jobs of 2
GPUs per pod. Arrivals are Poisson, sized so that about 80 % of the GPUs are busy on average.

usage: scale_inventory.py NODES PODS > inventory.yaml
       gantry simulate inventory.yaml --profile kueue --json
"""
import sys

nodes = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
pods = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
gpus = nodes * 8
teams, per_team = 10, 10
queues = teams * per_team

# name, replicas, GPUs per pod, share of the pods, mean minutes, duration (YAML)
mix = [("infer", 1, 1, 0.5, 30, "{kind: exponential, mean: 30m}"),
       ("train", 4, 2, 0.5, 60, "{kind: exponential, mean: 1h}")]
gpu_hours = sum(pods * share * gpu * minutes / 60 for _, _, gpu, share, minutes, _ in mix)
span_hours = gpu_hours / (0.8 * gpus)

out = []
w = out.append
w("apiVersion: gantry.io/v1alpha1")
w("kind: Inventory")
w(f"name: kueue-scale-{nodes}-{pods}")
w("pools:")
w("  - name: gpu")
w(f"    count: {nodes}")
w("    cpu: 192")
w("    memory: 2000Gi")
w("    gpu: {model: NVIDIA-H100, count: 8}")
w("priorityClasses:")
w("  - {name: batch, value: 100, globalDefault: true}")
w("queues:")
for t in range(teams):
    w(f"  - name: team-{t}")
    w(f"    deserved: {{nvidia.com/gpu: {gpus // teams}}}")
    w("    queues:")
    for q in range(per_team):
        w(f"      - name: team-{t}-q{q}")
        w(f"        deserved: {{nvidia.com/gpu: {gpus // queues}}}")
w("workloads:")
for t in range(teams):
    for q in range(per_team):
        for name, replicas, gpu, share, _, duration in mix:
            jobs = max(1, int(pods * share / replicas / queues))
            w(f"  - name: {name}-{t}-{q}")
            w(f"    namespace: team-{t}")
            w(f"    queue: team-{t}-q{q}")
            w(f"    jobs: {jobs}")
            w(f"    replicas: {replicas}")
            w(f"    gpu: {gpu}")
            w(f"    resources: {{cpu: {8 * gpu}, memory: {64 * gpu}Gi}}")
            w(f"    arrival: {{ratePerHour: {jobs / span_hours:.3f}}}")
            w(f"    duration: {duration}")
print("\n".join(out))
