// drf: dominant resource fairness. A job's share is its largest allocated/total ratio over the
// cluster's resources; jobs with smaller shares go first, and a task may preempt another only when
// that leaves the victim's job with a share no smaller than the preemptor's. With enableHierarchy
// the queues' volcano.sh/hierarchy paths form a tree whose weighted shares order queues and decide
// reclaims (hierarchical DRF).
#include "model/go_text.h"
#include "profiles/volcano/framework/settled_jobs.h"
#include "profiles/volcano/plugins/plugins.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace gantry::engine::plugins {

namespace {

constexpr double kShareDelta = 0.000001;

struct Attr {
    double share = 0;
    VResource allocated;
};

// A node of the hierarchy: a queue path component, or a job's leaf. A leaf belongs to one of four
// classes by its saturation and share, kept in its parent as it changes: saturated with a share
// (its integer allocation is summed in satSum), unsaturated without one (counted in emptyLeaves),
// unsaturated with one (listed in ordered), saturated without one (nothing). An inner node's
// share and saturation are worked out from those and its subqueues (also in ordered) only when
// asked after a change below it (dirty), so a change costs the path above it and a comparison
// costs the lists of the nodes that differ, not a walk of every job.
struct HNode {
    static constexpr uint32_t kNone = UINT32_MAX;
    uint32_t parent = kNone;
    const std::string* key = nullptr; // path component, or the job's key
    double weight = 1;
    Attr attr;
    VResource request; // leaves
    bool leaf = false, saturated = false, dirty = true;
    bool partial = false;    // leaf: its saturation depends on the demanding dimensions
    int32_t partialPos = -1; // leaf: its place in Drf::partial_
    // inner nodes:
    std::vector<int64_t> satSum;
    int32_t emptyLeaves = 0;
    std::vector<uint32_t> ordered;
};

// Every piece between separators: "a/" gives "a" and "", "" gives one empty piece.
std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    size_t from = 0;
    for (size_t at; (at = s.find(sep, from)) != std::string::npos; from = at + 1)
        out.emplace_back(s, from, at - from);
    out.emplace_back(s, from);
    return out;
}

class Drf : public Plugin {
  public:
    explicit Drf(const PluginOption&) {}

