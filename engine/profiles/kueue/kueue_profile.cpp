#include "profiles/kueue/kueue_profile.h"

#include "profiles/kueue/controllers.h"
#include "profiles/kueue/dra_quota.h"
#include "profiles/kueue/object_series.h"
#include "profiles/kueue/pod_placement.h"
#include "profiles/kueue/scheduler.h"

#include <algorithm>
#include <iomanip>
#include <memory>
#include <nlohmann/json.hpp>

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
        auto lq = std::find_if(c.localQueues.begin(), c.localQueues.end(), [&](const gantry::LocalQueue& l) {
            return l.ns == g.ns && l.name == k.queueName;
        });
        if (k.queueName.empty())
            out->push_back(Diagnostic{Severity::Warning, g.source,
                                      "Workload " + g.key() +
                                          " names no LocalQueue (spec.queueName); Kueue leaves it pending"});
        else if (lq == c.localQueues.end())
            out->push_back(Diagnostic{Severity::Warning, g.source,
                                      "Workload " + g.key() + " names LocalQueue '" + k.queueName +
                                          "', which does not exist in namespace '" + g.ns +
                                          "'; Kueue leaves it pending"});
    }
}

class KueueProfile : public SchedulerProfile {
  public:
    KueueProfile(const Cluster& cluster, const SchedulerPolicies& policies,
                 const gantry::kueue::PolicyObjects& objects, std::vector<std::string> notes)
        : s_(cluster, objects, policies.kueue), placement_(cluster, policies), notes_(std::move(notes)) {
        integrations_ = std::make_shared<IntegrationContext>();
        integrations_->config = policies.kueue;
        for (const auto& lq : objects.localQueues) {
            if (lq.name == "default") integrations_->namespacesWithDefaultQueue.insert(lq.ns);
            integrations_->localQueues.emplace(lq.ns, lq.name);
        }
        integrations_->addPriorityClasses(cluster.priorityClasses);
        for (const auto& ns : cluster.namespaces) integrations_->namespaceLabels[ns.name] = ns.labels;
    }

    Diagnostics construction() { return s_.takeWarnings(); }

    BuildOptions buildOptions() const override {
        BuildOptions o;
        o.allSchedulers = true;
        o.anyQueue = true;
        o.readWorkload = [context = integrations_](const PodGroup& g, const std::vector<const Pod*>& pods) {
            return readWorkload(*context, g, pods);
        };
        o.groupLoosePods = true;
        return o;
    }

    CycleResult cycle(ClusterState& st, const CycleOptions& options) override {
        s_.attach(st, options.compact ? std::optional<double>(options.nowSeconds) : std::nullopt);
        const double now =
            options.compact || options.nowSeconds < 1e17 ? options.nowSeconds : s_.inputClock();
        CycleResult r;
        if (options.compact) {
            for (uint32_t wi : s_.sync(st, now)) placement_.release(st, wi, s_.workloads()[wi]);
            requeueEvicted(st, now);
            admitAdopted(st);
        }
        if (!options.compact) {
            // `gantry cycle` lists what was pending when the cycle began (a simulation does not).
            wereWaiting_.clear();
            for (uint32_t wi = 0; wi < s_.workloads().size(); ++wi)
                if (s_.workloads()[wi].state == WlState::Pending && !s_.workloads()[wi].inactive &&
                    !s_.workloads()[wi].unmanaged)
                    wereWaiting_.push_back(wi);
        }
        last_ = s_.cycle(st, now);
        r.warnings = std::move(notes_);
        notes_.clear();
        for (const auto& d : s_.takeWarnings()) r.warnings.push_back(d.message);
        if (!options.compact) {
            // `gantry cycle` shows where kube-scheduler puts the pods Kueue lets through in this cycle:
            // those of the workloads it admits, and those of jobs Kueue does not manage. (A workload
            // admitted before has its pods already; a snapshot without them does not say where.)
            auto& wls = s_.workloads();
            for (uint32_t wi = 0; wi < wls.size(); ++wi)
                if (wls[wi].unmanaged) placement_.unmanaged(st, wi, wls[wi]);
            for (uint32_t wi : last_.admitted)
                if (runs(wls[wi])) placement_.admit(st, s_.world(), wi, wls[wi]);
            placement_.foreign(st);
            CycleResult placed = placement_.place(st, options);
            r.bindings = std::move(placed.bindings);
            r.pending = std::move(placed.pending);
            return r;
        }
        // What Kueue decided reaches the pods: admitted workloads' pods may be placed, preempted
        // workloads' pods are evicted; kube-scheduler places what may be placed.
        admitAdopted(st);
        for (const auto& [wi, reason] : last_.preempted) {
            evicting_.push_back(wi);
            const Workload& wl = s_.workloads()[wi];
            placement_.release(st, wi, wl); // its pods not yet placed stay so
            if (wl.job == UINT32_MAX) continue;
            for (uint32_t t : tasksOf(st, wl))
                if (st.tasks[t].node >= 0 && occupiesNode(st.tasks[t].status)) r.evictedTasks.push_back(t);
        }
        CycleResult placed = placement_.place(st, options);
        r.boundTasks = std::move(placed.boundTasks);
        r.phaseChanges = std::move(placed.phaseChanges);
        // Why a job waits: Kueue's pending reason while it has no quota, kube-scheduler's once admitted.
        std::vector<uint8_t> reasoned(st.jobs.size(), 0);
        for (const auto& [wi, reason] : last_.pending) {
            const Workload& wl = s_.workloads()[wi];
            if (wl.job >= st.jobs.size() || reasoned[wl.job]) continue;
            reasoned[wl.job] = 1;
            r.jobReasons.emplace_back(wl.job,
                                      (reason.empty() ? std::string("Pending") : reason) +
                                          (wl.pendingMessage.empty() ? "" : ": " + wl.pendingMessage));
        }
        for (auto& [j, why] : placed.jobReasons)
            if (j < reasoned.size() && !reasoned[j]) r.jobReasons.emplace_back(j, std::move(why));
        return r;
    }

