#include "sim/workload.h"

namespace gantry::sim {

namespace {
std::string numberedName(const JobKind& k, int32_t n) {
    return k.group.name + "-" + std::to_string(n);
}
} // namespace

PodGroup SimWorkload::jobGroup(size_t j) const {
    const SimJob& job = jobs[j];
    const JobKind& k = kinds[job.kind];
    PodGroup g = k.group;
    if (k.numbered) g.name = numberedName(k, job.instance);
    g.arrivalSeconds = job.arrival;
    g.durationSeconds = job.duration;
    g.checkpointSeconds = k.checkpointSeconds;
    return g;
}

std::vector<Pod> SimWorkload::jobPods(size_t j) const {
    const SimJob& job = jobs[j];
    const JobKind& k = kinds[job.kind];
    std::vector<Pod> pods = k.pods;
    if (k.numbered) {
        const std::string name = numberedName(k, job.instance);
        const std::string prefix = name + "-" + (k.podRole.empty() ? std::string("pod") : k.podRole) + "-";
        for (size_t i = 0; i < pods.size(); ++i) {
            pods[i].name = prefix + std::to_string(i);
            pods[i].uid = pods[i].name;
            pods[i].group = name;
        }
    }
    return pods;
}

std::string SimWorkload::jobName(size_t j) const {
    const SimJob& job = jobs[j];
    const JobKind& k = kinds[job.kind];
    return k.group.ns + "/" + (k.numbered ? numberedName(k, job.instance) : k.group.name);
}

int64_t SimWorkload::podCount() const {
    int64_t n = 0;
    for (const auto& j : jobs) n += int64_t(kinds[j.kind].pods.size());
    return n;
}

} // namespace gantry::sim