    void onSessionOpen(Session& ssn) override {
        s_ = &ssn;
        total_ = ssn.totalResource;
        totalNames_ = total_.resourceNames();
        hierarchy_ = ssn.hierarchyEnabled("drf");
        attrs_.assign(ssn.sessionJobs.size(), Attr{});
        totalAllocated_.assign(size_t(ssn.state.D()), 0);
        maxShare_.assign(ssn.state.queues.size(), 0);
        for (uint32_t j : ssn.sessionJobs) {
            auto& a = attr(j);
            a.allocated = ssn.jobAllocated(j);
            updateShare(a);
            if (hierarchy_) addTo(totalAllocated_, a.allocated, 1);
            raiseMaxShare(j, a);
        }
        if (hierarchy_) {
            buildSkeleton();
            if (ssn.settled()) addLeftOut(*ssn.settled());
            demanding_ = demandingOf(totalAllocated_);
            partial_.clear();
            leaves_.assign(ssn.sessionJobs.size(), HNode::kNone);
            for (uint32_t j : ssn.sessionJobs) setLeaf(j, attr(j));
        }

        auto& self = ssn.self();
        self.preemptable = [this](uint32_t preemptor, const std::vector<uint32_t>& preemptees, int* vote) {
            *vote = 1;
            std::vector<uint32_t> victims;
            const uint32_t pj = s_->jobOf(preemptor);
            if (pj == UINT32_MAX || !s_->inSession(pj)) return victims;
            VResource lalloc = attr(pj).allocated;
            lalloc.add(s_->taskRes(preemptor));
            const double ls = calculateShare(lalloc);
            std::map<uint32_t, VResource> allocations;
            for (uint32_t t : preemptees) {
                const uint32_t j = s_->jobOf(t);
                if (j == UINT32_MAX || !s_->inSession(j)) continue;
                auto it = allocations.find(j);
                if (it == allocations.end()) it = allocations.emplace(j, attr(j).allocated).first;
                it->second.sub(s_->taskRes(t));
                const double rs = calculateShare(it->second);
                if (ls < rs || std::fabs(ls - rs) <= kShareDelta) victims.push_back(t);
            }
            return victims;
        };
        // A pod is a victim only if its job keeps a share no smaller than the preemptor's job with
        // it added; without the pod the job's share is at most its share now, so no job of the queue
        // (or the preemptor's own, with sameJob) with a share that large means no victim.
        self.preemptsFor = [this](uint32_t preemptor, bool sameJob) {
            const uint32_t pj = s_->jobOf(preemptor);
            if (pj == UINT32_MAX || !s_->inSession(pj)) return false;
            VResource lalloc = attr(pj).allocated;
            lalloc.add(s_->taskRes(preemptor));
            const double ls = calculateShare(lalloc);
            if (sameJob) return attr(pj).share >= ls - kShareDelta;
            const uint32_t q = s_->queueOf(pj);
            if (q >= maxShare_.size()) return true;
            double most = maxShare_[q];
            // The settled jobs left out of the session may be victims too (attr reads them).
            if (const SettledJobs* settled = s_->settled()) {
                if (!settled->keepsVictimIndexes()) return true;
                for (int d : totalNames_)
                    most = std::max(most, share(settled->mostSettledHeld(q, d), total_.get(d)));
            }
            return most >= ls - kShareDelta;
        };
        self.preemptsForGrows = true;
        if (hierarchy_) {
            self.queueOrder = [this](uint32_t l, uint32_t r) {
                endTrial();
                double ret = compareQueues(l, r);
                if (ret < 0) return -1;
                if (ret > 0) return 1;
                return 0;
            };
            self.reclaimable = [this](uint32_t reclaimer, const std::vector<uint32_t>& reclaimees,
                                      int* vote) {
                *vote = 1;
                return reclaim(reclaimer, reclaimees);
            };
            self.reclaimsTask = [this](uint32_t reclaimer, uint32_t t) { return verdict(reclaimer, t); };
            memo_ = ssn.options.useNodeIndex; // reference sessions work every verdict out
            if (memo_) {
                indexVictims();
                self.reclaimsFromFor = [this](uint32_t reclaimer, uint32_t q) {
                    return reclaimsFromQueue(reclaimer, q);
                };
            }
        }
        self.jobOrder = [this](uint32_t l, uint32_t r) {
            const double ls = attr(l).share, rs = attr(r).share;
            if (ls == rs) return 0;
            return ls < rs ? -1 : 1;
        };
        ssn.addEventHandler(
            [this](uint32_t t) {
                endTrial();
                ++generation_;
                const uint32_t j = s_->jobOf(t);
                if (j == UINT32_MAX || !s_->inSession(j)) return;
                touch(j);
                auto& a = attr(j);
                a.allocated.add(s_->taskRes(t));
                updateShare(a);
                raiseMaxShare(j, a);
                if (hierarchy_) {
                    addTo(totalAllocated_, s_->taskRes(t), 1);
                    setDemanding(totalAllocated_);
                    setLeaf(j, a);
                }
            },
            [this](uint32_t t) {
                endTrial();
                ++generation_;
                const uint32_t j = s_->jobOf(t);
                if (j == UINT32_MAX || !s_->inSession(j)) return;
                touch(j);
                auto& a = attr(j);
                a.allocated.sub(s_->taskRes(t));
                updateShare(a);
                if (hierarchy_) {
                    addTo(totalAllocated_, s_->taskRes(t), -1);
                    setDemanding(totalAllocated_);
                    setLeaf(j, a);
                }
            });
    }

  private:
    double calculateShare(const VResource& allocated, std::string* dominant = nullptr) const {
        double res = 0;
        for (int d : totalNames_) {
            double sh = share(allocated.get(d), total_.get(d));
            if (sh > res) {
                res = sh;
                if (dominant) *dominant = std::to_string(d);
            }
        }
        return res;
    }
    void updateShare(Attr& a) const { a.share = calculateShare(a.allocated); }

    // Whether a job's leaf is saturated: some resource it asks for is fully given, or it asks for
    // one the cluster has no more of (demanding: the dimensions still short of the total).
    static bool resourceSaturated(const VResource& allocated, const VResource& request, uint64_t demanding) {
        int names[kMaxDims];
        const int n = allocated.resourceNames(names);
        for (int i = 0; i < n; ++i) {
            const int d = names[i];
            if (allocated.get(d) != 0 && request.get(d) != 0 && allocated.get(d) >= request.get(d))
                return true;
            if (!((demanding >> d) & 1u) && request.get(d) != 0) return true;
        }
        return false;
    }
    // Whether that answer depends on the demanding dimensions: nothing it asks for is fully given,
    // but it holds some of a resource it asks for.
    static bool saturationVaries(const VResource& allocated, const VResource& request) {
        bool varies = false;
        int names[kMaxDims];
        const int n = allocated.resourceNames(names);
        for (int i = 0; i < n; ++i) {
            const int d = names[i];
            if (allocated.get(d) != 0 && request.get(d) != 0 && allocated.get(d) >= request.get(d))
                return false;
            if (request.get(d) != 0) varies = true;
        }
        return varies;
    }

