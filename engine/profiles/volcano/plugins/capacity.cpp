// capacity: queues with explicit deserved resources (elastic quota). A queue may use up to its real
// capability (capability, minus what other queues are guaranteed); queues below deserved go first
// and may reclaim from queues above their deserved share, never below a queue's guarantee. With
// enableHierarchy the queues form a tree under "root": only leaf queues take jobs, every ancestor's
// capability must also hold, and capabilities left unset are inherited from the parent. A queue's
// capability may also name DRA devices (capacity_dra.h).
#include "profiles/volcano/framework/job_resources.h"
#include "profiles/volcano/plugins/arguments.h"
#include "profiles/volcano/plugins/capacity_dra.h"
#include "profiles/volcano/plugins/plugins.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <optional>

namespace gantry::engine::plugins {

namespace {

struct Attr {
    bool used = false;
    uint32_t queue = 0;
    double share = 0;
    std::vector<uint32_t> ancestors; // root first
    std::vector<uint32_t> children;
    VResource deserved, allocated, request, elastic, inqueue, capability, realCapability, guarantee;
    std::optional<QueueDra> dra; // its own spec's deviceclass keys (not inherited)
};

class Capacity : public Plugin {
  public:
    explicit Capacity(const PluginOption& o) {
        getInt(o, "ancestorReclaimLevel", ancestorReclaimLevel_);
        if (ancestorReclaimLevel_ < 0) ancestorReclaimLevel_ = 0;
        // Their defaults are Kubernetes' feature gates as Volcano vendors them (1.36):
        // DynamicResourceAllocation is GA, DRAConsumableCapacity beta and on.
        getBool(o, "capacity.DynamicResourceAllocationEnable", draEnabled_);
        getBool(o, "capacity.DRAConsumableCapacityEnable", draConsumable_);
    }

