#include "profiles/kueue/flavor_assigner.h"

#include "profiles/kueue/preemption.h"
#include "profiles/kueue/tas.h"

#include <algorithm>
#include <climits>
#include <map>

namespace gantry::engine::kueue {

namespace {

struct GMode {
    PMode p = PMode::Fit;
    int borrow = 0;
};

GMode worstMode() {
    return GMode{PMode::NoFit, INT_MAX};
}

Mode toMode(PMode p) {
    switch (p) {
    case PMode::NoFit:
        return Mode::NoFit;
    case PMode::NoCandidates:
    case PMode::Preempt:
    case PMode::Reclaim:
        return Mode::Preempt;
    case PMode::Fit:
        return Mode::Fit;
    }
    return Mode::NoFit;
}

bool isPreferred(const GMode& a, const GMode& b, int preference) {
    if (a.p == PMode::NoFit) return false;
    if (b.p == PMode::NoFit) return true;
    const bool aNone = a.p == PMode::NoCandidates, bNone = b.p == PMode::NoCandidates;
    if (aNone != bNone) return !aNone;
    if (preference == 2) { // PreemptionOverBorrowing
        if (a.borrow != b.borrow) return a.borrow < b.borrow;
        return int(a.p) > int(b.p);
    }
    if (a.p != b.p) return int(a.p) > int(b.p);
    return a.borrow < b.borrow;
}

bool shouldTryNext(const GMode& m, const ClusterQueue& cq) {
    if (m.p == PMode::NoFit || m.p == PMode::NoCandidates) return true;
    if ((m.p == PMode::Preempt || m.p == PMode::Reclaim) && cq.whenCanPreemptTryNext) return true;
    if (m.borrow > 0 && cq.whenCanBorrowTryNext) return true;
    return false;
}

int severity(const std::string& r) {
    if (r == "NoMatchingFlavor") return 4;
    if (r == "ExceedsMaxQuota") return 3;
    if (r == "WaitingForQuota") return 2;
    if (r == "TopologyPlacementFailed") return 1;
    return 0;
}

std::string mostSevere(const std::string& a, const std::string& b) {
    return severity(a) >= severity(b) ? a : b;
}

std::string quantity(const World& w, int r, Amount v) {
    if (v == kUnlimited) return "unlimited";
    return formatAmount(w.resources[size_t(r)], v);
}

struct Status {
    std::vector<std::string> reasons;
    std::string error;
    std::string noFitReason;
};

struct RequestItem {
    std::string name;
    int id = -1;
    Amount amount = 0;
};

// Resources in the order Kueue iterates them (vectorized requests: by FNV-1a hash, then name).
void sortForKueue(std::vector<RequestItem>& items) {
    std::sort(items.begin(), items.end(), [](const RequestItem& a, const RequestItem& b) {
        const uint64_t ha = resourceHash(a.name), hb = resourceHash(b.name);
        if (ha != hb) return ha < hb;
        return a.name < b.name;
    });
}

bool explicitTas(const KueueTopologyRequest& t) {
    return t.any() || !t.sliceRequired.empty();
}

class Assigner {
  public:
    Assigner(Context& ctx, uint32_t wi)
        : ctx_(ctx), w_(ctx.w), wl_(ctx.wls[wi]), wi_(wi), cq_(w_.cqs[size_t(wl_.cq)]) {}

