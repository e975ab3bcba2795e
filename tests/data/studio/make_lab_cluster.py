#!/usr/bin/env python3
"""Writes lab-cluster.yaml: a realistic 100-node GPU cluster as `kubectl get -o yaml` would show it
(nodes, priority classes, Volcano queues, PodGroups and pods), for the studio's tests.

Deterministic: the same script always writes the same file. Run from this folder:
    python3 make_lab_cluster.py > lab-cluster.yaml
"""
import random
import sys

import yaml

rng = random.Random(7)
docs = []

GIB = 1024 ** 3


def node(name, zone, block, rack, model, gpus, gpu_mem_mib, cpu, mem_gib, clique=None, pool="", taints=None,
         unschedulable=False, ready=True):
    labels = {
        "kubernetes.io/hostname": name,
        "topology.kubernetes.io/zone": zone,
        "topology.gantry.io/block": block,
        "topology.gantry.io/rack": rack,
        "node.kubernetes.io/instance-type": pool,
    }
    if model:
        labels["nvidia.com/gpu.product"] = model
        labels["nvidia.com/gpu.memory"] = str(gpu_mem_mib)
        labels["nvidia.com/gpu.count"] = str(gpus)
    if clique:
        labels["nvidia.com/gpu.clique"] = clique
    alloc = {"cpu": str(cpu), "memory": f"{mem_gib}Gi", "pods": "110"}
    if gpus:
        alloc["nvidia.com/gpu"] = str(gpus)
    spec = {}
    if taints:
        spec["taints"] = taints
    if unschedulable:
        spec["unschedulable"] = True
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": labels},
        "spec": spec,
        "status": {
            "capacity": dict(alloc),
            "allocatable": alloc,
            "conditions": [{"type": "Ready", "status": "True" if ready else "False"}],
        },
    }


nodes = []
gpu_taint = [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]
# Zone a: two blocks of H100 racks (8 nodes x 8 GPUs), one NVLink clique per rack.
for b in range(2):
    for r in range(3):
        rack = f"a{b}-r{r + 1:02d}"
        for i in range(8):
            name = f"h100-{rack}-{i + 1:02d}"
            nodes.append(node(name, "eu-west-1a", f"block-a{b}", rack, "NVIDIA-H100-80GB-HBM3", 8, 81559, 192, 2048,
                              clique=f"clique-{rack}", pool="p5.48xlarge", taints=gpu_taint))
# Zone b: A100 racks and L40S inference racks.
for r in range(4):
    rack = f"b0-r{r + 1:02d}"
    for i in range(8):
        nodes.append(node(f"a100-{rack}-{i + 1:02d}", "eu-west-1b", "block-b0", rack, "NVIDIA-A100-SXM4-40GB", 8, 40960,
                          96, 1152, pool="p4d.24xlarge", taints=gpu_taint))
for r in range(4):
    rack = f"b1-r{r + 1:02d}"
    for i in range(4):
        nodes.append(node(f"l40s-{rack}-{i + 1:02d}", "eu-west-1b", "block-b1", rack, "NVIDIA-L40S", 4, 46068, 48, 384,
                          pool="g6e.12xlarge", taints=gpu_taint))
for i in range(4):
    nodes.append(node(f"cpu-{i + 1:02d}", "eu-west-1b", "block-b1", "b1-r05", None, 0, 0, 64, 256, pool="m7i.16xlarge"))
# One cordoned node (maintenance) and one that stopped reporting.
nodes[13]["spec"]["unschedulable"] = True
nodes[40]["status"]["conditions"][0]["status"] = "False"
docs.extend(nodes)

for name, value, desc in [("production-critical", 100000, "Serving and SLO-bound training"),
                          ("research-high", 10000, "Deadline-bound research"),
                          ("research-default", 1000, "Everyday research jobs"),
                          ("best-effort", 10, "Preemptible sweeps and CI")]:
    docs.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name},
                 "value": value, "preemptionPolicy": "PreemptLowerPriority", "description": desc})


def queue(name, parent, weight, deserved, guarantee=None, capability=None, priority=0):
    spec = {"weight": weight, "reclaimable": True, "deserved": deserved}
    if parent:
        spec["parent"] = parent
    if guarantee:
        spec["guarantee"] = {"resource": guarantee}
    if capability:
        spec["capability"] = capability
    if priority:
        spec["priority"] = priority
    return {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": {"name": name}, "spec": spec,
            "status": {"state": "Open"}}


def res(gpu, cpu, mem_gib):
    return {"nvidia.com/gpu": str(gpu), "cpu": str(cpu), "memory": f"{mem_gib}Gi"}


# 384 H100 + 256 A100 + 64 L40S = 704 GPUs.
docs += [
    queue("research", "root", 4, res(352, 6000, 60000), capability=res(560, 9000, 90000)),
    queue("nlp", "research", 3, res(192, 3000, 30000), guarantee=res(64, 1000, 10000), capability=res(320, 5000, 50000)),
    queue("vision", "research", 2, res(112, 2000, 20000), guarantee=res(32, 600, 6000), capability=res(256, 4000, 40000)),
    queue("rl", "research", 1, res(48, 1000, 10000), capability=res(128, 2000, 20000)),
    queue("production", "root", 6, res(288, 5000, 50000), guarantee=res(160, 3000, 30000), priority=10),
    queue("inference", "production", 3, res(96, 2000, 20000), guarantee=res(64, 1200, 12000), priority=10),
    queue("training", "production", 3, res(192, 3000, 30000), guarantee=res(96, 1800, 18000), priority=5),
    queue("platform", "root", 1, res(64, 1000, 12000), capability=res(96, 2000, 20000)),
    queue("ci", "platform", 1, res(32, 600, 8000), capability=res(64, 1500, 15000)),
    queue("sandbox", "platform", 1, res(16, 400, 4000), capability=res(32, 800, 8000)),
]

