// Creation gates: tasks a controller creates only once a condition holds (a JobSet's startup order
// and dependsOn, exclusive placement's followers), checked against the tasks' statuses now.
#include "state/cluster_state.h"

#include <algorithm>

namespace gantry::engine {

namespace {

// A replicated job is ready when each of its jobs has as many ready or succeeded pods as it runs at
// once (calculateReplicatedJobStatuses in jobset pkg/controllers/jobset_controller.go): every pod
// of the role runs or has succeeded (Gantry creates exactly the pods that run at once, and a
// running pod counts as ready).
bool roleReached(const ClusterState& s, const JobRec& j, uint16_t role, bool complete) {
    bool any = false;
    for (uint32_t t : j.tasks) {
        const TaskRec& task = s.tasks[t];
        if (task.role != role) continue;
        any = true;
        const bool done = task.status == TaskStatus::Succeeded;
        if (complete ? !done : !(done || task.status == TaskStatus::Running)) return false;
    }
    return any;
}

} // namespace

bool ClusterState::gateHolds(uint32_t job, const CreationGate& gate, std::string* why) const {
    const JobRec& j = jobs[job];
    for (const GateCondition& c : gate.conditions) {
        switch (c.kind) {
        case CreationCondition::Kind::RoleReady:
        case CreationCondition::Kind::RoleComplete: {
            const bool complete = c.kind == CreationCondition::Kind::RoleComplete;
            if (roleReached(*this, j, c.role, complete)) break;
            if (why)
                *why = "not created yet: its controller waits for every pod of " + roles[c.role] +
                       (complete ? " to complete" : " to be ready");
            return false;
        }
        case CreationCondition::Kind::PodScheduled: {
            const bool placed = c.task != UINT32_MAX && tasks[c.task].node >= 0 &&
                                occupiesNode(tasks[c.task].status) &&
                                tasks[c.task].status != TaskStatus::Releasing;
            if (placed) {
                const auto& labels = nodes[uint32_t(tasks[c.task].node)].labels;
                if (labels.count(c.topologyKey)) break;
                if (why)
                    *why = "not created yet: its leader " + taskKey(c.task) + " is on node " +
                           nodeName(uint32_t(tasks[c.task].node)) + ", which has no label " + c.topologyKey;
                return false;
            }
            if (why)
                *why = c.task == UINT32_MAX
                           ? "not created yet: its leader pod is not part of the workload"
                           : "not created yet: its leader " + taskKey(c.task) +
                                 " is not scheduled (exclusive placement admits followers only then)";
            return false;
        }
        }
    }
    return true;
}

std::vector<ClusterState::OpenedGate> ClusterState::openGates(uint32_t job) {
    std::vector<OpenedGate> opened;
    auto& gates = jobs[job].gates;
    for (size_t g = 0; g < gates.size();) {
        if (!gateHolds(job, gates[g])) {
            ++g;
            continue;
        }
        OpenedGate o;
        o.job = job;
        o.gate = std::move(gates[g]);
        gates.erase(gates.begin() + std::ptrdiff_t(g));
        // A follower is created with a nodeSelector for its leader's domain (setNodeSelector in
        // jobset pkg/webhooks/pod_webhook.go).
        Labels selector;
        for (const GateCondition& c : o.gate.conditions)
            if (c.kind == CreationCondition::Kind::PodScheduled)
                selector[c.topologyKey] = nodes[uint32_t(tasks[c.task].node)].labels.at(c.topologyKey);
        o.nextOrder = nextTaskOrder;
        for (uint32_t t : o.gate.tasks) {
            o.shapes.push_back(tasks[t].shape);
            o.orders.push_back(tasks[t].order);
            tasks[t].shape = shapeWithPlacement(tasks[t].shape, selector, {});
            tasks[t].order = nextTaskOrder++; // created now: after every pod that exists
            setTask(t, TaskStatus::Pending, -1);
        }
        opened.push_back(std::move(o));
    }
    return opened;
}

void ClusterState::closeGate(OpenedGate&& o) {
    for (size_t i = 0; i < o.gate.tasks.size(); ++i) {
        const uint32_t t = o.gate.tasks[i];
        setTask(t, TaskStatus::NotCreated, -1);
        tasks[t].shape = o.shapes[i];
        tasks[t].order = o.orders[i];
    }
    nextTaskOrder = o.nextOrder;
    jobs[o.job].gates.push_back(std::move(o.gate));
}

std::string ClusterState::whyNotCreated(uint32_t task) const {
    const uint32_t j = tasks[task].job;
    if (j == UINT32_MAX || tasks[task].status != TaskStatus::NotCreated) return {};
    for (const CreationGate& g : jobs[j].gates) {
        if (std::find(g.tasks.begin(), g.tasks.end(), task) == g.tasks.end()) continue;
        std::string why;
        if (!gateHolds(j, g, &why)) return why;
        return "not created yet: its controller creates it at the next step";
    }
    return "not created yet";
}

double ClusterState::roleSeconds(uint32_t job, uint16_t role) const {
    for (const auto& [r, seconds] : jobs[job].roleSeconds)
        if (r == role) return seconds;
    return -1;
}

} // namespace gantry::engine