    void onSessionOpen(Session& ssn) override {
        s_ = &ssn;
        D_ = ssn.state.D();
        total_ = ssn.totalResource;
        attrs_.assign(ssn.state.queues.size(), Attr{});
        hierarchy_ = ssn.hierarchyEnabled("capacity");
        ready_ = hierarchy_ ? buildHierarchical() : (buildFlat(), true);
        draQuota_ = draEnabled_ && ssn.options.claims &&
                    std::any_of(attrs_.begin(), attrs_.end(), [](const Attr& a) { return a.used && a.dra; });
        if (draQuota_) holdDevicesAtOpen();

        auto& self = ssn.self();
        self.reclaimable = [this](uint32_t reclaimer, const std::vector<uint32_t>& reclaimees, int* vote) {
            return reclaim(reclaimer, reclaimees, vote);
        };
        self.reclaimsTask = [this](uint32_t reclaimer, uint32_t t) { return reclaimsTask(reclaimer, t); };
        // A queue's pods are victims only while it is above its deserved share in a dimension it
        // has one in, or when they ask for nothing it has one in (the walk's tests, with the
        // allocation as it is now, the highest it gets during a walk).
        self.reclaimsFrom = [this](uint32_t q) {
            return ready_ && attrs_[q].used && (overDeserved(attrs_[q]) || holdsIrrelevant(q));
        };
        self.preemptive = [this](uint32_t q, const std::vector<uint32_t>& tasks) {
            return preemptive(q, tasks);
        };
        self.allocatable = [this](uint32_t q, uint32_t t) {
            if (!s_->state.queues[q].open || !ready_) return false;
            if (hierarchy_ && !isLeaf(q)) return false;
            const VResource& req = s_->taskRes(t);
            if (draQuota_) {
                const TaskDra& dra = draOf(t);
                for (uint32_t x : chain(q))
                    if (attrs_[x].dra && !dra_->fits(*attrs_[x].dra, dra)) return false;
            }
            for (uint32_t x : chain(q))
                if (!fits(attrs_[x], req)) return false;
            return true;
        };
        self.jobEnqueueable = [this](uint32_t j) { return enqueueable(j); };
        self.jobEnqueued = [this](uint32_t j) {
            const auto& job = s_->state.jobs[j];
            if (!job.hasMinResources) return;
            auto& a = attrs_[s_->queueOf(j)];
            if (!a.used) return;
            const VResource reserved = deductSchedulingGated(s_->state, j, job.minResources);
            a.inqueue.add(reserved);
            if (hierarchy_)
                for (uint32_t anc : a.ancestors) attrs_[anc].inqueue.add(reserved);
        };
        if (hierarchy_) {
            self.queueOrder = [this](uint32_t l, uint32_t r) {
                const auto &lq = s_->state.queues[l], &rq = s_->state.queues[r];
                if (lq.priority != rq.priority) return rq.priority - lq.priority;
                const bool ll = isLeaf(l), rl = isLeaf(r);
                if (ll && !rl) return -1;
                if (!ll && rl) return 1;
                if (!ll && !rl) return compareShare(attrs_[l], attrs_[r]);
                const auto &la = attrs_[l], &ra = attrs_[r];
                const size_t level = queueLevel(la, ra);
                uint32_t lp = l, rp = r;
                if (level + 1 < la.ancestors.size()) lp = la.ancestors[level + 1];
                if (level + 1 < ra.ancestors.size()) rp = ra.ancestors[level + 1];
                return compareShare(attrs_[lp], attrs_[rp]);
            };
            self.victimQueueOrder = [this](uint32_t l, uint32_t r, uint32_t p) {
                const size_t ll = queueLevel(attrs_[l], attrs_[p]), rl = queueLevel(attrs_[r], attrs_[p]);
                if (ll == rl) return 0;
                return ll > rl ? -1 : 1;
            };
        } else {
            self.queueOrder = [this](uint32_t l, uint32_t r) {
                const auto &lq = s_->state.queues[l], &rq = s_->state.queues[r];
                if (lq.priority != rq.priority) return rq.priority - lq.priority;
                return compareShare(attrs_[l], attrs_[r]);
            };
        }
        // Topology-aware preemption's dry run: allocation as of the preemptor's prePredicate (= now)
        // plus the dry run's removals and re-additions, checked like allocatable minus the
        // queue-state check.
        self.simulateBegin = [this](uint32_t) { simDelta_.clear(); };
        self.simulateTask = [this](uint32_t, uint32_t t, uint32_t, int sign) {
            const uint32_t j = s_->jobOf(t);
            if (j == UINT32_MAX || !s_->inSession(j)) return;
            const uint32_t q = s_->queueOf(j);
            if (!attrs_[q].used) return;
            const VResource& req = s_->taskRes(t);
            auto bump = [&](uint32_t x) {
                auto it = simDelta_.try_emplace(x, D_).first;
                if (sign < 0)
                    it->second.sub(req);
                else
                    it->second.add(req);
            };
            bump(q);
            if (hierarchy_)
                for (uint32_t anc : attrs_[q].ancestors) bump(anc);
        };
        self.simulateAllocatable = [this](uint32_t q, uint32_t t) {
            if (!ready_) return false;
            if (hierarchy_ && !isLeaf(q)) return false;
            const VResource& req = s_->taskRes(t);
            for (uint32_t x : chain(q)) {
                VResource future = attrs_[x].allocated;
                if (auto it = simDelta_.find(x); it != simDelta_.end()) future.add(it->second);
                future.add(req);
                if (!future.lessEqualWithDimensionAndResourcesName(attrs_[x].realCapability, req, nullptr))
                    return false;
            }
            return true;
        };
        ssn.addEventHandler([this](uint32_t t) { onEvent(t, +1); }, [this](uint32_t t) { onEvent(t, -1); });
    }

  private:
    // ---------------------------------------------------------- building

    void accumulateJob(Attr& a, uint32_t j) {
        for (uint32_t t : s_->state.jobs[j].tasks) {
            const auto st = s_->state.tasks[t].status;
            if (allocatedStatus(st)) {
                a.allocated.add(s_->taskRes(t));
                a.request.add(s_->taskRes(t));
            } else if (st == TaskStatus::Pending) {
                a.request.add(s_->taskRes(t));
            }
        }
        const auto& job = s_->state.jobs[j];
        const auto& phase = job.phase; // as the session opens, the session's phase is the state's
        if (phase == PodGroupPhase::Inqueue && job.hasMinResources)
            a.inqueue.add(s_->inqueueResource(j, s_->jobAllocated(j)));
        if (phase == PodGroupPhase::Running && job.hasMinResources &&
            s_->allocatedTaskNum(j) >= job.minAvailable)
            a.inqueue.add(s_->inqueueResource(j, s_->jobAllocated(j)));
        a.elastic.add(s_->elasticResource(j));
    }

