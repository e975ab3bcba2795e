// nodegroup: the queues' node groups (pkg/scheduler/plugins/nodegroup/nodegroup.go at ed72c7c8). A
// node belongs to the group its volcano.sh/nodegroup-name label names; a queue's spec.affinity lists
// the groups its pods must or may use and must or should avoid.
//
// Predicate: a node without the label fits only in non-strict mode (argument strict, default true)
// when the queue has no affinity at all; a labelled node never fits a queue without affinity. Else
// the group fits when it is required or preferred, unless it is anti-affine required, and it fits
// whenever it is anti-affine preferred (that rule comes last). A queue may also cap what its pods
// take of a group (annotation volcano.sh/nodegroup-resource-limits, JSON group -> resource list):
// a pod that would take the queue past a resource the cap names does not fit the group, and an
// annotation that does not parse fits no node.
//
// Score: required +100, preferred +50 (or 50 x (n - index) / n with enablePreferredOrder, index in
// the preferred list of n), anti-affine preferred -1 overriding the rest; an unlabelled node 0.
// With enableHierarchy, a queue without spec.affinity takes its nearest ancestor's.
#include "profiles/volcano/plugins/arguments.h"
#include "profiles/volcano/plugins/plugins.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace gantry::engine::plugins {

namespace {

constexpr const char* kGroupLabel = "volcano.sh/nodegroup-name";
constexpr double kBaseScore = 100;
constexpr double kMinResource = 0.1; // api.GetMinResource

bool has(const std::vector<std::string>& groups, const std::string& g) {
    return std::find(groups.begin(), groups.end(), g) != groups.end();
}

class NodeGroup : public Plugin {
  public:
    explicit NodeGroup(const PluginOption& o) {
        getBool(o, "strict", strict_);
        getBool(o, "enablePreferredOrder", preferredOrder_);
    }

    void onSessionOpen(Session& ssn) override {
        s_ = &ssn;
        auto& st = ssn.state;
        // The label splits nodes that every other placement input finds alike.
        st.noteLabelKey(kGroupLabel);
        st.ensureIndexes();
        groupOfNode_.assign(st.nodes.size(), -1);
        groupNames_.clear();
        for (uint32_t n = 0; n < st.nodes.size(); ++n) {
            auto it = st.nodes[n].labels.find(kGroupLabel);
            if (it != st.nodes[n].labels.end()) groupOfNode_[n] = groupId(it->second);
        }
        initQueues(ssn);
        for (uint32_t j = 0; j < st.jobs.size(); ++j) {
            if (!ssn.inSession(j)) continue;
            for (uint32_t t : st.jobs[j].tasks)
                if (allocatedStatus(st.tasks[t].status)) account(t, +1);
        }
        notSpecified_ = ssn.reasonId("node group affinity not specified");
        labelNotFound_ = ssn.reasonId("node group label not found");
        unsatisfied_ = ssn.reasonId("node does not satisfy the node group affinity");
        limitInvalid_ = ssn.reasonId("node group resource limit annotation invalid");
        limitExceeded_ = ssn.reasonId("node group resource limit exceeded");
        auto& self = ssn.self();
        self.nodeOrder = [this](uint32_t task, uint32_t node) { return score(task, node); };
        self.predicate = [this](uint32_t task, uint32_t node, FitResult& out) { predicate(task, node, out); };
        ssn.addEventHandler([this](uint32_t t) { account(t, +1); }, [this](uint32_t t) { account(t, -1); });
    }

  private:
    struct Limit {
        VResource resource;
        std::vector<int> dims; // the resources it names (a dimension the cluster lacks is never used)
    };
    struct QueueAttr {
        const NodeGroupAffinity* affinity = nullptr;
        bool limitInvalid = false;
        std::vector<std::pair<int32_t, Limit>> limits;    // group -> cap
        std::vector<std::pair<int32_t, VResource>> taken; // group -> what its pods hold there
    };

