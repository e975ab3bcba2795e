// resource-strategy-fit (pkg/scheduler/plugins/resource-strategy-fit at ed72c7c8): a node score per
// requested resource, LeastAllocated ((allocatable - used - request) / allocatable) or
// MostAllocated ((used + request) / allocatable), weighted, averaged over the weights and scaled to
// 0..100 x resourceStrategyFitWeight (default 10). The resources and their strategies come from the
// argument resources (default cpu and memory LeastAllocated, weight 1; a key may end in one '*' to
// match a prefix, the longest prefix winning, an exact name first), or from the pod's annotations
// volcano.sh/resource-strategy-scoring-type and volcano.sh/resource-strategy-weight (a JSON map of
// resource -> weight), which override them. A request that does not fit the node's allocatable
// scores the node 0. Two sub-policies: sra (prefer nodes without the scarce resources a pod does
// not ask for) and proportional (keep cpu and memory in proportion to a scarce resource's idle
// amount for the pods that will ask for it, a predicate).
#include "model/go_text.h"
#include "profiles/volcano/plugins/arguments.h"
#include "profiles/volcano/plugins/plugins.h"

#include <climits>
#include <map>
#include <nlohmann/json.hpp>

namespace gantry::engine::plugins {

namespace {

constexpr const char* kScoringType = "volcano.sh/resource-strategy-scoring-type";
constexpr const char* kScoringWeight = "volcano.sh/resource-strategy-weight";
constexpr double kMaxNodeScore = 100;

enum class Strategy { Least, Most, Other };

struct ResourceStrategy {
    Strategy type = Strategy::Least;
    int weight = 0; // 0 (unset) counts as 1
};

// The names listed in a comma-separated argument, trimmed.
std::vector<std::string> names(const std::string& list) {
    std::vector<std::string> out;
    for (size_t from = 0; from <= list.size();) {
        size_t comma = list.find(',', from);
        if (comma == std::string::npos) comma = list.size();
        std::string name = trim(list.substr(from, comma - from));
        from = comma + 1;
        if (!name.empty()) out.push_back(std::move(name));
    }
    return out;
}

// Only one '*', at the end, and not alone.
bool validPattern(const std::string& key) {
    const auto star = key.find('*');
    if (star == std::string::npos) return true;
    return key != "*" && star == key.size() - 1;
}

class ResourceStrategyFit : public Plugin {
  public:
    explicit ResourceStrategyFit(const PluginOption& o) {
        getInt(o, "resourceStrategyFitWeight", weight_);
        if (weight_ < 0) weight_ = 10;
        readResources(o);
        bool sra = false, proportional = false;
        getBool(o, "sra.enable", sra);
        getBool(o, "proportional.enable", proportional);
        if (sra) {
            getInt(o, "sra.weight", sraWeight_);
            for (const auto& name : names(o.argument("sra.resources").value_or(""))) {
                int w = 1;
                getInt(o, "sra.resourceWeight." + name, w);
                if (w < 0) w = 1;
                sraResources_.emplace_back(name, w);
                sraWeightSum_ += w;
            }
        }
        if (proportional) {
            proportionalOn_ = true;
            for (const auto& name : names(o.argument("proportional.resources").value_or(""))) {
                double cpu = 1, mem = 1;
                getFloat(o, "proportional.resourceProportion." + name + ".cpu", cpu);
                getFloat(o, "proportional.resourceProportion." + name + ".memory", mem);
                proportional_[name] = {cpu < 0 ? 1 : cpu, mem < 0 ? 1 : mem};
            }
        }
    }

    void onSessionOpen(Session& ssn) override {
        s_ = &ssn;
        const auto& dims = ssn.state.dims;
        // Each dimension's configured strategy, resolved once (exact name, else longest prefix).
        byDim_.assign(size_t(dims.size()), std::nullopt);
        for (int d = 0; d < dims.size(); ++d) byDim_[size_t(d)] = strategyFor(dims.name(d));
        sraDims_.clear();
        for (const auto& [name, w] : sraResources_)
            if (int d = dims.find(name); d >= 0) sraDims_.emplace_back(d, w);
        proportionalDims_.clear();
        for (const auto& [name, rate] : proportional_)
            if (int d = dims.find(name); d >= 0)
                proportionalDims_.push_back({d, name, rate.first, rate.second});
        auto& self = ssn.self();
        if (proportionalOn_) {
            for (auto& p : proportionalDims_)
                p.reason = ssn.reasonId("proportional of resource " + p.name + " check failed");
            self.predicate = [this](uint32_t task, uint32_t node, FitResult& out) {
                proportional(task, node, out);
            };
        }
        if (weight_ > 0 || sraWeight_ > 0)
            self.nodeOrder = [this](uint32_t task, uint32_t node) {
                double score = 0;
                if (weight_ > 0) score += strategyScore(task, node);
                if (sraWeight_ > 0) score += sraScore(task, node);
                return score;
            };
    }

