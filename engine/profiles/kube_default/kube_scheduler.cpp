#include "profiles/kube_default/kube_scheduler.h"

#include "k8s/k8s.h"

#include <algorithm>
#include <limits>
#include <map>

namespace gantry::engine {

BuildOptions kubeBuildOptions() {
    BuildOptions o;
    o.allSchedulers = true;
    return o;
}

namespace {

constexpr const char* kOtherScheduler =
    "not kube-scheduler's: its schedulerName names another scheduler, which Gantry does not emulate";

struct Undo {
    uint32_t task;
    TaskStatus status;
    int32_t node;
    bool inK8s;
};

class KubeScheduler {
  public:
    KubeScheduler(ClusterState& st, const KubeSchedulerProfile& p, StaticNodeChecks& checks)
        : st_(st), profile_(p), checks_(checks) {
        weights_ = {{"NodeResourcesFit", 1},  {"NodeResourcesBalancedAllocation", 1},
                    {"TaintToleration", 3},   {"NodeAffinity", 2},
                    {"PodTopologySpread", 2}, {"InterPodAffinity", 2},
                    {"ImageLocality", 1}};
        for (const auto& [name, w] : p.pluginWeights) weights_[name] = w;
        for (const auto& name : p.disabledPlugins) {
            if (name == "*")
                weights_.clear();
            else
                weights_.erase(name);
        }
        for (const auto& [name, w] : p.pluginWeights) weights_[name] = w; // explicitly enabled after "*"
        switch (p.strategy) {
        case KubeSchedulerProfile::Strategy::LeastAllocated:
            fit_.strategy = k8s::FitStrategy::LeastAllocated;
            break;
        case KubeSchedulerProfile::Strategy::MostAllocated:
            fit_.strategy = k8s::FitStrategy::MostAllocated;
            break;
        case KubeSchedulerProfile::Strategy::RequestedToCapacityRatio:
            fit_.strategy = k8s::FitStrategy::RequestedToCapacityRatio;
            break;
        }
        for (const auto& [name, w] : p.resourceWeights) fit_.resources.emplace_back(st.dims.find(name), w);
        for (const auto& [u, s] : p.shape) fit_.shape.emplace_back(u, s);
        fit_.useRequested = false;
        balancedDims_ = {kCpu, kMemory};
    }

