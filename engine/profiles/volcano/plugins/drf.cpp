// drf: dominant resource fairness. A job's share is its largest allocated/total ratio over the
// cluster's resources; jobs with smaller shares go first, and a task may preempt another only when
// that leaves the victim's job with a share no smaller than the preemptor's. With enableHierarchy
// the queues' volcano.sh/hierarchy paths form a tree whose weighted shares order queues and decide
// reclaims (hierarchical DRF).
#include "model/go_text.h"
#include "profiles/volcano/plugins/plugins.h"

#include <cmath>
#include <map>
#include <sstream>
#include <unordered_map>

namespace gantry::engine::plugins {

namespace {

constexpr double kShareDelta = 0.000001;

struct Attr {
    double share = 0;
    VResource allocated;
};

// A node of the hierarchy: a queue path component, or a job's leaf. Its share and saturation are
// worked out from its children only when asked (dirty: some leaf below changed; epoch: the
// demanding dimensions it was worked out with), so a change costs the path above it and a
// comparison costs the subtrees that differ, not a walk of every job.
struct HNode {
    HNode* parent = nullptr;
    Attr attr;
    VResource request;
    double weight = 1;
    bool saturated = false;
    bool leaf = false;
    bool dirty = true;
    uint64_t epoch = 0;
    std::map<std::string, std::unique_ptr<HNode>> children;
};

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    std::stringstream in(s);
    while (std::getline(in, cur, sep)) out.push_back(cur);
    if (!s.empty() && s.back() == sep) out.emplace_back();
    if (s.empty()) out.emplace_back();
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
        totalAllocated_ = VResource(ssn.state.D());
        root_ = std::make_unique<HNode>();
        root_->attr.allocated = VResource(ssn.state.D());
        root_->request = VResource(ssn.state.D());
        leaves_.assign(hierarchy_ ? ssn.sessionJobs.size() : 0, nullptr);
        paths_.clear();
        if (hierarchy_)
            for (const auto& q : ssn.state.queues) paths_.push_back(split(q.hierarchy, '/'));
        for (uint32_t j : ssn.sessionJobs) {
            auto& a = attr(j);
            a.allocated = ssn.jobAllocated(j);
            updateShare(a);
            if (hierarchy_) {
                totalAllocated_.add(a.allocated);
                setLeaf(j, a);
            }
        }
        if (hierarchy_) setDemanding(totalAllocated_);

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
        if (hierarchy_) {
            self.queueOrder = [this](uint32_t l, uint32_t r) {
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
        }
        self.jobOrder = [this](uint32_t l, uint32_t r) {
            const double ls = attr(l).share, rs = attr(r).share;
            if (ls == rs) return 0;
            return ls < rs ? -1 : 1;
        };
        ssn.addEventHandler(
            [this](uint32_t t) {
                ++generation_;
                const uint32_t j = s_->jobOf(t);
                if (j == UINT32_MAX || !s_->inSession(j)) return;
                auto& a = attr(j);
                a.allocated.add(s_->taskRes(t));
                updateShare(a);
                if (hierarchy_) {
                    totalAllocated_.add(s_->taskRes(t));
                    setDemanding(totalAllocated_);
                    setLeaf(j, a);
                }
            },
            [this](uint32_t t) {
                ++generation_;
                const uint32_t j = s_->jobOf(t);
                if (j == UINT32_MAX || !s_->inSession(j)) return;
                auto& a = attr(j);
                a.allocated.sub(s_->taskRes(t));
                updateShare(a);
                if (hierarchy_) {
                    totalAllocated_.sub(s_->taskRes(t));
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
        for (int d : allocated.resourceNames()) {
            if (allocated.get(d) != 0 && request.get(d) != 0 && allocated.get(d) >= request.get(d))
                return true;
            if (!((demanding >> d) & 1u) && request.get(d) != 0) return true;
        }
        return false;
    }

    // The demanding dimensions as of totalAllocated; a change makes every leaf's saturation stale.
    void setDemanding(const VResource& totalAllocated) {
        uint64_t demanding = 0;
        for (int d : totalNames_)
            if (totalAllocated.get(d) < total_.get(d)) demanding |= uint64_t(1) << d;
        if (demanding != demanding_) ++epoch_;
        demanding_ = demanding;
    }

    // Gives the job's leaf these attributes (upstream rebuilds the leaf), creating it and the path
    // of its queue's hierarchy when new, and marks the path above it for working out again.
    void setLeaf(uint32_t job, const Attr& attr) {
        HNode*& leaf = leaves_[s_->sessionSlot(job)];
        if (!leaf) leaf = addLeaf(job);
        leaf->attr = attr;
        for (HNode* n = leaf; n && !n->dirty; n = n->parent) n->dirty = true;
    }

    HNode* addLeaf(uint32_t job) {
        const auto& q = s_->state.queues[s_->queueOf(job)];
        const auto& paths = paths_[s_->queueOf(job)];
        HNode* inode = root_.get();
        std::vector<std::string> ws;
        for (size_t i = 1; i < paths.size(); ++i) {
            auto it = inode->children.find(paths[i]);
            if (it != inode->children.end()) {
                inode = it->second.get();
                continue;
            }
            if (ws.empty()) ws = split(q.hierarchyWeights, '/');
            double w = i < ws.size() ? parseGoFloat(ws[i]).value_or(0) : 0;
            if (w < 1) w = 1;
            auto child = std::make_unique<HNode>();
            child->weight = w;
            child->request = VResource(s_->state.D());
            child->attr.allocated = VResource(s_->state.D());
            child->parent = inode;
            HNode* raw = child.get();
            inode->children[paths[i]] = std::move(child);
            inode = raw;
        }
        auto leaf = std::make_unique<HNode>();
        leaf->leaf = true;
        VResource totalRequest(s_->state.D());
        for (uint32_t t : s_->state.jobs[job].tasks) totalRequest.add(s_->taskRes(t));
        leaf->request = totalRequest;
        leaf->parent = inode;
        HNode* raw = leaf.get();
        inode->children[s_->state.jobs[job].key] = std::move(leaf); // a key has a '/', a path component none
        return raw;
    }

    // Works out the node's share and saturation from its children, as upstream's recursive update
    // does for the whole tree, for the stale nodes only: the values are the same.
    void evaluate(HNode& node) {
        if (!node.dirty && node.epoch == epoch_) return;
        node.dirty = false;
        node.epoch = epoch_;
        if (node.leaf) {
            node.saturated = resourceSaturated(node.attr.allocated, node.request, demanding_);
            return;
        }
        double mdr = 1;
        for (auto& [k, child] : node.children) {
            evaluate(*child);
            if (child->attr.share != 0 && !child->saturated) {
                double rs = calculateShare(child->attr.allocated);
                if (rs < mdr) mdr = rs;
            }
        }
        node.attr.allocated = VResource(s_->state.D());
        bool saturated = true;
        for (auto& [k, child] : node.children) {
            if (!child->saturated) saturated = false;
            if (child->attr.share != 0) {
                if (child->saturated) {
                    node.attr.allocated.add(child->attr.allocated);
                } else {
                    VResource t = child->attr.allocated;
                    t.multi(mdr / child->attr.share);
                    node.attr.allocated.add(t);
                }
            }
        }
        node.attr.share = calculateShare(node.attr.allocated);
        node.saturated = saturated;
    }

    double compareQueues(uint32_t lq, uint32_t rq) {
        HNode* l = root_.get();
        HNode* r = root_.get();
        const auto& lp = paths_[lq];
        const auto& rp = paths_[rq];
        const size_t depth = std::min(lp.size(), rp.size());
        for (size_t i = 0; i < depth; ++i) {
            // A node compared with itself needs no working out: its share is finite, so with a
            // finite weight it equals itself whatever it is.
            if (l != r || !std::isfinite(l->weight)) {
                evaluate(*l);
                evaluate(*r);
            }
            if (!l->saturated && r->saturated) return -1;
            if (l->saturated && !r->saturated) return 1;
            if (l->attr.share / l->weight == r->attr.share / r->weight) {
                if (i < depth - 1) {
                    auto li = l->children.find(lp[i + 1]);
                    auto ri = r->children.find(rp[i + 1]);
                    if (li == l->children.end() || ri == r->children.end()) return 0;
                    l = li->second.get();
                    r = ri->second.get();
                }
            } else {
                return l->attr.share / l->weight - r->attr.share / r->weight;
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
    // (generation_ counts their changes), the reclaimer's job and shape, and t's job and shape: kept
    // for those until a pod is allocated or deallocated (H8 of the plan).
    bool verdict(uint32_t reclaimer, uint32_t t) {
        const uint32_t lj = s_->jobOf(reclaimer), rj = s_->jobOf(t);
        if (lj == UINT32_MAX || !s_->inSession(lj) || rj == UINT32_MAX || !s_->inSession(rj)) return false;
        if (!memo_) return workOutVerdict(reclaimer, t);
        const uint32_t shape = s_->state.tasks[reclaimer].shape;
        if (verdictJob_ != lj || verdictShape_ != shape || verdictGeneration_ != generation_) {
            verdicts_.clear();
            verdictJob_ = lj;
            verdictShape_ = shape;
            verdictGeneration_ = generation_;
        }
        const uint64_t key = uint64_t(rj) << 32 | s_->state.tasks[t].shape;
        if (auto it = verdicts_.find(key); it != verdicts_.end()) return it->second != 0;
        const bool v = workOutVerdict(reclaimer, t);
        verdicts_.emplace(key, uint8_t(v));
        return v;
    }

    bool workOutVerdict(uint32_t reclaimer, uint32_t t) {
        const uint32_t lj = s_->jobOf(reclaimer), rj = s_->jobOf(t);
        VResource totalAllocated = totalAllocated_;
        Attr lattr;
        lattr.allocated = attr(lj).allocated;
        lattr.allocated.add(s_->taskRes(reclaimer));
        totalAllocated.add(s_->taskRes(reclaimer));
        updateShare(lattr);
        setLeaf(lj, lattr);
        totalAllocated.sub(s_->taskRes(t));
        Attr rattr;
        rattr.allocated = attr(rj).allocated;
        rattr.allocated.sub(s_->taskRes(t));
        updateShare(rattr);
        setDemanding(totalAllocated);
        setLeaf(rj, rattr);
        const double ret = compareQueues(s_->queueOf(lj), s_->queueOf(rj));
        setDemanding(totalAllocated_);
        setLeaf(rj, attr(rj));
        setLeaf(lj, attr(lj));
        return ret < 0;
    }

    Session* s_ = nullptr;
    VResource total_;
    std::vector<int> totalNames_;
    bool hierarchy_ = false;
    std::vector<Attr> attrs_; // by position in sessionJobs
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
    VResource totalAllocated_;
    std::unique_ptr<HNode> root_;
    std::vector<HNode*> leaves_;                  // by position in sessionJobs
    std::vector<std::vector<std::string>> paths_; // by queue: its hierarchy, split
    uint64_t demanding_ = 0;
    uint64_t epoch_ = 0;
    // verdict's memo: by reclaimee job and shape, for one reclaimer job and shape and generation.
    bool memo_ = false;
    uint64_t generation_ = 0, verdictGeneration_ = UINT64_MAX;
    uint32_t verdictJob_ = UINT32_MAX, verdictShape_ = UINT32_MAX;
    std::unordered_map<uint64_t, uint8_t> verdicts_;
};

} // namespace

PluginDescriptor drfPlugin() {
    PluginTraits t;
    // Without hierarchy it looks only at the jobs it is asked about (a settled job asked about as a
    // victim gets its share from the state); the hierarchical shares are sums over every job of a
    // queue.
    t.allowsSettledJobsOut = [](const PluginOption& o) { return !o.enabled("enableHierarchy"); };
    return {"drf", [](const PluginOption& option) { return std::make_unique<Drf>(option); }, std::move(t)};
}

} // namespace gantry::engine::plugins
