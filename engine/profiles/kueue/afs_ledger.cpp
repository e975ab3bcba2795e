// Admission Fair Sharing's usage over time: what Kueue's LocalQueue controller and workload
// controller do to each LocalQueue's consumed resources between and after cycles.
#include "profiles/kueue/afs_ledger.h"

#include <cmath>

namespace gantry::engine::kueue {

double afsUsage(const LocalQueue& lq, const KueueConfig& config) {
    double usage = 0;
    for (const auto& [name, amount] : lq.consumed) {
        double weight = 1;
        if (config.admissionFairSharing)
            if (auto it = config.admissionFairSharing->resourceWeights.find(name);
                it != config.admissionFairSharing->resourceWeights.end())
                weight = it->second;
        usage += weight * amount;
    }
    if (lq.weight <= 0) return std::numeric_limits<double>::infinity();
    return usage / lq.weight;
}

namespace {

bool ledgerOn(const World& w) {
    return w.config.admissionFairSharing && w.config.gate("AdmissionFairSharing");
}

// calculateAlphaRate: the weight a new sample gets after `elapsed` seconds (0 with no half-life).
double alphaRate(double elapsed, double halfLife) {
    return halfLife == 0 ? 0.0 : 1.0 - std::pow(0.5, elapsed / halfLife);
}

// GetAdmittedUsage of the LocalQueue's cache entry: what its admitted workloads hold, by resource.
std::map<std::string, double> admittedUsage(const World& w, const std::vector<Workload>& wls,
                                            const LocalQueue& lq) {
    std::map<std::string, double> out;
    if (lq.cq < 0) return out;
    for (uint32_t wi : w.cqs[size_t(lq.cq)].admitted) {
        const Workload& wl = wls[wi];
        if (wl.state != WlState::Admitted || wl.ns != lq.ns || wl.queueName != lq.name) continue;
        for (const auto& [fr, amount] : wl.usage) {
            const std::string& name = w.resources[size_t(w.resourceOf(fr))];
            out[name] += plainAmount(name, amount);
        }
    }
    return out;
}

// CalculateDecayedConsumed: old scaled by 1 - alpha plus new scaled by alpha, alpha for `elapsed`.
void decay(LocalQueue& lq, const std::map<std::string, double>& now, double elapsed, double halfLife) {
    const double alpha = alphaRate(std::max(0.0, elapsed), halfLife);
    for (auto& [name, amount] : lq.consumed) amount *= 1 - alpha;
    for (const auto& [name, amount] : now) lq.consumed[name] += amount * alpha;
}

} // namespace

void afsSeed(World& w, double now) {
    for (auto& [key, lq] : w.localQueues)
        if (std::isnan(lq.lastUpdate)) lq.lastUpdate = now;
}

int afsAdmitted(World& w, const std::vector<Workload>& wls, uint32_t wi, double now) {
    if (!ledgerOn(w)) return -1;
    const Workload& wl = wls[wi];
    auto it = w.localQueues.find({wl.ns, wl.queueName});
    if (it == w.localQueues.end()) return -1;
    LocalQueue& lq = it->second;
    const auto& afs = *w.config.admissionFairSharing;
    // The scheduler's entry penalty (CalculateEntryPenalty: the workload's requests times the
    // alpha of one sampling interval), settled at once since Gantry admits without checks: the
    // consumed usage decays toward what the queue's admitted workloads hold, then takes the penalty.
    if (std::isnan(lq.lastUpdate)) lq.lastUpdate = now;
    decay(lq, admittedUsage(w, wls, lq), now - lq.lastUpdate, afs.usageHalfLifeSeconds);
    const double penalty = alphaRate(afs.usageSamplingIntervalSeconds, afs.usageHalfLifeSeconds);
    for (const auto& [fr, amount] : wl.usage) {
        const std::string& name = w.resources[size_t(w.resourceOf(fr))];
        lq.consumed[name] += penalty * plainAmount(name, amount);
    }
    lq.lastUpdate = std::max(lq.lastUpdate, now);
    lq.afsUsage = afsUsage(lq, w.config);
    return lq.cq;
}

std::vector<int> afsSample(World& w, const std::vector<Workload>& wls, double now) {
    std::vector<int> changed;
    if (!ledgerOn(w)) return changed;
    const auto& afs = *w.config.admissionFairSharing;
    for (auto& [key, lq] : w.localQueues) {
        if (std::isnan(lq.lastUpdate)) lq.lastUpdate = now;
        if (now - lq.lastUpdate < afs.usageSamplingIntervalSeconds) continue;
        if (afs.usageHalfLifeSeconds == 0)
            lq.consumed.clear(); // no half-life: the LocalQueue controller resets the usage
        else
            decay(lq, admittedUsage(w, wls, lq), now - lq.lastUpdate, afs.usageHalfLifeSeconds);
        lq.lastUpdate = now;
        lq.afsUsage = afsUsage(lq, w.config);
        if (lq.cq >= 0 && w.cqs[size_t(lq.cq)].admissionFairSharing) changed.push_back(lq.cq);
    }
    return changed;
}

} // namespace gantry::engine::kueue
