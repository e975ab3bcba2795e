#include "k8s/kube_scheduler.h"

#include "k8s/feasible_nodes.h"
#include "k8s/k8s.h"
#include "model/go_text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

namespace gantry::engine::k8s {

BuildOptions kubeBuildOptions() {
    BuildOptions o;
    o.allSchedulers = true;
    // kube-scheduler has no queues: every workload's pods form a job (the gang Gantry reports, and
    // the pods its controller creates later), whatever queue it names.
    o.anyQueue = true;
    return o;
}

namespace {

constexpr const char* kOtherScheduler =
    "not kube-scheduler's: its schedulerName names another scheduler, which Gantry does not emulate";
// DefaultPreemption's words (pkg/scheduler/framework/plugins/defaultpreemption, framework/preemption).
constexpr const char* kNoVictims = "No preemption victims found for incoming pod";
constexpr const char* kNotHelpful = "Preemption is not helpful for scheduling";

struct Undo {
    uint32_t task;
    TaskStatus status;
    int32_t node;
    bool inK8s;
};

// "0/N nodes are available: 2 Insufficient cpu, 1 ...." (FitError.Error): the reasons sorted by
// their text with the counts in it.
std::string fitMessage(size_t nodes, const std::map<std::string, uint32_t>& reasons) {
    std::vector<std::string> parts;
    for (const auto& [w, n] : reasons) parts.push_back(std::to_string(n) + " " + w);
    std::sort(parts.begin(), parts.end());
    std::string msg = "0/" + std::to_string(nodes) + " nodes are available";
    if (!parts.empty()) {
        msg += ": ";
        for (size_t i = 0; i < parts.size(); ++i) msg += (i ? ", " : "") + parts[i];
    }
    return msg + ".";
}

// intstr.GetScaledValueFromIntOrPercent with rounding up.
int64_t scaled(const std::string& value, int64_t total) {
    if (!value.empty() && value.back() == '%') {
        const int64_t pct = parseGoInt(std::string_view(value).substr(0, value.size() - 1)).value_or(0);
        return (pct * total + 99) / 100;
    }
    return parseGoInt(value).value_or(0);
}

class SchedulingCycle {
  public:
    SchedulingCycle(ClusterState& st, const KubeSchedulerProfile& p, KubeSchedulerMemory& memory,
                    bool answerLikePods)
        : st_(st), profile_(p), checks_(memory.checks), search_(memory.search),
          claimTasks_(memory.claimTasks), claims_(memory.claims), answerLikePods_(answerLikePods) {
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
        fit_.strategy = p.strategy;
        for (const auto& [name, w] : p.resourceWeights) fit_.resources.emplace_back(st.dims.find(name), w);
        for (const auto& [u, s] : p.shape) fit_.shape.emplace_back(u, s);
        fit_.useRequested = false;
        balancedDims_ = {kCpu, kMemory};
        extra_.assign(size_t(st.D()), 0);
        row_.assign(size_t(st.D()), 0);
    }

    CycleResult run(bool scores, bool compact, const std::vector<uint32_t>* pods) {
        CycleResult r;
        claims_.clear();
        if (claimTasks_) claimTasks_->sync(st_);
        // A pod naming a scheduler Gantry does not emulate waits for it: kube-scheduler handles only
        // the pods of its own profiles (responsibleForPod in pkg/scheduler/eventhandlers.go).
        auto take = [&](uint32_t t) {
            if (st_.tasks[t].status != TaskStatus::Pending) return;
            if (!st_.tasks[t].ours)
                r.pending[st_.taskKey(t)] = kOtherScheduler;
            else if (st_.schedulingGated(t)) // PreEnqueue keeps it out of the active queue
                r.pending[st_.taskKey(t)] = st_.schedulingGatesReason(t);
            else if (const std::string* why = claimsUnusable(t)) // DynamicResources' PreFilter
                r.pending[st_.taskKey(t)] =
                    "0/" + std::to_string(st_.nodes.size()) + " nodes are available: " + *why + ".";
            else
                queue_.push_back(t);
        };
        if (pods) {
            for (uint32_t t : *pods) take(t);
        } else {
            for (uint32_t t = 0; t < st_.tasks.size(); ++t) take(t);
        }
        std::stable_sort(queue_.begin(), queue_.end(), [&](uint32_t a, uint32_t b) { return before(a, b); });
        all_.resize(st_.nodes.size());
        for (uint32_t i = 0; i < all_.size(); ++i) all_[i] = st_.nodeByRank[i];
        if (scores)
            for (uint32_t t : queue_) {
                auto s = score(t, all_);
                auto& row = r.scores[st_.taskKey(t)];
                for (size_t i = 0; i < all_.size(); ++i) row[st_.nodeName(all_[i])] = double(s[i]);
            }
        // The nominator: pods of the queue that preemption nominated to a node earlier.
        for (uint32_t t : queue_)
            if (const int32_t n = st_.tasks[t].nominatedNode; n >= 0 && uint32_t(n) < st_.nodes.size())
                nominate(t, uint32_t(n));
        st_.ensureIndexes();
        if (search_.order().size() != st_.nodes.size()) {
            // The scheduler cache adds the nodes as the API lists them: by name.
            std::vector<std::string> zones(st_.nodes.size());
            for (uint32_t i = 0; i < zones.size(); ++i)
                zones[i] = k8s::zoneKey(st_.nodes[st_.nodeByRank[i]].labels);
            std::vector<uint32_t> order = k8s::nodeTreeOrder(zones);
            for (uint32_t& node : order) node = st_.nodeByRank[node];
            search_.setOrder(std::move(order));
        }
        // Without a score plugin the first node that passes is as good as any (findNodesThatPassFilters).
        toFind_ = weights_.empty() ? 1u
                                   : uint32_t(k8s::numFeasibleNodesToFind(profile_.percentageOfNodesToScore,
                                                                          int32_t(st_.nodes.size())));
        for (size_t qi = 0; qi < queue_.size(); ++qi) {
            const uint32_t t = queue_[qi];
            if (st_.tasks[t].status == TaskStatus::Pending) schedule(t, qi, r);
        }
        reportGangs(r, compact);
        // Pods their controller has not created yet wait for it, whatever the scheduler.
        if (!compact)
            for (uint32_t j = 0; j < st_.jobs.size(); ++j)
                if (st_.jobAlive(j) && !st_.jobs[j].gates.empty())
                    for (uint32_t t : st_.jobs[j].tasks)
                        if (st_.tasks[t].status == TaskStatus::NotCreated)
                            r.pending[st_.taskKey(t)] = st_.whyNotCreated(t);
        // Nominations now, against those the pods carried in.
        for (uint32_t t : queue_) {
            auto it = nominatedOf_.find(t);
            const int32_t now = it == nominatedOf_.end() || st_.tasks[t].status != TaskStatus::Pending
                                    ? -1
                                    : int32_t(it->second);
            if (now >= 0 && !compact) r.nominated[st_.taskKey(t)] = st_.nodeName(uint32_t(now));
            if (now != st_.tasks[t].nominatedNode) r.nominations.emplace_back(t, now);
        }
        restore();
        return r;
    }