    Assignment run(const std::vector<int32_t>& counts) {
        Assignment a;
        const size_t n = wl_.podSets.size();
        a.lastTried.assign(n, std::vector<int>(size_t(w_.R()), -2));
        const int podsRes = w_.resource("pods");
        const bool coversPods = podsRes >= 0 && cq_.groupOf[size_t(podsRes)] >= 0;
        std::vector<std::vector<RequestItem>> psReq(n);
        std::vector<int32_t> psCount(n);
        for (size_t i = 0; i < n; ++i) {
            const PodSet& ps = wl_.podSets[i];
            const int32_t count = counts.empty() ? ps.count : counts[i];
            psCount[i] = count;
            for (const auto& [r, v] : ps.perPod)
                psReq[i].push_back({w_.resources[size_t(r)], r, mulAmount(v, count)});
            for (size_t u = 0; u < ps.uncovered.size(); ++u)
                psReq[i].push_back({ps.uncovered[u], -1, mulAmount(ps.uncoveredAmounts[u], count)});
            if (coversPods) {
                auto it = std::find_if(psReq[i].begin(), psReq[i].end(),
                                       [&](const RequestItem& x) { return x.id == podsRes; });
                if (it != psReq[i].end())
                    it->amount = count;
                else
                    psReq[i].push_back({"pods", podsRes, count});
            }
        }
        // Pod sets sharing a topology group are assigned together.
        std::vector<std::string> groupOrder;
        std::map<std::string, std::vector<int>> groups;
        for (size_t i = 0; i < n; ++i) {
            std::string key = wl_.podSets[i].topology.podSetGroup.empty()
                                  ? "#" + std::to_string(i)
                                  : wl_.podSets[i].topology.podSetGroup;
            auto [it, inserted] = groups.try_emplace(key);
            if (inserted) groupOrder.push_back(key);
            it->second.push_back(int(i));
        }
        for (const auto& key : groupOrder) {
            const auto& ids = groups[key];
            std::map<std::string, RequestItem> summed;
            for (int i : ids)
                for (const auto& item : psReq[size_t(i)]) {
                    auto& s = summed[item.name];
                    s.name = item.name;
                    s.id = item.id;
                    s.amount = addAmount(s.amount, item.amount);
                }
            std::vector<RequestItem> items;
            for (auto& [name, item] : summed) items.push_back(item);
            sortForKueue(items);
            std::map<int, FlavorChoice> groupFlavors;
            Status groupStatus;
            bool groupFailed = false;
            std::map<int, FlavorAttempt> considered;
            for (const auto& item : items) {
                if (item.id < 0 || cq_.groupOf[size_t(item.id)] < 0) {
                    if (item.amount == 0) continue;
                    groupFlavors.clear();
                    groupStatus = Status{};
                    groupStatus.reasons.push_back("resource " + item.name + " unavailable in ClusterQueue");
                    groupFailed = true;
                    break;
                }
                if (groupFlavors.count(item.id)) continue;
                std::map<int, FlavorChoice> flavors;
                std::vector<FlavorAttempt> attempts;
                Status st = findFlavor(ids, items, item.id, a.usage, &flavors, &attempts);
                mergeAttempts(considered, attempts);
                if (!st.error.empty() || (flavors.empty() && !items.empty())) {
                    groupFlavors.clear();
                    groupStatus = st;
                    groupFailed = true;
                    break;
                }
                groupFlavors.insert(flavors.begin(), flavors.end());
                groupStatus.reasons.insert(groupStatus.reasons.end(), st.reasons.begin(), st.reasons.end());
            }
            (void)groupFailed;
            std::vector<FlavorAttempt> final;
            for (auto& [f, at] : considered) final.push_back(at);
            std::sort(final.begin(), final.end(), [&](const FlavorAttempt& x, const FlavorAttempt& y) {
                return w_.flavors[size_t(x.flavor)].name < w_.flavors[size_t(y.flavor)].name;
            });
            bool failed = false;
            for (int i : ids) {
                PodSetAssignment ps;
                ps.name = wl_.podSets[size_t(i)].name;
                ps.count = psCount[size_t(i)];
                ps.flavors.assign(size_t(w_.R()), FlavorChoice{});
                for (const auto& item : psReq[size_t(i)]) {
                    if (item.id >= 0) ps.requests.emplace_back(item.id, item.amount);
                    if (item.id < 0) continue;
                    auto it = groupFlavors.find(item.id);
                    if (it == groupFlavors.end()) continue;
                    ps.flavors[size_t(item.id)] = it->second;
                    ++ps.assigned;
                }
                std::sort(ps.requests.begin(), ps.requests.end());
                ps.reasons = groupStatus.reasons;
                ps.error = groupStatus.error;
                ps.attempts = final;
                append(a, size_t(i), ps);
                if (!ps.error.empty() || (!psReq[size_t(i)].empty() && ps.assigned == 0)) failed = true;
            }
            if (failed) {
                resolveNoFitReason(a);
                return a;
            }
        }
        if (a.mode() == Mode::NoFit) {
            resolveNoFitReason(a);
            return a;
        }
        if (ctx_.tas) topology(a);
        resolveNoFitReason(a);
        return a;
    }

  private:
    Context& ctx_;
    World& w_;
    Workload& wl_;
    uint32_t wi_;
    const ClusterQueue& cq_;