    void initAttr(Attr& a, uint32_t q, bool flat) {
        const auto& rec = s_->state.queues[q];
        a.used = true;
        a.queue = q;
        a.deserved = VResource::fromList(rec.deserved, s_->state.dims);
        for (auto* r : {&a.allocated, &a.request, &a.elastic, &a.inqueue, &a.guarantee}) *r = VResource(D_);
        a.capability = VResource(D_);
        a.realCapability = VResource(D_);
        if (!rec.capability.empty()) {
            a.capability = VResource::fromList(rec.capability, s_->state.dims);
            if (flat) {
                if (a.capability.cpu <= 0) a.capability.cpu = std::numeric_limits<double>::max();
                if (a.capability.mem <= 0) a.capability.mem = std::numeric_limits<double>::max();
            }
        }
        if (!rec.guarantee.empty()) a.guarantee = VResource::fromList(rec.guarantee, s_->state.dims);
        a.dra = draEnabled_ ? parseQueueDra(rec.capability) : std::nullopt;
    }

    // ---------------------------------------------------------- DRA quota

    const TaskDra& draOf(uint32_t t) {
        if (!dra_) dra_ = std::make_unique<CapacityDra>(s_->options.claims, draConsumable_);
        return dra_->of(s_->state, t);
    }

    // The devices the queues' allocated tasks hold as the session opens: each leaf with refcounts,
    // and its ancestors the leaf's change in the classes they name, without (upstream's
    // buildQueueAttrs; an ancestor is charged only through a leaf that has a quota of its own).
    void holdDevicesAtOpen() {
        const auto& st = s_->state;
        for (uint32_t t = 0; t < st.tasks.size(); ++t) {
            const uint32_t j = st.tasks[t].job;
            if (j == UINT32_MAX || !allocatedStatus(st.tasks[t].status) || !s_->inSession(j)) continue;
            if (st.jobs[j].queue < 0) continue;
            Attr& a = attrs_[s_->queueOf(j)];
            if (!a.used || !a.dra) continue;
            const TaskDra& dra = draOf(t);
            if (dra.claims.empty()) continue;
            DraByClass charged;
            CapacityDra::hold(*a.dra, dra, +1, &charged);
            if (hierarchy_)
                for (uint32_t anc : a.ancestors)
                    if (attrs_[anc].dra) CapacityDra::addNamed(*attrs_[anc].dra, charged, +1);
        }
    }

    // What the session left out (settled or parked jobs) or sums (SettledJobs::summed) of queue q.
    void addLeftOut(Attr& a, const SettledJobs::QueueTotals& t) {
        a.allocated.add(t.allocated.resource(D_));
        a.request.add(t.request.resource(D_));
        a.inqueue.add(t.inqueue.resource(D_));
        a.elastic.add(t.elastic.resource(D_));
    }
    bool countsAlone(uint32_t j) const { return !s_->settled() || !s_->settled()->summed(j); }

    void buildFlat() {
        VResource totalGuarantee(D_);
        for (const auto& q : s_->state.queues)
            if (!q.guarantee.empty()) totalGuarantee.add(VResource::fromList(q.guarantee, s_->state.dims));
        auto open = [&](uint32_t q) {
            auto& a = attrs_[q];
            if (a.used) return;
            initAttr(a, q, true);
            VResource real = VResource::exceededPart(total_, totalGuarantee);
            real.add(a.guarantee);
            if (!s_->state.queues[q].capability.empty())
                real.minDimensionResource(a.capability, Missing::Infinity);
            a.realCapability = real;
        };
        // The totals are exact integers: adding them first changes no sum.
        if (const SettledJobs* settled = s_->settled())
            for (uint32_t q = 0; q < s_->state.queues.size(); ++q)
                if (settled->leftOut(q).jobs > 0) {
                    open(q);
                    addLeftOut(attrs_[q], settled->leftOut(q));
                }
        for (uint32_t j : s_->sessionJobs) {
            if (!countsAlone(j)) continue;
            open(s_->queueOf(j));
            accumulateJob(attrs_[s_->queueOf(j)], j);
        }
        for (auto& a : attrs_) {
            if (!a.used) continue;
            a.deserved.minDimensionResource(a.realCapability, Missing::Infinity);
            a.deserved = VResource::max(a.deserved, a.guarantee);
            updateShare(a);
        }
    }

