// proportion: queues share the cluster by weight. Each queue's deserved resources are found by
// repeatedly handing out what is left in proportion to the weights of the queues still asking,
// capped by what they request and their capability and raised to their guarantee. Queues with the
// smaller allocated/deserved share go first; a queue at or above its deserved share is overused; a
// task is allocatable while its queue stays within deserved; enqueue admits a job while its queue's
// allocated + inqueue + minResources stays within the real capability.
#include "profiles/volcano/framework/job_resources.h"
#include "profiles/volcano/plugins/plugins.h"

#include <limits>

namespace gantry::engine::plugins {

namespace {

struct QueueAttr {
    bool used = false;
    int32_t weight = 0;
    double share = 0;
    VResource deserved, allocated, request, elastic, inqueue, capability, realCapability, guarantee;
};

class Proportion : public Plugin {
  public:
    explicit Proportion(const PluginOption&) {}

    void onSessionOpen(Session& ssn) override {
        s_ = &ssn;
        const int D = ssn.state.D();
        VResource total = ssn.totalResource;
        VResource totalGuarantee(D);
        for (const auto& q : ssn.state.queues)
            if (!q.guarantee.empty()) totalGuarantee.add(VResource::fromList(q.guarantee, ssn.state.dims));
        attrs_.assign(ssn.state.queues.size(), QueueAttr{});
        auto open = [&](uint32_t qi) {
            auto& attr = attrs_[qi];
            if (attr.used) return;
            const auto& q = ssn.state.queues[qi];
            attr.used = true;
            attr.weight = q.weight;
            for (auto* r : {&attr.deserved, &attr.allocated, &attr.request, &attr.elastic, &attr.inqueue,
                            &attr.guarantee})
                *r = VResource(D);
            bool hasCapability = !q.capability.empty();
            if (hasCapability) {
                attr.capability = VResource::fromList(q.capability, ssn.state.dims);
                if (attr.capability.cpu <= 0) attr.capability.cpu = std::numeric_limits<double>::max();
                if (attr.capability.mem <= 0) attr.capability.mem = std::numeric_limits<double>::max();
            }
            if (!q.guarantee.empty()) attr.guarantee = VResource::fromList(q.guarantee, ssn.state.dims);
            VResource real = VResource::exceededPart(total, totalGuarantee);
            real.add(attr.guarantee);
            if (!hasCapability) {
                attr.capability = VResource(D);
                attr.realCapability = real;
            } else {
                real.minDimensionResource(attr.capability, Missing::Infinity);
                attr.realCapability = real;
            }
        };
        // Jobs the session left out (settled or parked) or summed count through their queue's totals.
        const SettledJobs* settled = ssn.settled();
        if (settled)
            for (uint32_t qi = 0; qi < ssn.state.queues.size(); ++qi) {
                const auto& totals = settled->leftOut(qi);
                if (totals.jobs == 0) continue;
                open(qi);
                auto& attr = attrs_[qi];
                attr.allocated.add(totals.allocated.resource(D));
                attr.request.add(totals.request.resource(D));
                attr.inqueue.add(totals.inqueue.resource(D));
                attr.elastic.add(totals.elastic.resource(D));
            }
        for (uint32_t j : ssn.sessionJobs) {
            if (settled && settled->summed(j)) continue;
            const uint32_t qi = ssn.queueOf(j);
            open(qi);
            auto& attr = attrs_[qi];
            for (uint32_t t : ssn.state.jobs[j].tasks) {
                const auto st = ssn.state.tasks[t].status;
                if (allocatedStatus(st)) {
                    attr.allocated.add(ssn.taskRes(t));
                    attr.request.add(ssn.taskRes(t));
                } else if (st == TaskStatus::Pending) {
                    attr.request.add(ssn.taskRes(t));
                }
            }
            const auto& phase = ssn.jobs[j].phase;
            const auto& job = ssn.state.jobs[j];
            if (phase == PodGroupPhase::Inqueue && job.hasMinResources)
                attr.inqueue.add(ssn.inqueueResource(j, ssn.jobAllocated(j)));
            if (phase == PodGroupPhase::Running && job.hasMinResources &&
                ssn.allocatedTaskNum(j) >= job.minAvailable)
                attr.inqueue.add(ssn.inqueueResource(j, ssn.jobAllocated(j)));
            attr.elastic.add(ssn.elasticResource(j));
        }

        computeDeserved(total);

        auto& self = ssn.self();
        self.queueOrder = [this](uint32_t l, uint32_t r) {
            const auto &lq = s_->state.queues[l], &rq = s_->state.queues[r];
            if (lq.priority != rq.priority) return rq.priority - lq.priority;
            if (attrs_[l].share == attrs_[r].share) return 0;
            return attrs_[l].share < attrs_[r].share ? -1 : 1;
        };
        self.reclaimable = [this](uint32_t, const std::vector<uint32_t>& reclaimees, int* vote) {
            *vote = 1;
            std::vector<uint32_t> victims;
            std::map<uint32_t, VResource> allocations;
            for (uint32_t t : reclaimees) {
                const uint32_t j = s_->jobOf(t);
                if (j == UINT32_MAX || !s_->inSession(j)) continue;
                const uint32_t q = s_->queueOf(j);
                if (!attrs_[q].used) continue;
                auto it = allocations.find(q);
                if (it == allocations.end()) it = allocations.emplace(q, attrs_[q].allocated).first;
                if (!it->second.lessEqual(attrs_[q].deserved, Missing::Zero)) {
                    it->second.sub(s_->taskRes(t));
                    victims.push_back(t);
                }
            }
            return victims;
        };
        // A queue's allocation only falls while reclaimable walks its pods.
        self.reclaimsFrom = [this](uint32_t q) {
            const auto& a = attrs_[q];
            return a.used && !a.allocated.lessEqual(a.deserved, Missing::Zero);
        };
        self.overused = [this](uint32_t q) {
            const auto& a = attrs_[q];
            return a.deserved.lessEqual(a.allocated, Missing::Zero);
        };
        self.allocatable = [this](uint32_t q, uint32_t t) { return queueAllocatable(q, {t}); };
        self.preemptive = [this](uint32_t q, const std::vector<uint32_t>& tasks) {
            return queueAllocatable(q, tasks);
        };
        self.jobEnqueueable = [this](uint32_t j) {
            const uint32_t qi = s_->queueOf(j);
            if (!s_->state.queues[qi].open) {
                s_->jobs[j].jobFitError = "queue " + s_->state.queues[qi].name + " is not open";
                return -1;
            }
            const auto& job = s_->state.jobs[j];
            if (!job.hasMinResources) return 1;
            const auto& attr = attrs_[qi];
            VResource r = job.minResources;
            r.add(attr.allocated).add(attr.inqueue).sub(attr.elastic);
            std::vector<int> failed;
            if (r.lessEqualWithDimensionAndResourcesName(attr.realCapability, job.minResources, &failed))
                return 1;
            std::string msg = "queue resource quota insufficient";
            for (size_t i = 0; i < failed.size(); ++i)
                msg += (i ? ", insufficient " : ": insufficient ") + s_->state.dims.name(failed[i]);
            s_->jobs[j].jobFitError = msg;
            return -1;
        };
        self.jobEnqueued = [this](uint32_t j) {
            const auto& job = s_->state.jobs[j];
            if (!job.hasMinResources) return;
            attrs_[s_->queueOf(j)].inqueue.add(deductSchedulingGated(s_->state, j, job.minResources));
        };
        // Topology-aware preemption's dry run: the queues' allocation as of the preemptor's
        // prePredicate (= now) plus what the dry run removed or re-added. No queue-state check here,
        // unlike allocatable.
        self.simulateBegin = [this](uint32_t) { simDelta_.clear(); };
        self.simulateTask = [this](uint32_t, uint32_t t, uint32_t, int sign) {
            const uint32_t j = s_->jobOf(t);
            if (j == UINT32_MAX || !s_->inSession(j)) return;
            auto it = simDelta_.try_emplace(s_->queueOf(j), s_->state.D()).first;
            VResource r = s_->taskRes(t);
            if (sign < 0)
                it->second.sub(r);
            else
                it->second.add(r);
        };
        self.simulateAllocatable = [this](uint32_t q, uint32_t t) {
            const auto& a = attrs_[q];
            if (!a.used) return false;
            VResource future = a.allocated;
            if (auto it = simDelta_.find(q); it != simDelta_.end()) future.add(it->second);
            const VResource& req = s_->taskRes(t);
            future.add(req);
            return future.lessEqualWithDimensionAndResourcesName(a.deserved, req, nullptr);
        };
        ssn.addEventHandler(
            [this](uint32_t t) {
                const uint32_t j = s_->jobOf(t);
                if (j == UINT32_MAX || !s_->inSession(j)) return;
                auto& a = attrs_[s_->queueOf(j)];
                a.allocated.add(s_->taskRes(t));
                updateShare(a);
            },
            [this](uint32_t t) {
                const uint32_t j = s_->jobOf(t);
                if (j == UINT32_MAX || !s_->inSession(j)) return;
                auto& a = attrs_[s_->queueOf(j)];
                a.allocated.sub(s_->taskRes(t));
                updateShare(a);
            });
    }