  private:
    // The scheduling queue's order: priority, then creation.
    bool before(uint32_t a, uint32_t b) const {
        if (st_.tasks[a].kubePriority != st_.tasks[b].kubePriority)
            return st_.tasks[a].kubePriority > st_.tasks[b].kubePriority;
        return st_.tasks[a].order < st_.tasks[b].order;
    }

    int32_t priority(uint32_t t) const { return st_.tasks[t].kubePriority; }

    // One scheduling attempt of a pod: its nominated node first, then every node; PostFilter
    // (DefaultPreemption) when none fits.
    void schedule(uint32_t t, size_t qi, CycleResult& r) {
        const bool affinity = podAffinityMatters(t);
        auto aff = affinity ? k8s::affinityPreFilter(st_, t) : k8s::AffinityState{};
        auto spread = k8s::spreadPreFilter(st_, t);
        // A pod like one that found no node and no victims since the cycle last changed gets its
        // answer: filters and the dry run read only the pod's shape and priority and the state.
        // Claims: each node's devices answer for themselves.
        const bool claims = usesClaims(t);
        const bool memo =
            answerLikePods_ && !affinity && !st_.shapeOf(t).perNode && !nominatedOf_.count(t) && !claims;
        const uint64_t memoKey = (uint64_t(st_.tasks[t].shape) << 32) | uint32_t(priority(t));
        if (memo)
            if (auto it = unplaceable_.find(memoKey);
                it != unplaceable_.end() && it->second.first == generation_) {
                r.pending[st_.taskKey(t)] = it->second.second;
                return;
            }
        // evaluateNominatedNode: a pod whose nominated node fits goes there.
        if (auto it = nominatedOf_.find(t); it != nominatedOf_.end())
            if (filter(t, it->second, aff, spread, nullptr) == Code::Success) {
                bind(t, it->second, qi, r);
                return;
            }
        // The nodes of one bucket answer every filter and score alike: unless the pod's placement
        // reads other pods or node names, each bucket's first node by name stands for all of
        // them (the one the tie-break would pick among them). Nodes with nominated pods answer
        // on their own.
        byBucket_ = !affinity && !st_.shapeOf(t).perNode && !claims;
        buildCandidates(byBucket_);
        feasible_.clear();
        rememberAnswers();
        uint64_t passing = 0; // nodes that pass: a bucket's answer is each of its nodes'
        for (size_t i = 0; i < candidates_.size(); ++i) {
            const uint32_t n = candidates_[i];
            const Code code = filter(t, n, aff, spread, nullptr);
            if (code == Code::Error) {
                // A filter's error on any node aborts the pod's attempt (findNodesThatPassFilters):
                // it stays pending with the error, and nothing is preempted for it.
                std::vector<std::string> why;
                filter(t, n, aff, spread, &why);
                r.pending[st_.taskKey(t)] = why.empty() ? std::string() : why.back();
                return;
            }
            const bool passes = code == Code::Success;
            remember(n, passes);
            if (passes) {
                feasible_.push_back(n);
                passing += weight_[i];
            }
        }
        // Unless more nodes pass than kube-scheduler looks for, its search checks every node, finds
        // them all and starts the next one where this one started.
        const bool window = passing > toFind_;
        if (window) searchWindow();
        if (feasible_.empty()) {
            // Why no node fits is worked out only for a pod that stays pending.
            std::map<std::string, uint32_t> reasons;
            codes_.assign(candidates_.size(), Code::Success);
            std::vector<std::string> why;
            for (size_t i = 0; i < candidates_.size(); ++i) {
                why.clear();
                codes_[i] = filter(t, candidates_[i], aff, spread, &why);
                for (const auto& w : why) reasons[w] += weight_[i];
            }
            std::string msg = fitMessage(all_.size(), reasons);
            bool changed = false;
            if (profile_.preemption) {
                const std::string post = preempt(t, aff, spread, r);
                if (!post.empty())
                    msg += " preemption: " + post + ".";
                else
                    changed = true; // victims evicted, the pod nominated
            }
            if (changed)
                ++generation_;
            else if (memo)
                unplaceable_[memoKey] = {generation_, msg};
            r.pending[st_.taskKey(t)] = msg;
            return;
        }
        int32_t best = -1;
        if (feasible_.size() == 1) {
            best = int32_t(feasible_[0]);
        } else {
            // In a window, one node of each bucket found (the one the tie-break would pick) is scored.
            if (window) representWindow();
            auto s = score(t, feasible_);
            int64_t max = std::numeric_limits<int64_t>::min();
            for (size_t i = 0; i < feasible_.size(); ++i)
                if (s[i] > max ||
                    (s[i] == max && st_.nodes[feasible_[i]].rank < st_.nodes[uint32_t(best)].rank)) {
                    max = s[i];
                    best = int32_t(feasible_[i]);
                }
        }
        bind(t, uint32_t(best), qi, r);
    }