  private:
    static constexpr int kUnlisted = INT32_MIN;
    // The pod's own strategy (its annotations), read once per pod shape.
    struct PodStrategy {
        bool read = false;
        bool named = false;   // the pod names a scoring type
        bool invalid = false; // named, but its weights are missing or not JSON: the score is 0
        Strategy type = Strategy::Least;
        std::vector<int> weights; // by dimension; kUnlisted = not scored
    };

    const PodStrategy& podStrategy(uint32_t shape) const {
        if (podStrategies_.size() <= shape) podStrategies_.resize(size_t(shape) + 1);
        PodStrategy& p = podStrategies_[shape];
        if (p.read) return p;
        p.read = true;
        const auto& st = s_->state;
        const Labels& annotations = st.shapes[shape].pluginAnnotations;
        auto type = annotations.find(kScoringType);
        if (type == annotations.end() || type->second.empty()) return p;
        p.named = true;
        p.type = type->second == "MostAllocated"    ? Strategy::Most
                 : type->second == "LeastAllocated" ? Strategy::Least
                                                    : Strategy::Other;
        p.weights.assign(size_t(st.dims.size()), kUnlisted);
        auto weights = annotations.find(kScoringWeight);
        try {
            if (weights == annotations.end() || weights->second.empty()) throw std::invalid_argument("none");
            const auto json = nlohmann::json::parse(weights->second);
            if (!json.is_object()) throw std::invalid_argument("not a map");
            for (const auto& [name, value] : json.items()) {
                if (!value.is_number_integer()) throw std::invalid_argument("not an integer");
                if (int d = st.dims.find(name); d >= 0) p.weights[size_t(d)] = value.get<int>();
            }
        } catch (const std::exception&) {
            p.invalid = true;
        }
        return p;
    }

    struct Proportional {
        int dim;
        std::string name;
        double cpu, memory;
        uint32_t reason = 0;
    };

    // framework.Get of the resources map (flattened: resources.<name>.type / .weight): a value that
    // does not convert drops the whole map, and the defaults apply.
    void readResources(const PluginOption& o) {
        std::map<std::string, ResourceStrategy> read;
        bool bad = false;
        const std::string prefix = "resources.";
        auto endsWith = [](const std::string& s, const std::string& tail) {
            return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
        };
        for (const auto& [key, value] : o.arguments) {
            if (key.rfind(prefix, 0) != 0) continue;
            const std::string rest = key.substr(prefix.size());
            if (endsWith(rest, ".type")) {
                // An unknown type is LeastAllocated.
                read[rest.substr(0, rest.size() - 5)].type =
                    trim(value) == "MostAllocated" ? Strategy::Most : Strategy::Least;
            } else if (endsWith(rest, ".weight")) {
                auto w = parseGoInt(trim(value));
                if (!w) bad = true;
                read[rest.substr(0, rest.size() - 7)].weight = w ? int(*w) : 0;
            } else {
                bad = true;
            }
        }
        if (bad || read.empty()) read = {{"cpu", {Strategy::Least, 1}}, {"memory", {Strategy::Least, 1}}};
        for (auto& [name, r] : read) {
            if (!validPattern(name)) continue; // upstream drops it with a warning
            if (r.weight <= 0) r.weight = 1;
            resources_.emplace(name, r);
        }
    }

    std::optional<ResourceStrategy> strategyFor(const std::string& resource) const {
        if (auto it = resources_.find(resource); it != resources_.end()) return it->second;
        std::optional<ResourceStrategy> best;
        size_t bestLength = 0;
        bool found = false;
        for (const auto& [key, r] : resources_) {
            if (key.empty() || key.back() != '*') continue;
            const std::string prefix = key.substr(0, key.size() - 1);
            if (resource.rfind(prefix, 0) == 0 && (!found || prefix.size() > bestLength)) {
                best = r;
                bestLength = prefix.size();
                found = true;
            }
        }
        return best;
    }