    // Allocations are integers (shape rows), summed exactly whatever the order.
    void addTo(std::vector<int64_t>& sum, const VResource& r, int sign) const {
        for (size_t d = 0; d < sum.size(); ++d) sum[d] += sign * std::llround(r.get(int(d)));
    }
    uint64_t demandingOf(const std::vector<int64_t>& totalAllocated) const {
        uint64_t demanding = 0;
        for (int d : totalNames_)
            if (double(totalAllocated[size_t(d)]) < total_.get(d)) demanding |= uint64_t(1) << d;
        return demanding;
    }
    // The demanding dimensions as of totalAllocated: only the leaves whose saturation varies with
    // them may change class.
    void setDemanding(const std::vector<int64_t>& totalAllocated) {
        const uint64_t demanding = demandingOf(totalAllocated);
        if (demanding == demanding_) return;
        demanding_ = demanding;
        for (uint32_t n : partial_) {
            HNode& leaf = nodes_[n];
            const bool saturated = resourceSaturated(leaf.attr.allocated, leaf.request, demanding_);
            if (saturated == leaf.saturated) continue;
            detach(n);
            leaf.saturated = saturated;
            attach(n);
            markDirty(leaf.parent);
        }
    }

    // The tree's inner nodes, from every queue's path in queue order (a prefix takes its weight from
    // the first queue naming it), so a queue's node exists whichever of its jobs the session holds.
    void buildSkeleton() {
        const int dims = s_->state.D();
        nodes_.clear();
        paths_.clear();
        pathNodes_.clear();
        paths_.reserve(s_->state.queues.size());
        auto inner = [&](uint32_t parent, const std::string* key, double weight) {
            HNode n;
            n.parent = parent;
            n.key = key;
            n.weight = weight;
            n.attr.allocated = VResource(dims);
            n.satSum.assign(size_t(dims), 0);
            nodes_.push_back(std::move(n));
            const uint32_t id = uint32_t(nodes_.size() - 1);
            if (parent != HNode::kNone) insertOrdered(parent, id);
            return id;
        };
        inner(HNode::kNone, nullptr, 1);
        std::map<std::pair<uint32_t, std::string_view>, uint32_t> children;
        for (const auto& q : s_->state.queues) {
            const auto& path = paths_.emplace_back(split(q.hierarchy, '/'));
            std::vector<uint32_t>& nodes = pathNodes_.emplace_back(1, 0u);
            std::vector<std::string> ws;
            for (size_t i = 1; i < path.size(); ++i) {
                auto [it, added] = children.try_emplace({nodes.back(), path[i]}, 0u);
                if (added) {
                    if (ws.empty()) ws = split(q.hierarchyWeights, '/');
                    double w = i < ws.size() ? parseGoFloat(ws[i]).value_or(0) : 0;
                    if (w < 1) w = 1;
                    it->second = inner(nodes.back(), &path[i], w);
                }
                nodes.push_back(it->second);
            }
        }
    }

    // The settled jobs the session left out, as their leaves would be: a settled
    // job's pods are all placed (allocated = request), so its leaf is saturated with a share and
    // adds its allocation, or holds nothing and is empty (or, holding only resources the cluster
    // lacks, adds nothing to any share: its part of the integer sum is in dimensions no share
    // reads). Their integer sums go in first, as the leaves' would, so the bits are those of a
    // session holding every job. (No parked job is left out: couplesQueues.)
    void addLeftOut(const SettledJobs& settled) {
        for (uint32_t q = 0; q < pathNodes_.size(); ++q) {
            const SettledJobs::QueueTotals& out = settled.leftOut(q);
            if (out.jobs == 0) continue;
            HNode& node = nodes_[pathNodes_[q].back()];
            const auto& value = out.allocated.value;
            for (size_t d = 0; d < value.size() && d < node.satSum.size(); ++d) {
                node.satSum[d] += value[d];
                totalAllocated_[d] += value[d];
            }
            node.emptyLeaves += out.emptyJobs;
        }
    }

    // A settled job's leaf, made when the session first changes it (reclaim's trial, an eviction)
    // with what the job held as it settled: its part is already in its queue node's sums, so the
    // node is as in a session that held the leaf all along, and changes go through the leaf.
    uint32_t& leafId(uint32_t job) {
        if (s_->listed(job)) return leaves_[s_->sessionSlot(job)];
        auto [it, added] = settledLeaves_.try_emplace(job, HNode::kNone);
        if (added) {
            it->second = addLeaf(job);
            HNode& leaf = nodes_[it->second];
            leaf.attr.allocated = s_->settled()->allocated(job);
            updateShare(leaf.attr);
            leaf.saturated = resourceSaturated(leaf.attr.allocated, leaf.request, demanding_);
        }
        return it->second;
    }