    // The filters' answers of this pod: per node where the node answers alone (it holds nominated
    // pods, or the pod's placement reads other pods or node names), else per bucket.
    void rememberAnswers() {
        ++stamp_;
        bucketStamp_.resize(std::max(bucketStamp_.size(), st_.buckets.size()), 0);
        bucketPasses_.resize(bucketStamp_.size(), 0);
        nodeStamp_.resize(st_.nodes.size(), 0);
        nodePasses_.resize(st_.nodes.size(), 0);
    }
    bool alone(uint32_t n) const { return !byBucket_ || nominatedOn_.count(n); }
    void remember(uint32_t n, bool passes) {
        if (alone(n)) {
            nodeStamp_[n] = stamp_;
            nodePasses_[n] = passes;
        } else {
            bucketStamp_[st_.nodeBucket[n]] = stamp_;
            bucketPasses_[st_.nodeBucket[n]] = passes;
        }
    }

    // percentageOfNodesToScore on a large cluster: the nodes found from where the last search stopped
    // until toFind_ passed, each answering as its bucket did.
    void searchWindow() {
        auto passes = [&](uint32_t n) {
            if (alone(n)) return nodeStamp_[n] == stamp_ && nodePasses_[n] != 0;
            const uint32_t b = st_.nodeBucket[n];
            return bucketStamp_[b] == stamp_ && bucketPasses_[b] != 0;
        };
        search_.find(toFind_, passes, feasible_);
    }

    // The nodes found, one per bucket (its lowest by name among those found): nodes of a bucket score
    // alike, and the scores normalised over the found nodes have the same extremes.
    void representWindow() {
        if (!byBucket_) return;
        ++stamp_;
        size_t kept = 0;
        for (uint32_t n : feasible_) {
            if (nominatedOn_.count(n)) {
                feasible_[kept++] = n;
                continue;
            }
            const uint32_t b = st_.nodeBucket[n];
            if (bucketStamp_[b] == stamp_) {
                uint32_t& rep = feasible_[bucketPasses_[b]];
                if (st_.nodes[n].rank < st_.nodes[rep].rank) rep = n;
                continue;
            }
            bucketStamp_[b] = stamp_;
            bucketPasses_[b] = uint32_t(kept); // reused: the bucket's place in the list
            feasible_[kept++] = n;
        }
        feasible_.resize(kept);
    }

    void bind(uint32_t t, uint32_t n, size_t qi, CycleResult& r) {
        ++generation_;
        if (usesClaims(t)) {
            for (auto& claim : claimTasks_->allocate(st_, t, n)) claims_.push_back(std::move(claim));
        }
        bindTask(t, n);
        unnominate(t);
        r.bindings[st_.taskKey(t)] = st_.nodeName(n);
        r.boundTasks.emplace_back(t, n);
        if (minPriority_.size() > n) {
            minPriority_[n] = std::min(minPriority_[n], priority(t));
            globalMinPriority_ = std::min(globalMinPriority_, priority(t));
        }
        // A pod scheduled now may let its controller create others (an exclusive-placement
        // leader's followers): they join the queue behind the pods already in it.
        const uint32_t j = st_.tasks[t].job;
        if (j == UINT32_MAX || st_.jobs[j].gates.empty()) return;
        for (auto& opened : st_.openGates(j)) {
            for (uint32_t c : opened.gate.tasks) {
                auto at = std::upper_bound(queue_.begin() + std::ptrdiff_t(qi) + 1, queue_.end(), c,
                                           [&](uint32_t a, uint32_t b) { return before(a, b); });
                queue_.insert(at, c);
            }
            opened_.push_back(std::move(opened));
        }
        // A follower's nodeSelector may name a label no pod read before: node classes split by it.
        st_.ensureIndexes();
    }

