#include "profiles/kueue/object_series.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace gantry::engine::kueue {

namespace {

// A quota amount in the unit people read: cores, GiB, a count.
double readable(const std::string& resource, Amount a) {
    if (a == kUnlimited || a == kNoLimit) return std::nan("");
    switch (unitOf(resource)) {
    case ResourceUnit::Milli:
        return double(a) / 1000.0;
    case ResourceUnit::Bytes:
        return double(a) / double(int64_t(1) << 30);
    case ResourceUnit::Count:
        break;
    }
    return double(a);
}

std::string measureName(const std::string& what, const std::string& resource) {
    return what + "_" + resource + (unitOf(resource) == ResourceUnit::Bytes ? "_gib" : "");
}

// Time from creation to the first quota reservation: how many got one, how many never did, and the
// mean, p95 and max wait of those that did.
std::vector<std::pair<std::string, double>> admissionWaits(std::vector<double> waits, int64_t never) {
    std::vector<std::pair<std::string, double>> totals;
    std::sort(waits.begin(), waits.end());
    double sum = 0;
    for (double x : waits) sum += x;
    totals.emplace_back("admitted", double(waits.size()));
    totals.emplace_back("never_admitted", double(never));
    if (!waits.empty()) {
        totals.emplace_back("mean_time_to_admission_seconds", sum / double(waits.size()));
        totals.emplace_back(
            "p95_time_to_admission_seconds",
            waits[std::min(waits.size() - 1, size_t(std::ceil(0.95 * double(waits.size()))) - 1)]);
        totals.emplace_back("max_time_to_admission_seconds", waits.back());
    }
    return totals;
}

} // namespace

std::string workloadClass(const std::string& name) {
    std::string out = name;
    for (;;) {
        const size_t dash = out.rfind('-');
        if (dash == std::string::npos || dash + 1 == out.size()) break;
        if (!std::all_of(out.begin() + long(dash) + 1, out.end(),
                         [](char c) { return std::isdigit(uint8_t(c)); }))
            break;
        out.erase(dash);
    }
    return out;
}

void ObjectRecorder::sample(const World& w) {
    const size_t C = w.cqs.size(), R = size_t(w.R());
    if (usage_.size() != C)
        for (auto* v : {&usage_, &nominal_, &borrowed_, &lent_})
            v->assign(C, std::vector<std::vector<double>>(R));
    // What the ClusterQueues of each cohort tree borrow, by flavor-resource: their usage above nominal.
    std::map<std::pair<int, int>, Amount> borrowedInTree, idleInTree; // (root, fr)
    for (size_t c = 0; c < C; ++c) {
        const QuotaNode& n = w.nodeOf(int(c));
        const int root = w.root(w.cqs[c].node);
        for (int fr = 0; fr < int(n.usage.size()); ++fr) {
            const Amount over = std::max<Amount>(0, subAmount(n.usage[size_t(fr)], n.nominal[size_t(fr)]));
            Amount idle = std::max<Amount>(0, subAmount(n.nominal[size_t(fr)], n.usage[size_t(fr)]));
            if (n.lendLimit[size_t(fr)] != kNoLimit) idle = std::min(idle, n.lendLimit[size_t(fr)]);
            borrowedInTree[{root, fr}] = addAmount(borrowedInTree[{root, fr}], over);
            idleInTree[{root, fr}] = addAmount(idleInTree[{root, fr}], idle);
        }
    }
    for (size_t c = 0; c < C; ++c) {
        const QuotaNode& n = w.nodeOf(int(c));
        const int root = w.root(w.cqs[c].node);
        std::vector<Amount> u(R, 0), nom(R, 0), b(R, 0), l(R, 0);
        for (int fr = 0; fr < int(n.usage.size()); ++fr) {
            const size_t r = size_t(w.resourceOf(fr));
            u[r] = addAmount(u[r], n.usage[size_t(fr)]);
            nom[r] = addAmount(nom[r], n.nominal[size_t(fr)]);
            b[r] =
                addAmount(b[r], std::max<Amount>(0, subAmount(n.usage[size_t(fr)], n.nominal[size_t(fr)])));
            // Lent: the tree's borrowing shared among its lenders by what each leaves idle.
            Amount idle = std::max<Amount>(0, subAmount(n.nominal[size_t(fr)], n.usage[size_t(fr)]));
            if (n.lendLimit[size_t(fr)] != kNoLimit) idle = std::min(idle, n.lendLimit[size_t(fr)]);
            const Amount totalIdle = idleInTree[{root, fr}], totalBorrowed = borrowedInTree[{root, fr}];
            if (idle > 0 && totalIdle > 0 && totalBorrowed > 0)
                l[r] = addAmount(l[r], Amount(double(idle) * double(std::min(totalBorrowed, totalIdle)) /
                                              double(totalIdle)));
        }
        for (size_t r = 0; r < R; ++r) {
            const std::string& name = w.resources[r];
            usage_[c][r].push_back(readable(name, u[r]));
            nominal_[c][r].push_back(readable(name, nom[r]));
            borrowed_[c][r].push_back(readable(name, b[r]));
            lent_[c][r].push_back(readable(name, l[r]));
        }
    }
    // Admission Fair Sharing's ledger as the LocalQueue's status shows it at this time.
    for (const auto& [key, lq] : w.localQueues) {
        if (lq.cq < 0 || !w.cqs[size_t(lq.cq)].admissionFairSharing) continue;
        auto& measures = afs_[key];
        auto put = [&](const std::string& measure, double value) {
            auto& v = measures[measure];
            v.resize(samples_, 0.0);
            v.push_back(value);
        };
        put("afs_usage", std::isfinite(lq.afsUsage) ? lq.afsUsage : std::nan(""));
        for (const auto& [resource, amount] : lq.consumed)
            put(measureName("afs_consumed", resource),
                unitOf(resource) == ResourceUnit::Bytes ? amount / double(int64_t(1) << 30) : amount);
    }
    ++samples_;
}

