#pragma once
// Finding nodes for a task: predicates over a node set, then node-order scoring, exactly as
// upstream's PredicateNodes + PrioritizeNodes + SelectBestNodeAndScore do over every node, but
// evaluated once per node bucket (nodes of one class in the same dynamic state give the same answer
// to every predicate and score) instead of once per node. Tasks whose placement depends on other
// pods or on the node's own name are evaluated node by node. Ties between equal scores go to the
// node whose name sorts first.
#include "profiles/volcano/framework/session.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace gantry::engine {

struct Candidate {
    uint32_t node = 0;            // representative (first by name among the usable nodes it stands for)
    uint32_t count = 1;           // nodes it stands for
    uint32_t bucket = UINT32_MAX; // UINT32_MAX = a single node
};

enum class PredicateMode {
    Allocate, // resources against future idle, then every predicate must pass (allocate)
    Backfill, // every predicate must pass, no resource check (best-effort tasks)
    Preempt,  // only unresolvable predicate failures exclude a node (preempt, reclaim)
};

class NodeSearch {
  public:
    explicit NodeSearch(Session& ssn);

    // A fresh predicate error cache, as util.NewPredicateHelper() starts one.
    void newScope();
    void setErrorCache(bool on) { errorCache_ = on; }

    // Nodes of hyperNode (clusterTop = all) where task passes; fe receives the failures.
    void predicateNodes(uint32_t task, int32_t hyperNode, PredicateMode mode, std::vector<Candidate>& passing,
                        FitErrors& fe, const std::vector<bool>* excluded = nullptr);
    // The same in Preempt mode over the given nodes only, in the order given (reclaim's nodes that
    // can matter, by rank).
    void predicateNodes(uint32_t task, const std::vector<uint32_t>& nodes, std::vector<Candidate>& passing,
                        FitErrors& fe);
    // allocate's prioritizeNodes: idle-fitting nodes first, then future-idle ones. -1 = none.
    int32_t prioritizeNodes(uint32_t task, const std::vector<Candidate>& passing,
                            double* bestScore = nullptr);
    // Highest score, ties by name, over all candidates (backfill). -1 = none.
    int32_t bestNode(uint32_t task, const std::vector<Candidate>& passing);
    // Every node of the candidates, highest score first, ties by name (util.SortNodes).
    std::vector<uint32_t> sortedNodes(uint32_t task, const std::vector<Candidate>& passing);
    // Per-node evaluation is forced (equivalence tests, or tasks that need it).
    bool perNode(uint32_t task) const;
    // Call before a task is allocated or pipelined onto node in the current scope.
    void beforePlace(uint32_t node);

    // Allocate's resource check: task request <= node future idle.
    bool fitsFutureIdle(uint32_t task, uint32_t node) const;
    bool fitsIdle(uint32_t task, uint32_t node) const;
    uint32_t insufficientReason(uint32_t task, uint32_t node);

  private:
    struct CacheEntry;
    // Preempt-mode (or node-by-node) evaluation of one node, through the error cache.
    void visitNode(uint32_t task, uint32_t n, PredicateMode mode, CacheEntry* cache, FitResult& r,
                   FitErrors& fe, std::vector<Candidate>& passing);
    void evaluate(uint32_t task, uint32_t node, PredicateMode mode, FitResult& out);
    void scoreCandidates(uint32_t task, const Candidate* c, size_t n, std::vector<double>& scores);
    void addFailure(FitErrors& fe, const FitResult& r, uint32_t count, const uint32_t* nodes, size_t nNodes);
    // Error cache of the current scope (upstream's taskPredicateErrorCache), keyed by job and role:
    // nodes that failed a task of the role are not tried again for the role. Failures found node
    // by node are kept per node; a failing bucket is kept as one record that covers the members it
    // had then (join stamps up to `joins`). Such members cannot change state during the scope
    // unless a task of the job lands on them; beforePlace turns their record into a node entry
    // first.
    struct BucketFailure {
        uint32_t joins = 0; // covers members that joined up to here (after the previous record)
        uint32_t count = 0; // such members still in the bucket
        FitResult r;
    };
    struct CacheEntry {
        std::unordered_map<uint32_t, FitResult> byNode;
        std::unordered_map<uint32_t, std::vector<BucketFailure>> byBucket; // joins ascending
    };
    CacheEntry* cacheFor(uint32_t task, bool create);
    bool quickFilter(const CacheEntry& cache, uint32_t bucket, const std::vector<BucketFailure>* records,
                     uint32_t nodeCached, FitErrors& fe);
    const FitResult* cached(const CacheEntry& e, uint32_t node) const;

    Session& ssn_;
    bool errorCache_ = true;
    std::unordered_map<uint64_t, CacheEntry> cache_;
    std::vector<uint32_t> scratchNodes_, scratchCounts_;
    std::vector<double> scratchScores_, scratchBatch_;
    std::vector<uint32_t> members_;
    std::vector<Candidate> idleScratch_, futureScratch_;
    std::unordered_map<uint32_t, uint32_t> nodeCachedInBucket_;
    std::vector<uint32_t> insufficientIds_; // reason id of "Insufficient <dim>", by dim
};

} // namespace gantry::engine