    // Filters in kube-scheduler's default order, with the pods nominated to the node that are at
    // least as important as this one (RunFilterPluginsWithNominatedPods): Success, or why not and
    // whether removing pods could help (Unschedulable) or not (UnschedulableAndUnresolvable). With
    // `why`, the reasons of the first failing plugin.
    Code filter(uint32_t t, uint32_t n, const k8s::AffinityState& aff, const k8s::SpreadState& spread,
                std::vector<std::string>* why) {
        const auto& pod = st_.shapeOf(t);
        const auto& node = st_.nodes[n];
        switch (checks_.check(st_, st_.tasks[t].shape, n)) {
        case StaticNodeChecks::Result::Unschedulable:
            if (why) why->push_back(k8s::kUnschedulable);
            return Code::UnschedulableAndUnresolvable;
        case StaticNodeChecks::Result::Taint:
            if (why) why->push_back(k8s::untoleratedTaintReason(*k8s::firstUntolerated(pod, node)));
            return Code::UnschedulableAndUnresolvable;
        case StaticNodeChecks::Result::NodeAffinity:
            if (why) why->push_back(k8s::kNodeAffinity);
            return Code::UnschedulableAndUnresolvable;
        case StaticNodeChecks::Result::Passes:
            break;
        }
        bool fits = true, unresolvable = false;
        auto fail = [&](const std::string& reason) {
            fits = false;
            if (why) why->push_back(reason);
        };
        const int64_t* alloc = st_.nodeRow(st_.allocatable, n);
        const int64_t* req = st_.nodeRow(st_.k8sRequested, n);
        int32_t podsOnNode = st_.k8sPods[n];
        if (const int32_t added = addNominated(t, n)) {
            for (size_t d = 0; d < row_.size(); ++d) row_[d] = req[d] + extra_[d];
            req = row_.data();
            podsOnNode += added;
        }
        if (podsOnNode + 1 > node.maxTaskNum) fail("Too many pods");
        // KEP-5004: an extended resource the node does not advertise, served by a DeviceClass, is
        // DynamicResources' to allocate, not NodeResourcesFit's to count.
        extended_.clear();
        if (usesClaims(t)) extendedFor(t, n, extended_);
        auto check = [&](int d) {
            const int64_t want = pod.request[size_t(d)];
            if (want > 0 && alloc[d] == 0 && !extended_.empty() && servedByDra(d)) return;
            if (want > 0 && want > alloc[d] - req[d]) {
                fail("Insufficient " + st_.dims.name(d));
                // Larger than the node itself: no eviction makes room (fitsRequest's Unresolvable).
                if (want > alloc[d]) unresolvable = true;
            }
        };
        check(kCpu);
        if (!fits && !why) return unresolvable ? Code::UnschedulableAndUnresolvable : Code::Unschedulable;
        check(kMemory);
        for (int d : st_.dims.byName())
            if (d > kPods && ((pod.presentMask >> d) & 1u) && (fits || why)) check(d);
        // Shares of a device and GPU models, as a GPU-sharing scheduler extender checks them.
        if (pod.gpu.count > 0 && fits && !(st_.gpuCount(n) == 0 && !extended_.empty()) &&
            !st_.gpusFit(t, n)) {
            fail("Insufficient GPU devices");
            if (!st_.gpuModelAllowed(t, n) || pod.gpu.count > st_.gpuCount(n)) unresolvable = true;
        }
        if (!fits) return unresolvable ? Code::UnschedulableAndUnresolvable : Code::Unschedulable;
        Code code = Code::Unschedulable;
        if (const char* reason = k8s::spreadFilter(st_, spread, n, &code)) {
            fail(reason);
            return code;
        }
        if (const char* reason = k8s::affinityFilter(st_, aff, t, n, &code)) {
            fail(reason);
            return code;
        }
        // DynamicResources comes after InterPodAffinity, just before DefaultPreemption
        // (default_plugins.go applyFeatureGates).
        if (usesClaims(t))
            if (const char* reason = claimTasks_->allocator().filter(st_.taskKey(t), st_.nodeName(n),
                                                                     node.labels, extended_)) {
                // The allocator's error is an Error status: the framework names the plugin.
                if (isAllocationError(reason)) {
                    fail(std::string("running \"DynamicResources\" filter plugin: ") + reason);
                    return Code::Error;
                }
                fail(reason);
                return Code::UnschedulableAndUnresolvable;
            }
        return Code::Success;
    }

    // The requests of the pods nominated to the node, other than this one and not less important,
    // into extra_; returns how many there are.
    int32_t addNominated(uint32_t t, uint32_t n) {
        if (nominatedOf_.empty()) return 0;
        auto it = nominatedOn_.find(n);
        if (it == nominatedOn_.end()) return 0;
        int32_t added = 0;
        for (uint32_t u : it->second) {
            if (u == t || priority(u) < priority(t)) continue;
            if (added == 0) std::fill(extra_.begin(), extra_.end(), 0);
            const auto& req = st_.shapeOf(u).request;
            for (size_t d = 0; d < extra_.size() && d < req.size(); ++d) extra_[d] += req[d];
            ++added;
        }
        return added;
    }

    // The nodes to filter, and how many nodes each stands for.
    void buildCandidates(bool byBucket) {
        candidates_.clear();
        weight_.clear();
        if (!byBucket) {
            candidates_ = all_;
            weight_.assign(all_.size(), 1);
            return;
        }
        // Buckets holding a node with nominated pods: how many such nodes.
        nominatedBuckets_.clear();
        for (const auto& [n, pods] : nominatedOn_) ++nominatedBuckets_[st_.nodeBucket[n]];
        for (const NodeClass& c : st_.classes)
            for (uint32_t b : c.buckets) {
                const auto& ranks = st_.buckets[b].ranks;
                auto nominated = nominatedBuckets_.find(b);
                if (nominated == nominatedBuckets_.end()) {
                    candidates_.push_back(st_.nodeByRank[*ranks.begin()]);
                    weight_.push_back(uint32_t(ranks.size()));
                    continue;
                }
                if (ranks.size() == nominated->second) continue;
                for (uint32_t rank : ranks)
                    if (!nominatedOn_.count(st_.nodeByRank[rank])) {
                        candidates_.push_back(st_.nodeByRank[rank]);
                        weight_.push_back(uint32_t(ranks.size() - nominated->second));
                        break;
                    }
            }
        for (const auto& [n, pods] : nominatedOn_) {
            candidates_.push_back(n);
            weight_.push_back(1);
        }
    }