    bool decisionsDependOnClock() const override { return true; }
    double nextClockChange(const ClusterState&, double from, const std::vector<uint32_t>&) const override {
        const double t = s_.queues().nextBackoff();
        return t >= from ? t : std::numeric_limits<double>::infinity();
    }
    bool clockChangeReadsWaitingJobs() const override { return false; }

    void sample(const ClusterState&, double) override { recorder_.sample(s_.world()); }
    int64_t gpuMilliHeldThroughClaims() const override { return placement_.gpuMilliHeldThroughClaims(); }
    ClaimGpus claimGpus() const override { return placement_.claimGpus(); }
    std::vector<ObjectSeries> objectSeries() const override {
        return recorder_.series(s_.world(), s_.workloads());
    }

    Json cycleJson(const CycleResult& result, const CycleOptions&) const override {
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
        for (uint32_t wi : wereWaiting_)
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
        // The pods kube-scheduler saw after the cycle: bound, or pending with its reason.
        out["bindings"] = result.bindings;
        out["pods_pending"] = result.pending;
        return out;
    }

    void printCycle(std::ostream& out, const CycleResult& r, const CycleOptions& o) const override {
        const Json j = cycleJson(r, o);
        const World& w = s_.world();
        const auto& wls = s_.workloads();
        out << "Admitted (" << j["admitted"].size() << ")\n";
        for (uint32_t wi : last_.admitted) {
            const Workload& wl = wls[wi];
            out << "  " << std::left << std::setw(36) << wl.key << "ClusterQueue "
                << w.cqs[size_t(wl.cq)].name;
            for (size_t i = 0; i < wl.admission.size() && i < wl.podSets.size(); ++i) {
                out << "; " << wl.podSets[i].name << " x" << wl.admission[i].count << ":";
                for (int res = 0; res < w.R(); ++res)
                    if (wl.admission[i].flavorOf[size_t(res)] >= 0)
                        out << ' ' << w.resources[size_t(res)] << '='
                            << w.flavors[size_t(wl.admission[i].flavorOf[size_t(res)])].name;
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
            out << "  " << std::left << std::setw(36) << w.cqs[c].name << a << " active, " << i
                << " inadmissible\n";
        }
    }

  private:
    Scheduler s_;
    Placement placement_;
    ObjectRecorder recorder_;
    CycleReport last_;
    std::shared_ptr<IntegrationContext> integrations_;
    std::vector<uint32_t> evicting_;    // preempted workloads whose pods may still hold nodes
    std::vector<uint8_t> placeable_;    // per workload: its admission reached its pods
    uint32_t seen_ = 0;                 // workloads admitAdopted has looked at once
    std::vector<uint32_t> wereWaiting_; // pending when the last single cycle began
    std::vector<std::string> notes_;    // what the mapping of a project's queues lost, told once

    // Kueue unsuspends a job once its Workload is Admitted: quota reserved and every admission check
    // Ready (a Pending check, such as MultiKueue's or a ProvisioningRequest's, keeps it suspended).
    static bool runs(const Workload& wl) {
        return wl.state == WlState::Admitted && !wl.evicted && wl.admittedCondition;
    }

    // Admitted workloads whose pods have not yet taken their flavors: workloads new since the last
    // call (admitted before the run), and those the last cycle admitted.
    void admitAdopted(ClusterState& st) {
        auto& wls = s_.workloads();
        if (placeable_.size() < wls.size()) placeable_.resize(wls.size(), 0);
        auto adopt = [&](uint32_t wi) {
            if (placeable_[wi]) return;
            if (wls[wi].unmanaged) {
                placement_.unmanaged(st, wi, wls[wi]);
                placeable_[wi] = 1;
            } else if (runs(wls[wi])) {
                placement_.admit(st, s_.world(), wi, wls[wi]);
                placeable_[wi] = 1;
            }
        };
        for (uint32_t wi = seen_; wi < wls.size(); ++wi) adopt(wi);
        seen_ = uint32_t(wls.size());
        for (uint32_t wi : last_.admitted) adopt(wi);
    }

    // A preempted workload gives its quota back once none of its pods holds a node, and queues again.
    void requeueEvicted(ClusterState& st, double now) {
        auto& wls = s_.workloads();
        size_t keep = 0;
        for (uint32_t wi : evicting_) {
            const Workload& wl = wls[wi];
            bool holding = false;
            if (wl.state == WlState::Admitted && wl.job < st.jobs.size() && st.jobAlive(wl.job))
                for (uint32_t t : tasksOf(st, wl))
                    if (st.tasks[t].node >= 0 && occupiesNode(st.tasks[t].status)) holding = true;
            if (holding) {
                evicting_[keep++] = wi;
                continue;
            }
            if (wl.state == WlState::Admitted) s_.release(wi, now, false);
            placement_.release(st, wi, wls[wi]);
            if (wi < placeable_.size()) placeable_[wi] = 0;
        }
        evicting_.resize(keep);
    }
};

} // namespace

