// Text forms of the model's enums, spelled as the Kubernetes APIs spell them.
#include "model/cluster.h"
#include "model/pod.h"
#include "model/pod_group.h"
#include "model/policy.h"
#include "model/project.h"
#include "model/queue.h"

#include <algorithm>

namespace gantry {

const char* toString(PodPhase phase) {
    switch (phase) {
    case PodPhase::Pending:
        return "Pending";
    case PodPhase::Running:
        return "Running";
    case PodPhase::Succeeded:
        return "Succeeded";
    case PodPhase::Failed:
        return "Failed";
    case PodPhase::Unknown:
        return "Unknown";
    }
    return "Unknown";
}

std::optional<PodPhase> podPhaseFromString(const std::string& text) {
    for (auto p :
         {PodPhase::Pending, PodPhase::Running, PodPhase::Succeeded, PodPhase::Failed, PodPhase::Unknown})
        if (text == toString(p)) return p;
    return std::nullopt;
}

const char* toString(PodGroupPhase phase) {
    switch (phase) {
    case PodGroupPhase::None:
        return "";
    case PodGroupPhase::Pending:
        return "Pending";
    case PodGroupPhase::Inqueue:
        return "Inqueue";
    case PodGroupPhase::Running:
        return "Running";
    case PodGroupPhase::Unknown:
        return "Unknown";
    case PodGroupPhase::Completed:
        return "Completed";
    }
    return "";
}

std::optional<PodGroupPhase> podGroupPhaseFromString(const std::string& text) {
    for (auto p : {PodGroupPhase::None, PodGroupPhase::Pending, PodGroupPhase::Inqueue,
                   PodGroupPhase::Running, PodGroupPhase::Unknown, PodGroupPhase::Completed})
        if (text == toString(p)) return p;
    return std::nullopt;
}

const char* toString(NetworkTopologyConstraint::Mode mode) {
    switch (mode) {
    case NetworkTopologyConstraint::Mode::None:
        return "";
    case NetworkTopologyConstraint::Mode::Hard:
        return "hard";
    case NetworkTopologyConstraint::Mode::Soft:
        return "soft";
    }
    return "";
}

const char* toString(QueueState state) {
    switch (state) {
    case QueueState::Open:
        return "Open";
    case QueueState::Closed:
        return "Closed";
    case QueueState::Closing:
        return "Closing";
    case QueueState::Unknown:
        return "Unknown";
    }
    return "Unknown";
}

std::optional<QueueState> queueStateFromString(const std::string& text) {
    for (auto s : {QueueState::Open, QueueState::Closed, QueueState::Closing, QueueState::Unknown})
        if (text == toString(s)) return s;
    return std::nullopt;
}

const char* toString(Queue::Kind kind) {
    switch (kind) {
    case Queue::Kind::Queue:
        return "Queue";
    case Queue::Kind::KueueClusterQueue:
        return "ClusterQueue";
    case Queue::Kind::KueueCohort:
        return "Cohort";
    case Queue::Kind::YuniKornQueue:
        return "YuniKornQueue";
    }
    return "Queue";
}

const char* toString(ConfigFormat format) {
    switch (format) {
    case ConfigFormat::VolcanoSchedulerConf:
        return "volcano-scheduler.conf (or its ConfigMap)";
    case ConfigFormat::KubeSchedulerConfiguration:
        return "KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1)";
    case ConfigFormat::YuniKornQueues:
        return "YuniKorn queues.yaml (or the yunikorn-configs ConfigMap)";
    case ConfigFormat::KueueConfiguration:
        return "Kueue Configuration, or the ConfigMap that holds it";
    }
    return "";
}

SchedulerPolicies policiesOf(const Project& project) {
    SchedulerPolicies p;
    p.volcano = project.volcano;
    p.kube = project.contrast.value_or(KubeSchedulerProfile{});
    if (project.kueue) p.kueue = *project.kueue;
    return p;
}

const char* toString(TargetScheduler target) {
    switch (target) {
    case TargetScheduler::Volcano:
        return "volcano";
    case TargetScheduler::YuniKorn:
        return "yunikorn";
    case TargetScheduler::Kueue:
        return "kueue";
    }
    return "volcano";
}

std::optional<TargetScheduler> targetSchedulerFromString(const std::string& text) {
    for (auto t : {TargetScheduler::Volcano, TargetScheduler::YuniKorn, TargetScheduler::Kueue})
        if (text == toString(t)) return t;
    return std::nullopt;
}

const Node* Cluster::findNode(const std::string& n) const {
    auto it = std::find_if(nodes.begin(), nodes.end(), [&](const Node& x) { return x.name == n; });
    return it == nodes.end() ? nullptr : &*it;
}

const Queue* Cluster::findQueue(const std::string& n) const {
    auto it = std::find_if(queues.begin(), queues.end(), [&](const Queue& x) { return x.name == n; });
    return it == queues.end() ? nullptr : &*it;
}

const PodGroup* Cluster::findPodGroup(const std::string& ns, const std::string& n) const {
    auto it = std::find_if(podGroups.begin(), podGroups.end(),
                           [&](const PodGroup& x) { return x.ns == ns && x.name == n; });
    return it == podGroups.end() ? nullptr : &*it;
}

const PriorityClass* Cluster::findPriorityClass(const std::string& n) const {
    auto it = std::find_if(priorityClasses.begin(), priorityClasses.end(),
                           [&](const PriorityClass& x) { return x.name == n; });
    return it == priorityClasses.end() ? nullptr : &*it;
}

std::vector<TopologyLevel> defaultTopologyLevels() {
    return {{"zone", "topology.kubernetes.io/zone"},
            {"block", "topology.gantry.io/block"},
            {"rack", "topology.gantry.io/rack"},
            {"nvlink", "nvidia.com/gpu.clique"}};
}

} // namespace gantry