    // ---------------------------------------------------------------- preemption

    struct Candidate {
        uint32_t node = 0;
        std::vector<uint32_t> victims; // most important first
        int64_t pdbViolations = 0;
    };

    // MoreImportantPod: higher priority, then the one that started first (then the older pod).
    bool moreImportant(uint32_t a, uint32_t b) const {
        if (priority(a) != priority(b)) return priority(a) > priority(b);
        if (st_.tasks[a].startSeconds != st_.tasks[b].startSeconds)
            return st_.tasks[a].startSeconds < st_.tasks[b].startSeconds;
        return st_.tasks[a].order < st_.tasks[b].order;
    }

    // DefaultPreemption's PostFilter for a pod no node fits (codes_ holds each candidate's filter
    // status): evicts the victims of the best node and nominates the pod there. Returns "" when it
    // did, else why not, as the plugin words it.
    std::string preempt(uint32_t t, const k8s::AffinityState& aff, const k8s::SpreadState& spread,
                        CycleResult& r) {
        // PodEligibleToPreemptOthers.
        if (st_.shapeOf(t).preemptNever) return "not eligible due to preemptionPolicy=Never.";
        if (auto it = nominatedOf_.find(t); it != nominatedOf_.end()) {
            const uint32_t nom = it->second;
            Code nomCode = Code::Unschedulable;
            for (size_t i = 0; i < candidates_.size(); ++i)
                if (candidates_[i] == nom) nomCode = codes_[i];
            if (nomCode != Code::UnschedulableAndUnresolvable)
                for (uint32_t x : st_.nodeTasks[nom])
                    if (st_.tasks[x].inK8sView && st_.tasks[x].status == TaskStatus::Releasing &&
                        priority(x) < priority(t))
                        return "not eligible due to a terminating pod on the nominated node.";
        }
        // Nodes where removing pods may help: those whose filters said Unschedulable.
        size_t potentialCount = 0;
        for (size_t i = 0; i < candidates_.size(); ++i)
            if (codes_[i] == Code::Unschedulable) potentialCount += weight_[i];
        std::map<std::string, uint32_t> statuses;
        auto fail = [&](std::map<std::string, uint32_t>& found, size_t evaluated) {
            unnominate(t);
            if (all_.size() > evaluated) found[kNotHelpful] += uint32_t(all_.size() - evaluated);
            return fitMessage(all_.size(), found);
        };
        if (potentialCount == 0) return fail(statuses, 0);
        ensureMinPriority();
        // No pod anywhere is less important: every potential node has no victim.
        if (globalMinPriority_ >= priority(t)) {
            statuses[kNoVictims] += uint32_t(potentialCount);
            return fail(statuses, potentialCount);
        }
        // The potential nodes, visited in name order without sorting them.
        potentialFlag_.assign(st_.nodes.size(), 0);
        for (size_t i = 0; i < candidates_.size(); ++i) {
            if (codes_[i] != Code::Unschedulable) continue;
            const uint32_t n = candidates_[i];
            if (!byBucket_ || nominatedOn_.count(n)) {
                potentialFlag_[n] = 1;
                continue;
            }
            for (uint32_t rank : st_.buckets[st_.nodeBucket[n]].ranks)
                if (!nominatedOn_.count(st_.nodeByRank[rank])) potentialFlag_[st_.nodeByRank[rank]] = 1;
        }
        // DryRunPreemption from the first node by name (upstream: a random offset), until it has
        // enough candidates (calculateNumCandidates) and one of them violates no budget.
        const size_t want = numCandidates(potentialCount);
        size_t found = 0, nonViolating = 0, evaluated = 0;
        uint32_t noVictims = 0;
        std::vector<std::string>& why = why_;
        for (uint32_t rank = 0; rank < st_.nodes.size(); ++rank) {
            const uint32_t n = st_.nodeByRank[rank];
            if (!potentialFlag_[n]) continue;
            ++evaluated;
            if (minPriority_[n] >= priority(t)) {
                ++noVictims;
                continue;
            }
            if (found_.size() <= found) found_.emplace_back();
            Candidate& c = found_[found];
            c.node = n;
            c.victims.clear();
            c.pdbViolations = 0;
            why.clear();
            if (!selectVictims(t, n, aff, spread, c, &why)) {
                for (const auto& w : why) statuses[w] += 1;
                continue;
            }
            nonViolating += c.pdbViolations == 0;
            if (++found >= want && nonViolating > 0) break;
        }
        if (noVictims) statuses[kNoVictims] += noVictims;
        if (found == 0) return fail(statuses, evaluated);
        // Candidates that violate no budget first, as DryRunPreemption returns them.
        std::stable_partition(found_.begin(), found_.begin() + std::ptrdiff_t(found),
                              [](const Candidate& c) { return c.pdbViolations == 0; });
        const Candidate& best = found_[pickOne(found)];
        // prepareCandidate: the victims go; lower-priority pods nominated there lose the nomination.
        for (uint32_t v : best.victims) {
            if (st_.tasks[v].status == TaskStatus::Releasing) continue; // already on its way out
            undo_.push_back(Undo{v, st_.tasks[v].status, st_.tasks[v].node, st_.tasks[v].inK8sView});
            st_.setTask(v, TaskStatus::Releasing, -1);
            r.evicted.push_back(st_.taskKey(v));
            r.evictedTasks.push_back(v);
        }
        if (auto it = nominatedOn_.find(best.node); it != nominatedOn_.end()) {
            std::vector<uint32_t> lower;
            for (uint32_t u : it->second)
                if (priority(u) < priority(t)) lower.push_back(u);
            for (uint32_t u : lower) unnominate(u);
        }
        nominate(t, best.node);
        return {};
    }

