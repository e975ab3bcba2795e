#include "k8s/claim_tasks.h"

namespace gantry::engine::k8s {

bool ClaimTasks::uses(const ClusterState& st, uint32_t t) {
    if (uses_.size() <= t) {
        uses_.resize(st.tasks.size(), 0);
        usesId_.resize(st.tasks.size(), ~uint64_t(0));
    }
    const TaskRec& task = st.tasks[t];
    const uint64_t id = (uint64_t(task.name) << 32) | task.shape;
    if (usesId_[t] != id) {
        usesId_[t] = id;
        std::string key = st.taskKey(t);
        uses_[t] = dra_.hasClaims(key) || dra_.holds(key) || shapeServed(st, task.shape);
        if (uses_[t]) index_[std::move(key)] = t;
    }
    return uses_[t] != 0;
}

const std::string* ClaimTasks::unusable(const ClusterState& st, uint32_t t) {
    if (!uses(st, t)) return nullptr;
    const std::string& why = dra_.preFilter(st.taskKey(t));
    return why.empty() ? nullptr : &why;
}

bool ClaimTasks::servedByDra(const ClusterState& st, int d) {
    if (!extended_) return false;
    if (servedDims_.size() <= size_t(d)) servedDims_.resize(size_t(d) + 1, -1);
    int8_t& known = servedDims_[size_t(d)];
    if (known < 0) known = d > kPods && dra_.extendedClass(st.dims.name(d)) ? 1 : 0;
    return known == 1;
}

void ClaimTasks::extendedFor(const ClusterState& st, uint32_t t, uint32_t n,
                             std::vector<ExtendedDevices>& out) {
    out.clear();
    if (!extended_) return;
    const PodShape& sh = st.shapeOf(t);
    const int64_t* alloc = st.nodeRow(st.allocatable, n);
    for (int d = kPods + 1; d < st.D(); ++d) {
        const int64_t want = sh.request[size_t(d)];
        if (want <= 0 || alloc[d] != 0 || !servedByDra(st, d)) continue;
        out.push_back({*dra_.extendedClass(st.dims.name(d)), (want + 999) / 1000});
    }
}

bool ClaimTasks::shapeServed(const ClusterState& st, uint32_t shape) {
    if (!extended_) return false;
    const PodShape& sh = st.shapes[shape];
    for (int d = kPods + 1; d < st.D(); ++d)
        if (sh.request[size_t(d)] > 0 && servedByDra(st, d)) return true;
    return false;
}

const char* ClaimTasks::filter(const ClusterState& st, uint32_t t, uint32_t n) {
    extendedFor(st, t, n, scratch_);
    return dra_.filter(st.taskKey(t), st.nodeName(n), st.nodes[n].labels, scratch_);
}

std::vector<ClaimResult> ClaimTasks::allocate(const ClusterState& st, uint32_t t, uint32_t n) {
    extendedFor(st, t, n, scratch_);
    return dra_.allocate(st.taskKey(t), st.nodeName(n), st.nodes[n].labels, scratch_);
}

void ClaimTasks::release(const ClusterState& st, uint32_t t) {
    dra_.releasePod(st.taskKey(t));
}

void ClaimTasks::sync(const ClusterState& st) {
    if (index_.empty()) // the first call: the pods that hold claims of the snapshot
        for (uint32_t t = 0; t < st.tasks.size(); ++t) uses(st, t);
    dra_.sync([&](const std::string& pod) {
        if (pod.empty()) return true; // a claim reserved for no pod stays allocated
        auto it = index_.find(pod);
        if (it == index_.end() || st.taskKey(it->second) != pod) return false; // gone
        const TaskStatus s = st.tasks[it->second].status;
        return s != TaskStatus::Pending && s != TaskStatus::NotCreated && s != TaskStatus::Succeeded &&
               s != TaskStatus::Failed && s != TaskStatus::Releasing;
    });
}

} // namespace gantry::engine::k8s