    // Score (resource_strategy_fit.go).
    double strategyScore(uint32_t task, uint32_t node) const {
        const auto& st = s_->state;
        const VResource& req = s_->taskRes(task);
        const int64_t* alloc = st.nodeRow(st.allocatable, node);
        const int64_t* used = st.nodeRow(st.used, node);
        const PodStrategy& pod = podStrategy(st.tasks[task].shape);
        if (pod.invalid) return 0;
        double score = 0;
        int weightSum = 0;
        int dims[kMaxDims];
        const int count = req.resourceNames(dims);
        for (int i = 0; i < count; ++i) {
            const int d = dims[i];
            Strategy type;
            int weight;
            if (pod.named) {
                if (pod.weights[size_t(d)] == kUnlisted) continue;
                type = pod.type;
                weight = pod.weights[size_t(d)];
            } else {
                if (!byDim_[size_t(d)]) continue;
                type = byDim_[size_t(d)]->type;
                weight = byDim_[size_t(d)]->weight;
            }
            const double capacity = double(alloc[d]), request = req.get(d), nodeUsed = double(used[d]);
            double resourceScore = 0;
            if (type != Strategy::Other && weight != 0 && capacity != 0) {
                const double finallyUsed = request + nodeUsed;
                if (finallyUsed > capacity) return 0; // does not fit: the node scores nothing
                resourceScore = type == Strategy::Most ? finallyUsed * double(weight) / capacity
                                                       : (capacity - finallyUsed) * double(weight) / capacity;
            }
            score += resourceScore;
            weightSum += weight;
        }
        if (weightSum > 0) score /= double(weightSum);
        return score * kMaxNodeScore * double(weight_);
    }

    // sraScore: a node that lacks a resource the pod asks for scores 0; otherwise the fewer of the
    // sra resources it has, the better.
    double sraScore(uint32_t task, uint32_t node) const {
        const auto& st = s_->state;
        const VResource& req = s_->taskRes(task);
        const int64_t* alloc = st.nodeRow(st.allocatable, node);
        int dims[kMaxDims];
        const int count = req.resourceNames(dims);
        for (int i = 0; i < count; ++i)
            if (alloc[dims[i]] == 0) return 0;
        double score = 0;
        for (const auto& [d, w] : sraDims_)
            if (alloc[d] > 0) score += double(w);
        if (sraWeightSum_ > 0) score = 1.0 - score / double(sraWeightSum_);
        return score * kMaxNodeScore * double(sraWeight_);
    }

    // checkNodeResourceIsProportional: a pod that asks for none of the resources must leave, on a
    // node that has one, cpu and memory in proportion to that resource's idle amount.
    void proportional(uint32_t task, uint32_t node, FitResult& out) const {
        const auto& st = s_->state;
        const VResource& req = s_->taskRes(task);
        for (const auto& p : proportionalDims_)
            if (req.present(p.dim) && req.get(p.dim) > 0) return;
        const int64_t* idle = st.nodeRow(st.idle, node);
        for (const auto& p : proportionalDims_) {
            if (!((st.nodes[node].allocMask >> p.dim) & 1u)) continue;
            const double value = double(idle[p.dim]);
            const double cpuReserved = value * p.cpu, memoryReserved = value * p.memory * 1000 * 1000;
            if (double(idle[kCpu]) - req.get(kCpu) < cpuReserved ||
                double(idle[kMemory]) - req.get(kMemory) < memoryReserved) {
                out.add(Code::UnschedulableAndUnresolvable, p.reason);
                return;
            }
        }
    }

    Session* s_ = nullptr;
    int weight_ = 10;
    std::map<std::string, ResourceStrategy> resources_;
    std::vector<std::optional<ResourceStrategy>> byDim_;
    int sraWeight_ = 0, sraWeightSum_ = 0;
    std::vector<std::pair<std::string, int>> sraResources_;
    std::vector<std::pair<int, int>> sraDims_;
    bool proportionalOn_ = false;
    std::map<std::string, std::pair<double, double>> proportional_;
    std::vector<Proportional> proportionalDims_;
    mutable std::vector<PodStrategy> podStrategies_; // by shape
};

} // namespace

PluginDescriptor resourceStrategyFitPlugin() {
    PluginTraits t;
    // It looks only at the task and the node it is asked about.
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    return {"resource-strategy-fit",
            [](const PluginOption& option) { return std::make_unique<ResourceStrategyFit>(option); },
            std::move(t)};
}

} // namespace gantry::engine::plugins