    // Gives the job's leaf these attributes (upstream rebuilds the leaf), creating it under its
    // queue's node when new, moves it to the class they put it in, and marks the path above it for
    // working out again.
    void setLeaf(uint32_t job, const Attr& attr) {
        uint32_t& id = leafId(job);
        if (id == HNode::kNone)
            id = addLeaf(job);
        else
            detach(id);
        HNode& leaf = nodes_[id];
        leaf.attr = attr;
        leaf.saturated = resourceSaturated(leaf.attr.allocated, leaf.request, demanding_);
        setPartial(id, saturationVaries(leaf.attr.allocated, leaf.request));
        attach(id);
        markDirty(leaf.parent);
    }

    uint32_t addLeaf(uint32_t job) {
        HNode leaf;
        leaf.leaf = true;
        leaf.dirty = false;
        leaf.parent = pathNodes_[s_->queueOf(job)].back();
        leaf.key = &s_->state.jobs[job].key; // a key has a '/', a path component none
        leaf.request = VResource(s_->state.D());
        for (uint32_t t : s_->state.jobs[job].tasks) leaf.request.add(s_->taskRes(t));
        nodes_.push_back(std::move(leaf));
        return uint32_t(nodes_.size() - 1);
    }

    void setPartial(uint32_t id, bool partial) {
        HNode& leaf = nodes_[id];
        if (leaf.partial == partial) return;
        leaf.partial = partial;
        if (partial) {
            leaf.partialPos = int32_t(partial_.size());
            partial_.push_back(id);
            return;
        }
        const uint32_t last = partial_.back();
        partial_[size_t(leaf.partialPos)] = last;
        nodes_[last].partialPos = leaf.partialPos;
        partial_.pop_back();
        leaf.partialPos = -1;
    }

    // The order of a node's listed children: subqueues by path component, then leaves by what they
    // hold (then by key), so that leaves holding the same add up the same whichever jobs they are
    // (verdict's memo by content relies on it).
    bool orderedLess(uint32_t a, uint32_t b) const {
        const HNode& x = nodes_[a];
        const HNode& y = nodes_[b];
        if (x.leaf != y.leaf) return !x.leaf;
        if (x.leaf)
            for (int d = 0; d < s_->state.D(); ++d) {
                const double vx = x.attr.allocated.get(d), vy = y.attr.allocated.get(d);
                if (vx != vy) return vx < vy;
            }
        return *x.key < *y.key;
    }
    void insertOrdered(uint32_t parent, uint32_t id) {
        auto& ordered = nodes_[parent].ordered;
        ordered.insert(std::lower_bound(ordered.begin(), ordered.end(), id,
                                        [&](uint32_t c, uint32_t v) { return orderedLess(c, v); }),
                       id);
    }
    // Before the leaf's attributes change: it sits where they put it.
    void eraseOrdered(uint32_t parent, uint32_t id) {
        auto& ordered = nodes_[parent].ordered;
        ordered.erase(std::lower_bound(ordered.begin(), ordered.end(), id,
                                       [&](uint32_t c, uint32_t v) { return orderedLess(c, v); }));
    }

    // Adds (attach) or takes back (detach) a leaf's part in its parent, by its class.
    void attach(uint32_t id) {
        const HNode& leaf = nodes_[id];
        HNode& parent = nodes_[leaf.parent];
        if (leaf.attr.share != 0 && leaf.saturated)
            addTo(parent.satSum, leaf.attr.allocated, 1);
        else if (leaf.attr.share == 0 && !leaf.saturated)
            ++parent.emptyLeaves;
        else if (leaf.attr.share != 0)
            insertOrdered(leaf.parent, id);
    }
    void detach(uint32_t id) {
        const HNode& leaf = nodes_[id];
        HNode& parent = nodes_[leaf.parent];
        if (leaf.attr.share != 0 && leaf.saturated)
            addTo(parent.satSum, leaf.attr.allocated, -1);
        else if (leaf.attr.share == 0 && !leaf.saturated)
            --parent.emptyLeaves;
        else if (leaf.attr.share != 0)
            eraseOrdered(leaf.parent, id);
    }

    // An inner node is dirty only with its ancestors (working one out works out its subqueues).
    void markDirty(uint32_t id) {
        for (; id != HNode::kNone && !nodes_[id].dirty; id = nodes_[id].parent) nodes_[id].dirty = true;
    }