    int32_t groupId(const std::string& name) {
        auto it = std::find(groupNames_.begin(), groupNames_.end(), name);
        if (it != groupNames_.end()) return int32_t(it - groupNames_.begin());
        groupNames_.push_back(name);
        return int32_t(groupNames_.size() - 1);
    }

    void initQueues(Session& ssn) {
        const auto& st = ssn.state;
        queues_.assign(st.queues.size(), QueueAttr{});
        for (uint32_t q = 0; q < st.queues.size(); ++q) {
            QueueAttr& a = queues_[q];
            if (st.queues[q].nodeGroupAffinity) a.affinity = &*st.queues[q].nodeGroupAffinity;
            if (st.queues[q].nodeGroupResourceLimits) parseLimits(*st.queues[q].nodeGroupResourceLimits, a);
        }
        if (!ssn.hierarchyEnabled("nodegroup")) return;
        // A queue without affinity takes its nearest ancestor's (the parent, else root).
        std::vector<const NodeGroupAffinity*> own(queues_.size());
        for (size_t q = 0; q < queues_.size(); ++q) own[q] = queues_[q].affinity;
        for (size_t q = 0; q < queues_.size(); ++q) {
            if (own[q]) continue;
            int32_t up = st.queues[q].parent;
            for (size_t hops = 0; up >= 0 && hops < queues_.size(); ++hops, up = st.queues[size_t(up)].parent)
                if (own[size_t(up)]) {
                    queues_[q].affinity = own[size_t(up)];
                    break;
                }
        }
    }

    void parseLimits(const std::string& text, QueueAttr& a) {
        const auto& dims = s_->state.dims;
        try {
            const auto json = nlohmann::json::parse(text);
            if (!json.is_object()) throw std::invalid_argument("not an object");
            for (const auto& [group, list] : json.items()) {
                if (!list.is_object()) throw std::invalid_argument("not a resource list");
                Limit limit;
                limit.resource = VResource(dims.size());
                for (const auto& [name, quantity] : list.items()) {
                    if (!quantity.is_string() && !quantity.is_number())
                        throw std::invalid_argument("quantity");
                    const std::string q =
                        quantity.is_string() ? quantity.get<std::string>() : quantity.dump();
                    std::string error;
                    const auto amount = parseAmount(name, q, &error);
                    if (!amount) throw std::invalid_argument(error);
                    const int d = dims.find(name);
                    if (d < 0) continue; // no node has it: no pod can take it
                    limit.resource.set(d, double(*amount));
                    limit.dims.push_back(d);
                }
                a.limits.emplace_back(groupId(group), std::move(limit));
            }
        } catch (const std::exception&) {
            a.limitInvalid = true;
            a.limits.clear();
        }
    }

    QueueAttr* attrOfTask(uint32_t task) {
        const uint32_t j = s_->state.tasks[task].job;
        if (j == UINT32_MAX || s_->state.jobs[j].queue < 0) return nullptr;
        return &queues_[size_t(s_->state.jobs[j].queue)];
    }

    void account(uint32_t task, int sign) {
        const int32_t node = s_->state.tasks[task].node;
        if (node < 0 || groupOfNode_[size_t(node)] < 0) return;
        QueueAttr* a = attrOfTask(task);
        if (!a) return;
        const int32_t g = groupOfNode_[size_t(node)];
        auto it = std::find_if(a->taken.begin(), a->taken.end(), [&](const auto& e) { return e.first == g; });
        if (it == a->taken.end()) {
            if (sign < 0) return;
            a->taken.emplace_back(g, VResource(s_->state.D()));
            it = a->taken.end() - 1;
        }
        if (sign > 0)
            it->second.add(s_->taskRes(task));
        else
            it->second.sub(s_->taskRes(task));
    }