    // Adds to a leaf queue's attributes what add puts there, and the same to its ancestors'.
    template <class Add> void addToLeaf(Attr& a, Add add) {
        VResource oldAllocated = a.allocated, oldRequest = a.request, oldInqueue = a.inqueue,
                  oldElastic = a.elastic;
        add(a);
        VResource dAlloc = a.allocated, dReq = a.request, dInq = a.inqueue, dEla = a.elastic;
        dAlloc.sub(oldAllocated);
        dReq.sub(oldRequest);
        dInq.sub(oldInqueue);
        dEla.sub(oldElastic);
        for (uint32_t anc : a.ancestors) {
            attrs_[anc].allocated.add(dAlloc);
            attrs_[anc].request.add(dReq);
            attrs_[anc].inqueue.add(dInq);
            attrs_[anc].elastic.add(dEla);
        }
    }

    // Upstream adds the jobs in job order and stops at the first in a queue with children; when
    // the session left jobs out, that one is found by walking every job as a full session lists it.
    bool refuseJobInParent() {
        for (auto& a : attrs_)
            for (auto* r : {&a.allocated, &a.request, &a.elastic, &a.inqueue}) *r = VResource(D_);
        for (uint32_t j = 0; j < s_->state.jobs.size(); ++j) {
            const auto& job = s_->state.jobs[j];
            if (job.queue < 0 || job.key.empty()) continue;
            auto& a = attrs_[uint32_t(job.queue)];
            if (!a.children.empty()) {
                s_->warnings.push_back("job " + job.key + " is in non-leaf queue " +
                                       s_->state.queues[a.queue].name + "; capacity hierarchy is not ready");
                break;
            }
            addToLeaf(a, [&](Attr& x) { accumulateJob(x, j); });
        }
        return false;
    }

    bool buildHierarchical() {
        const int root = s_->state.findQueue("root");
        for (uint32_t q = 0; q < s_->state.queues.size(); ++q) initAttr(attrs_[q], q, false);
        if (root < 0) {
            s_->warnings.push_back(
                "capacity with enableHierarchy needs a queue named root; nothing is scheduled");
            return false;
        }
        root_ = uint32_t(root);
        for (uint32_t q = 0; q < s_->state.queues.size(); ++q) {
            if (q == root_) continue;
            // Walk up to root, refusing cycles and unknown parents as upstream does.
            std::vector<uint32_t> path;
            uint32_t cur = q;
            bool ok = true;
            while (cur != root_) {
                if (std::find(path.begin(), path.end(), cur) != path.end()) {
                    ok = false;
                    break;
                }
                path.push_back(cur);
                const int parent = s_->state.queues[cur].parent;
                if (parent < 0) {
                    ok = false;
                    break;
                }
                cur = uint32_t(parent);
            }
            if (!ok) {
                s_->warnings.push_back("queue " + s_->state.queues[q].name +
                                       " has no valid path to root; capacity hierarchy is not ready");
                return false;
            }
            const uint32_t parent = uint32_t(s_->state.queues[q].parent);
            attrs_[parent].children.push_back(q);
        }
        // Ancestors, root first.
        for (uint32_t q = 0; q < s_->state.queues.size(); ++q) {
            std::vector<uint32_t> anc;
            for (int p = q == root_ ? -1 : s_->state.queues[q].parent; p >= 0;
                 p = uint32_t(p) == root_ ? -1 : s_->state.queues[size_t(p)].parent)
                anc.push_back(uint32_t(p));
            std::reverse(anc.begin(), anc.end());
            attrs_[q].ancestors = std::move(anc);
        }
        bool jobsInLeaves = true;
        if (const SettledJobs* settled = s_->settled())
            for (uint32_t q = 0; q < s_->state.queues.size() && jobsInLeaves; ++q) {
                if (settled->leftOut(q).jobs == 0) continue;
                if (!isLeaf(q))
                    jobsInLeaves = false;
                else
                    addToLeaf(attrs_[q], [&](Attr& x) { addLeftOut(x, settled->leftOut(q)); });
            }
        for (size_t i = 0; i < s_->sessionJobs.size() && jobsInLeaves; ++i) {
            const uint32_t j = s_->sessionJobs[i];
            if (!countsAlone(j)) continue;
            if (!isLeaf(s_->queueOf(j)))
                jobsInLeaves = false;
            else
                addToLeaf(attrs_[s_->queueOf(j)], [&](Attr& x) { accumulateJob(x, j); });
        }
        if (!jobsInLeaves) return refuseJobInParent();
        auto& r = attrs_[root_];
        if (r.capability.isEmpty()) {
            VResource inf = VResource::infinite(D_);
            for (int d = 2; d < D_; ++d)
                if (total_.present(d)) inf.set(d, double(std::numeric_limits<int64_t>::max()));
            r.capability = inf;
        }
        r.realCapability = r.capability;
        checkHierarchical(root_);
        for (auto& a : attrs_) updateShare(a);
        return true;
    }

