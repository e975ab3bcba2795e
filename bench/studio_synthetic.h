#pragma once
// A synthetic GPU cluster for the studio's benchmarks: `nodes` 8-GPU nodes in racks of 8, blocks of
// 16 racks, two zones, and a snapshot text of it (nodes plus bound pods filling about 70 % of the
// GPUs with gangs of 8-GPU pods and some single-GPU pods), as `kubectl get -o yaml` prints.
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace gantry::bench {

struct SyntheticSpec {
    int nodes = 10000;
    int gpusPerNode = 8;
    double fill = 0.7;
    unsigned seed = 1;
};

inline std::string nodeName(int i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "gpu-z%d-b%02d-r%03d-n%d", i / 5000, (i / 128) % 40, (i / 8) % 1000,
                  i % 8);
    return buf;
}

inline std::string syntheticSnapshot(const SyntheticSpec& spec) {
    std::string out;
    out.reserve(size_t(spec.nodes) * 1400);
    char buf[1024];
    for (int i = 0; i < spec.nodes; ++i) {
        std::snprintf(
            buf, sizeof buf,
            "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: %s\n  labels:\n"
            "    topology.kubernetes.io/zone: zone-%d\n    topology.gantry.io/block: block-%02d\n"
            "    topology.gantry.io/rack: rack-%04d\n    nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3\n"
            "    node.kubernetes.io/instance-type: p5.48xlarge\n"
            "status:\n  allocatable:\n    cpu: '192'\n    memory: 2Ti\n    pods: '110'\n    nvidia.com/gpu: "
            "'%d'\n"
            "  conditions:\n  - type: Ready\n    status: 'True'\n",
            nodeName(i).c_str(), i / 5000, i / 128, i / 8, spec.gpusPerNode);
        out += buf;
    }
    std::mt19937 rng(spec.seed);
    std::uniform_real_distribution<double> u(0, 1);
    int pod = 0;
    // One PodGroup per gang name used below (created on first use).
    std::vector<char> groupMade(size_t(spec.nodes), 0);
    auto group = [&](int id, int ns, int minMember) {
        if (groupMade[size_t(id)]) return;
        groupMade[size_t(id)] = 1;
        std::snprintf(
            buf, sizeof buf,
            "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata:\n  name: job-%d\n"
            "  namespace: team-%d\nspec:\n  minMember: %d\n  queue: team-%d\nstatus:\n  phase: Running\n",
            id, ns, minMember, ns);
        out += buf;
    };
    for (int i = 0; i < spec.nodes; ++i) {
        if (u(rng) > spec.fill) continue;
        bool whole = u(rng) < 0.8; // one 8-GPU pod of a gang, or eight 1-GPU pods
        int pods = whole ? 1 : spec.gpusPerNode;
        int gpus = whole ? spec.gpusPerNode : 1;
        group(whole ? i / 4 : i, (i / 4) % 12, 1);
        for (int k = 0; k < pods; ++k, ++pod) {
            std::snprintf(
                buf, sizeof buf,
                "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: job-%d-n%d-%d\n  namespace: team-%d\n"
                "  annotations:\n    scheduling.k8s.io/group-name: job-%d\nspec:\n  nodeName: %s\n"
                "  containers:\n  - name: main\n    resources:\n      requests:\n        cpu: '16'\n"
                "        memory: 128Gi\n        nvidia.com/gpu: '%d'\nstatus:\n  phase: Running\n",
                whole ? i / 4 : i, i, k, (i / 4) % 12, whole ? i / 4 : i, nodeName(i).c_str(), gpus);
            out += buf;
        }
    }
    return out;
}

} // namespace gantry::bench