    // Works out the node's share and saturation from its children, as upstream's recursive update
    // does for the whole tree. Upstream adds the children in Go's map order (random); here the
    // saturated leaves' exact integer sum comes first, then the listed children (orderedLess),
    // whichever way the session holds the jobs.
    void evaluate(uint32_t id) {
        if (nodes_[id].leaf || !nodes_[id].dirty) return;
        double mdr = 1;
        for (uint32_t c : nodes_[id].ordered) {
            evaluate(c);
            const HNode& child = nodes_[c];
            if (child.attr.share != 0 && !child.saturated && child.attr.share < mdr) mdr = child.attr.share;
        }
        HNode& node = nodes_[id];
        node.dirty = false;
        VResource& sum = node.attr.allocated;
        sum = VResource(s_->state.D());
        for (size_t d = 0; d < node.satSum.size(); ++d)
            if (node.satSum[d] != 0) sum.set(int(d), double(node.satSum[d]));
        bool saturated = node.emptyLeaves == 0;
        for (uint32_t c : node.ordered) {
            const HNode& child = nodes_[c];
            if (!child.saturated) saturated = false;
            if (child.attr.share == 0) continue;
            if (child.saturated) {
                sum.add(child.attr.allocated);
            } else {
                scaled_ = child.attr.allocated;
                scaled_.multi(mdr / child.attr.share);
                sum.add(scaled_);
            }
        }
        node.attr.share = calculateShare(sum);
        node.saturated = saturated;
    }

    double compareQueues(uint32_t lq, uint32_t rq) {
        const auto& lp = pathNodes_[lq];
        const auto& rp = pathNodes_[rq];
        uint32_t l = lp[0], r = rp[0];
        const size_t depth = std::min(lp.size(), rp.size());
        for (size_t i = 0; i < depth; ++i) {
            // A node compared with itself needs no working out: its share is finite, so with a
            // finite weight it equals itself whatever it is.
            if (l != r || !std::isfinite(nodes_[l].weight)) {
                evaluate(l);
                evaluate(r);
            }
            const HNode& ln = nodes_[l];
            const HNode& rn = nodes_[r];
            if (!ln.saturated && rn.saturated) return -1;
            if (ln.saturated && !rn.saturated) return 1;
            if (ln.attr.share / ln.weight == rn.attr.share / rn.weight) {
                if (i < depth - 1) {
                    l = lp[i + 1];
                    r = rp[i + 1];
                }
            } else {
                return ln.attr.share / ln.weight - rn.attr.share / rn.weight;
            }
        }
        return 0;
    }

    // Upstream works on a copy of the tree; this changes the leaves in place and puts them back.
    // Each reclaimee's verdict is worked out on the tree as it stands with the reclaimer's pod
    // placed, and the tree is put back after each, so the verdicts do not depend on one another.
    std::vector<uint32_t> reclaim(uint32_t reclaimer, const std::vector<uint32_t>& reclaimees) {
        std::vector<uint32_t> victims;
        const uint32_t lj = s_->jobOf(reclaimer);
        if (lj == UINT32_MAX || !s_->inSession(lj)) return victims;
        for (uint32_t t : reclaimees)
            if (verdict(reclaimer, t)) victims.push_back(t);
        return victims;
    }

    // Whether reclaim names reclaimee t a victim of reclaimer: the reclaimer's queue, with its pod
    // placed, still compares below t's queue with t's pod gone. A function of the allocations
    // (generation_ counts their changes), the reclaimer's queue, shape and what its job holds and
    // asks, and the same of t: kept for those until a pod is allocated or deallocated.
    bool verdict(uint32_t reclaimer, uint32_t t) {
        const uint32_t lj = s_->jobOf(reclaimer), rj = s_->jobOf(t);
        if (lj == UINT32_MAX || !s_->inSession(lj) || rj == UINT32_MAX || !s_->inSession(rj)) return false;
        if (!memo_) return workOutVerdict(reclaimer, t);
        beginVerdicts(reclaimer);
        const uint32_t victimShape = s_->state.tasks[t].shape;
        if (verdictStamp_.size() < s_->state.jobs.size()) {
            verdictStamp_.resize(s_->state.jobs.size(), 0);
            verdictTaskShape_.resize(s_->state.jobs.size(), 0);
            verdictValue_.resize(s_->state.jobs.size(), 0);
        }
        if (verdictStamp_[rj] == verdictEpoch_ && verdictTaskShape_[rj] == victimShape)
            return verdictValue_[rj] != 0;
        // Jobs of one queue holding and asking the same leave the tree the same without this pod
        // (the leaves' order is by what they hold), so they get the same verdict.
        contentOf(rj, victimShape, content_);
        auto [it, added] = byContent_.try_emplace(content_, uint8_t(0));
        if (added) it->second = uint8_t(!surelyNot(reclaimer, t) && workOutVerdict(reclaimer, t));
        verdictStamp_[rj] = verdictEpoch_;
        verdictTaskShape_[rj] = victimShape;
        verdictValue_[rj] = it->second;
        return it->second != 0;
    }

    // What the verdicts read of a job, with one pod's shape: its queue, the shape, and what the job
    // holds and asks by dimension.
    void contentOf(uint32_t job, uint32_t shape, std::vector<int64_t>& out) {
        out.clear();
        out.push_back(s_->queueOf(job));
        out.push_back(shape);
        const VResource& held = attr(job).allocated;
        const VResource& asked = requestOf(job);
        for (int d = 0; d < s_->state.D(); ++d) {
            out.push_back(std::llround(held.get(d)));
            out.push_back(std::llround(asked.get(d)));
        }
    }

