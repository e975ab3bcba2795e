#include "profiles/volcano/framework/node_search.h"

#include "k8s/claim_tasks.h"

#include <algorithm>
#include <limits>

namespace gantry::engine {

NodeSearch::NodeSearch(Session& ssn) : ssn_(ssn) {}

void NodeSearch::newScope() {
    cache_.clear();
}

bool NodeSearch::perNode(uint32_t task) const {
    if (!ssn_.options.useNodeIndex) return true;
    if (ssn_.state.shapeOf(task).perNode) return true;
    // A pod's claims are answered by each node's own devices, which a bucket does not compare.
    if (ssn_.options.claims && ssn_.options.claims->uses(ssn_.state, task)) return true;
    return ssn_.state.podsWithAffinity > 0;
}

bool NodeSearch::fitsFutureIdle(uint32_t task, uint32_t node) const {
    const auto& st = ssn_.state;
    const auto& sh = st.shapeOf(task);
    const int64_t* idl = st.nodeRow(st.idle, node);
    const int64_t* rel = st.nodeRow(st.releasing, node);
    const int64_t* pip = st.nodeRow(st.pipelined, node);
    for (int d = 0; d < 2; ++d)
        if (sh.request[size_t(d)] > idl[d] + rel[d] - pip[d]) return false;
    for (uint64_t m = sh.presentMask; m; m &= m - 1) {
        const int d = __builtin_ctzll(m);
        if (sh.request[size_t(d)] > idl[d] + rel[d] - pip[d]) return false;
    }
    return true;
}

bool NodeSearch::fitsIdle(uint32_t task, uint32_t node) const {
    const auto& st = ssn_.state;
    const auto& sh = st.shapeOf(task);
    const int64_t* idl = st.nodeRow(st.idle, node);
    for (int d = 0; d < 2; ++d)
        if (sh.request[size_t(d)] > idl[d]) return false;
    for (uint64_t m = sh.presentMask; m; m &= m - 1) {
        const int d = __builtin_ctzll(m);
        if (sh.request[size_t(d)] > idl[d]) return false;
    }
    return true;
}

uint32_t NodeSearch::insufficientReason(uint32_t task, uint32_t node) {
    const auto& st = ssn_.state;
    const auto& sh = st.shapeOf(task);
    const int64_t* idl = st.nodeRow(st.idle, node);
    const int64_t* rel = st.nodeRow(st.releasing, node);
    const int64_t* pip = st.nodeRow(st.pipelined, node);
    auto short_ = [&](int d) { return sh.request[size_t(d)] > idl[d] + rel[d] - pip[d]; };
    int failed = -1;
    if (short_(kCpu))
        failed = kCpu;
    else if (short_(kMemory))
        failed = kMemory;
    else
        for (int d : st.dims.byName())
            if (d >= 2 && ((sh.presentMask >> d) & 1u) && short_(d)) {
                failed = d;
                break;
            }
    if (failed < 0) failed = kCpu;
    if (insufficientIds_.size() <= size_t(failed)) insufficientIds_.resize(size_t(st.D()), UINT32_MAX);
    uint32_t& id = insufficientIds_[size_t(failed)];
    if (id == UINT32_MAX) id = ssn_.reasonId("Insufficient " + st.dims.name(failed));
    return id;
}

void NodeSearch::evaluate(uint32_t task, uint32_t node, PredicateMode mode, FitResult& out) {
    out.n = 0;
    if (mode == PredicateMode::Allocate && !fitsFutureIdle(task, node)) {
        out.add(Code::Unschedulable, insufficientReason(task, node));
        return;
    }
    ssn_.predicate(task, node, out);
    if (mode == PredicateMode::Preempt && !out.ok() && !out.contains(Code::UnschedulableAndUnresolvable) &&
        !out.containsErrorSkipOrWait())
        out.n = 0; // unschedulable only: eviction may help
}

void NodeSearch::addFailure(FitErrors& fe, const FitResult& r, uint32_t count, const uint32_t* nodes,
                            size_t nNodes) {
    fe.nodes += count;
    for (int i = 0; i < r.n; ++i) fe.reasons[r.s[i].reason] += count;
    if (r.contains(Code::UnschedulableAndUnresolvable))
        fe.unresolvable.insert(fe.unresolvable.end(), nodes, nodes + nNodes);
}

NodeSearch::CacheEntry* NodeSearch::cacheFor(uint32_t task, bool create) {
    const auto& t = ssn_.state.tasks[task];
    if (!errorCache_ || ssn_.state.roles[t.role].empty())
        return nullptr; // upstream disables the cache for role-less pods
    const uint64_t key = (uint64_t(t.job) << 16) | t.role;
    auto it = cache_.find(key);
    if (it != cache_.end()) return &it->second;
    if (!create) return nullptr;
    return &cache_[key];
}

const FitResult* NodeSearch::cached(const CacheEntry& e, uint32_t n) const {
    if (!e.byNode.empty())
        if (auto it = e.byNode.find(n); it != e.byNode.end()) return &it->second;
    if (e.byBucket.empty()) return nullptr;
    const auto& st = ssn_.state;
    auto it = e.byBucket.find(st.nodeBucket[n]);
    if (it == e.byBucket.end()) return nullptr;
    for (const auto& f : it->second)
        if (st.nodeJoin[n] <= f.joins) return &f.r;
    return nullptr;
}

// The filtered walk of a bucket without walking it: members covered by a failure record are
// counted from the records, members cached one by one are few, and the rest joined after the last
// record (a suffix of the join log). Gives up (false) when a failure is unresolvable, whose node
// list must come in name order; then the caller walks the members.
bool NodeSearch::quickFilter(const CacheEntry& cache, uint32_t b, const std::vector<BucketFailure>* records,
                             uint32_t nodeCached, FitErrors& fe) {
    const auto& st = ssn_.state;
    uint32_t after = 0;
    if (records) {
        for (const auto& f : *records)
            if (f.count && f.r.contains(Code::UnschedulableAndUnresolvable)) return false;
        after = records->back().joins;
    }
    if (nodeCached)
        for (const auto& [n, r] : cache.byNode)
            if (st.nodeBucket[n] == b && r.contains(Code::UnschedulableAndUnresolvable)) return false;
    if (records)
        for (const auto& f : *records)
            if (f.count) {
                fe.nodes += f.count;
                for (int i = 0; i < f.r.n; ++i) fe.reasons[f.r.s[i].reason] += f.count;
            }
    if (nodeCached)
        for (const auto& [n, r] : cache.byNode)
            if (st.nodeBucket[n] == b) addFailure(fe, r, 1, &n, 1);
    members_.clear();
    const auto& log = st.buckets[b].joinLog;
    auto from = std::upper_bound(log.begin(), log.end(), std::make_pair(after, UINT32_MAX));
    for (auto it = from; it != log.end(); ++it) {
        const uint32_t n = it->second;
        if (st.nodeBucket[n] != b || st.nodeJoin[n] != it->first || cache.byNode.count(n)) continue;
        members_.push_back(n);
    }
    std::sort(members_.begin(), members_.end(),
              [&](uint32_t x, uint32_t y) { return st.nodes[x].rank < st.nodes[y].rank; });
    return true;
}

void NodeSearch::beforePlace(uint32_t node) {
    const auto& st = ssn_.state;
    for (auto& [key, e] : cache_) {
        if (e.byBucket.empty() || e.byNode.count(node)) continue;
        auto it = e.byBucket.find(st.nodeBucket[node]);
        if (it == e.byBucket.end()) continue;
        for (auto& f : it->second)
            if (st.nodeJoin[node] <= f.joins) {
                e.byNode.emplace(node, f.r); // it is about to leave the bucket
                if (f.count) --f.count;
                break;
            }
    }
}

void NodeSearch::visitNode(uint32_t task, uint32_t n, PredicateMode mode, CacheEntry* cache, FitResult& r,
                           FitErrors& fe, std::vector<Candidate>& passing) {
    if (cache)
        if (const FitResult* c = cached(*cache, n)) {
            addFailure(fe, *c, 1, &n, 1);
            return;
        }
    evaluate(task, n, mode, r);
    if (!r.ok()) {
        addFailure(fe, r, 1, &n, 1);
        if (cache) cache->byNode.emplace(n, r);
        return;
    }
    passing.push_back(Candidate{n, 1, UINT32_MAX});
}

void NodeSearch::predicateNodes(uint32_t task, const std::vector<uint32_t>& nodes,
                                std::vector<Candidate>& passing, FitErrors& fe) {
    passing.clear();
    fe = FitErrors{};
    CacheEntry* cache = cacheFor(task, true);
    FitResult r;
    for (uint32_t n : nodes) visitNode(task, n, PredicateMode::Preempt, cache, r, fe, passing);
}

void NodeSearch::predicateNodes(uint32_t task, int32_t hyperNode, PredicateMode mode,
                                std::vector<Candidate>& passing, FitErrors& fe,
                                const std::vector<bool>* excluded) {
    passing.clear();
    fe = FitErrors{};
    const auto& st = ssn_.state;
    CacheEntry* cache = cacheFor(task, true);
    const bool all = hyperNode < 0 || hyperNode == ssn_.clusterTopHyperNode();
    FitResult r;

    if (mode == PredicateMode::Preempt || perNode(task)) {
        auto visit = [&](uint32_t n) {
            if (excluded && (*excluded)[n]) return;
            visitNode(task, n, mode, cache, r, fe, passing);
        };
        if (all) {
            for (uint32_t rank = 0; rank < st.nodeByRank.size(); ++rank) visit(st.nodeByRank[rank]);
        } else {
            members_ = st.hyperNodes[size_t(hyperNode)].nodes;
            std::sort(members_.begin(), members_.end(),
                      [&](uint32_t a, uint32_t b) { return st.nodes[a].rank < st.nodes[b].rank; });
            for (uint32_t n : members_) visit(n);
        }
        return;
    }

    // Bucket evaluation: one representative per bucket (the first member by name that is not
    // excluded and not cached as failed); its answer holds for every such member.
    auto classFailure = [&](const FitResult& res, uint32_t cls, uint32_t count) {
        fe.nodes += count;
        for (int i = 0; i < res.n; ++i) fe.reasons[res.s[i].reason] += count;
        if (res.contains(Code::UnschedulableAndUnresolvable) &&
            (fe.unresolvableClasses.empty() || fe.unresolvableClasses.back() != cls))
            fe.unresolvableClasses.push_back(cls);
    };
    nodeCachedInBucket_.clear();
    if (cache)
        for (const auto& [n, res] : cache->byNode) ++nodeCachedInBucket_[st.nodeBucket[n]];
    for (uint32_t c = 0; c < st.classes.size(); ++c) {
        const auto& cls = st.classes[c];
        if (!all) {
            const auto& hs = st.nodes[cls.representative].hyperNodes;
            if (std::find(hs.begin(), hs.end(), hyperNode) == hs.end()) continue;
        }
        for (uint32_t b : cls.buckets) {
            const auto& bucket = st.buckets[b];
            if (bucket.ranks.empty()) continue;
            const uint32_t size = uint32_t(bucket.ranks.size());
            std::vector<BucketFailure>* records = nullptr;
            uint32_t covered = 0, nodeCached = 0;
            if (cache) {
                if (auto it = cache->byBucket.find(b); it != cache->byBucket.end()) {
                    records = &it->second;
                    for (const auto& f : *records) covered += f.count;
                }
                if (auto it = nodeCachedInBucket_.find(b); it != nodeCachedInBucket_.end())
                    nodeCached = it->second;
            }
            if (!excluded && nodeCached == 0 && covered == size && records) {
                // Every member failed earlier in this scope.
                for (const auto& f : *records)
                    if (f.count) classFailure(f.r, c, f.count);
                continue;
            }
            const bool filter = excluded || nodeCached > 0 || covered > 0;
            uint32_t rep = UINT32_MAX, count = 0;
            if (!filter) {
                rep = st.nodeByRank[*bucket.ranks.begin()];
                count = size;
            } else if (!excluded && quickFilter(*cache, b, records, nodeCached, fe)) {
                if (members_.empty()) continue;
                rep = members_.front();
                count = uint32_t(members_.size());
            } else {
                members_.clear();
                for (uint32_t rank : bucket.ranks) {
                    const uint32_t n = st.nodeByRank[rank];
                    if (excluded && (*excluded)[n]) continue;
                    if (cache)
                        if (const FitResult* cr = cached(*cache, n)) {
                            addFailure(fe, *cr, 1, &n, 1);
                            continue;
                        }
                    members_.push_back(n);
                }
                if (members_.empty()) continue;
                rep = members_.front();
                count = uint32_t(members_.size());
            }
            evaluate(task, rep, mode, r);
            if (r.ok()) {
                passing.push_back(Candidate{rep, count, b});
                continue;
            }
            if (!filter) {
                classFailure(r, c, count);
                if (cache) cache->byBucket[b].push_back(BucketFailure{bucket.joins, count, r});
            } else {
                addFailure(fe, r, count, members_.data(), members_.size());
                if (cache)
                    for (uint32_t n : members_) cache->byNode.emplace(n, r);
            }
        }
    }
}

void NodeSearch::scoreCandidates(uint32_t task, const Candidate* c, size_t n, std::vector<double>& scores) {
    scratchNodes_.resize(n);
    scratchCounts_.resize(n);
    scratchBatch_.assign(n, 0.0);
    scores.resize(n);
    for (size_t i = 0; i < n; ++i) {
        scratchNodes_[i] = c[i].node;
        scratchCounts_[i] = c[i].count;
    }
    ssn_.batchNodeOrder(task, scratchNodes_.data(), scratchCounts_.data(), n, scratchBatch_.data());
    for (size_t i = 0; i < n; ++i) {
        double score = 0.0;
        score += ssn_.nodeOrderScore(task, c[i].node);
        score += scratchBatch_[i];
        scores[i] = score;
    }
}

namespace {
int32_t pickBest(const ClusterState& st, const Candidate* c, size_t n, const std::vector<double>& scores,
                 double* bestScore) {
    int32_t best = -1;
    double max = -std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < n; ++i) {
        if (scores[i] > max ||
            (scores[i] == max && best >= 0 && st.nodes[c[i].node].rank < st.nodes[uint32_t(best)].rank)) {
            max = scores[i];
            best = int32_t(c[i].node);
        }
    }
    if (bestScore) *bestScore = max;
    return best;
}
} // namespace