    CycleResult run(bool scores, bool compact, const std::vector<uint32_t>* pods) {
        CycleResult r;
        std::vector<uint32_t> queue;
        // A pod naming a scheduler Gantry does not emulate waits for it: kube-scheduler handles only
        // the pods of its own profiles (responsibleForPod in pkg/scheduler/eventhandlers.go).
        auto take = [&](uint32_t t) {
            if (st_.tasks[t].status != TaskStatus::Pending) return;
            if (st_.tasks[t].volcano)
                queue.push_back(t);
            else
                r.pending[st_.taskKey(t)] = kOtherScheduler;
        };
        if (pods) {
            for (uint32_t t : *pods) take(t);
        } else {
            for (uint32_t t = 0; t < st_.tasks.size(); ++t) take(t);
        }
        std::stable_sort(queue.begin(), queue.end(), [&](uint32_t a, uint32_t b) {
            if (st_.tasks[a].kubePriority != st_.tasks[b].kubePriority)
                return st_.tasks[a].kubePriority > st_.tasks[b].kubePriority;
            return st_.tasks[a].order < st_.tasks[b].order;
        });
        std::vector<uint32_t> all(st_.nodes.size()), feasible;
        for (uint32_t i = 0; i < all.size(); ++i) all[i] = st_.nodeByRank[i];
        if (scores)
            for (uint32_t t : queue) {
                auto s = score(t, all);
                auto& row = r.scores[st_.taskKey(t)];
                for (size_t i = 0; i < all.size(); ++i) row[st_.nodeName(all[i])] = double(s[i]);
            }
        st_.ensureIndexes();
        for (uint32_t t : queue) {
            feasible.clear();
            // Without pod (anti-)affinity on this pod or any placed one, InterPodAffinity has nothing to
            // count: the walk over every placed pod is skipped.
            const bool affinity = podAffinityMatters(t);
            auto aff = affinity ? k8s::affinityPreFilter(st_, t) : k8s::AffinityState{};
            auto spread = k8s::spreadPreFilter(st_, t);
            // The nodes of one bucket answer every filter and score alike: unless the pod's placement
            // reads other pods or node names, each bucket's first node by name stands for all of
            // them (the one the tie-break would pick among them).
            const bool byBucket = !affinity && !st_.shapeOf(t).perNode;
            const std::vector<uint32_t>& candidates = byBucket ? bucketFirsts() : all;
            for (uint32_t n : candidates)
                if (filter(t, n, aff, spread, nullptr)) feasible.push_back(n);
            const std::string key = st_.taskKey(t);
            if (feasible.empty()) {
                // Why no node fits is worked out only for a pod that stays pending.
                std::map<std::string, uint32_t> reasons;
                std::vector<std::string> why;
                for (uint32_t n : candidates) {
                    why.clear();
                    filter(t, n, aff, spread, &why);
                    const uint32_t nodes =
                        byBucket ? uint32_t(st_.buckets[st_.nodeBucket[n]].ranks.size()) : 1;
                    for (const auto& w : why) reasons[w] += nodes;
                }
                std::vector<std::string> parts;
                for (const auto& [w, n] : reasons) parts.push_back(std::to_string(n) + " " + w);
                std::sort(parts.begin(), parts.end());
                std::string msg = "0/" + std::to_string(all.size()) + " nodes are available";
                if (!parts.empty()) {
                    msg += ": ";
                    for (size_t i = 0; i < parts.size(); ++i) msg += (i ? ", " : "") + parts[i];
                }
                r.pending[key] = msg + ".";
                continue;
            }
            int32_t best = -1;
            if (feasible.size() == 1) {
                best = int32_t(feasible[0]);
            } else {
                auto s = score(t, feasible);
                int64_t max = std::numeric_limits<int64_t>::min();
                for (size_t i = 0; i < feasible.size(); ++i)
                    if (s[i] > max ||
                        (s[i] == max && st_.nodes[feasible[i]].rank < st_.nodes[uint32_t(best)].rank)) {
                        max = s[i];
                        best = int32_t(feasible[i]);
                    }
            }
            bindTask(t, uint32_t(best));
            r.bindings[key] = st_.nodeName(uint32_t(best));
            r.boundTasks.emplace_back(t, uint32_t(best));
        }
        // Gangs: kube-scheduler does not know them; report how far each got. A job that started
        // some pods but not minMember holds resources it cannot use: the deadlock gang scheduling
        // avoids. The simulator's form keeps no maps by name: only the jobs of pods left pending can
        // have their reasons extended.
        std::vector<uint32_t> jobs;
        if (compact) {
            for (uint32_t t : queue)
                if (st_.tasks[t].status == TaskStatus::Pending && st_.tasks[t].job != UINT32_MAX)
                    jobs.push_back(st_.tasks[t].job);
            std::sort(jobs.begin(), jobs.end());
            jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
        } else {
            for (uint32_t j = 0; j < st_.jobs.size(); ++j) jobs.push_back(j);
        }
        for (uint32_t j : jobs) {
            const auto& job = st_.jobs[j];
            if (!st_.jobAlive(j)) continue;
            GangStatus g;
            g.minMember = job.minAvailable;
            g.tasks = int32_t(job.tasks.size());
            for (uint32_t t : job.tasks)
                if (occupiesNode(st_.tasks[t].status) || completedStatus(st_.tasks[t].status)) ++g.placeable;
            g.ready = g.placeable >= job.minAvailable;
            if (!compact)
                r.podGroupPhase[job.key] =
                    g.ready && g.placeable > 0 ? PodGroupPhase::Running : PodGroupPhase::Pending;
            if (!g.ready && (!compact || g.placeable > 0))
                g.reason = "minMember " + std::to_string(g.minMember) + ", " + std::to_string(g.placeable) +
                           " placed";
            if (!compact) r.gangs[job.key] = g;
            if (g.ready || g.placeable == 0) continue;
            for (uint32_t t : job.tasks)
                if (auto it = r.pending.find(st_.taskKey(t)); it != r.pending.end())
                    it->second += " (gang " + job.key + " started partly: " + g.reason +
                                  "; the started pods hold their resources)";
        }
        restore();
        return r;
    }

