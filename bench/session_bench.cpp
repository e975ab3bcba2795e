// One Volcano scheduling session on a large synthetic cluster: 5,000 nodes (4,000 CPU nodes, 1,000
// nodes with 8 GPUs each) and 50,000 pending pods in 6,250 gangs of 8 over four weighted queues,
// with the allocate action and gang, drf, proportion, predicates and binpack (--fgd: and the fgd
// node-order plugin, which scores every GPU candidate by its fragmentation). Prints the time of each
// phase and what the session decided; time the whole process from outside for the figure.
//
//   session_bench [--nodes N] [--gangs G] [--gang-size S] [--full-scan] [--fgd]
#include "cycle_bench_nodes.h"
#include "model/cluster.h"
#include "profiles/volcano/framework/session.h"
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

Cluster buildCluster(int nodes, int gangs, int gangSize) {
    Cluster c;
    c.name = "bench";
    bench::addNodes(c, nodes);
    for (int q = 0; q < 4; ++q) {
        Queue queue;
        queue.name = "team-" + std::to_string(q);
        queue.weight = q + 1;
        c.queues.push_back(std::move(queue));
    }
    struct Shape {
        int64_t cpu, memGi, gpu;
    };
    const Shape shapes[] = {{2000, 8, 0}, {4000, 16, 0}, {1000, 2, 0}, {8000, 32, 0}, {8000, 64, 1}};
    for (int g = 0; g < gangs; ++g) {
        PodGroup pg;
        char name[32];
        std::snprintf(name, sizeof name, "job-%05d", g);
        pg.name = name;
        pg.ns = "ns-" + std::to_string(g % 8);
        pg.queue = c.queues[size_t(g % 4)].name;
        pg.minMember = gangSize;
        pg.phase = PodGroupPhase::Inqueue;
        pg.origin = "scheduling.volcano.sh/PodGroup";
        const Shape& s = shapes[g % 5];
        for (int k = 0; k < gangSize; ++k) {
            Pod p;
            p.name = pg.name + "-" + std::to_string(k);
            p.ns = pg.ns;
            p.uid = p.ns + "-" + p.name;
            p.group = pg.name;
            p.schedulerName = "volcano";
            p.requests.set(res::Cpu, s.cpu);
            p.requests.set(res::Memory, s.memGi * Gi);
            if (s.gpu) {
                p.requests.set(res::NvidiaGpu, s.gpu);
                p.gpu.count = int32_t(s.gpu);
                p.nodeSelector = {{"node-type", "gpu"}};
            }
            c.pods.push_back(std::move(p));
        }
        c.podGroups.push_back(std::move(pg));
    }
    return c;
}

SchedulerConf benchConf(bool fgd) {
    SchedulerConf conf;
    conf.actions = {"allocate"};
    auto plugin = [](const char* name) {
        PluginOption o;
        o.name = name;
        return o;
    };
    Tier t1, t2;
    t1.plugins = {plugin("gang")};
    t2.plugins = {plugin("drf"), plugin("proportion"), plugin("predicates"), plugin("binpack")};
    if (fgd) t2.plugins.push_back(plugin("fgd"));
    conf.tiers = {t1, t2};
    return conf;
}

} // namespace

int main(int argc, char** argv) {
    int nodes = 5000, gangs = 6250, gangSize = 8;
    bool fullScan = false, fgd = false;
    for (int i = 1; i < argc; ++i) {
        auto next = [&]() { return i + 1 < argc ? std::atoi(argv[++i]) : 0; };
        if (!std::strcmp(argv[i], "--nodes"))
            nodes = next();
        else if (!std::strcmp(argv[i], "--gangs"))
            gangs = next();
        else if (!std::strcmp(argv[i], "--gang-size"))
            gangSize = next();
        else if (!std::strcmp(argv[i], "--full-scan"))
            fullScan = true;
        else if (!std::strcmp(argv[i], "--fgd"))
            fgd = true;
        else {
            std::fprintf(
                stderr,
                "usage: session_bench [--nodes N] [--gangs G] [--gang-size S] [--full-scan] [--fgd]\n");
            return 2;
        }
    }
    auto t0 = Clock::now();
    Cluster cluster = buildCluster(nodes, gangs, gangSize);
    const double tModel = secondsSince(t0);

    auto t1 = Clock::now();
    engine::ClusterState state = engine::buildClusterState(cluster);
    const double tState = secondsSince(t1);

    SchedulerConf conf = benchConf(fgd);
    engine::SessionOptions options;
    options.useNodeIndex = !fullScan;
    auto t2 = Clock::now();
    engine::CycleResult result;
    {
        engine::Session ssn(state, conf, options);
        result = ssn.run();
    }
    const double tSession = secondsSince(t2);

    std::printf("nodes %d, pending pods %d in gangs of %d%s%s\n", nodes, gangs * gangSize, gangSize,
                fullScan ? " (full scan)" : "", fgd ? " (with fgd)" : "");
    std::printf("model %.3f s, compiled state %.3f s, session %.3f s\n", tModel, tState, tSession);
    // FNV-1a over the sorted bindings: equal digests = the same decisions (index vs full scan).
    uint64_t digest = 1469598103934665603ULL;
    for (const auto& [pod, node] : result.bindings)
        for (const std::string* s : {&pod, &node})
            for (char ch : *s) digest = (digest ^ uint8_t(ch)) * 1099511628211ULL;
    std::printf("bindings %zu, pending %zu, pipelined jobs %zu, digest %016llx\n", result.bindings.size(),
                result.pending.size(), result.pipelined.size(), static_cast<unsigned long long>(digest));
    return 0;
}
