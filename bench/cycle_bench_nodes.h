#pragma once
// What the one-cycle benchmarks (session_bench, yunikorn_cycle_bench) share: the clock and the
// nodes: a fifth GPU nodes (96 CPUs, 1 TiB, 8 H100s), the rest CPU nodes (64 CPUs, 256 GiB), each
// labelled with its hostname, node-type (gpu/cpu) and one of four zones.
#include "model/cluster.h"

#include <chrono>
#include <cstdio>
#include <string>

namespace gantry::bench {

using Clock = std::chrono::steady_clock;
inline constexpr int64_t Gi = 1024LL * 1024 * 1024;

inline double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

inline void addNodes(Cluster& c, int nodes) {
    const int gpuNodes = nodes / 5;
    for (int i = 0; i < nodes; ++i) {
        Node n;
        const bool gpu = i < gpuNodes;
        char name[32];
        std::snprintf(name, sizeof name, "%s-%05d", gpu ? "gpu" : "cpu", i);
        n.name = name;
        n.labels = {{"kubernetes.io/hostname", n.name},
                    {"node-type", gpu ? "gpu" : "cpu"},
                    {"zone", "zone-" + std::to_string(i % 4)}};
        n.allocatable.set(res::Cpu, gpu ? 96000 : 64000);
        n.allocatable.set(res::Memory, (gpu ? 1024 : 256) * Gi);
        n.allocatable.set(res::Pods, 110);
        if (gpu) {
            n.allocatable.set(res::NvidiaGpu, 8);
            n.gpus.count = 8;
            n.gpus.model = "H100";
        }
        n.capacity = n.allocatable;
        c.nodes.push_back(std::move(n));
    }
}

} // namespace gantry::bench