    void append(Assignment& a, size_t index, const PodSetAssignment& ps) {
        a.podSets.push_back(ps);
        for (int r = 0; r < w_.R(); ++r) {
            const FlavorChoice& c = ps.flavors[size_t(r)];
            if (c.flavor < 0) continue;
            a.borrowing = std::max(a.borrowing, c.borrow);
            Amount v = 0;
            for (const auto& [rr, amount] : ps.requests)
                if (rr == r) v = amount;
            addTo(a.usage, w_.fr(c.flavor, r), v);
            a.lastTried[index][size_t(r)] = c.triedIdx;
        }
    }

    static void mergeAttempts(std::map<int, FlavorAttempt>& dst, const std::vector<FlavorAttempt>& src) {
        for (const auto& at : src) {
            auto it = dst.find(at.flavor);
            if (it == dst.end()) {
                FlavorAttempt c = at;
                std::sort(c.reasons.begin(), c.reasons.end());
                c.reasons.erase(std::unique(c.reasons.begin(), c.reasons.end()), c.reasons.end());
                dst.emplace(at.flavor, std::move(c));
                continue;
            }
            FlavorAttempt& e = it->second;
            e.mode = std::min(e.mode, at.mode);
            e.borrow = std::max(e.borrow, at.borrow);
            e.reasons.insert(e.reasons.end(), at.reasons.begin(), at.reasons.end());
            std::sort(e.reasons.begin(), e.reasons.end());
            e.reasons.erase(std::unique(e.reasons.begin(), e.reasons.end()), e.reasons.end());
            e.noFitReason = mostSevere(e.noFitReason, at.noFitReason);
        }
    }

    // Why the flavor cannot take the pod sets, or empty.
    std::string checkFlavor(int f, const std::vector<int>& ids, const Group& group) {
        const Flavor& flavor = w_.flavors[size_t(f)];
        std::vector<std::string> flavorKeys;
        for (const auto& [k, v] : flavor.nodeLabels) flavorKeys.push_back(k);
        for (int i : ids) {
            const PodSet& ps = wl_.podSets[size_t(i)];
            if (std::string why = tasMatch(ps, f, group); !why.empty()) return why;
            const PodShape* sh = ps.shape == UINT32_MAX ? nullptr : &ctx_.st.shapes[ps.shape];
            std::vector<Toleration> tolerations;
            if (sh) tolerations = sh->tolerations;
            tolerations.insert(tolerations.end(), flavor.tolerations.begin(), flavor.tolerations.end());
            if (const Taint* t = firstUntoleratedTaint(flavor.taints, tolerations))
                return "untolerated taint {" + t->key + " " + t->value + " " + toString(t->effect) +
                       "} in flavor " + flavor.name;
            if (!sh) continue;
            // The pod's node selector and required affinity, restricted to the flavor's label keys.
            auto allowed = [&](const std::string& k) {
                return std::find(flavorKeys.begin(), flavorKeys.end(), k) != flavorKeys.end();
            };
            bool match = true;
            for (const auto& [k, v] : sh->nodeSelector) {
                if (!allowed(k)) continue;
                auto it = flavor.nodeLabels.find(k);
                if (it == flavor.nodeLabels.end() || it->second != v) match = false;
            }
            if (match && sh->nodeAffinity && sh->nodeAffinity->required) {
                std::vector<NodeSelectorTerm> terms;
                bool any = true;
                for (const auto& t : *sh->nodeAffinity->required) {
                    NodeSelectorTerm copy;
                    for (const auto& e : t.matchExpressions)
                        if (allowed(e.key)) copy.matchExpressions.push_back(e);
                    if (copy.matchExpressions.empty()) {
                        any = false;
                        break;
                    }
                    terms.push_back(std::move(copy));
                }
                if (any && !terms.empty()) {
                    bool one = false;
                    for (const auto& t : terms)
                        if (matches(t, flavor.nodeLabels, "")) one = true;
                    match = one;
                }
            }
            if (!match) return "flavor " + flavor.name + " doesn't match node affinity";
        }
        return {};
    }

