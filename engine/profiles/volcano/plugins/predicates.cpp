// predicates: kube-scheduler's filters as Volcano runs them. The node's pod count first (it does not
// stop the others), then NodeUnschedulable, NodeAffinity (nodeSelector + required node affinity) and
// TaintToleration, each of which ends the evaluation on failure, then InterPodAffinity and
// PodTopologySpread, and last DynamicResources for pods with ResourceClaims (upstream runs it where
// the DynamicResourceAllocation feature gate is on, as it is by default since Kubernetes 1.34). It
// also keeps the k8s NodeInfo view current: tasks allocated or pipelined in the session join their
// node's pods, evicted ones leave it; a claim is reserved on the node a task is allocated or
// pipelined to and unreserved when that is undone (an evicted pod keeps its devices until it is gone).
#include "k8s/claim_tasks.h"
#include "k8s/k8s.h"
#include "profiles/volcano/plugins/arguments.h"
#include "profiles/volcano/plugins/plugins.h"

#include <unordered_map>

namespace gantry::engine::plugins {

namespace {

class Predicates : public Plugin {
  public:
    explicit Predicates(const PluginOption& o) {
        getBool(o, "predicate.NodeAffinityEnable", nodeAffinity_);
        getBool(o, "predicate.TaintTolerationEnable", taints_);
        getBool(o, "predicate.PodAffinityEnable", podAffinity_);
        getBool(o, "predicate.PodTopologySpreadEnable", spread_);
    }

    void onSessionOpen(Session& ssn) override {
        s_ = &ssn;
        claims_ = ssn.options.claims;
        if (claims_) claims_->sync(ssn.state); // the pods that left since the last session give back
        podNumber_ = ssn.reasonId("node(s) pod number exceeded");
        unschedulable_ = ssn.reasonId(k8s::kUnschedulable);
        nodeAffinityReason_ = ssn.reasonId(k8s::kNodeAffinity);
        ssn.addEventHandler(
            [this](uint32_t t) {
                const int32_t n = s_->state.tasks[t].node;
                if (n < 0) return;
                s_->k8sAdd(t, uint32_t(n));
                if (claims_ && claims_->uses(s_->state, t) &&
                    !claims_->allocator().holds(s_->state.taskKey(t)))
                    claims_->allocate(s_->state, t, uint32_t(n));
            },
            [this](uint32_t t) {
                const int32_t n = s_->state.tasks[t].node;
                if (n >= 0) s_->k8sRemove(t, uint32_t(n));
                if (claims_ && s_->state.tasks[t].status != TaskStatus::Releasing &&
                    claims_->uses(s_->state, t))
                    claims_->release(s_->state, t);
            });
        auto& self = ssn.self();
        self.prePredicate = [this](uint32_t task) -> std::optional<std::string> {
            prePredicate(task);
            // DynamicResources' PreFilter: a claim or class that does not exist fails everywhere.
            if (claims_)
                if (const std::string* why = claims_->unusable(s_->state, task))
                    return "plugin DynamicResources pre-predicates failed " + *why;
            return std::nullopt;
        };
        self.predicate = [this](uint32_t task, uint32_t node, FitResult& out) { predicate(task, node, out); };
        // Topology-aware preemption's dry run: InterPodAffinity only, on a copy of the preemptor's
        // PreFilter state that victims leave and re-enter (devices are not modelled).
        self.simulateBegin = [this](uint32_t task) {
            auto it = states_.find(task);
            simActive_ = it != states_.end() && it->second.ready && podAffinity_;
            if (simActive_) sim_ = it->second.affinity;
        };
        self.simulateTask = [this](uint32_t task, uint32_t pod, uint32_t node, int sign) {
            if (simActive_) k8s::affinityUpdateWithPod(s_->state, sim_, task, pod, node, sign);
        };
        self.simulatePredicate = [this](uint32_t task, uint32_t node, FitResult& out) {
            if (!simActive_) return;
            Code code = Code::Success;
            if (const char* reason = k8s::affinityFilter(s_->state, sim_, task, node, &code))
                out.add(code, s_->reasonId(reason));
        };
    }