    size_t numCandidates(size_t nodes) const {
        size_t n = nodes * size_t(profile_.minCandidateNodesPercentage) / 100;
        n = std::max(n, size_t(profile_.minCandidateNodesAbsolute));
        return std::min(n, nodes);
    }

    // pickOneNodeForPreemption: fewest budget violations, lowest most important victim, lowest sum
    // of priorities, fewest victims, latest start of the most important victims; then the first.
    size_t pickOne(size_t count) const {
        const std::vector<Candidate>& found = found_;
        std::vector<size_t> left(count);
        for (size_t i = 0; i < left.size(); ++i) left[i] = i;
        auto narrow = [&](auto score) {
            if (left.size() < 2) return;
            std::vector<size_t> best;
            double max = -std::numeric_limits<double>::infinity();
            for (size_t i : left) {
                const double s = score(found[i]);
                if (s > max) {
                    max = s;
                    best.clear();
                }
                if (s == max) best.push_back(i);
            }
            left = std::move(best);
        };
        narrow([](const Candidate& c) { return -double(c.pdbViolations); });
        narrow([&](const Candidate& c) { return -double(priority(c.victims.front())); });
        narrow([&](const Candidate& c) {
            // Each priority shifted by MaxInt32+1, so that more negative victims do not win.
            double sum = 0;
            for (uint32_t v : c.victims) sum += double(priority(v)) + 2147483648.0;
            return -sum;
        });
        narrow([](const Candidate& c) { return -double(c.victims.size()); });
        narrow([&](const Candidate& c) {
            // GetEarliestPodStartTime: the earliest start among the most important victims.
            const int32_t top = priority(c.victims.front());
            double earliest = std::numeric_limits<double>::infinity();
            for (uint32_t v : c.victims)
                if (priority(v) == top) earliest = std::min(earliest, st_.tasks[v].startSeconds);
            return earliest;
        });
        return left.front();
    }

    // SelectVictimsOnNode: remove every less important pod, check the pod fits, then give back
    // the most important ones (budget violators first) while it still fits. False when the node
    // cannot be made to fit; *why then says why.
    bool selectVictims(uint32_t t, uint32_t n, const k8s::AffinityState& aff, const k8s::SpreadState& spread,
                       Candidate& c, std::vector<std::string>* why) {
        std::vector<uint32_t>& potential = victims_;
        potential.clear();
        for (uint32_t x : st_.nodeTasks[n])
            if (st_.tasks[x].inK8sView && priority(x) < priority(t)) potential.push_back(x);
        if (potential.empty()) {
            why->push_back(kNoVictims);
            return false;
        }
        const bool hasSpread = !st_.shapeOf(t).topologySpread.empty();
        k8s::AffinityState a = aff;
        k8s::SpreadState sp = spread;
        auto remove = [&](uint32_t x) {
            leaveView(x, n);
            k8s::affinityUpdateWithPod(st_, a, t, x, n, -1);
        };
        auto add = [&](uint32_t x) {
            joinView(x, n);
            k8s::affinityUpdateWithPod(st_, a, t, x, n, +1);
        };
        auto fits = [&](std::vector<std::string>* reasons) {
            if (hasSpread) sp = k8s::spreadPreFilter(st_, t);
            return filter(t, n, a, sp, reasons) == Code::Success;
        };
        for (uint32_t x : potential) remove(x);
        if (!fits(why)) {
            for (uint32_t x : potential) add(x);
            return false;
        }
        std::sort(potential.begin(), potential.end(),
                  [&](uint32_t x, uint32_t y) { return moreImportant(x, y); });
        // filterPodsWithPDBViolation: in that order, each victim takes one disruption from every
        // budget that selects it; one that takes a budget below zero violates it.
        ensureBudgets();
        std::vector<uint32_t>& violating = violating_;
        std::vector<uint32_t>& nonViolating = nonViolating_;
        violating.clear();
        nonViolating.clear();
        left_ = allowed_;
        for (uint32_t x : potential) {
            bool violates = false;
            for (size_t b = 0; b < st_.disruptionBudgets.size(); ++b)
                if (budgetCounts(b, x) && --left_[b] < 0) violates = true;
            (violates ? violating : nonViolating).push_back(x);
        }
        auto reprieve = [&](uint32_t x) {
            add(x);
            if (fits(nullptr)) return true;
            remove(x);
            c.victims.push_back(x);
            return false;
        };
        for (uint32_t x : violating)
            if (!reprieve(x)) ++c.pdbViolations;
        for (uint32_t x : nonViolating) reprieve(x);
        if (!violating.empty() && !nonViolating.empty())
            std::sort(c.victims.begin(), c.victims.end(),
                      [&](uint32_t x, uint32_t y) { return moreImportant(x, y); });
        for (uint32_t x : c.victims) add(x);
        if (c.victims.empty()) { // cannot happen: the pod did not fit with all of them
            why->push_back(kNoVictims);
            return false;
        }
        return true;
    }