    std::string tasMatch(const PodSet& ps, int f, const Group& group) {
        const Flavor& flavor = w_.flavors[size_t(f)];
        const bool explicitRequest = explicitTas(ps.topology);
        const bool implied = !explicitRequest && cq_.tasOnly;
        if (explicitRequest || implied) {
            if (implied) return {};
            if (flavor.topologyName.empty()) {
                bool overlap = false;
                for (const auto& [r, v] : ps.perPod)
                    if (std::find(group.resources.begin(), group.resources.end(), r) != group.resources.end())
                        overlap = true;
                if (!overlap) return {};
                return "Flavor \"" + flavor.name + "\" does not support TopologyAwareScheduling";
            }
            if (flavor.topology < 0 || !ctx_.tas)
                return "Flavor \"" + flavor.name + "\" information missing in TAS cache";
            if (!ctx_.tas->hasLevel(f, ps.topology))
                return "Flavor \"" + flavor.name + "\" does not contain the requested level";
            return {};
        }
        if (!flavor.topologyName.empty())
            return "Flavor \"" + flavor.name + "\" supports only TopologyAwareScheduling";
        return {};
    }

    bool canPreemptWhileBorrowing() const {
        return cq_.borrowWithinCohort || (ctx_.fairSharing && cq_.reclaimWithinCohort != Policy::Never);
    }

    GMode fitsQuota(int fr, Amount assumed, Amount request, Status* st) {
        const int node = cq_.node;
        const Amount avail = std::max<Amount>(0, available(w_, node, fr));
        const Amount maxCapacity = potentialAvailable(w_, node, fr);
        const int r = w_.resourceOf(fr);
        const std::string& flavorName = w_.flavors[size_t(w_.flavorOf(fr))].name;
        const Amount val = addAmount(assumed, request);
        st->noFitReason = "WaitingForQuota";
        if (val > maxCapacity) {
            st->reasons.push_back("insufficient quota for " + w_.resources[size_t(r)] + " in flavor " +
                                  flavorName + ", previously considered podsets requests (" +
                                  quantity(w_, r, assumed) + ") + current podset request (" +
                                  quantity(w_, r, request) + ") > maximum capacity (" +
                                  quantity(w_, r, maxCapacity) + ")");
            st->noFitReason = "ExceedsMaxQuota";
            return GMode{PMode::NoFit, 0};
        }
        auto [borrow, mayReclaim] = lowestSubtreeThatFits(w_, wl_.cq, fr, val);
        if (val <= avail) {
            st->noFitReason.clear();
            return GMode{PMode::Fit, borrow};
        }
        st->reasons.push_back("insufficient unused quota for " + w_.resources[size_t(r)] + " in flavor " +
                              flavorName + ", " + quantity(w_, r, subAmount(val, avail)) + " more needed");
        const QuotaNode& n = w_.nodes[size_t(node)];
        if (n.nominal[size_t(fr)] >= val || mayReclaim || canPreemptWhileBorrowing()) {
            auto [mode, after] = simulatePreemption(ctx_, wi_, fr, val);
            st->noFitReason.clear();
            return GMode{mode, after};
        }
        return GMode{PMode::NoFit, borrow};
    }

