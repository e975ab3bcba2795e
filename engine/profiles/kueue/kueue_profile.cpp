#include "profiles/kueue/kueue_profile.h"

#include "profiles/kueue/scheduler.h"

#include <algorithm>
#include <iomanip>
#include <memory>

namespace gantry::engine::kueue {

namespace {

using Json = nlohmann::ordered_json;

// Located warnings for workloads Kueue would leave untouched: naming a missing LocalQueue, or
// admitted to a missing ClusterQueue (the importer's checks warn about LocalQueues themselves).
void checkReferences(const Cluster& c, Diagnostics* out) {
    if (!out) return;
    std::set<std::string> cqs;
    for (const auto& q : c.queues)
        if (q.kind == Queue::Kind::KueueClusterQueue) cqs.insert(q.name);
    for (const auto& g : c.podGroups) {
        if (!g.kueue) continue;
        const KueueWorkload& k = *g.kueue;
        if (k.quotaReserved && k.admission) {
            if (!cqs.count(k.admission->clusterQueue))
                out->push_back(Diagnostic{Severity::Warning, g.source,
                                          "Workload " + g.key() + " is admitted to ClusterQueue '" +
                                              k.admission->clusterQueue +
                                              "', which does not exist; its quota is not counted"});
            continue;
        }
        auto lq = std::find_if(c.localQueues.begin(), c.localQueues.end(),
                               [&](const gantry::LocalQueue& l) { return l.ns == g.ns && l.name == k.queueName; });
        if (k.queueName.empty())
            out->push_back(Diagnostic{Severity::Warning, g.source,
                                      "Workload " + g.key() + " names no LocalQueue (spec.queueName); Kueue leaves it pending"});
        else if (lq == c.localQueues.end())
            out->push_back(Diagnostic{Severity::Warning, g.source,
                                      "Workload " + g.key() + " names LocalQueue '" + k.queueName +
                                          "', which does not exist in namespace '" + g.ns +
                                          "'; Kueue leaves it pending"});
    }
}

class KueueProfile : public SchedulerProfile {
  public:
    KueueProfile(const Cluster& cluster, const SchedulerPolicies& policies) : s_(cluster, policies.kueue) {}

    Diagnostics construction() { return s_.takeWarnings(); }

    BuildOptions buildOptions() const override {
        BuildOptions o;
        o.allSchedulers = true;
        o.anyQueue = true;
        return o;
    }

    CycleResult cycle(ClusterState& st, const CycleOptions& options) override {
        s_.attach(st);
        const double now = options.compact || options.nowSeconds < 1e17 ? options.nowSeconds : s_.inputClock();
        CycleResult r;
        if (options.compact) s_.sync(st, now);
        last_ = s_.cycle(st, now);
        for (const auto& d : s_.takeWarnings()) r.warnings.push_back(d.message);
        return r;
    }

    bool decisionsDependOnClock() const override { return true; }
    double nextClockChange(const ClusterState&, double from, const std::vector<uint32_t>&) const override {
        const double t = s_.queues().nextBackoff();
        return t >= from ? t : std::numeric_limits<double>::infinity();
    }

    Json cycleJson(const CycleResult&, const CycleOptions&) const override {
        const World& w = s_.world();
        const auto& wls = s_.workloads();
        Json out;
        Json admitted = Json::object();
        for (uint32_t wi : last_.admitted) {
            const Workload& wl = wls[wi];
            Json a;
            a["clusterQueue"] = w.cqs[size_t(wl.cq)].name;
            Json flavors = Json::object(), counts = Json::object(), topo = Json::object();
            for (size_t i = 0; i < wl.admission.size() && i < wl.podSets.size(); ++i) {
                const auto& adm = wl.admission[i];
                Json f = Json::object();
                for (int r = 0; r < w.R(); ++r)
                    if (adm.flavorOf[size_t(r)] >= 0)
                        f[w.resources[size_t(r)]] = w.flavors[size_t(adm.flavorOf[size_t(r)])].name;
                flavors[wl.podSets[i].name] = f;
                counts[wl.podSets[i].name] = adm.count;
                if (adm.topology) {
                    Json domains = Json::array();
                    for (const auto& d : adm.topology->domains)
                        domains.push_back(Json{{"values", d.values}, {"count", d.count}});
                    topo[wl.podSets[i].name] = Json{{"levels", adm.topology->levels}, {"domains", domains}};
                }
            }
            a["flavors"] = flavors;
            a["counts"] = counts;
            a["admittedCondition"] = wl.admittedCondition;
            if (!topo.empty()) a["topologyAssignment"] = topo;
            admitted[wl.key] = a;
        }
        out["admitted"] = admitted;
        std::vector<std::pair<std::string, std::string>> preempted;
        for (const auto& [wi, reason] : last_.preempted) preempted.emplace_back(wls[wi].key, reason);
        std::sort(preempted.begin(), preempted.end());
        out["preempted"] = Json::array();
        out["preemption_reasons"] = Json::object();
        for (const auto& [key, reason] : preempted) {
            out["preempted"].push_back(key);
            out["preemption_reasons"][key] = reason;
        }
        std::vector<std::string> pending;
        for (uint32_t wi : last_.wereWaiting)
            if (wls[wi].state != WlState::Admitted) pending.push_back(wls[wi].key);
        std::sort(pending.begin(), pending.end());
        out["pending"] = pending;
        Json reasons = Json::object();
        std::vector<std::pair<std::string, std::string>> pr;
        for (const auto& [wi, reason] : last_.pending)
            if (!reason.empty()) pr.emplace_back(wls[wi].key, reason);
        std::sort(pr.begin(), pr.end());
        for (const auto& [k, r] : pr) reasons[k] = r;
        out["pending_reasons"] = reasons;
        Json active = Json::object(), inadmissible = Json::object();
        for (size_t c = 0; c < w.cqs.size(); ++c) {
            auto keys = [&](const std::vector<uint32_t>& list) {
                std::vector<std::string> k;
                for (uint32_t wi : list) k.push_back(wls[wi].key);
                std::sort(k.begin(), k.end());
                return k;
            };
            auto a = keys(s_.queues().active(int(c))), i = keys(s_.queues().inadmissible(int(c)));
            if (!a.empty()) active[w.cqs[c].name] = a;
            if (!i.empty()) inadmissible[w.cqs[c].name] = i;
        }
        out["queue_after"] = Json{{"active", active}, {"inadmissible", inadmissible}};
        return out;
    }

