#!/usr/bin/env python3
"""A snapshot of a DRA cluster for timing kube-scheduler's DRA allocator (bench/dra_cycle.sh).

usage: bench/make_dra_snapshot.py NODES PODS [SCHEDULER_NAME] > dra.yaml

NODES nodes whose eight H100s the NVIDIA DRA driver publishes (one pool and one ResourceSlice per
node, devices as deviceinfo.go names them), the chart's DeviceClass, one ResourceClaimTemplate for one
GPU and one for two, and PODS pending pods alternating between them (a seed-free, deterministic mix),
with SCHEDULER_NAME as their schedulerName when given (volcano: each pod a job of its own).
"""
import sys


def main():
    nodes, pods = int(sys.argv[1]), int(sys.argv[2])
    scheduler = f"  schedulerName: {sys.argv[3]}\n" if len(sys.argv) > 3 else ""
    out = sys.stdout
    out.write("apiVersion: v1\nkind: Namespace\nmetadata: {name: default}\n")
    out.write("---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.nvidia.com}\n"
              "spec:\n  selectors:\n  - cel: {expression: \"device.driver == 'gpu.nvidia.com' && "
              "device.attributes['gpu.nvidia.com'].type == 'gpu'\"}\n  extendedResourceName: nvidia.com/gpu\n")
    for count in (1, 2):
        out.write(f"---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\n"
                  f"metadata: {{name: gpus-{count}, namespace: default}}\n"
                  f"spec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n        exactly:\n"
                  f"          deviceClassName: gpu.nvidia.com\n          allocationMode: ExactCount\n"
                  f"          count: {count}\n")
    for n in range(nodes):
        name = f"h100-dra-{n:05d}"
        out.write(f"---\napiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels:\n"
                  f"    kubernetes.io/hostname: {name}\n    topology.kubernetes.io/zone: zone-{n % 4}\n"
                  f"status:\n  allocatable: {{cpu: '192', memory: 2Ti, pods: '110'}}\n"
                  f"  conditions: [{{type: Ready, status: 'True'}}]\n")
        out.write(f"---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: {name}-gpu}}\n"
                  f"spec:\n  driver: gpu.nvidia.com\n  nodeName: {name}\n"
                  f"  pool: {{name: {name}, generation: 1, resourceSliceCount: 1}}\n  devices:\n")
        for g in range(8):
            out.write(f"  - name: gpu-{g}\n    attributes:\n      type: {{string: gpu}}\n"
                      f"      productName: {{string: NVIDIA H100 80GB HBM3}}\n"
                      f"      uuid: {{string: GPU-{n:08x}-0000-4000-8000-{g:012x}}}\n"
                      f"    capacity:\n      memory: {{value: 81559Mi}}\n")
    for p in range(pods):
        count = 1 + p % 2
        out.write(f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: train-{p:06d}, namespace: default}}\n"
                  f"spec:\n{scheduler}  containers: [{{name: c, resources: {{requests: {{cpu: '4'}}, claims: [{{name: gpu}}]}}}}]\n"
                  f"  resourceClaims: [{{name: gpu, resourceClaimTemplateName: gpus-{count}}}]\n"
                  f"status: {{phase: Pending}}\n")


if __name__ == "__main__":
    main()