  private:
    // Filters in kube-scheduler's default order: whether the pod may go to the node, and with `why`,
    // the reasons of the first failing plugin.
    bool filter(uint32_t t, uint32_t n, const k8s::AffinityState& aff, const k8s::SpreadState& spread,
                std::vector<std::string>* why) {
        const auto& pod = st_.shapeOf(t);
        const auto& node = st_.nodes[n];
        switch (checks_.check(st_, st_.tasks[t].shape, n)) {
        case StaticNodeChecks::Result::Unschedulable:
            if (why) why->push_back(k8s::kUnschedulable);
            return false;
        case StaticNodeChecks::Result::Taint:
            if (why) why->push_back(k8s::untoleratedTaintReason(*k8s::firstUntolerated(pod, node)));
            return false;
        case StaticNodeChecks::Result::NodeAffinity:
            if (why) why->push_back(k8s::kNodeAffinity);
            return false;
        case StaticNodeChecks::Result::Passes:
            break;
        }
        bool fits = true;
        auto fail = [&](const std::string& reason) {
            fits = false;
            if (why) why->push_back(reason);
        };
        if (st_.k8sPods[n] + 1 > node.maxTaskNum) fail("Too many pods");
        const int64_t* alloc = st_.nodeRow(st_.allocatable, n);
        const int64_t* req = st_.nodeRow(st_.k8sRequested, n);
        auto check = [&](int d) {
            const int64_t want = pod.request[size_t(d)];
            if (want > 0 && want > alloc[d] - req[d]) fail("Insufficient " + st_.dims.name(d));
        };
        check(kCpu);
        if (!fits && !why) return false;
        check(kMemory);
        for (int d : st_.dims.byName())
            if (d > kPods && ((pod.presentMask >> d) & 1u) && (fits || why)) check(d);
        // Shares of a device and GPU models, as a GPU-sharing scheduler extender checks them.
        if (pod.gpu.count > 0 && fits && !st_.gpusFit(t, n)) fail("Insufficient GPU devices");
        if (!fits) return false;
        Code code;
        if (const char* reason = k8s::spreadFilter(st_, spread, n, &code)) {
            fail(reason);
            return false;
        }
        if (const char* reason = k8s::affinityFilter(st_, aff, t, n, &code)) {
            fail(reason);
            return false;
        }
        return true;
    }

    // The first node by name of every bucket.
    const std::vector<uint32_t>& bucketFirsts() {
        bucketFirsts_.clear();
        for (const NodeClass& c : st_.classes)
            for (uint32_t b : c.buckets)
                bucketFirsts_.push_back(st_.nodeByRank[*st_.buckets[b].ranks.begin()]);
        return bucketFirsts_;
    }

    bool podAffinityMatters(uint32_t t) const {
        const PodShape& pod = st_.shapeOf(t);
        return !pod.podAffinity.empty() || !pod.podAntiAffinity.empty() || st_.podsWithAffinity > 0;
    }

    int64_t weight(const char* name) const {
        auto it = weights_.find(name);
        return it == weights_.end() ? 0 : it->second;
    }