    void printCycle(std::ostream& out, const CycleResult& r, const CycleOptions& o) const override {
        const Json j = cycleJson(r, o);
        const World& w = s_.world();
        const auto& wls = s_.workloads();
        out << "Admitted (" << j["admitted"].size() << ")\n";
        for (uint32_t wi : last_.admitted) {
            const Workload& wl = wls[wi];
            out << "  " << std::left << std::setw(36) << wl.key << "ClusterQueue " << w.cqs[size_t(wl.cq)].name;
            for (size_t i = 0; i < wl.admission.size() && i < wl.podSets.size(); ++i) {
                out << "; " << wl.podSets[i].name << " x" << wl.admission[i].count << ":";
                for (int res = 0; res < w.R(); ++res)
                    if (wl.admission[i].flavorOf[size_t(res)] >= 0)
                        out << ' ' << w.resources[size_t(res)] << '=' << w.flavors[size_t(wl.admission[i].flavorOf[size_t(res)])].name;
            }
            if (!wl.admittedCondition) out << " (quota reserved; admission checks pending)";
            out << '\n';
        }
        out << "Preempted (" << last_.preempted.size() << ")\n";
        for (const auto& [wi, reason] : last_.preempted)
            out << "  " << std::left << std::setw(36) << wls[wi].key << reason << '\n';
        out << "Pending (" << j["pending"].size() << ")\n";
        std::map<std::string, std::pair<std::string, std::string>> why;
        for (const auto& [wi, reason] : last_.pending) why[wls[wi].key] = {reason, wls[wi].pendingMessage};
        for (const auto& key : j["pending"]) {
            const std::string k = key.get<std::string>();
            out << "  " << std::left << std::setw(36) << k;
            if (auto it = why.find(k); it != why.end())
                out << (it->second.first.empty() ? "Pending" : it->second.first)
                    << (it->second.second.empty() ? "" : ": " + it->second.second);
            else
                out << "not considered this cycle";
            out << '\n';
        }
        out << "Queues after the cycle\n";
        for (size_t c = 0; c < w.cqs.size(); ++c) {
            const size_t a = s_.queues().active(int(c)).size(), i = s_.queues().inadmissible(int(c)).size();
            if (a + i == 0) continue;
            out << "  " << std::left << std::setw(36) << w.cqs[c].name << a << " active, " << i << " inadmissible\n";
        }
    }

  private:
    Scheduler s_;
    CycleReport last_;
};

} // namespace

ProfileInfo profileInfo() {
    ProfileInfo info;
    info.name = "kueue";
    info.title = "Kueue";
    info.summary = "admits whole workloads to ClusterQueues by flavor quota, cohorts, preemption, fair sharing, "
                   "topology; kube-scheduler places their pods";
    info.configFormat = ConfigFormat::KueueConfiguration;
    info.make = [](const ProfileSetup& setup, Diagnostics* diagnostics) -> std::unique_ptr<SchedulerProfile> {
        auto p = std::make_unique<KueueProfile>(setup.cluster, setup.policies);
        if (diagnostics) {
            auto d = p->construction();
            diagnostics->insert(diagnostics->end(), d.begin(), d.end());
        }
        checkReferences(setup.cluster, diagnostics);
        return p;
    };
    info.describe = [](const SchedulerPolicies& policies) {
        return std::string("Kueue") + (policies.kueue.fairSharing ? " fair sharing" : "");
    };
    return info;
}

} // namespace gantry::engine::kueue