  private:
    static void updateShare(QueueAttr& a) {
        double res = 0;
        for (int d : a.deserved.resourceNames())
            res = std::max(res, share(a.allocated.get(d), a.deserved.get(d)));
        a.share = res;
    }

    void computeDeserved(const VResource& total) {
        VResource remaining = total;
        std::vector<bool> meet(attrs_.size(), false);
        for (;;) {
            int32_t totalWeight = 0;
            for (size_t q = 0; q < attrs_.size(); ++q)
                if (attrs_[q].used && !meet[q]) totalWeight += attrs_[q].weight;
            if (totalWeight == 0) break;
            VResource oldRemaining = remaining;
            VResource increased(s_->state.D()), decreased(s_->state.D());
            for (size_t q = 0; q < attrs_.size(); ++q) {
                auto& a = attrs_[q];
                if (!a.used || meet[q]) continue;
                VResource old = a.deserved;
                VResource portion = remaining;
                portion.multi(double(a.weight) / double(totalWeight));
                a.deserved.add(portion);
                a.deserved.minDimensionResource(a.realCapability, Missing::Infinity);
                a.deserved.minDimensionResource(a.request, Missing::Zero);
                a.deserved = VResource::max(a.deserved, a.guarantee);
                updateShare(a);
                if (a.request.lessEqual(a.deserved, Missing::Zero) || a.deserved.deepEqual(old))
                    meet[q] = true;
                increased.add(VResource::exceededPart(a.deserved, old));
                decreased.add(VResource::exceededPart(old, a.deserved));
            }
            VResource next = remaining;
            next.add(decreased);
            remaining = VResource::exceededPart(next, increased);
            if (remaining.isEmpty() || remaining.deepEqual(oldRemaining)) break;
        }
    }

    bool queueAllocatable(uint32_t q, const std::vector<uint32_t>& tasks) const {
        if (!s_->state.queues[q].open) return false;
        const auto& a = attrs_[q];
        VResource req(s_->state.D());
        req.touchMap();
        for (uint32_t t : tasks) req.add(s_->taskRes(t));
        VResource future = a.allocated;
        future.add(req);
        return future.lessEqualWithDimensionAndResourcesName(a.deserved, req, nullptr);
    }

    Session* s_ = nullptr;
    std::vector<QueueAttr> attrs_;
    std::map<uint32_t, VResource> simDelta_; // queue -> change made by the current preemption dry run
};

} // namespace

PluginDescriptor proportionPlugin() {
    PluginTraits t;
    // It looks only at the jobs it is asked about (or at the settled jobs' totals).
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    return {"proportion", [](const PluginOption& option) { return std::make_unique<Proportion>(option); },
            std::move(t)};
}

} // namespace gantry::engine::plugins