  private:
    struct TaskState {
        bool ready = false;
        k8s::AffinityState affinity;
        k8s::SpreadState spread;
    };

    void predicate(uint32_t task, uint32_t node, FitResult& out) {
        const auto& st = s_->state;
        const auto& n = st.nodes[node];
        const auto& pod = st.shapeOf(task);
        if (n.maxTaskNum <= st.k8sPods[node]) out.add(Code::Unschedulable, podNumber_);
        if (!k8s::passesUnschedulable(pod, n)) {
            out.add(Code::UnschedulableAndUnresolvable, unschedulable_);
            return;
        }
        if (nodeAffinity_ && !k8s::passesNodeAffinity(pod, n, st.nodeName(node))) {
            out.add(Code::UnschedulableAndUnresolvable, nodeAffinityReason_);
            return;
        }
        if (taints_) {
            if (const Taint* t = k8s::firstUntolerated(pod, n)) {
                out.add(Code::UnschedulableAndUnresolvable, s_->reasonId(k8s::untoleratedTaintReason(*t)));
                return;
            }
        }
        if (!podAffinity_ && !spread_) return claimsFilter(task, node, out);
        if (pod.podAffinity.empty() && pod.podAntiAffinity.empty() && pod.topologySpread.empty() &&
            st.podsWithAffinity == 0)
            return claimsFilter(task, node, out);
        auto it = states_.find(task);
        if (it == states_.end() || !it->second.ready) {
            prePredicate(task);
            it = states_.find(task);
        }
        Code code = Code::Success;
        if (podAffinity_) {
            if (const char* reason = k8s::affinityFilter(st, it->second.affinity, task, node, &code)) {
                out.add(code, s_->reasonId(reason));
                if (code == Code::UnschedulableAndUnresolvable) return;
            }
        }
        if (spread_) {
            if (const char* reason = k8s::spreadFilter(st, it->second.spread, node, &code)) {
                out.add(code, s_->reasonId(reason));
                if (code == Code::UnschedulableAndUnresolvable) return;
            }
        }
        claimsFilter(task, node, out);
    }

    // DynamicResources' Filter: the pod's claims can be allocated from the node's devices (or, when
    // allocated already, used there). Preemption does not free devices: UnschedulableAndUnresolvable.
    void claimsFilter(uint32_t task, uint32_t node, FitResult& out) {
        if (!claims_ || !claims_->uses(s_->state, task)) return;
        if (const char* reason = claims_->filter(s_->state, task, node))
            out.add(k8s::isAllocationError(reason) ? Code::Error : Code::UnschedulableAndUnresolvable,
                    s_->reasonId(reason));
    }

    // The PreFilter states; skipped (no work) for pods without pod affinity or spread constraints
    // while no placed pod carries affinity terms.
    void prePredicate(uint32_t task) {
        const auto& pod = s_->state.shapeOf(task);
        const bool affinity =
            !pod.podAffinity.empty() || !pod.podAntiAffinity.empty() || s_->state.podsWithAffinity > 0;
        const bool spread = !pod.topologySpread.empty();
        if (!affinity && !spread) return;
        auto& st = states_[task];
        if (podAffinity_ && affinity) st.affinity = k8s::affinityPreFilter(s_->state, task);
        if (spread_ && spread) st.spread = k8s::spreadPreFilter(s_->state, task);
        st.ready = true;
    }

    Session* s_ = nullptr;
    k8s::ClaimTasks* claims_ = nullptr;
    bool nodeAffinity_ = true, taints_ = true, podAffinity_ = true, spread_ = true;
    uint32_t podNumber_ = 0, unschedulable_ = 0, nodeAffinityReason_ = 0;
    std::unordered_map<uint32_t, TaskState> states_;
    bool simActive_ = false;
    k8s::AffinityState sim_;
};

} // namespace

PluginDescriptor predicatesPlugin() {
    PluginTraits t;
    // It looks only at the jobs it is asked about (or at the settled jobs' totals).
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    return {"predicates", [](const PluginOption& option) { return std::make_unique<Predicates>(option); },
            std::move(t)};
}

} // namespace gantry::engine::plugins