    Status findFlavor(const std::vector<int>& ids, const std::vector<RequestItem>& groupItems, int res,
                      const Usage& usageSoFar, std::map<int, FlavorChoice>* best,
                      std::vector<FlavorAttempt>* attempts) {
        Status status;
        const Group& group = cq_.groups[size_t(cq_.groupOf[size_t(res)])];
        std::vector<RequestItem> requests;
        for (const auto& it : groupItems)
            if (it.id >= 0 &&
                std::find(group.resources.begin(), group.resources.end(), it.id) != group.resources.end())
                requests.push_back(it);
        GMode bestMode = worstMode();
        int attempted = -1;
        int start = 0;
        if (!wl_.lastTried.empty() && size_t(ids[0]) < wl_.lastTried.size()) {
            const int last = wl_.lastTried[size_t(ids[0])][size_t(res)];
            if (last != -2) start = last + 1;
        }
        for (int idx = start; idx < int(group.flavors.size()); ++idx) {
            attempted = idx;
            const int f = group.flavors[size_t(idx)];
            if (std::string why = checkFlavor(f, ids, group); !why.empty()) {
                status.reasons.push_back(why);
                attempts->push_back(FlavorAttempt{f, Mode::NoFit, 0, {why}, "NoMatchingFlavor"});
                continue;
            }
            std::map<int, FlavorChoice> assignments;
            GMode rep;
            int maxBorrow = 0;
            std::vector<std::string> flavorReasons;
            std::string flavorNoFit;
            for (const auto& item : requests) {
                const int fr = w_.fr(f, item.id);
                Status st;
                GMode mode = fitsQuota(fr, usageOf(usageSoFar, fr), item.amount, &st);
                if (!st.reasons.empty()) {
                    flavorReasons.insert(flavorReasons.end(), st.reasons.begin(), st.reasons.end());
                    status.reasons.insert(status.reasons.end(), st.reasons.begin(), st.reasons.end());
                    flavorNoFit = mostSevere(flavorNoFit, st.noFitReason);
                }
                maxBorrow = std::max(maxBorrow, mode.borrow);
                if (isPreferred(rep, mode, cq_.preference)) rep = mode;
                if (rep.p == PMode::NoFit) continue;
                assignments[item.id] = FlavorChoice{f, toMode(mode.p), mode.borrow, -1};
            }
            std::sort(flavorReasons.begin(), flavorReasons.end());
            attempts->push_back(FlavorAttempt{f, toMode(rep.p), maxBorrow, flavorReasons, flavorNoFit});
            if (!shouldTryNext(rep, cq_)) {
                *best = assignments;
                bestMode = rep;
                break;
            }
            if (isPreferred(rep, bestMode, cq_.preference)) {
                *best = assignments;
                bestMode = rep;
            }
        }
        for (auto& [r, c] : *best) c.triedIdx = attempted == int(group.flavors.size()) - 1 ? -1 : attempted;
        if (bestMode.p == PMode::Fit) return Status{};
        return status;
    }

    void resolveNoFitReason(Assignment& a) {
        if (a.mode() != Mode::NoFit) return;
        std::string overall;
        for (const auto& ps : a.podSets) {
            if (ps.mode() != Mode::NoFit) continue;
            if (ps.attempts.empty()) {
                overall = mostSevere(overall, "NoMatchingFlavor");
                continue;
            }
            std::map<int, std::string> rgMin;
            for (const auto& at : ps.attempts) {
                if (at.mode != Mode::NoFit) continue;
                for (size_t g = 0; g < cq_.groups.size(); ++g) {
                    const auto& fl = cq_.groups[g].flavors;
                    if (std::find(fl.begin(), fl.end(), at.flavor) == fl.end()) continue;
                    auto it = rgMin.find(int(g));
                    if (it == rgMin.end() || severity(at.noFitReason) < severity(it->second))
                        rgMin[int(g)] = at.noFitReason;
                }
            }
            std::string psReason;
            for (const auto& [g, r] : rgMin) psReason = mostSevere(psReason, r);
            overall = mostSevere(overall, psReason);
        }
        a.noFitReason = overall;
    }

    std::vector<TasRequest> tasRequests(Assignment& a) {
        std::vector<TasRequest> out;
        for (size_t i = 0; i < wl_.podSets.size(); ++i) {
            const PodSet& ps = wl_.podSets[i];
            const bool explicitRequest = explicitTas(ps.topology);
            const bool implied = !explicitRequest && cq_.tasOnly;
            if (!explicitRequest && !implied) continue;
            PodSetAssignment& psa = a.podSets[i];
            if (!psa.error.empty() || psa.count == 0 || psa.topology) continue;
            int tasFlavor = -1, n = 0;
            for (const auto& c : psa.flavors)
                if (c.flavor >= 0 && !w_.flavors[size_t(c.flavor)].topologyName.empty() &&
                    c.flavor != tasFlavor) {
                    tasFlavor = c.flavor;
                    ++n;
                }
            if (n == 0) {
                psa.error = "no TAS flavor assigned";
                a.forced.reset();
                continue;
            }
            if (n > 1) {
                psa.error = "more than one TAS flavor assigned";
                a.forced.reset();
                continue;
            }
            out.push_back(TasRequest{int(i), tasFlavor, psa.count, ps.shape, ps.topology, implied});
        }
        return out;
    }