    void checkHierarchical(uint32_t q) {
        auto& a = attrs_[q];
        VResource totalGuarantee(D_), totalDeserved(D_);
        for (uint32_t c : a.children) {
            auto& ch = attrs_[c];
            ch.deserved = VResource::max(ch.deserved, ch.guarantee);
            totalDeserved.add(ch.deserved);
            totalGuarantee.add(ch.guarantee);
            if (ch.capability.cpu <= 0) ch.capability.cpu = a.capability.cpu;
            if (ch.capability.mem <= 0) ch.capability.mem = a.capability.mem;
            if (a.capability.hasScalars()) {
                ch.capability.touchMap();
                for (uint64_t m = a.capability.mask(); m; m &= m - 1) {
                    const int d = __builtin_ctzll(m);
                    if (!ch.capability.present(d)) ch.capability.set(d, a.capability.get(d));
                }
            }
        }
        if (q == root_) {
            a.guarantee = totalGuarantee;
            a.deserved = totalDeserved;
        }
        for (uint32_t c : a.children) {
            auto& ch = attrs_[c];
            VResource real = VResource::exceededPart(a.realCapability, totalGuarantee);
            real.add(ch.guarantee);
            real.minDimensionResource(ch.capability, Missing::Infinity);
            ch.realCapability = real;
        }
        for (uint32_t c : a.children) checkHierarchical(c);
    }

    // ---------------------------------------------------------- helpers

    static void updateShare(Attr& a) {
        if (a.deserved.isEmpty()) {
            a.share = 1;
            return;
        }
        double res = 0;
        for (int d : a.deserved.resourceNames())
            res = std::max(res, share(a.allocated.get(d), a.deserved.get(d)));
        a.share = res;
    }

    static int compareShare(const Attr& l, const Attr& r) {
        if (l.share == r.share) {
            const bool lh = !l.deserved.isEmpty(), rh = !r.deserved.isEmpty();
            if (lh == rh) return 0;
            return lh ? -1 : 1;
        }
        return l.share < r.share ? -1 : 1;
    }

    bool isLeaf(uint32_t q) const { return attrs_[q].children.empty(); }

    static size_t queueLevel(const Attr& l, const Attr& r) {
        size_t level = 0;
        for (size_t i = 0; i < std::min(l.ancestors.size(), r.ancestors.size()); ++i) {
            if (l.ancestors[i] == r.ancestors[i])
                level = i;
            else
                return level;
        }
        return level;
    }

    // The queue and, with hierarchy, its ancestors: leaf first, root last.
    std::vector<uint32_t> chain(uint32_t q) const {
        std::vector<uint32_t> out{q};
        if (hierarchy_)
            for (auto it = attrs_[q].ancestors.rbegin(); it != attrs_[q].ancestors.rend(); ++it)
                out.push_back(*it);
        return out;
    }

    bool fits(const Attr& a, const VResource& req) const {
        VResource future = a.allocated;
        future.add(req);
        return future.lessEqualWithDimensionAndResourcesName(a.realCapability, req, nullptr);
    }