ProfileInfo profileInfo() {
    ProfileInfo info;
    info.name = "kueue";
    info.title = "Kueue";
    info.summary = "admits workloads by ClusterQueue quota; kube-scheduler places the pods";
    info.configFormat = ConfigFormat::KueueConfiguration;
    // Its pods are placed by kube-scheduler's emulation, which allocates the claims; quotas are
    // charged through deviceClassMappings (dra_quota.h).
    info.claimsCaveat =
        "places its pods through kube-scheduler's allocator and charges claim templates' devices "
        "(or their counters) through deviceClassMappings, but not capacity-based mappings or "
        "extended resources backed by DRA";
    info.make = [](const ProfileSetup& setup, Diagnostics* diagnostics) -> std::unique_ptr<SchedulerProfile> {
        // The cluster's own Kueue queues, else the project's queues as the Kueue export maps them.
        gantry::kueue::PolicyObjects objects;
        std::vector<std::string> notes;
        if (gantry::kueue::hasKueueQueues(setup.cluster)) {
            objects = gantry::kueue::ownObjects(setup.cluster);
        } else {
            gantry::kueue::Mapping m = gantry::kueue::mapToKueue(setup.cluster, {});
            for (const auto& l : m.log.losses)
                notes.push_back("as exported to Kueue: " + l.what + " " + l.name +
                                (l.field.empty() ? "" : ", " + l.field) + ": " + l.message);
            objects = std::move(m.objects);
        }
        auto p = std::make_unique<KueueProfile>(setup.cluster, setup.policies, objects, std::move(notes));
        if (diagnostics) {
            auto d = p->construction();
            diagnostics->insert(diagnostics->end(), d.begin(), d.end());
        }
        checkReferences(setup.cluster, diagnostics);
        checkSourceSelectors(setup.policies.kueue, diagnostics);
        return p;
    };
    info.describe = [](const SchedulerPolicies& policies) {
        return std::string("Kueue") + (policies.kueue.fairSharing ? " fair sharing" : "");
    };
    return info;
}

} // namespace gantry::engine::kueue