    bool overLimit(uint32_t task, int32_t group, const QueueAttr& a) const {
        auto limit =
            std::find_if(a.limits.begin(), a.limits.end(), [&](const auto& e) { return e.first == group; });
        if (limit == a.limits.end()) return false;
        auto taken =
            std::find_if(a.taken.begin(), a.taken.end(), [&](const auto& e) { return e.first == group; });
        const VResource& req = s_->taskRes(task);
        for (int d : limit->second.dims) {
            const double used = (taken == a.taken.end() ? 0.0 : taken->second.get(d)) + req.get(d);
            const double cap = limit->second.resource.get(d);
            if (used > cap && used - cap >= kMinResource) return true;
        }
        return false;
    }

    void predicate(uint32_t task, uint32_t node, FitResult& out) {
        const QueueAttr* a = attrOfTask(task);
        if (a && a->limitInvalid) {
            out.add(Code::UnschedulableAndUnresolvable, limitInvalid_);
            return;
        }
        const NodeGroupAffinity* aff = a ? a->affinity : nullptr;
        const bool unset = !aff || (aff->required.empty() && aff->preferred.empty() &&
                                    aff->antiRequired.empty() && aff->antiPreferred.empty());
        const int32_t g = groupOfNode_[node];
        if (g < 0) {
            if (!strict_ && unset) return;
            out.add(Code::UnschedulableAndUnresolvable, labelNotFound_);
            return;
        }
        if (unset) {
            out.add(Code::UnschedulableAndUnresolvable, notSpecified_);
            return;
        }
        const std::string& group = groupNames_[size_t(g)];
        bool fits = has(aff->required, group) || has(aff->preferred, group);
        if (has(aff->antiRequired, group)) fits = false;
        if (has(aff->antiPreferred, group)) fits = true;
        if (!fits) {
            out.add(Code::UnschedulableAndUnresolvable, unsatisfied_);
            return;
        }
        if (overLimit(task, g, *a)) out.add(Code::UnschedulableAndUnresolvable, limitExceeded_);
    }

    double score(uint32_t task, uint32_t node) {
        const int32_t g = groupOfNode_[node];
        const QueueAttr* a = attrOfTask(task);
        if (g < 0 || !a || !a->affinity) return 0;
        const NodeGroupAffinity& aff = *a->affinity;
        const std::string& group = groupNames_[size_t(g)];
        double score = 0;
        if (has(aff.required, group)) score += kBaseScore;
        if (preferredOrder_) {
            // The first listed position of the group (a repeated name keeps its last index upstream).
            auto it = std::find(aff.preferred.rbegin(), aff.preferred.rend(), group);
            if (it != aff.preferred.rend()) {
                const double n = double(distinctPreferred(aff));
                const double i = double(aff.preferred.rend() - it - 1);
                score += 0.5 * kBaseScore * (n - i) / n;
            }
        } else if (has(aff.preferred, group)) {
            score += 0.5 * kBaseScore;
        }
        if (has(aff.antiPreferred, group)) score = -1;
        return score;
    }

    static size_t distinctPreferred(const NodeGroupAffinity& aff) {
        std::vector<std::string> seen;
        for (const auto& g : aff.preferred)
            if (!has(seen, g)) seen.push_back(g);
        return seen.size();
    }

    Session* s_ = nullptr;
    bool strict_ = true, preferredOrder_ = false;
    std::vector<int32_t> groupOfNode_; // group id per node, -1 = unlabelled
    std::vector<std::string> groupNames_;
    std::vector<QueueAttr> queues_;
    uint32_t notSpecified_ = 0, labelNotFound_ = 0, unsatisfied_ = 0, limitInvalid_ = 0, limitExceeded_ = 0;
};

} // namespace

PluginDescriptor nodegroupPlugin() {
    // It reads every job's placed pods when a session opens (the queues' group usage): settled jobs
    // may not be left out.
    return {"nodegroup", [](const PluginOption& option) { return std::make_unique<NodeGroup>(option); },
            PluginTraits{}};
}

} // namespace gantry::engine::plugins