    // Starts the verdicts of this reclaimer unless they are those already kept: same generation,
    // and a reclaimer of the same content (the tree with its pod placed is then the same: its
    // leaf sits among equal ones, which add up the same).
    void beginVerdicts(uint32_t reclaimer) {
        const uint32_t lj = s_->jobOf(reclaimer), shape = s_->state.tasks[reclaimer].shape;
        if (verdictJob_ == lj && verdictShape_ == shape && verdictGeneration_ == generation_) return;
        contentOf(lj, shape, reclaimerScratch_);
        verdictJob_ = lj;
        verdictShape_ = shape;
        if (verdictGeneration_ == generation_ && reclaimerScratch_ == reclaimerContent_) return;
        ++verdictEpoch_;
        byContent_.clear();
        verdictGeneration_ = generation_;
        reclaimerContent_.swap(reclaimerScratch_);
    }

    // The running pods reclaim may ask about, by queue, without walking the cluster: the listed jobs
    // with a running pod as the session opens (a pod only leaves Running in a session), and the
    // settled jobs left out, by content (SettledJobs::contentGroups), but those the session changed
    // (touch), which are asked about one by one.
    void indexVictims() {
        s_->keepSettledContents();
        runningByQueue_.assign(s_->state.queues.size(), {});
        touchedByQueue_.assign(s_->state.queues.size(), {});
        touched_.clear();
        for (uint32_t j : s_->sessionJobs)
            if (s_->state.jobs[j].statusCount[int(TaskStatus::Running)] > 0)
                runningByQueue_[s_->queueOf(j)].push_back(j);
    }
    void touch(uint32_t job) {
        if (!memo_ || s_->listed(job) || !touched_.insert(job).second) return;
        touchedByQueue_[s_->queueOf(job)].push_back(job);
    }

    // Whether some running pod of queue q may be named a victim of reclaimer now (reclaimsFromFor):
    // the verdicts of q's pods, asked once per job and shape, once per content group of the
    // settled jobs. Kept with the verdicts.
    bool reclaimsFromQueue(uint32_t reclaimer, uint32_t q) {
        const uint32_t lj = s_->jobOf(reclaimer);
        if (lj == UINT32_MAX || !s_->inSession(lj)) return false;
        beginVerdicts(reclaimer);
        if (queueStamp_.size() < s_->state.queues.size()) {
            queueStamp_.resize(s_->state.queues.size(), 0);
            queueValue_.resize(s_->state.queues.size(), 0);
        }
        if (queueStamp_[q] != verdictEpoch_) {
            queueValue_[q] = anyVerdict(reclaimer, q);
            queueStamp_[q] = verdictEpoch_;
        }
        return queueValue_[q] != 0;
    }
    bool anyVerdict(uint32_t reclaimer, uint32_t q) {
        const auto& st = s_->state;
        auto anyRunning = [&](uint32_t j) {
            for (uint32_t t : st.jobs[j].tasks)
                if (st.tasks[t].status == TaskStatus::Running && st.tasks[t].preemptable &&
                    verdict(reclaimer, t))
                    return true;
            return false;
        };
        for (uint32_t j : runningByQueue_[q])
            if (anyRunning(j)) return true;
        for (uint32_t j : touchedByQueue_[q])
            if (anyRunning(j)) return true;
        const SettledJobs* settled = s_->settled();
        if (!settled) return false;
        for (uint32_t g : settled->contentGroups(q)) {
            const auto& group = settled->contentGroup(g);
            uint32_t rep = UINT32_MAX;
            for (uint32_t j : group.jobs)
                if (!touched_.count(j)) {
                    rep = j;
                    break;
                }
            if (rep == UINT32_MAX) continue;
            // A pod of each shape (ascending in group.shapes), whatever its status: asking about one
            // that is not a reclaimee only widens the bound.
            uint32_t last = UINT32_MAX;
            for (uint32_t shape : group.shapes) {
                if (shape == last) continue;
                last = shape;
                for (uint32_t t : st.jobs[rep].tasks)
                    if (st.tasks[t].shape == shape) {
                        if (verdict(reclaimer, t)) return true;
                        break;
                    }
            }
        }
        return false;
    }

    // What the job's leaf asks for: every pod's request (a settled job's, as it settled).
    const VResource& requestOf(uint32_t job) {
        if (s_->listed(job)) return nodes_[leaves_[s_->sessionSlot(job)]].request;
        if (auto it = settledLeaves_.find(job); it != settledLeaves_.end()) return nodes_[it->second].request;
        return s_->settled()->allocated(job);
    }

