#include "model/workload_source.h"

namespace gantry {

WorkloadSource workloadSource(const PodGroup& g) {
    const std::string& o = g.origin;
    if (o.rfind("gantry.io/", 0) == 0) return WorkloadSource::Gantry;
    if (o == "scheduling.volcano.sh/PodGroup" || o == "batch.volcano.sh/Job") return WorkloadSource::Volcano;
    if (o == "kueue.x-k8s.io/Workload") return WorkloadSource::Kueue;
    // A PodGroup without an origin was made by hand (a test, a project): it means what it says.
    if (o.empty()) return WorkloadSource::Gantry;
    return WorkloadSource::Generic;
}

namespace {

std::optional<std::string> lookup(const Labels& m, const char* key) {
    auto it = m.find(key);
    if (it == m.end()) return std::nullopt;
    return it->second;
}

} // namespace

std::optional<std::string> workloadLabel(const PodGroup& g, const std::vector<const Pod*>& pods,
                                         const char* key) {
    if (auto v = lookup(g.labels, key)) return v;
    for (const Pod* p : pods)
        if (auto v = lookup(p->labels, key)) return v;
    return std::nullopt;
}

std::optional<std::string> workloadAnnotation(const PodGroup& g, const std::vector<const Pod*>& pods,
                                              const char* key) {
    if (auto v = lookup(g.annotations, key)) return v;
    return podAnnotation(pods, key);
}

std::optional<std::string> podAnnotation(const std::vector<const Pod*>& pods, const char* key) {
    for (const Pod* p : pods)
        if (auto v = lookup(p->annotations, key)) return v;
    return std::nullopt;
}

ResourceList podRequestsTimes(const std::vector<const Pod*>& pods, int32_t n) {
    ResourceList out;
    if (pods.empty()) return out;
    for (int32_t i = 0; i < n; ++i) out += pods.front()->requests;
    return out;
}

} // namespace gantry