    int enqueueable(uint32_t j) {
        if (!ready_) return -1;
        const uint32_t q = s_->queueOf(j);
        if (hierarchy_ && !isLeaf(q)) return -1;
        if (!s_->state.queues[q].open) {
            s_->jobs[j].jobFitError = "queue " + s_->state.queues[q].name + " is not open";
            return -1;
        }
        const auto& job = s_->state.jobs[j];
        if (!job.hasMinResources) return 1;
        for (uint32_t x : chain(q)) {
            const auto& a = attrs_[x];
            VResource r = job.minResources;
            r.add(a.allocated).add(a.inqueue).sub(a.elastic);
            std::vector<int> failed;
            if (!r.lessEqualWithDimensionAndResourcesName(a.realCapability, job.minResources, &failed)) {
                std::string msg = "queue resource quota insufficient";
                for (size_t i = 0; i < failed.size(); ++i)
                    msg += (i ? ", insufficient " : ": insufficient ") + s_->state.dims.name(failed[i]);
                s_->jobs[j].jobFitError = msg + " (queue " + s_->state.queues[x].name + ")";
                return -1;
            }
        }
        return 1;
    }

    bool preemptive(uint32_t q, const std::vector<uint32_t>& tasks) {
        if (!ready_ || !s_->state.queues[q].open) return false;
        const auto& a = attrs_[q];
        VResource req(D_);
        for (uint32_t t : tasks) req.add(s_->taskRes(t));
        VResource future = a.allocated;
        future.add(req);
        if (!future.lessEqualWithDimensionAndResourcesName(a.realCapability, req, nullptr)) return false;
        bool isPreemptive = future.lessEqualPartlyWithDimensionZeroFiltered(a.deserved, req);
        if (!isPreemptive && hierarchy_ && ancestorReclaimLevel_ > 0) {
            for (int level = 1; level <= ancestorReclaimLevel_; ++level) {
                auto anc = ancestorAtDepth(a, level);
                if (!anc || *anc == root_) continue;
                const auto& aa = attrs_[*anc];
                VResource fa = aa.allocated;
                fa.add(req);
                if (fa.lessEqualPartlyWithDimensionZeroFiltered(aa.deserved, req)) {
                    isPreemptive = true;
                    break;
                }
            }
        }
        return isPreemptive;
    }

    static std::optional<uint32_t> ancestorAtDepth(const Attr& a, int depth) {
        if (depth <= 0 || int(a.ancestors.size()) < depth) return std::nullopt;
        return a.ancestors[a.ancestors.size() - size_t(depth)];
    }

    bool sharesAncestorWithinLevel(const Attr& a, const Attr& b) const {
        for (int la = 1; la <= ancestorReclaimLevel_; ++la) {
            auto x = ancestorAtDepth(a, la);
            if (!x || *x == root_) continue;
            for (int lb = 1; lb <= ancestorReclaimLevel_; ++lb) {
                auto y = ancestorAtDepth(b, lb);
                if (y && *y == *x) return true;
            }
        }
        return false;
    }

    static bool hasRelevantDeserved(const VResource& req, const VResource& deserved) {
        return VResource::sharesName(req, deserved, false);
    }