    // Whether the verdict is no, decided without working it out: where the two paths part, the
    // reclaimer's side (the trial) compares above anything the reclaimee's side can be. That side
    // is unsaturated once the reclaimee's leaf is (a node is saturated only when all below it are),
    // and its share is at most that of everything its leaves hold unscaled (rawShare). Only when the
    // pod leaving does not change the demanding dimensions: the trial's side is then as the
    // verdict would find it.
    bool surelyNot(uint32_t reclaimer, uint32_t t) {
        beginTrial(reclaimer);
        const uint32_t rj = s_->jobOf(t);
        const auto& lp = pathNodes_[s_->queueOf(trialJob_)];
        const auto& rp = pathNodes_[s_->queueOf(rj)];
        const size_t depth = std::min(lp.size(), rp.size());
        size_t i = 0;
        for (; i < depth && lp[i] == rp[i]; ++i)
            if (!std::isfinite(nodes_[lp[i]].weight)) return false;
        if (i == depth) return false;
        totalScratch_ = trialTotal_;
        addTo(totalScratch_, s_->taskRes(t), -1);
        const uint64_t demanding = demandingOf(totalScratch_);
        if (demanding != demandingOf(trialTotal_)) return false;
        held_ = attr(rj).allocated;
        held_.sub(s_->taskRes(t));
        if (resourceSaturated(held_, requestOf(rj), demanding)) return false;
        setDemanding(trialTotal_);
        evaluate(lp[i]);
        const HNode& ours = nodes_[lp[i]];
        if (ours.saturated) return true;
        const HNode& theirs = nodes_[rp[i]];
        return ours.attr.share / ours.weight > rawShare(rp[i]) / theirs.weight;
    }
    // The share of everything the node's leaves hold, unscaled: no smaller than the node's share
    // however its leaves change by a pod leaving (scaling only lowers a leaf's part, and sums of
    // smaller parts are smaller, rounding included). Kept for the epoch.
    double rawShare(uint32_t id) {
        if (rawStamp_.size() < nodes_.size()) {
            rawStamp_.resize(nodes_.size(), 0);
            rawValue_.resize(nodes_.size(), 0);
        }
        if (rawStamp_[id] != verdictEpoch_) {
            raw_.assign(size_t(s_->state.D()), 0);
            addRaw(id);
            rawSum_ = VResource(s_->state.D());
            for (size_t d = 0; d < raw_.size(); ++d)
                if (raw_[d] != 0) rawSum_.set(int(d), double(raw_[d]));
            rawValue_[id] = calculateShare(rawSum_);
            rawStamp_[id] = verdictEpoch_;
        }
        return rawValue_[id];
    }
    void addRaw(uint32_t id) {
        const HNode& node = nodes_[id];
        for (size_t d = 0; d < node.satSum.size(); ++d) raw_[d] += node.satSum[d];
        for (uint32_t c : node.ordered) {
            if (!nodes_[c].leaf) {
                addRaw(c);
                continue;
            }
            for (size_t d = 0; d < raw_.size(); ++d)
                raw_[d] += std::llround(nodes_[c].attr.allocated.get(int(d)));
        }
    }

    // A reference session places both pods and puts both back for every verdict. A memo session
    // keeps the reclaimer's pod placed across the verdicts of an epoch (a trial, for any reclaimer
    // of the epoch's content) and puts back only the reclaimee's, until something else reads or
    // changes the tree (endTrial). The tree is a function of the leaves' attributes and the
    // demanding dimensions whatever order they were set in, so the answers are the same.
    bool workOutVerdict(uint32_t reclaimer, uint32_t t) {
        const uint32_t lj = s_->jobOf(reclaimer), rj = s_->jobOf(t);
        if (memo_) {
            beginTrial(reclaimer);
            totalScratch_ = trialTotal_;
        } else {
            totalScratch_ = totalAllocated_;
            Attr lattr;
            lattr.allocated = attr(lj).allocated;
            lattr.allocated.add(s_->taskRes(reclaimer));
            addTo(totalScratch_, s_->taskRes(reclaimer), 1);
            updateShare(lattr);
            setLeaf(lj, lattr);
        }
        addTo(totalScratch_, s_->taskRes(t), -1);
        Attr rattr;
        rattr.allocated = attr(rj).allocated;
        rattr.allocated.sub(s_->taskRes(t));
        updateShare(rattr);
        setDemanding(totalScratch_);
        setLeaf(rj, rattr);
        const double ret = compareQueues(s_->queueOf(lj), s_->queueOf(rj));
        setLeaf(rj, attr(rj));
        if (!memo_) {
            setDemanding(totalAllocated_);
            setLeaf(lj, attr(lj));
        }
        return ret < 0;
    }
    void beginTrial(uint32_t reclaimer) {
        if (trialJob_ != HNode::kNone && trialEpoch_ == verdictEpoch_) return;
        endTrial();
        trialJob_ = s_->jobOf(reclaimer);
        trialEpoch_ = verdictEpoch_;
        trialTotal_ = totalAllocated_;
        addTo(trialTotal_, s_->taskRes(reclaimer), 1);
        Attr lattr;
        lattr.allocated = attr(trialJob_).allocated;
        lattr.allocated.add(s_->taskRes(reclaimer));
        updateShare(lattr);
        setLeaf(trialJob_, lattr);
    }
    void endTrial() {
        if (trialJob_ == HNode::kNone) return;
        setDemanding(totalAllocated_);
        setLeaf(trialJob_, attr(trialJob_));
        trialJob_ = HNode::kNone;
    }

