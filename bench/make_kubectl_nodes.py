#!/usr/bin/env python3
"""Writes a `kubectl get nodes -o yaml` list as a real cluster returns it (labels, annotations,
conditions, 25 cached images per node), to measure snapshot import on realistic input.

    bench/make_kubectl_nodes.py 10000 > /tmp/nodes10k.yaml     # about 71 MB
    /usr/bin/time -f "%e s %M KB" build/studio/gantry inspect /tmp/nodes10k.yaml
"""
import random
import sys


def node(i, rnd):
    name = f"gpu-node-{i:05d}"
    images = "".join(
        f"""    - names:
      - registry.example.com/ml/image-{j}@sha256:{rnd.getrandbits(256):064x}
      - registry.example.com/ml/image-{j}:v1.{j}
      sizeBytes: {rnd.randint(10**8, 10**10)}
""" for j in range(25))
    return f"""- apiVersion: v1
  kind: Node
  metadata:
    annotations:
      node.alpha.kubernetes.io/ttl: "0"
      volumes.kubernetes.io/controller-managed-attach-detach: "true"
    creationTimestamp: "2026-01-0{i % 9 + 1}T10:00:00Z"
    labels:
      kubernetes.io/arch: amd64
      kubernetes.io/hostname: {name}
      kubernetes.io/os: linux
      node.kubernetes.io/instance-type: p5.48xlarge
      nvidia.com/gpu.count: "8"
      nvidia.com/gpu.memory: "81559"
      nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3
      topology.kubernetes.io/region: us-east-1
      topology.kubernetes.io/zone: us-east-1{"abc"[i % 3]}
      topology.gantry.io/block: block-{i // 256}
      topology.gantry.io/rack: rack-{i // 16}
    name: {name}
    resourceVersion: "{1000 + i}"
    uid: {rnd.getrandbits(128):032x}
  spec:
    providerID: aws:///us-east-1a/i-{rnd.getrandbits(68):017x}
  status:
    addresses:
    - address: 10.0.{i // 256}.{i % 256}
      type: InternalIP
    allocatable:
      cpu: 191450m
      ephemeral-storage: "27527026302"
      memory: 2011310480Ki
      nvidia.com/gpu: "8"
      pods: "110"
    capacity:
      cpu: "192"
      ephemeral-storage: 29867400Ki
      memory: 2097152000Ki
      nvidia.com/gpu: "8"
      pods: "110"
    conditions:
    - lastHeartbeatTime: "2026-11-20T10:00:00Z"
      lastTransitionTime: "2026-11-01T10:00:00Z"
      message: kubelet is posting ready status
      reason: KubeletReady
      status: "True"
      type: Ready
    images:
{images}    nodeInfo:
      containerRuntimeVersion: containerd://1.7.11
      kernelVersion: 5.15.0-1051-aws
      kubeletVersion: v1.29.3
      osImage: Ubuntu 22.04.4 LTS
"""


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    rnd = random.Random(1)
    out = sys.stdout
    out.write("apiVersion: v1\nitems:\n")
    for i in range(count):
        out.write(node(i, rnd))
    out.write('kind: List\nmetadata:\n  resourceVersion: ""\n')


if __name__ == "__main__":
    main()
