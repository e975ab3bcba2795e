// Changes to the state: a task's status and node (with the node accounting and the k8s view),
// and removing a finished job or a task; the lookups by name.
#include "state/cluster_state.h"

#include <algorithm>
#include <stdexcept>

namespace gantry::engine {

bool volcanoCountsResource(const std::string& name) {
    if (name == res::Cpu || name == res::Memory || name == res::Pods || name == res::EphemeralStorage)
        return true;
    if (name.rfind("count/", 0) == 0) return false;
    if (name.rfind("hugepages-", 0) == 0 || name.rfind("attachable-volumes-", 0) == 0) return true;
    if (name.find("kubernetes.io/") != std::string::npos) return true; // prefixed native
    if (name.find('/') == std::string::npos) return false;             // native, not scalar
    return name.rfind("requests.", 0) != 0;                            // extended
}

bool ClusterState::countsResource(const std::string& name) const {
    return everyResource || volcanoCountsResource(name);
}

int ClusterState::findNode(const std::string& name) const {
    auto it = nodeIndex.find(name);
    return it == nodeIndex.end() ? -1 : int(it->second);
}
int ClusterState::findQueue(const std::string& name) const {
    auto it = queueIndex.find(name);
    return it == queueIndex.end() ? -1 : int(it->second);
}
int ClusterState::findJob(const std::string& key) const {
    auto it = jobIndex.find(key);
    return it == jobIndex.end() ? -1 : int(it->second);
}

void ClusterState::trackHyperNodes() {
    if (hyperNodesTracked() || hyperNodes.empty()) return;
    const size_t d = size_t(D());
    for (auto* sums : {&hnAllocatable, &hnUsed, &hnIdle, &hnReleasing, &hnPipelined})
        sums->assign(hyperNodes.size() * d, 0);
    hnAllocMask.assign(hyperNodes.size(), 0);
    for (size_t h = 0; h < hyperNodes.size(); ++h)
        for (uint32_t n : hyperNodes[h].nodes) {
            hnAllocMask[h] |= nodes[n].allocMask;
            auto add = [&](std::vector<int64_t>& sums, const std::vector<int64_t>& rows, uint64_t mask) {
                const int64_t* row = nodeRow(rows, n);
                for (size_t i = 0; i < d; ++i)
                    if (i < 2 || ((mask >> i) & 1u)) sums[h * d + i] += row[i];
            };
            add(hnAllocatable, allocatable, nodes[n].allocMask);
            add(hnUsed, used, ~uint64_t(0));
            add(hnIdle, idle, nodes[n].allocMask);
            add(hnReleasing, releasing, nodes[n].allocMask);
            add(hnPipelined, pipelined, nodes[n].allocMask);
        }
}

void ClusterState::nodeAccount(uint32_t task, uint32_t node, TaskStatus status, int sign) {
    const auto& req = shapes[tasks[task].shape].request;
    const int d = D();
    const int r = std::min(d, int(req.size()));
    // The hypernodes holding the node, when their sums are kept: they change by the same amounts.
    static const std::vector<int32_t> none;
    const std::vector<int32_t>& above = hyperNodesTracked() ? nodes[node].hyperNodes : none;
    const uint64_t declared = nodes[node].allocMask;
    auto patch = [&](std::vector<int64_t>& sums, int64_t k, uint64_t mask) {
        for (int32_t h : above) {
            int64_t* row = sums.data() + size_t(h) * size_t(d);
            for (int i = 0; i < r; ++i)
                if (i < 2 || ((mask >> i) & 1u)) row[i] += k * req[size_t(i)];
        }
    };
    int64_t* idl = nodeRow(idle, node);
    int64_t* usd = nodeRow(used, node);
    if (status == TaskStatus::Pipelined) {
        int64_t* pip = nodeRow(pipelined, node);
        for (int i = 0; i < r; ++i) pip[i] += sign * req[size_t(i)];
        patch(hnPipelined, sign, declared);
        return;
    }
    patch(hnUsed, sign, ~uint64_t(0));
    patch(hnIdle, -sign, declared);
    const bool sums = usedSum.size() == size_t(d);
    for (int i = 0; i < d && i < int(req.size()); ++i) {
        const int64_t delta = sign * req[size_t(i)];
        if (delta == 0) continue;
        idl[i] -= delta;
        if (sums) {
            usedNodes[size_t(i)] += int32_t(usd[i] + delta != 0) - int32_t(usd[i] != 0);
            usedSum[size_t(i)] += delta;
        }
        usd[i] += delta;
    }
    if (status == TaskStatus::Releasing) {
        int64_t* rel = nodeRow(releasing, node);
        for (int i = 0; i < r; ++i) rel[i] += sign * req[size_t(i)];
        patch(hnReleasing, sign, declared);
    }
}

void ClusterState::k8sAdd(uint32_t task, uint32_t node) {
    auto& t = tasks[task];
    if (t.inK8sView) return;
    t.inK8sView = true;
    const auto& sh = shapes[t.shape];
    int64_t* r = nodeRow(k8sRequested, node);
    for (int i = 0; i < D() && i < int(sh.request.size()); ++i) r[i] += sh.request[size_t(i)];
    nonZeroCpu[node] += sh.cpuRequested ? sh.request[kCpu] : 100;
    nonZeroMem[node] += sh.memRequested ? sh.request[kMemory] : 200LL * 1024 * 1024;
    k8sPods[node] += 1;
    if (!sh.podAffinity.empty() || !sh.podAntiAffinity.empty()) ++podsWithAffinity;
}

void ClusterState::k8sRemove(uint32_t task, uint32_t node) {
    auto& t = tasks[task];
    if (!t.inK8sView) return;
    t.inK8sView = false;
    const auto& sh = shapes[t.shape];
    int64_t* r = nodeRow(k8sRequested, node);
    for (int i = 0; i < D() && i < int(sh.request.size()); ++i) r[i] -= sh.request[size_t(i)];
    nonZeroCpu[node] -= sh.cpuRequested ? sh.request[kCpu] : 100;
    nonZeroMem[node] -= sh.memRequested ? sh.request[kMemory] : 200LL * 1024 * 1024;
    k8sPods[node] -= 1;
    if (!sh.podAffinity.empty() || !sh.podAntiAffinity.empty()) --podsWithAffinity;
}

void ClusterState::setTask(uint32_t task, TaskStatus status, int32_t node) {
    auto& t = tasks[task];
    if (t.job != UINT32_MAX) {
        markChanged(t.job);
        auto& j = jobs[t.job];
        const auto& sh = shapes[t.shape];
        j.statusCount[int(t.status)]--;
        j.statusCount[int(status)]++;
        if (status == TaskStatus::Pending && t.status != TaskStatus::Pending) j.requeuedAt = ++requeues;
        if (sh.bestEffort) {
            if (t.status == TaskStatus::Pending) j.pendingBestEffort--;
            if (status == TaskStatus::Pending) j.pendingBestEffort++;
        }
        const int sign = int(allocatedStatus(status)) - int(allocatedStatus(t.status));
        if (sign != 0) {
            if (j.allocated.size() < size_t(D())) j.allocated.resize(size_t(D()), 0);
            for (size_t i = 0; i < sh.request.size(); ++i) j.allocated[i] += sign * sh.request[i];
        }
    }
    const int32_t oldNode = t.node;
    const bool wasOn = oldNode >= 0 && occupiesNode(t.status);
    const bool heldGpus = wasOn && t.status != TaskStatus::Pipelined && t.gpuMask != 0;
    if (wasOn) {
        nodeAccount(task, uint32_t(oldNode), t.status, -1);
        auto& list = nodeTasks[size_t(oldNode)];
        auto it = std::find(list.begin(), list.end(), task);
        if (it != list.end()) {
            *it = list.back();
            list.pop_back();
        }
    }
    int32_t newNode = node >= 0 ? node : oldNode;
    if (status == TaskStatus::Pending || status == TaskStatus::NotCreated) newNode = -1;
    const bool holdsGpus = newNode >= 0 && occupiesNode(status) && status != TaskStatus::Pipelined;
    // A task keeps its devices while it stays on its node (Running -> Releasing, for instance).
    if (heldGpus && !(holdsGpus && newNode == oldNode)) releaseGpus(task, uint32_t(oldNode));
    t.status = status;
    t.node = newNode;
    if (newNode >= 0 && occupiesNode(status)) {
        nodeAccount(task, uint32_t(newNode), status, +1);
        nodeTasks[size_t(newNode)].push_back(task);
    }
    if (holdsGpus && !(heldGpus && newNode == oldNode)) acquireGpus(task, uint32_t(newNode));
    if (wasOn) reindexNode(uint32_t(oldNode));
    if (newNode >= 0 && newNode != oldNode) reindexNode(uint32_t(newNode));
}

uint32_t ClusterState::shapeWithPlacement(uint32_t shape, const Labels& nodeSelector,
                                          const std::vector<Toleration>& tolerations) {
    if (nodeSelector.empty() && tolerations.empty()) return shape;
    PodShape s = shapes[shape];
    for (const auto& [k, v] : nodeSelector) s.nodeSelector[k] = v;
    s.tolerations.insert(s.tolerations.end(), tolerations.begin(), tolerations.end());
    return internShape(std::move(s));
}

void ClusterState::freeTask(uint32_t t) {
    auto& task = tasks[t];
    strings.release(task.name);
    strings.release(task.uid);
    strings.release(task.ns);
    if (task.group) strings.release(task.group);
    task = TaskRec{};
    task.status = TaskStatus::Succeeded;
    task.ours = false;
    freeTasks.push_back(t);
}

void ClusterState::removeJob(uint32_t job) {
    auto& j = jobs[job];
    for (uint32_t t : j.tasks) {
        if (tasks[t].node >= 0 && occupiesNode(tasks[t].status))
            throw std::logic_error("removeJob: task " + taskKey(t) + " is still on a node");
        freeTask(t);
    }
    strings.release(j.name);
    strings.release(j.ns);
    strings.release(j.queueName);
    jobIndex.erase(j.key);
    const bool listed = j.changed;
    j = JobRec{};
    j.changed = listed;
    markChanged(job);
    freeJobs.push_back(job);
}

} // namespace gantry::engine