    Session* s_ = nullptr;
    VResource total_;
    std::vector<int> totalNames_;
    bool hierarchy_ = false;
    std::vector<Attr> attrs_; // by position in sessionJobs
    // By queue: no job of it has had a larger share in this session (a job's share falling leaves
    // it as it was: a bound, not the maximum).
    std::vector<double> maxShare_;
    void raiseMaxShare(uint32_t j, const Attr& a) {
        const uint32_t q = s_->queueOf(j);
        if (q < maxShare_.size()) maxShare_[q] = std::max(maxShare_[q], a.share);
    }
    // Settled jobs the session left out, asked about as victims: their attributes as the session
    // opened (every pod placed), made at the first question and then kept up to date like the
    // others (the first may come from an eviction, after the pod left).
    std::unordered_map<uint32_t, Attr> leftOut_;
    Attr& attr(uint32_t job) {
        if (s_->listed(job)) return attrs_[s_->sessionSlot(job)];
        auto [it, added] = leftOut_.try_emplace(job);
        if (added) {
            it->second.allocated = s_->settled()->allocated(job);
            updateShare(it->second);
        }
        return it->second;
    }
    std::vector<int64_t> totalAllocated_, totalScratch_; // over the session's jobs
    // workOutVerdict's trial: the reclaimer job whose pod is placed (kNone: none), for which epoch,
    // and totalAllocated_ with the pod.
    uint32_t trialJob_ = HNode::kNone, trialEpoch_ = 0;
    std::vector<int64_t> trialTotal_;
    VResource held_, rawSum_;        // surelyNot's scratch
    std::vector<int64_t> raw_;       // rawShare's scratch
    std::vector<uint32_t> rawStamp_; // rawShare, by node: the epoch it was worked out for
    std::vector<double> rawValue_;
    std::vector<HNode> nodes_;     // the root first, then the queues' paths, then leaves
    std::vector<uint32_t> leaves_; // by position in sessionJobs
    std::unordered_map<uint32_t, uint32_t> settledLeaves_; // settled jobs left out: leafId
    std::vector<uint32_t> partial_;                        // leaves whose saturation varies with demanding_
    std::vector<std::vector<std::string>> paths_;          // by queue: its hierarchy, split
    std::vector<std::vector<uint32_t>> pathNodes_;         // by queue: the nodes of its path, root first
    uint64_t demanding_ = 0;
    VResource scaled_;
    // verdict's memo, for one reclaimer job and shape and generation (verdictEpoch_ counts them):
    // by reclaimee job, the last shape asked about and its verdict, stamped with the epoch.
    bool memo_ = false;
    uint64_t generation_ = 0, verdictGeneration_ = UINT64_MAX;
    uint32_t verdictJob_ = UINT32_MAX, verdictShape_ = UINT32_MAX;
    uint32_t verdictEpoch_ = 0;
    std::vector<uint32_t> verdictStamp_, verdictTaskShape_;
    std::vector<uint8_t> verdictValue_;
    std::map<std::vector<int64_t>, uint8_t> byContent_; // contentOf the reclaimee
    std::vector<int64_t> content_, reclaimerContent_, reclaimerScratch_;
    std::vector<uint32_t> queueStamp_; // reclaimsFromQueue, by queue: the epoch answered
    std::vector<uint8_t> queueValue_;
    std::vector<std::vector<uint32_t>> runningByQueue_, touchedByQueue_; // indexVictims, touch
    std::unordered_set<uint32_t> touched_; // settled jobs left out that the session changed
};

} // namespace

PluginDescriptor drfPlugin() {
    PluginTraits t;
    // Without hierarchy it looks only at the jobs it is asked about (a settled job asked about as a
    // victim gets its share from the state). The hierarchical shares read the settled jobs left
    // out through their exact per-queue totals (Drf::addLeftOut); parked jobs stay in
    // (couplesQueues).
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    // A queue's hierarchical share moves with its siblings' allocations (their parent's share).
    t.couplesQueues = [](const PluginOption& o) { return o.enabled("enableHierarchy"); };
    return {"drf", [](const PluginOption& option) { return std::make_unique<Drf>(option); }, std::move(t)};
}

} // namespace gantry::engine::plugins