gpu_tol = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
free = {n["metadata"]["name"]: int(n["status"]["allocatable"].get("nvidia.com/gpu", "0")) for n in nodes}
schedulable = [n["metadata"]["name"] for n in nodes
               if not n["spec"].get("unschedulable") and n["status"]["conditions"][0]["status"] == "True"]


def pod(name, ns, group, gpus, cpu, mem_gib, priority, node_name=None, role="worker", share_milli=None,
        model=None):
    requests = {"cpu": str(cpu), "memory": f"{mem_gib}Gi"}
    annotations = {"scheduling.k8s.io/group-name": group, "volcano.sh/task-spec": role}
    if share_milli:
        annotations["alibabacloud.com/gpu-milli"] = str(share_milli)
        annotations["alibabacloud.com/gpu-count"] = "1"
    elif gpus:
        requests["nvidia.com/gpu"] = str(gpus)
    spec = {"schedulerName": "volcano", "priorityClassName": priority, "tolerations": gpu_tol,
            "containers": [{"name": "main", "image": "registry.example.com/train:2.4",
                            "resources": {"requests": requests, "limits": dict(requests)}}]}
    if model:
        spec["nodeSelector"] = {"nvidia.com/gpu.product": model}
    status = {"phase": "Pending"}
    if node_name:
        spec["nodeName"] = node_name
        status["phase"] = "Running"
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": ns, "annotations": annotations},
            "spec": spec, "status": status}


def place(gpus, prefix):
    """Best fit on nodes of a GPU family: the node with the fewest free GPUs that still fits."""
    candidates = [n for n in schedulable if n.startswith(prefix) and free[n] >= gpus]
    if not candidates:
        return None
    best = min(candidates, key=lambda n: (free[n], n))
    free[best] -= gpus
    return best


def job(ns, name, queue_name, priority, pods, gpus_per_pod, prefix, running, min_member=None, cpu=24, mem=240,
        model=None):
    min_member = pods if min_member is None else min_member
    docs.append({"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
                 "metadata": {"name": name, "namespace": ns},
                 "spec": {"minMember": min_member, "queue": queue_name, "priorityClassName": priority},
                 "status": {"phase": "Running" if running else "Pending"}})
    for i in range(pods):
        where = place(gpus_per_pod, prefix) if running else None
        docs.append(pod(f"{name}-worker-{i}", ns, name, gpus_per_pod, cpu, mem, priority, where, model=model))


for ns in ["nlp", "vision", "rl", "serving", "training", "ci"]:
    docs.append({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})

# Running work: large pretraining gangs on H100, fine-tunes on A100, inference on L40S.
job("nlp", "llm-pretrain-70b", "nlp", "research-high", 16, 8, "h100", True)
job("nlp", "llm-sft-8b", "nlp", "research-default", 4, 8, "h100", True)
job("training", "recsys-train", "training", "production-critical", 8, 8, "h100", True)
job("vision", "vit-h-pretrain", "vision", "research-default", 8, 8, "a100", True)
for k in range(6):
    job("vision", f"detector-ft-{k}", "vision", "research-default", 1, rng.choice([2, 4]), "a100", True)
for k in range(10):
    job("rl", f"rl-sweep-{k}", "rl", "best-effort", 1, rng.choice([1, 1, 2]), "a100", True)
for k in range(8):
    job("serving", f"chat-inference-{k}", "inference", "production-critical", 2, 1, "l40s", True, cpu=8, mem=64)
for k in range(6):
    job("ci", f"ci-gpu-tests-{k}", "ci", "best-effort", 1, 1, "l40s", True, cpu=4, mem=32)
# GPU-sharing notebooks on L40S devices (Alibaba-style shares).
for k in range(10):
    name = f"notebook-{k}"
    docs.append({"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
                 "metadata": {"name": name, "namespace": "vision"},
                 "spec": {"minMember": 1, "queue": "sandbox", "priorityClassName": "best-effort"},
                 "status": {"phase": "Running"}})
    target = [n for n in schedulable if n.startswith("l40s") and free[n] > 0]
    node_name = target[k % len(target)] if target else None
    docs.append(pod(f"{name}-0", "vision", name, 0, 4, 32, "best-effort", node_name, share_milli=rng.choice([250, 500])))

# Waiting work: a pretraining gang too large for what is free, and new fine-tunes.
job("nlp", "llm-pretrain-405b", "nlp", "research-high", 32, 8, "h100", False)
job("training", "ranking-refresh", "training", "production-critical", 4, 8, "h100", False)
job("vision", "video-diffusion", "vision", "research-default", 6, 8, "a100", False, model="NVIDIA-A100-SXM4-40GB")
job("rl", "rl-sweep-big", "rl", "best-effort", 16, 1, "a100", False, min_member=4)

yaml.safe_dump_all(docs, sys.stdout, sort_keys=False, default_flow_style=False, width=200)
