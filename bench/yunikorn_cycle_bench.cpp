// One `gantry cycle --profile yunikorn` on a large synthetic cluster (issue 15: a cycle on 5,000
// nodes and 50,000 pending pods in under 2 s): 4,000 CPU nodes and 1,000 nodes with 8 GPUs,
// 50,000 pending pods in applications of 10 over a 50-queue tree (four parents with guaranteed
// shares, 46 leaves), one pod in five asking for a GPU (more GPUs asked than the cluster has).
// The core's cycles run until one decides nothing, as `gantry cycle` runs them. Prints the time of
// each phase and digests of the decisions (by pod, and in allocation order); time the whole
// process from outside for the figure.
//
//   yunikorn_cycle_bench [--nodes N] [--pods P] [--app-size S]
#include "cycle_bench_nodes.h"
#include "model/cluster.h"
#include "profile/registry.h"
#include "state/cluster_state.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace gantry;
using bench::Clock;
using bench::Gi;
using bench::secondsSince;

namespace {

Cluster buildCluster(int nodes, int pods, int appSize) {
    Cluster c;
    c.name = "bench";
    bench::addNodes(c, nodes);
    // 4 parents + 46 leaves; guaranteed CPU split by share (the export maps deserved to guaranteed).
    const char* teams[4] = {"serving", "research", "training", "batch"};
    const double shares[4] = {0.4, 0.25, 0.25, 0.1};
    int64_t clusterCpu = 0;
    for (const Node& n : c.nodes) clusterCpu += n.allocatable.get(res::Cpu);
    std::vector<std::string> leaves;
    int leafCount[4] = {12, 12, 11, 11};
    for (int t = 0; t < 4; ++t) {
        Queue parent;
        parent.name = teams[t];
        parent.deserved.set(res::Cpu, int64_t(double(clusterCpu) * shares[t]));
        c.queues.push_back(parent);
        for (int k = 0; k < leafCount[t]; ++k) {
            Queue leaf;
            leaf.name = std::string(teams[t]) + "-" + std::to_string(k + 1);
            leaf.parent = teams[t];
            leaf.deserved.set(res::Cpu, parent.deserved.get(res::Cpu) / leafCount[t]);
            leaves.push_back("root." + parent.name + "." + leaf.name);
            c.queues.push_back(std::move(leaf));
        }
    }
    struct Shape {
        int64_t cpu, memGi, gpu;
    };
    const Shape shapes[] = {{2000, 8, 0}, {4000, 16, 0}, {1000, 2, 0}, {8000, 32, 0}, {8000, 64, 1}};
    for (int i = 0; i < pods; ++i) {
        const int app = i / appSize;
        Pod p;
        char name[40];
        std::snprintf(name, sizeof name, "app-%05d-%d", app, i % appSize);
        p.name = name;
        p.ns = "ns-" + std::to_string(app % 8);
        p.uid = p.ns + "-" + p.name;
        p.schedulerName = "yunikorn";
        p.labels = {{"yunikorn.apache.org/app-id", "app-" + std::to_string(app)},
                    {"yunikorn.apache.org/queue", leaves[size_t(app) % leaves.size()]}};
        p.creationTimestamp = 1'700'000'000 + app;
        p.priority = (app % 3) * 1000;
        const Shape& s = shapes[app % 5];
        p.requests.set(res::Cpu, s.cpu);
        p.requests.set(res::Memory, s.memGi * Gi);
        if (s.gpu) {
            p.requests.set(res::NvidiaGpu, s.gpu);
            p.gpu.count = int32_t(s.gpu);
            p.nodeSelector = {{"node-type", "gpu"}};
        }
        c.pods.push_back(std::move(p));
    }
    return c;
}

} // namespace

int main(int argc, char** argv) {
    int nodes = 5000, pods = 50000, appSize = 10;
    for (int i = 1; i < argc; ++i) {
        auto next = [&]() { return i + 1 < argc ? std::atoi(argv[++i]) : 0; };
        if (!std::strcmp(argv[i], "--nodes"))
            nodes = next();
        else if (!std::strcmp(argv[i], "--pods"))
            pods = next();
        else if (!std::strcmp(argv[i], "--app-size"))
            appSize = next();
        else {
            std::fprintf(stderr, "usage: yunikorn_cycle_bench [--nodes N] [--pods P] [--app-size S]\n");
            return 2;
        }
    }
    if (nodes < 5 || pods < 1 || appSize < 1) return 2;
    auto t0 = Clock::now();
    Cluster cluster = buildCluster(nodes, pods, appSize);
    const double tModel = secondsSince(t0);

    const engine::ProfileInfo* info = engine::findProfile("yunikorn");
    SchedulerPolicies policies;
    Diagnostics diagnostics;
    auto t1 = Clock::now();
    auto profile = info->make({cluster, policies, {}}, &diagnostics);
    if (!profile) {
        for (const auto& d : diagnostics) std::fprintf(stderr, "%s\n", d.message.c_str());
        return 1;
    }
    engine::ClusterState state = engine::buildClusterState(cluster, nullptr, profile->buildOptions());
    const double tState = secondsSince(t1);

    auto t2 = Clock::now();
    engine::CycleResult result = profile->cycle(state, {});
    const double tCycle = secondsSince(t2);

    std::printf("nodes %d, pending pods %d in applications of %d, 50 queues\n", nodes, pods, appSize);
    std::printf("model %.3f s, profile and compiled state %.3f s, cycle %.3f s\n", tModel, tState, tCycle);
    // FNV-1a over the bindings in name order: equal digests = the same decisions.
    uint64_t digest = 1469598103934665603ULL;
    for (const auto& [pod, node] : result.bindings)
        for (const std::string* s : {&pod, &node})
            for (char ch : *s) digest = (digest ^ uint8_t(ch)) * 1099511628211ULL;
    // The same over the allocations in the order they were made (equal: the same sequence too).
    uint64_t orderDigest = 1469598103934665603ULL;
    for (const auto& [task, node] : result.boundTasks)
        for (uint32_t v : {task, node})
            for (int b = 0; b < 4; ++b)
                orderDigest = (orderDigest ^ ((v >> (8 * b)) & 0xff)) * 1099511628211ULL;
    std::printf("allocations %zu, pending %zu, digest %016llx, order digest %016llx\n",
                result.bindings.size(), result.pending.size(), static_cast<unsigned long long>(digest),
                static_cast<unsigned long long>(orderDigest));
    return 0;
}