    void topology(Assignment& a) {
        auto reqs = tasRequests(a);
        if (reqs.empty()) return;
        if (a.mode() == Mode::Fit) {
            TasResult r = ctx_.tas->find(reqs, false);
            if (!r.failure.empty()) {
                PodSetAssignment& psa = a.podSets[size_t(r.failedPodSet)];
                psa.reasons.push_back(r.failure);
                for (auto& c : psa.flavors)
                    if (c.flavor >= 0) c.mode = Mode::Preempt;
                a.forced = Mode::Preempt;
            } else {
                for (auto& [ps, ta] : r.assignments) {
                    a.podSets[size_t(ps)].topology = ta;
                    for (const auto& q : reqs)
                        if (q.podSet == ps) a.podSets[size_t(ps)].topologyFlavor = q.flavor;
                }
            }
        }
        if (a.mode() == Mode::Preempt) {
            TasResult r = ctx_.tas->find(reqs, true);
            if (!r.failure.empty()) {
                PodSetAssignment& psa = a.podSets[size_t(r.failedPodSet)];
                for (auto& at : psa.attempts)
                    if (at.flavor == r.failedFlavor) {
                        at.mode = Mode::NoFit;
                        at.noFitReason = "TopologyPlacementFailed";
                    }
                for (auto& c : psa.flavors)
                    if (c.flavor >= 0) c.mode = Mode::NoFit;
                a.forced = Mode::NoFit;
            } else {
                for (const auto& q : reqs)
                    for (auto& c : a.podSets[size_t(q.podSet)].flavors)
                        if (c.flavor >= 0) c.mode = Mode::Preempt;
                a.forced = Mode::Preempt;
            }
        }
    }
};

} // namespace

uint64_t resourceHash(const std::string& name) {
    uint64_t h = 14695981039346656037ULL;
    for (unsigned char c : name) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

void addTo(Usage& u, int fr, Amount v) {
    auto it = std::lower_bound(u.begin(), u.end(), fr,
                               [](const std::pair<int, Amount>& e, int k) { return e.first < k; });
    if (it != u.end() && it->first == fr)
        it->second = addAmount(it->second, v);
    else
        u.insert(it, {fr, v});
}

Amount usageOf(const Usage& u, int fr) {
    auto it = std::lower_bound(u.begin(), u.end(), fr,
                               [](const std::pair<int, Amount>& e, int k) { return e.first < k; });
    return it != u.end() && it->first == fr ? it->second : 0;
}

Mode PodSetAssignment::mode() const {
    if (fit()) return Mode::Fit;
    if (!error.empty() || assigned == 0) return Mode::NoFit;
    Mode m = Mode::Fit;
    for (const auto& c : flavors)
        if (c.flavor >= 0) m = std::min(m, c.mode);
    return m;
}

Mode Assignment::mode() const {
    if (podSets.empty()) return Mode::NoFit;
    if (forced) return *forced;
    Mode m = Mode::Fit;
    for (const auto& ps : podSets) m = std::min(m, ps.mode());
    return m;
}

void Assignment::setMode(Mode m) {
    forced = m;
    for (auto& ps : podSets)
        for (auto& c : ps.flavors)
            if (c.flavor >= 0) c.mode = m;
}

std::string Assignment::message() const {
    std::string out;
    for (const auto& ps : podSets) {
        if (ps.fit()) continue;
        if (!ps.error.empty()) return "failed to assign flavors to pod set " + ps.name + ": " + ps.error;
        std::vector<std::string> reasons = ps.reasons;
        std::sort(reasons.begin(), reasons.end());
        std::string joined;
        for (size_t i = 0; i < reasons.size(); ++i) joined += (i ? ", " : "") + reasons[i];
        out += (out.empty() ? "" : "; ") + std::string("couldn't assign flavors to pod set ") + ps.name +
               ": " + joined;
    }
    return out;
}

Assignment assignFlavors(Context& ctx, uint32_t wl, const std::vector<int32_t>& counts) {
    return Assigner(ctx, wl).run(counts);
}

Usage totalRequests(const Context& ctx, const Assignment& a) {
    Usage u;
    for (const auto& ps : a.podSets)
        for (const auto& [r, v] : ps.requests) {
            if (v == 0 || ps.flavors[size_t(r)].flavor < 0) continue;
            if (ctx.w.resources[size_t(r)] == "pods") continue; // Kueue's total requests name no pod count
            addTo(u, ctx.w.fr(ps.flavors[size_t(r)].flavor, r), v);
        }
    return u;
}

} // namespace gantry::engine::kueue