std::vector<ObjectSeries> ObjectRecorder::series(const World& w, const std::vector<Workload>& wls) const {
    // Time to admission by workload class (Kueue's performance test reports its average) and by
    // ClusterQueue.
    std::map<std::string, std::vector<double>> waits;
    std::map<std::string, int64_t> never;
    std::vector<std::vector<double>> cqWaits(usage_.size());
    std::vector<int64_t> cqNever(usage_.size(), 0);
    for (const Workload& wl : wls) {
        if (wl.untouched || wl.created == kZeroTime) continue;
        const std::string cls = workloadClass(wl.name);
        const bool inCq = wl.cq >= 0 && size_t(wl.cq) < usage_.size();
        if (wl.firstAdmitted >= 0) {
            waits[cls].push_back(wl.firstAdmitted - wl.created);
            if (inCq) cqWaits[size_t(wl.cq)].push_back(wl.firstAdmitted - wl.created);
        } else {
            ++never[cls];
            if (inCq) ++cqNever[size_t(wl.cq)];
        }
    }
    std::vector<ObjectSeries> out;
    for (size_t c = 0; c < usage_.size(); ++c) {
        ObjectSeries s;
        s.kind = "ClusterQueue";
        s.name = w.cqs[c].name;
        for (size_t r = 0; r < usage_[c].size(); ++r) {
            const std::string& name = w.resources[r];
            // Only the resources the ClusterQueue has quota for.
            if (w.cqs[c].groupOf.size() <= r || w.cqs[c].groupOf[r] < 0) continue;
            s.series.emplace_back(measureName("usage", name), usage_[c][r]);
            s.series.emplace_back(measureName("nominal", name), nominal_[c][r]);
            s.series.emplace_back(measureName("borrowed", name), borrowed_[c][r]);
            s.series.emplace_back(measureName("lent", name), lent_[c][r]);
            double sum = 0, nominal = 0;
            for (size_t i = 0; i < usage_[c][r].size(); ++i) {
                sum += usage_[c][r][i];
                nominal = nominal_[c][r][i];
            }
            if (!usage_[c][r].empty() && nominal > 0)
                s.totals.emplace_back(measureName("mean_usage_pct_of_nominal", name),
                                      100.0 * sum / double(usage_[c][r].size()) / nominal);
        }
        for (auto& total : admissionWaits(std::move(cqWaits[c]), cqNever[c]))
            s.totals.push_back(std::move(total));
        out.push_back(std::move(s));
    }
    for (const auto& [key, measures] : afs_) {
        ObjectSeries s;
        s.kind = "LocalQueue";
        s.name = key.first + "/" + key.second;
        for (const auto& [measure, values] : measures) {
            std::vector<double> v = values;
            v.resize(samples_, v.empty() ? 0.0 : v.back());
            s.series.emplace_back(measure, std::move(v));
        }
        out.push_back(std::move(s));
    }
    for (auto& [cls, v] : never) waits.try_emplace(cls);
    for (auto& [cls, v] : waits) {
        ObjectSeries s;
        s.kind = "workload class";
        s.name = cls;
        s.totals = admissionWaits(std::move(v), never[cls]);
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace gantry::engine::kueue