    // Whether reclaimee t (of a used queue) may be taken for the reclaimer, with alloc(x) giving
    // queue x's allocation as the walk has left it; the ancestors whose allocation the victim then
    // lowers go to ancestors. The walk (reclaim) and its bound (reclaimsTask, with the allocations
    // as they are, the highest they can be during a walk) ask this same question. Every test but
    // the queue-independent ones only fails more as an allocation falls.
    template <class Alloc>
    bool eligible(const Attr& reclaimerAttr, const VResource& reclaimerReq, uint32_t t, Alloc&& alloc,
                  std::vector<uint32_t>& ancestors) {
        ancestors.clear();
        const Attr& attr = attrs_[s_->queueOf(s_->jobOf(t))];
        const VResource& req = s_->taskRes(t);
        if (!VResource::sharesName(req, reclaimerReq, true)) return false;
        const VResource& allocated = alloc(attr.queue);
        except_ = allocated;
        except_.sub(req);
        if (!attr.guarantee.lessEqual(except_, Missing::Zero)) return false;
        if (!hasRelevantDeserved(req, attr.deserved)) {
            if (hierarchy_ && ancestorReclaimLevel_ > 0 && sharesAncestorWithinLevel(reclaimerAttr, attr) &&
                !hasRelevantDeserved(reclaimerReq, reclaimerAttr.deserved))
                return false;
        } else if (!allocated.greaterPartlyWithRelevantDimensions(attr.deserved, req)) {
            return false;
        }
        if (hierarchy_ && ancestorReclaimLevel_ > 0) {
            for (int level = 1; level <= ancestorReclaimLevel_; ++level) {
                auto reclaimeeAnc = ancestorAtDepth(attr, level);
                if (!reclaimeeAnc || *reclaimeeAnc == root_) continue;
                auto reclaimerAnc = ancestorAtDepth(reclaimerAttr, level);
                if (reclaimerAnc && *reclaimerAnc == *reclaimeeAnc) continue;
                const Attr& aa = attrs_[*reclaimeeAnc];
                const VResource& ancAllocated = alloc(*reclaimeeAnc);
                ancestors.push_back(*reclaimeeAnc);
                if (!hasRelevantDeserved(req, aa.deserved)) continue;
                if (!ancAllocated.greaterPartlyWithRelevantDimensions(aa.deserved, req)) return false;
            }
        }
        return true;
    }

    // The reclaimer's queue attributes, or null when capacity names no victim for it.
    const Attr* reclaimerAttr(uint32_t reclaimer) const {
        if (!ready_) return nullptr;
        const uint32_t rj = s_->jobOf(reclaimer);
        if (rj == UINT32_MAX || !s_->inSession(rj) || !attrs_[s_->queueOf(rj)].used) return nullptr;
        return &attrs_[s_->queueOf(rj)];
    }

    // Whether greaterPartlyWithRelevantDimensions(deserved, req) can hold for some request: some
    // dimension the queue has a deserved share in (cpu and memory from 0.1, any present scalar but
    // pods) is allocated above it.
    static bool overDeserved(const Attr& a) {
        const VResource &al = a.allocated, &de = a.deserved;
        if (de.cpu >= 0.1 && al.cpu > de.cpu) return true;
        if (de.mem >= 0.1 && al.mem > de.mem) return true;
        for (uint64_t m = de.mask(); m; m &= m - 1) {
            const int d = __builtin_ctzll(m);
            if (d != kPods && al.get(d) > de.get(d)) return true;
        }
        return false;
    }

    // The names a resource holds at least 0.1 of, as bits (cpu 0, memory 1, a scalar its dim).
    static uint64_t nameBits(const VResource& r) {
        uint64_t out = (r.cpu >= 0.1 ? 1u : 0u) | (r.mem >= 0.1 ? 2u : 0u);
        for (uint64_t m = r.mask(); m; m &= m - 1) {
            const int d = __builtin_ctzll(m);
            if (r.get(d) >= 0.1) out |= uint64_t(1) << d;
        }
        return out;
    }

    // Whether some pod shape of the state asks for nothing queue q has a deserved share in (such a
    // pod is taken whatever the queue's share): the shapes' name sets are gathered once per session
    // (and again from where they stopped when shapes were added), a handful of distinct ones.
    bool holdsIrrelevant(uint32_t q) {
        const auto& shapes = s_->state.shapes;
        for (; shapesSeen_ < shapes.size(); ++shapesSeen_) {
            const uint64_t b = nameBits(shapes[shapesSeen_].vres);
            if (std::find(shapeNames_.begin(), shapeNames_.end(), b) == shapeNames_.end())
                shapeNames_.push_back(b);
        }
        const uint64_t deserved = nameBits(attrs_[q].deserved);
        for (uint64_t b : shapeNames_)
            if (!(b & deserved)) return true;
        return false;
    }

    // A reclaimee the walk asks about at all.
    bool considered(uint32_t t) const {
        const uint32_t j = s_->jobOf(t);
        return j != UINT32_MAX && s_->inSession(j) && attrs_[s_->queueOf(j)].used;
    }