    // A pod leaves (or rejoins) the node's k8s view for a dry run, with the GPU devices it holds.
    void leaveView(uint32_t x, uint32_t n) {
        st_.k8sRemove(x, n);
        shiftGpus(x, n, +1);
    }
    void joinView(uint32_t x, uint32_t n) {
        st_.k8sAdd(x, n);
        shiftGpus(x, n, -1);
    }
    void shiftGpus(uint32_t x, uint32_t n, int sign) {
        const uint64_t mask = st_.tasks[x].gpuMask;
        if (mask == 0) return;
        int32_t* row = st_.gpuFree.data() + st_.gpuOffset[n];
        const int32_t milli = st_.shapeOf(x).gpu.milliPerGpu;
        for (uint64_t m = mask; m; m &= m - 1) row[__builtin_ctzll(m)] += sign * milli;
    }

    // The least important pod on each node, worked out at the first preemption of the cycle.
    void ensureMinPriority() {
        if (!minPriority_.empty()) return;
        minPriority_.assign(st_.nodes.size(), std::numeric_limits<int32_t>::max());
        for (uint32_t n = 0; n < st_.nodes.size(); ++n)
            for (uint32_t x : st_.nodeTasks[n])
                if (st_.tasks[x].inK8sView) minPriority_[n] = std::min(minPriority_[n], priority(x));
        globalMinPriority_ = std::numeric_limits<int32_t>::max();
        for (int32_t p : minPriority_) globalMinPriority_ = std::min(globalMinPriority_, p);
    }

    // Each budget's allowed disruptions as the disruption controller would count them at the start
    // of the cycle (evictions within it are not counted yet): from minAvailable or maxUnavailable
    // against the pods it selects that exist and run, else status.disruptionsAllowed.
    void ensureBudgets() {
        if (budgetsDone_) return;
        budgetsDone_ = true;
        allowed_.clear();
        for (size_t b = 0; b < st_.disruptionBudgets.size(); ++b) {
            const DisruptionBudgetRec& pdb = st_.disruptionBudgets[b];
            if (!pdb.minAvailable && !pdb.maxUnavailable) {
                allowed_.push_back(pdb.statusAllowed);
                continue;
            }
            int64_t expected = 0, healthy = 0;
            for (uint32_t x = 0; x < st_.tasks.size(); ++x) {
                const TaskStatus s = st_.tasks[x].status;
                if (s == TaskStatus::NotCreated || completedStatus(s) || !selects(pdb, x)) continue;
                ++expected;
                if (s == TaskStatus::Running && !disrupted(pdb, x)) ++healthy;
            }
            const int64_t desired =
                pdb.maxUnavailable ? std::max<int64_t>(0, expected - scaled(*pdb.maxUnavailable, expected))
                                   : scaled(*pdb.minAvailable, expected);
            allowed_.push_back(expected <= 0 ? 0 : std::max<int64_t>(0, healthy - desired));
        }
    }

    bool selects(const DisruptionBudgetRec& pdb, uint32_t x) const {
        const auto& labels = st_.shapeOf(x).labels;
        return st_.tasks[x].ns == pdb.ns && !labels.empty() && !pdb.selector.empty() &&
               matches(pdb.selector, labels);
    }
    bool disrupted(const DisruptionBudgetRec& pdb, uint32_t x) const {
        const std::string& name = st_.strings.str(st_.tasks[x].name);
        return std::find(pdb.disruptedPods.begin(), pdb.disruptedPods.end(), name) != pdb.disruptedPods.end();
    }
    // Whether evicting the pod takes one of the budget's disruptions (one being processed does not).
    bool budgetCounts(size_t b, uint32_t x) const {
        const DisruptionBudgetRec& pdb = st_.disruptionBudgets[b];
        return selects(pdb, x) && !disrupted(pdb, x);
    }

    void nominate(uint32_t t, uint32_t n) {
        unnominate(t);
        nominatedOf_[t] = n;
        nominatedOn_[n].push_back(t);
    }
    void unnominate(uint32_t t) {
        auto it = nominatedOf_.find(t);
        if (it == nominatedOf_.end()) return;
        ++generation_; // a node lost a nominated pod: its filters may answer otherwise
        auto& list = nominatedOn_[it->second];
        list.erase(std::remove(list.begin(), list.end(), t), list.end());
        if (list.empty()) nominatedOn_.erase(it->second);
        nominatedOf_.erase(it);
    }

    // ---------------------------------------------------------------- reports

