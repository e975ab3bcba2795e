#!/usr/bin/env python3
"""Turns a generator config of Kueue's scheduler performance test (test/performance/scheduler/
configs/*/generator.yaml in kubernetes-sigs/kueue) into a snapshot `gantry simulate --profile kueue`
runs: the ResourceFlavor, Topology and nodes, one ClusterQueue + Namespace + LocalQueue per queue
of each cohort, and every Workload with its creation time as gantry.io/arrival and its running time
as gantry.io/duration.

    bench/kueue/perf_snapshot.py GENERATOR.yaml [--nodes N] > snapshot.yaml

Kueue's own run has no nodes outside TAS (a minimal Kueue admits, a test controller finishes each
workload its running time after admission). Gantry places the pods of an admitted workload, so the
baseline gets --nodes nodes (default 12) of 96 CPUs, more than all ClusterQueues' nominal quota
(600 CPUs), so that quota alone decides. Needs PyYAML (python3-yaml).
"""
import argparse
import sys

import yaml


def ms(v):
    return f"{int(v) / 1000:g}s"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("config")
    ap.add_argument("--nodes", type=int, default=12)
    a = ap.parse_args()
    cfg = yaml.safe_load(open(a.config))
    docs = []
    rf = cfg.get("resourceFlavor") or {"name": "rf"}
    topo = cfg.get("topology")
    if topo:
        levels = topo["levels"]
        node_level = levels[-1]
        cap = node_level.get("capacity") or {}
        cpu, mem = str(cap.get("cpu", "96")), str(cap.get("memory", "256Gi"))

        def nodes(i, values):
            if i == len(levels):
                name = "node" + "".join("-" + v[0] + v.split("-")[1] for v in values)
                labels = {"tas-node-group": "tas"}
                for lvl, v in zip(levels, values):
                    labels[lvl["nodeLabel"]] = v
                if "kubernetes.io/hostname" not in labels:
                    labels["kubernetes.io/hostname"] = name
                docs.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels},
                             "status": {"allocatable": {"cpu": cpu, "memory": mem, "pods": "110"},
                                        "capacity": {"cpu": cpu, "memory": mem, "pods": "110"}}})
                return
            for k in range(levels[i]["count"]):
                nodes(i + 1, values + [f"{levels[i]['name']}-{k}"])

        nodes(0, [])
        docs.append({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Topology", "metadata": {"name": topo["name"]},
                     "spec": {"levels": [{"nodeLabel": l["nodeLabel"]} for l in levels]}})
    else:
        for k in range(a.nodes):
            name = f"node-{k}"
            docs.append({"apiVersion": "v1", "kind": "Node",
                         "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
                         "status": {"allocatable": {"cpu": "96", "memory": "256Gi", "pods": "110"},
                                    "capacity": {"cpu": "96", "memory": "256Gi", "pods": "110"}}})
    flavor = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor", "metadata": {"name": rf["name"]},
              "spec": {}}
    if rf.get("topologyName"):
        flavor["spec"] = {"nodeLabels": {rf["nodeLabel"]: "tas"}, "topologyName": rf["topologyName"]}
    docs.append(flavor)
    workloads = []
    for cset in cfg["cohorts"]:
        for ci in range(cset["count"]):
            cohort = f"{cset['className']}-{ci}"
            for qsi, qset in enumerate(cset["queuesSets"]):
                for qi in range(qset["count"]):
                    cq = f"{qset['className']}-{qsi}-{qi}-{cohort}"
                    quota = {"name": "cpu", "nominalQuota": str(qset["nominalQuota"])}
                    if qset.get("borrowingLimit") is not None:
                        quota["borrowingLimit"] = str(qset["borrowingLimit"])
                    docs.append({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
                                 "metadata": {"name": cq, "labels": {
                                     "kueue.x-k8s.io/performance-scheduler-class": qset["className"]}},
                                 "spec": {"cohortName": cohort, "namespaceSelector": {},
                                          "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [
                                              {"name": rf["name"], "resources": [quota]}]}],
                                          "preemption": {"reclaimWithinCohort": qset.get("reclaimWithinCohort", "Never"),
                                                         "withinClusterQueue": qset.get("withinClusterQueue", "Never")}}})
                    docs.append({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": cq}})
                    docs.append({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
                                 "metadata": {"name": cq, "namespace": cq}, "spec": {"clusterQueue": cq}})
                    # Each workloads set creates its workloads one interval apart, the sets in parallel.
                    for wsi, wset in enumerate(qset["workloadsSets"]):
                        step = 0
                        for si in range(wset["count"]):
                            for ti, t in enumerate(wset["workloads"]):
                                step += 1
                                created = step * wset["creationIntervalMs"]
                                pods = t.get("podCount") or 1
                                ps = {"name": "main", "count": pods, "template": {"spec": {
                                    "restartPolicy": "Never",
                                    "containers": [{"name": "c", "resources": {"requests": {"cpu": str(t["request"])}}}]}}}
                                if t.get("tasLevel"):
                                    kind = t.get("tasConstraint")
                                    req = {}
                                    if kind == "required":
                                        req["required"] = t["tasLevel"]
                                    elif kind == "preferred":
                                        req["preferred"] = t["tasLevel"]
                                    elif kind == "balanced":
                                        req["podSetSliceRequiredTopology"] = t["tasLevel"]
                                        if t.get("sliceSize"):
                                            req["podSetSliceSize"] = t["sliceSize"]
                                    ps["topologyRequest"] = req
                                workloads.append((created, {
                                    "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
                                    "metadata": {"name": f"{t['className']}-{wsi}-{si}-{ti}", "namespace": cq,
                                                 "labels": {"kueue.x-k8s.io/performance-scheduler-class": t["className"]},
                                                 "annotations": {"gantry.io/arrival": ms(created),
                                                                 "gantry.io/duration": ms(t["runtimeMs"])}},
                                    "spec": {"queueName": cq, "priority": t.get("priority", 0), "podSets": [ps]}}))
    workloads.sort(key=lambda x: x[0])
    docs.extend(w for _, w in workloads)
    yaml.safe_dump_all(docs, sys.stdout, sort_keys=False, width=1000)


if __name__ == "__main__":
    main()