    std::vector<uint32_t> reclaim(uint32_t reclaimer, const std::vector<uint32_t>& reclaimees, int* vote) {
        std::vector<uint32_t> victims;
        const Attr* ra = reclaimerAttr(reclaimer);
        if (!ra) {
            *vote = -1;
            return victims;
        }
        const VResource& reclaimerReq = s_->taskRes(reclaimer);
        std::vector<uint32_t> ordered = reclaimees;
        s_->sortVictims(ordered, reclaimer);
        // Each queue's allocation as the victims so far leave it, copied at first use (walk_).
        if (walkStamp_.size() != attrs_.size()) {
            walkStamp_.assign(attrs_.size(), 0);
            walkAlloc_.resize(attrs_.size());
        }
        ++walk_;
        auto alloc = [this](uint32_t x) -> VResource& {
            if (walkStamp_[x] != walk_) {
                walkStamp_[x] = walk_;
                walkAlloc_[x] = attrs_[x].allocated;
            }
            return walkAlloc_[x];
        };
        for (uint32_t t : ordered) {
            if (!considered(t)) continue;
            if (!eligible(*ra, reclaimerReq, t, alloc, ancestors_)) continue;
            const VResource& req = s_->taskRes(t);
            alloc(s_->queueOf(s_->jobOf(t))).sub(req);
            for (uint32_t aq : ancestors_) alloc(aq).sub(req);
            victims.push_back(t);
        }
        *vote = 1;
        return victims;
    }

    // reclaimsTask: the walk's test with the allocations as they are.
    bool reclaimsTask(uint32_t reclaimer, uint32_t t) {
        const Attr* ra = reclaimerAttr(reclaimer);
        if (!ra || !considered(t)) return false;
        return eligible(
            *ra, s_->taskRes(reclaimer), t,
            [this](uint32_t x) -> const VResource& { return attrs_[x].allocated; }, ancestors_);
    }

    void onEvent(uint32_t t, int sign) {
        const uint32_t j = s_->jobOf(t);
        if (j == UINT32_MAX || !s_->inSession(j)) return;
        auto& a = attrs_[s_->queueOf(j)];
        if (!a.used) return;
        const VResource& req = s_->taskRes(t);
        if (sign > 0)
            a.allocated.add(req);
        else
            a.allocated.sub(req);
        updateShare(a);
        if (draQuota_) {
            const TaskDra& dra = draOf(t);
            if (a.dra) CapacityDra::hold(*a.dra, dra, sign);
            if (hierarchy_)
                for (uint32_t anc : a.ancestors)
                    if (attrs_[anc].dra) CapacityDra::hold(*attrs_[anc].dra, dra, sign);
        }
        if (hierarchy_)
            for (uint32_t anc : a.ancestors) {
                if (sign > 0)
                    attrs_[anc].allocated.add(req);
                else
                    attrs_[anc].allocated.sub(req);
            }
    }

    Session* s_ = nullptr;
    int D_ = 0;
    VResource total_;
    std::vector<Attr> attrs_;
    std::map<uint32_t, VResource> simDelta_; // queue -> change made by the current preemption dry run
    bool hierarchy_ = false;
    bool ready_ = true;
    uint32_t root_ = UINT32_MAX;
    int ancestorReclaimLevel_ = 0;
    bool draEnabled_ = true, draConsumable_ = true, draQuota_ = false;
    std::unique_ptr<CapacityDra> dra_;
    // Scratch of the reclaim walk: allocations by queue (valid where walkStamp_ == walk_), the
    // victim's ancestors, a remainder.
    std::vector<VResource> walkAlloc_;
    std::vector<uint32_t> walkStamp_, ancestors_;
    uint32_t walk_ = 0;
    VResource except_;
    std::vector<uint64_t> shapeNames_; // holdsIrrelevant: distinct name sets of the first shapesSeen_ shapes
    size_t shapesSeen_ = 0;
};

} // namespace

PluginDescriptor capacityPlugin() {
    PluginTraits t;
    // It reads the jobs only as sums per queue, which the settled jobs' totals give.
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    return {"capacity", [](const PluginOption& option) { return std::make_unique<Capacity>(option); },
            std::move(t)};
}

} // namespace gantry::engine::plugins