int32_t NodeSearch::prioritizeNodes(uint32_t task, const std::vector<Candidate>& passing, double* bestScore) {
    std::vector<Candidate>& idle = idleScratch_;
    std::vector<Candidate>& future = futureScratch_;
    idle.clear();
    future.clear();
    for (const auto& c : passing) {
        if (fitsIdle(task, c.node))
            idle.push_back(c);
        else if (fitsFutureIdle(task, c.node))
            future.push_back(c);
    }
    for (auto* group : {&idle, &future}) {
        uint64_t total = 0;
        for (const auto& c : *group) total += c.count;
        if (total == 0) continue;
        if (total == 1) {
            if (bestScore) *bestScore = 0;
            return int32_t((*group)[0].node);
        }
        scoreCandidates(task, group->data(), group->size(), scratchScores_);
        return pickBest(ssn_.state, group->data(), group->size(), scratchScores_, bestScore);
    }
    return -1;
}

int32_t NodeSearch::bestNode(uint32_t task, const std::vector<Candidate>& passing) {
    uint64_t total = 0;
    for (const auto& c : passing) total += c.count;
    if (total == 0) return -1;
    if (total == 1) return int32_t(passing[0].node);
    scoreCandidates(task, passing.data(), passing.size(), scratchScores_);
    return pickBest(ssn_.state, passing.data(), passing.size(), scratchScores_, nullptr);
}

std::vector<uint32_t> NodeSearch::sortedNodes(uint32_t task, const std::vector<Candidate>& passing) {
    std::vector<uint32_t> out;
    if (passing.empty()) return out;
    scoreCandidates(task, passing.data(), passing.size(), scratchScores_);
    std::vector<std::pair<double, uint32_t>> order;
    for (size_t i = 0; i < passing.size(); ++i) {
        const auto& c = passing[i];
        if (c.bucket == UINT32_MAX) {
            order.emplace_back(scratchScores_[i], c.node);
            continue;
        }
        for (uint32_t rank : ssn_.state.buckets[c.bucket].ranks)
            order.emplace_back(scratchScores_[i], ssn_.state.nodeByRank[rank]);
    }
    std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
        if (a.first != b.first) return a.first > b.first;
        return ssn_.state.nodes[a.second].rank < ssn_.state.nodes[b.second].rank;
    });
    for (const auto& [s, n] : order) out.push_back(n);
    return out;
}

} // namespace gantry::engine