    // Gangs: kube-scheduler does not know them; report how far each got. A job that started some
    // pods but not minMember holds resources it cannot use: the deadlock gang scheduling avoids.
    // The simulator's form keeps no maps by name: only the jobs of pods left pending can have their
    // reasons extended.
    void reportGangs(CycleResult& r, bool compact) {
        std::vector<uint32_t> jobs;
        if (compact) {
            for (uint32_t t : queue_)
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

    // Whether DynamicResources has something to do for the pod: claims, or extended resources a
    // DeviceClass serves (k8s/claim_tasks.h).
    bool usesClaims(uint32_t t) { return claimTasks_ && claimTasks_->uses(st_, t); }
    const std::string* claimsUnusable(uint32_t t) {
        return claimTasks_ ? claimTasks_->unusable(st_, t) : nullptr;
    }
    bool servedByDra(int d) { return claimTasks_->servedByDra(st_, d); }
    void extendedFor(uint32_t t, uint32_t n, std::vector<k8s::ExtendedDevices>& out) {
        claimTasks_->extendedFor(st_, t, n, out);
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
        // Pods created in the cycle are not created yet, in their last-created-first order.
        for (auto it = opened_.rbegin(); it != opened_.rend(); ++it) st_.closeGate(std::move(*it));
        opened_.clear();
    }

    ClusterState& st_;
    const KubeSchedulerProfile& profile_;
    std::map<std::string, int64_t> weights_;
    k8s::FitScorer fit_;
    std::vector<int> balancedDims_;
    std::vector<Undo> undo_;
    std::vector<ClusterState::OpenedGate> opened_;
    StaticNodeChecks& checks_;
    k8s::NodeSearch& search_;
    ClaimTasks* claimTasks_;
    std::vector<k8s::ClaimResult>& claims_;
    std::vector<k8s::ExtendedDevices> extended_;
    uint32_t toFind_ = 0;                // numFeasibleNodesToFind for this cluster and profile
    uint64_t stamp_ = 0;                 // marks the entries below of the current pod
    std::vector<uint64_t> bucketStamp_;  // per bucket
    std::vector<uint32_t> bucketPasses_; // per bucket: its filter answer (or place, see above)
    std::vector<uint64_t> nodeStamp_;    // per node
    std::vector<uint8_t> nodePasses_;    // per node answering alone: its filter answer
    std::vector<uint32_t> queue_, all_, feasible_, candidates_, weight_;
    std::vector<uint8_t> potentialFlag_; // nodes whose filters said Unschedulable
    std::vector<Candidate> found_;       // the dry run's candidates (reused: their victim lists too)
    std::vector<std::string> why_;
    std::vector<Code> codes_;
    bool byBucket_ = false;
    std::vector<int64_t> extra_, row_; // requests of nominated pods; a node's requests with them
    std::unordered_map<uint32_t, uint32_t> nominatedOf_;              // pod -> node
    std::unordered_map<uint32_t, std::vector<uint32_t>> nominatedOn_; // node -> pods
    std::unordered_map<uint32_t, uint32_t> nominatedBuckets_;         // bucket -> nominated nodes in it
    std::vector<uint32_t> victims_, violating_, nonViolating_;        // scratch of selectVictims
    std::vector<int64_t> left_;
    std::vector<int32_t> minPriority_;
    // Pods (shape, priority) that found no node and no victims, with the generation they did at;
    // the generation moves with every binding, eviction and nomination change of the cycle.
    std::unordered_map<uint64_t, std::pair<uint64_t, std::string>> unplaceable_;
    uint64_t generation_ = 0;
    bool answerLikePods_ = true;
    int32_t globalMinPriority_ = 0;
    bool budgetsDone_ = false;
    std::vector<int64_t> allowed_;
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

CycleResult runKubeScheduler(ClusterState& state, const KubeSchedulerProfile& profile, bool scores,
                             bool compact, KubeSchedulerMemory* memory, const std::vector<uint32_t>* pods,
                             bool answerLikePods) {
    KubeSchedulerMemory once;
    return SchedulingCycle(state, profile, memory ? *memory : once, answerLikePods)
        .run(scores, compact, pods);
}

KubeScheduler::KubeScheduler(const KubeSchedulerProfile& profile, const Cluster& cluster,
                             Diagnostics* warnings)
    : profile_(profile) {
    // DynamicResources has work where pods use claims, or where a DeviceClass can serve an extended
    // resource (its extendedResourceName, or deviceclass.resource.kubernetes.io/<class>).
    const bool claims = std::any_of(cluster.pods.begin(), cluster.pods.end(),
                                    [](const Pod& p) { return !p.resourceClaims.empty(); });
    const bool extended = !cluster.dra.deviceClasses.empty();
    if (claims || extended) {
        dra_ = std::make_unique<DraAllocator>(cluster, warnings);
        claimTasks_ = std::make_unique<ClaimTasks>(*dra_, true);
        memory_.claimTasks = claimTasks_.get();
    }
}

KubeScheduler::~KubeScheduler() = default;

CycleResult KubeScheduler::cycle(ClusterState& state, const CycleOptions& options) {
    CycleResult r = runKubeScheduler(state, profile_, options.computeScores, options.compact, &memory_,
                                     options.pendingPods);
    if (!options.compact) return r;
    std::vector<uint32_t> jobs;
    if (options.pendingPods) {
        for (uint32_t t : *options.pendingPods)
            if (state.tasks[t].job != UINT32_MAX) jobs.push_back(state.tasks[t].job);
        std::sort(jobs.begin(), jobs.end());
        jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
    } else {
        for (uint32_t j = 0; j < state.jobs.size(); ++j) jobs.push_back(j);
    }
    for (uint32_t j : jobs) {
        if (!state.jobAlive(j)) continue;
        for (uint32_t t : state.jobs[j].tasks) {
            if (state.tasks[t].status != TaskStatus::Pending) continue;
            if (auto it = r.pending.find(state.taskKey(t)); it != r.pending.end()) {
                r.jobReasons.emplace_back(j, it->second);
                break;
            }
        }
    }
    return r;
}

} // namespace gantry::engine::k8s