    std::vector<int64_t> score(uint32_t t, const std::vector<uint32_t>& nodes) {
        const auto& pod = st_.shapeOf(t);
        const size_t n = nodes.size();
        std::vector<int64_t> total(n, 0), raw(n, 0);
        if (int64_t w = weight("NodeResourcesFit"))
            for (size_t i = 0; i < n; ++i) total[i] += k8s::fitScore(st_, fit_, t, nodes[i]) * w;
        if (int64_t w = weight("NodeResourcesBalancedAllocation")) {
            bool skip = false;
            for (size_t i = 0; i < n && !skip; ++i)
                if (!k8s::balancedScore(st_, balancedDims_, t, nodes[i], &raw[i])) skip = true;
            if (!skip)
                for (size_t i = 0; i < n; ++i) total[i] += raw[i] * w;
        }
        if (int64_t w = weight("TaintToleration")) {
            for (size_t i = 0; i < n; ++i)
                raw[i] = k8s::intolerablePreferNoSchedule(pod, st_.nodes[nodes[i]]);
            k8s::defaultNormalize(raw, true);
            for (size_t i = 0; i < n; ++i) total[i] += raw[i] * w;
        }
        if (int64_t w = weight("NodeAffinity"); w && pod.hasPreferredNodeAffinity) {
            for (size_t i = 0; i < n; ++i)
                raw[i] = k8s::nodeAffinityScore(pod, st_.nodes[nodes[i]], st_.nodeName(nodes[i]));
            k8s::defaultNormalize(raw, false);
            for (size_t i = 0; i < n; ++i) total[i] += raw[i] * w;
        }
        if (int64_t w = weight("InterPodAffinity"); w && podAffinityMatters(t)) {
            auto state = k8s::affinityPreScore(st_, t);
            if (!state.skip) {
                for (size_t i = 0; i < n; ++i) raw[i] = k8s::affinityScore(st_, state, nodes[i]);
                k8s::affinityNormalize(raw);
                for (size_t i = 0; i < n; ++i) total[i] += raw[i] * w;
            }
        }
        if (int64_t w = weight("PodTopologySpread"); w && !pod.topologySpread.empty()) {
            auto state = k8s::spreadPreScore(st_, t, nodes);
            if (!state.skip) {
                std::vector<bool> ignored(n, false);
                for (size_t i = 0; i < n; ++i) {
                    bool ig = false;
                    raw[i] = k8s::spreadScore(st_, state, nodes[i], &ig);
                    ignored[i] = ig;
                }
                k8s::spreadNormalize(raw, ignored);
                for (size_t i = 0; i < n; ++i) total[i] += raw[i] * w;
            }
        }
        return total;
    }

    void bindTask(uint32_t t, uint32_t n) {
        const auto& task = st_.tasks[t];
        undo_.push_back(Undo{t, task.status, task.node, task.inK8sView});
        // The k8s view first: setTask then moves the node to its new bucket once.
        st_.k8sAdd(t, n);
        st_.setTask(t, TaskStatus::Bound, int32_t(n));
        st_.reindexNode(n);
    }

    void restore() {
        for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) {
            const int32_t node = st_.tasks[it->task].node;
            const bool leavesView = st_.tasks[it->task].inK8sView && !it->inK8s && node >= 0;
            if (leavesView) st_.k8sRemove(it->task, uint32_t(node));
            st_.setTask(it->task, it->status, it->node);
            if (leavesView) st_.reindexNode(uint32_t(node));
        }
        undo_.clear();
    }

    ClusterState& st_;
    const KubeSchedulerProfile& profile_;
    std::map<std::string, int64_t> weights_;
    k8s::FitScorer fit_;
    std::vector<int> balancedDims_;
    std::vector<Undo> undo_;
    std::vector<uint32_t> bucketFirsts_;
    StaticNodeChecks& checks_;
};

} // namespace

StaticNodeChecks::Result StaticNodeChecks::check(const ClusterState& st, uint32_t shape, uint32_t node) {
    if (rowOf_.size() <= shape) rowOf_.resize(shape + 1, kNoRow);
    if (rowOf_[shape] == kNoRow) {
        rowOf_[shape] = results_.size();
        const PodShape& pod = st.shapes[shape];
        for (uint32_t n = 0; n < st.nodes.size(); ++n) {
            const NodeRec& rec = st.nodes[n];
            results_.push_back(!k8s::passesUnschedulable(pod, rec)                  ? Result::Unschedulable
                               : k8s::firstUntolerated(pod, rec)                    ? Result::Taint
                               : !k8s::passesNodeAffinity(pod, rec, st.nodeName(n)) ? Result::NodeAffinity
                                                                                    : Result::Passes);
        }
    }
    return results_[rowOf_[shape] + node];
}

CycleResult runKubeDefault(ClusterState& state, const KubeSchedulerProfile& profile, bool scores,
                           bool compact, StaticNodeChecks* checks, const std::vector<uint32_t>* pods) {
    StaticNodeChecks once;
    return KubeScheduler(state, profile, checks ? *checks : once).run(scores, compact, pods);
}

} // namespace gantry::engine
