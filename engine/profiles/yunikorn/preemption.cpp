// Preemption for an ask that does not fit (yunikorn-core objects/preemption.go): victims are
// allocations of equal or lower priority (the priority offsets of the queues on the way, fences
// stop it) in queues above their guaranteed share, never taking a queue below it; a node is chosen
// where removing the fewest, least protected victims frees enough (opted-in pods before opted-out
// ones before originators, youngest first), the shim's predicates confirming; victims on other
// nodes may be added to bring the ask's queue up to its guarantee. The ask then reserves the node.
#include "profiles/yunikorn/go_sort.h"
#include "profiles/yunikorn/partition.h"

#include <algorithm>

namespace gantry::engine::yunikorn {

namespace {

constexpr uint64_t kScoreFitMax = uint64_t(1) << 32;
constexpr uint64_t kScoreOriginator = uint64_t(1) << 33;
constexpr uint64_t kScoreNoPreempt = uint64_t(1) << 34;
constexpr uint64_t kScoreUnfit = uint64_t(1) << 35;

// isAskQueueUnderGuaranteed / isVictimQueueOverGuaranteed: over the ask's resource types.
bool askQueueUnderGuaranteed(const Res& ask, const Res& remaining) {
    for (int d = 0; d < kMaxResDims; ++d)
        if (ask.has(d) && remaining.has(d) && remaining.get(d) < 0) return false;
    return true;
}
bool victimQueueOverGuaranteed(const Res& ask, const Res& remaining) {
    for (int d = 0; d < kMaxResDims; ++d)
        if (ask.has(d) && remaining.has(d) && remaining.get(d) < 0) return true;
    return false;
}

} // namespace

// A queue's usage at the start of the preemption, which the victim search changes on copies.
struct Snapshot {
    int32_t parent = -1; // snapshot index
    uint32_t queue = 0;  // partition queue
    std::string path;
    bool leaf = false;
    Res allocated, preempting, max, guaranteed;
    std::vector<uint32_t> victims;
    int32_t askQueue = -1; // snapshot index of the ask's queue
};

struct Preemptor {
    Partition& p;
    uint32_t app, ask;
    uint32_t askQueue; // partition queue
    const Res& askRes;
    bool nodesTried;
    double now;
    std::vector<Snapshot> snaps; // the search's snapshots (pruned ones have queue = UINT32_MAX)
    std::vector<int32_t> snapOf; // partition queue -> snapshot, -1
    std::vector<std::pair<uint32_t, std::vector<uint32_t>>> byNode; // node -> potential victims
    std::vector<std::pair<uint32_t, Res>> available;                // candidate nodes in node order
    std::map<uint32_t, int32_t> victimQueue;                        // victim -> its queue's snapshot

    // ------------------------------------------------------------ snapshots

    int32_t snapshot(uint32_t q) {
        if (snapOf[q] >= 0) return snapOf[q];
        const Queue& queue = p.queues[q];
        int32_t parent = queue.parent >= 0 ? snapshot(uint32_t(queue.parent)) : -1;
        Snapshot s;
        s.parent = parent;
        s.queue = q;
        s.path = queue.path;
        s.leaf = queue.leaf;
        s.allocated = queue.allocated;
        s.preempting = queue.preempting;
        s.max = queue.max;
        s.guaranteed = queue.guaranteed;
        s.askQueue = snapOf[askQueue];
        snaps.push_back(std::move(s));
        snapOf[q] = int32_t(snaps.size()) - 1;
        return snapOf[q];
    }

    // GetRemainingGuaranteedResource on the snapshots v; the ask queue it compares with is the
    // original snapshot (upstream's copies point to it).
    Res remaining(const std::vector<Snapshot>& v, int32_t i) const {
        if (i < 0) return Res();
        const Snapshot& s = v[size_t(i)];
        Res parent = remaining(v, s.parent);
        Res rem = s.guaranteed;
        if (parent.isEmpty() && rem.isEmpty()) return Res();
        Res used = subOnlyExisting(s.allocated, s.preempting);
        rem = subOnlyExisting(rem, used);
        if (s.askQueue >= 0) {
            // The ask queue's snapshot as it was before any walk: a walk in place changes snaps'.
            const Snapshot& a = snaps[size_t(s.askQueue)];
            const Res& askAllocated = walking_ ? askAllocated_ : a.allocated;
            if (a.path == s.path && !rem.isEmpty()) return mergeIfNotPresent(rem, parent);
            Res askRem = subOnlyExisting(a.guaranteed, subOnlyExisting(askAllocated, a.preempting));
            if (!rem.isEmpty() && a.path.compare(0, s.path.size(), s.path) == 0 && !askRem.isEmpty())
                return Res();
        }
        return componentWiseMin(rem, parent);
    }

    static Res preemptable(const std::vector<Snapshot>& v, int32_t i) {
        if (i < 0) return Res();
        const Snapshot& s = v[size_t(i)];
        if (s.allocated.isEmpty()) return Res();
        Res parent = preemptable(v, s.parent);
        Res actual = subOnlyExisting(subOnlyExisting(s.allocated, s.preempting), s.guaranteed);
        Res out = Res::empty();
        for (int d = 0; d < kMaxResDims; ++d)
            if (actual.has(d) && actual.get(d) > 0) out.set(d, actual.get(d));
        if (out.isEmpty()) return out;
        return componentWiseMinOnlyExisting(out, parent);
    }

    void addAllocation(std::vector<Snapshot>& v, int32_t i, const Res& r) {
        for (; i >= 0; i = v[size_t(i)].parent) {
            journal(v, i);
            v[size_t(i)].allocated.addTo(r);
        }
    }
    void removeAllocation(std::vector<Snapshot>& v, int32_t i, const Res& r) {
        for (; i >= 0; i = v[size_t(i)].parent) {
            journal(v, i);
            v[size_t(i)].allocated.subFrom(r);
        }
    }

    // A walk in place on snaps, undone after: upstream walks a copy of every snapshot per node,
    // which at thousands of nodes costs more than the walk itself; only allocations change.
    bool walking_ = false;
    Res askAllocated_ = Res();
    uint64_t walk_ = 0;
    std::vector<uint64_t> touchedIn_ = {};            // per snapshot: the walk that saved it
    std::vector<std::pair<int32_t, Res>> saved_ = {}; // (snapshot, allocation before the walk)
    void journal(const std::vector<Snapshot>& v, int32_t i) {
        if (!walking_ || &v != &snaps) return;
        if (touchedIn_.size() < snaps.size()) touchedIn_.resize(snaps.size(), 0);
        if (touchedIn_[size_t(i)] == walk_) return;
        touchedIn_[size_t(i)] = walk_;
        saved_.emplace_back(i, snaps[size_t(i)].allocated);
    }
    void beginWalk(int32_t askSnap) {
        ++walk_;
        saved_.clear();
        askAllocated_ = snaps[size_t(askSnap)].allocated;
        walking_ = true;
    }
    void undoWalk() {
        for (auto it = saved_.rbegin(); it != saved_.rend(); ++it)
            snaps[size_t(it->first)].allocated = it->second;
        saved_.clear();
        ++walk_;
    }
    void endWalk() {
        undoWalk();
        walking_ = false;
    }

    // findPreemptionFenceRoot: the queue above which victims are not looked for.
    uint32_t fenceRoot(std::map<uint32_t, int64_t>& priorities) {
        int64_t current = p.asks[ask].priority;
        for (int32_t at = int32_t(askQueue);;) {
            const Queue& q = p.queues[size_t(at)];
            if (q.priorityPolicy == PriorityPolicy::Fence)
                current = q.priorityOffset;
            else
                current += q.priorityOffset;
            priorities[uint32_t(at)] = current;
            bool fenceByMax = false;
            Res max = p.maxResource(uint32_t(at));
            if (!max.isNil() && !max.isEmpty())
                fenceByMax = !max.strictlyGreaterThanOrEqualsOnlyExisting(add(q.allocated, askRes));
            if (q.parent < 0 || q.preemptionPolicy == PreemptionPolicy::Fence || fenceByMax)
                return uint32_t(at);
            at = q.parent;
        }
    }

    void findVictims(uint32_t q, const std::map<uint32_t, int64_t>& priorities, int64_t askPriority,
                     bool fenced) {
        if (q == askQueue) return;
        const Queue& queue = p.queues[q];
        if (queue.leaf) {
            if (queue.preemptionPolicy == PreemptionPolicy::Disabled) return;
            const int32_t s = snapshot(q);
            Res rem = remaining(snaps, s);
            if (!rem.isNil() && strictlyGreaterThanOrEquals(rem, Res::empty())) {
                dropSnapshot(q);
                return;
            }
            for (uint32_t a : queue.apps)
                for (uint32_t alloc : p.apps[a].allocations) {
                    const Ask& k = p.asks[alloc];
                    if (!askRes.matchAny(p.askRes[k.res])) continue;
                    if (k.hasRequiredNode() || k.released || k.preempted) continue;
                    if (fenced || int64_t(k.priority) <= askPriority)
                        snaps[size_t(s)].victims.push_back(alloc);
                }
            if (snaps[size_t(s)].victims.empty()) dropSnapshot(q);
            return;
        }
        for (uint32_t child : queue.children) {
            bool childFenced = false;
            int64_t childPriority;
            auto known = priorities.find(child);
            if (known != priorities.end()) {
                childPriority = known->second;
            } else {
                const Queue& c = p.queues[child];
                if (c.priorityPolicy == PriorityPolicy::Fence) {
                    if (int64_t(c.priorityOffset) > askPriority) continue;
                    childFenced = true;
                    childPriority = askPriority;
                } else {
                    childPriority = askPriority - c.priorityOffset;
                }
            }
            findVictims(child, priorities, childPriority, fenced || childFenced);
        }
    }

    // A snapshot leaves the result map (its parents stay, as upstream's delete does).
    void dropSnapshot(uint32_t q) { snapOf[q] = -2 - snapOf[q]; }
    bool live(uint32_t q) const { return snapOf[q] >= 0; }

    // prunePreemptionSnapshots: only the ask's path and the paths of leaves with victims.
    void prune() {
        std::vector<bool> keep(snaps.size(), false);
        auto keepPath = [&](int32_t i) {
            for (; i >= 0; i = snaps[size_t(i)].parent) keep[size_t(i)] = true;
        };
        if (snapOf[askQueue] >= 0) keepPath(snapOf[askQueue]);
        for (size_t i = 0; i < snaps.size(); ++i)
            if (snaps[i].leaf && !snaps[i].victims.empty() && snapOf[snaps[i].queue] == int32_t(i))
                keepPath(int32_t(i));
        for (size_t i = 0; i < snaps.size(); ++i)
            if (!keep[i] && snapOf[snaps[i].queue] == int32_t(i)) dropSnapshot(snaps[i].queue);
    }

    // The live snapshots in queue order (upstream iterates a map).
    std::vector<int32_t> liveSnapshots() const {
        std::vector<int32_t> out;
        for (uint32_t q = 0; q < snapOf.size(); ++q)
            if (snapOf[q] >= 0) out.push_back(snapOf[q]);
        return out;
    }

    bool findEligible() {
        snapOf.assign(p.queues.size(), -1);
        std::map<uint32_t, int64_t> priorities;
        const uint32_t fence = fenceRoot(priorities);
        const int64_t fencePriority = priorities[fence];
        snapshot(askQueue);
        for (int32_t at = int32_t(askQueue); p.queues[size_t(at)].parent >= 0;
             at = p.queues[size_t(at)].parent)
            snaps[size_t(snapOf[size_t(at)])].askQueue = snapOf[askQueue];
        findVictims(fence, priorities, fencePriority, false);
        prune();
        return true;
    }

    // ------------------------------------------------------------ the search

    bool checkQueueGuarantees() {
        std::vector<Snapshot> v = snaps;
        const int32_t current = snapOf[askQueue];
        if (current < 0) return false;
        Res old = remaining(v, current);
        if (!old.isNil() && old.fitInActual(askRes)) return true;
        addAllocation(v, current, askRes);
        for (int32_t s : liveSnapshots())
            for (uint32_t victim : snaps[size_t(s)].victims) {
                removeAllocation(v, s, p.askRes[p.asks[victim].res]);
                Res rem = remaining(v, current);
                if (!rem.isNil() && askQueueUnderGuaranteed(askRes, rem)) return true;
            }
        return false;
    }

    void initWorkingState() {
        std::map<uint32_t, std::vector<uint32_t>> allocationsByNode;
        for (int32_t s : liveSnapshots())
            for (uint32_t victim : snaps[size_t(s)].victims) {
                allocationsByNode[uint32_t(p.asks[victim].node)].push_back(victim);
                victimQueue[victim] = s;
            }
        std::vector<uint32_t> order;
        p.nodes.forEach([&](uint32_t n) {
            order.push_back(n);
            return true;
        });
        const Ask& me = p.asks[ask];
        for (uint32_t n : order) {
            Node& node = p.nodes[n];
            bool others = false;
            if (node.reserved() && !node.reservedFor(ask)) {
                others = true;
                const std::vector<uint32_t> reservations = node.reservations;
                for (uint32_t r : reservations) {
                    const Ask& res = p.asks[r];
                    if (res.hasRequiredNode() || res.triggeredPreemption) continue;
                    double age = now - (res.createTime + p.timings.reservationWaitTimeout +
                                        p.timings.reservationDelay);
                    if (res.priority < me.priority && age > p.timings.reservationWaitTimeout) {
                        p.unReserve(res.app, n, r);
                        others = false;
                    }
                }
            }
            if (!node.schedulable || others || !node.total.fitIn(askRes)) {
                allocationsByNode.erase(n);
            } else {
                available.emplace_back(n, node.available);
            }
        }
        for (auto& entry : allocationsByNode) {
            auto& list = entry.second; // a plain name: clang 14 cannot capture structured bindings
            goStableSort(list, [&](int i, int j) {
                const Ask& l = p.asks[list[size_t(i)]];
                const Ask& r = p.asks[list[size_t(j)]];
                if (l.allowPreemptSelf && !r.allowPreemptSelf) return true;
                if (r.allowPreemptSelf && !l.allowPreemptSelf) return false;
                if (l.originator && !r.originator) return false;
                if (r.originator && !l.originator) return true;
                return l.createTime > r.createTime;
            });
            byNode.emplace_back(entry.first, std::move(list));
        }
    }

    const std::vector<uint32_t>* victimsOn(uint32_t node) const {
        for (const auto& [n, list] : byNode)
            if (n == node) return &list;
        return nullptr;
    }

    // Steps of the victim walks below, on snapshots v. releaseVictim: the victim's allocation leaves
    // its queue when the queue may lose it (it keeps what is not preemptable and its guarantee);
    // false, v unchanged, otherwise or for no candidate.
    bool releaseVictim(std::vector<Snapshot>& v, uint32_t victim) {
        auto qv = victimQueue.find(victim);
        if (qv == victimQueue.end()) return false;
        const int32_t s = qv->second;
        const Res& vr = p.askRes[p.asks[victim].res];
        Res rem = remaining(v, s);
        removeAllocation(v, s, vr);
        if (strictlyGreaterThanOrEquals(preemptable(v, s), Res::empty()) &&
            (rem.isNil() || victimQueueOverGuaranteed(askRes, rem)))
            return true;
        addAllocation(v, s, vr);
        return false;
    }
    // A released victim's allocation goes to the ask's queue when its remaining guarantee (*before)
    // holds it; else it goes back to its own queue and the walk ends (false).
    bool giveToAskQueue(std::vector<Snapshot>& v, uint32_t victim, int32_t askSnap, Res* before) {
        const Res& vr = p.askRes[p.asks[victim].res];
        *before = remaining(v, askSnap);
        if (!before->isNil() && before->fitInActual(vr)) {
            addAllocation(v, askSnap, vr);
            return true;
        }
        addAllocation(v, victimQueue.at(victim), vr);
        return false;
    }
    // A victim that does not help after all goes back from the ask's queue to its own.
    void returnVictim(std::vector<Snapshot>& v, uint32_t victim, int32_t askSnap) {
        const Res& vr = p.askRes[p.asks[victim].res];
        removeAllocation(v, askSnap, vr);
        addAllocation(v, victimQueue.at(victim), vr);
    }

    // calculateVictimsByNode: (index of the victim after which the ask fits, the victims in order);
    // ok = false when the node cannot be used.
    bool victimsByNode(const Res& nodeAvailable, const std::vector<uint32_t>& potential, int* index,
                       std::vector<uint32_t>* out) {
        *index = -1;
        out->clear();
        Res current = nodeAvailable;
        if (current.fitIn(askRes)) return true; // fits without preemption: no victims
        const int32_t askSnap = snapOf[askQueue];
        if (askSnap < 0) return false;
        std::vector<Snapshot>& v = snaps;
        beginWalk(askSnap);
        std::vector<uint32_t> head, tail;
        for (uint32_t victim : potential) {
            if (!releaseVictim(v, victim)) continue;
            Res askRem;
            if (!giveToAskQueue(v, victim, askSnap, &askRem)) break;
            const Res& vr = p.askRes[p.asks[victim].res];
            if (equalsOrEmpty(subEliminateNegative(askRes, current),
                              subEliminateNegative(askRes, add(current, vr)))) {
                returnVictim(v, victim, askSnap);
                tail.push_back(victim);
            } else {
                current.addTo(vr);
                head.push_back(victim);
            }
        }
        head.insert(head.end(), tail.begin(), tail.end());
        undoWalk();
        if (head.empty()) {
            endWalk();
            return false;
        }
        current = nodeAvailable;
        for (uint32_t victim : head) {
            if (!releaseVictim(v, victim)) continue;
            current.addTo(p.askRes[p.asks[victim].res]);
            if (current.fitIn(askRes) && *index < 0) *index = int(out->size());
            out->push_back(victim);
        }
        endWalk();
        return *index >= 0;
    }

    // The shim's PreemptionPredicates: the first victim from `start` after which the ask fits the
    // node (its free resources and the other predicates); -1 when it never does.
    int shimCheck(uint32_t node, const std::vector<uint32_t>& victims, int start) {
        if (victims.empty()) return p.nodeConditions(node, ask, true) ? -1 : -2;
        Res free = p.nodes[node].available;
        for (int i = 0; i < start && i < int(victims.size()); ++i)
            free.addTo(p.askRes[p.asks[victims[size_t(i)]].res]);
        for (int i = std::max(start, 0); i < int(victims.size()); ++i) {
            free.addTo(p.askRes[p.asks[victims[size_t(i)]].res]);
            if (free.fitIn(askRes) && p.nodeConditions(node, ask, true)) return i;
        }
        return -2;
    }

    uint64_t solutionScore(uint32_t node, int index) const {
        const std::vector<uint32_t>* list = victimsOn(node);
        if (!list) return kScoreUnfit;
        if (index < 0) return 0;
        if (index >= int(list->size())) return kScoreUnfit;
        uint64_t score = 0;
        for (int i = 0; i <= index; ++i) {
            const Ask& a = p.asks[(*list)[size_t(i)]];
            if (a.originator) score |= kScoreOriginator;
            if (!a.allowPreemptSelf) score |= kScoreNoPreempt;
        }
        return score + uint64_t(index) + 1;
    }

    // tryNodes: the node with the best predicate-checked solution (batches of ten, in order of
    // victims needed, then node id; a batch with a solution free of protected victims ends it).
    bool tryNodes(uint32_t* nodeOut, std::vector<uint32_t>* victimsOut) {
        struct Check {
            uint32_t node;
            int start;
            std::vector<uint32_t> victims;
        };
        std::vector<Check> checks;
        for (const auto& [n, avail] : available) {
            const std::vector<uint32_t>* list = victimsOn(n);
            static const std::vector<uint32_t> none;
            int index = -1;
            std::vector<uint32_t> victims;
            if (!victimsByNode(avail, list ? *list : none, &index, &victims)) continue;
            if (!victims.empty() || !nodesTried) checks.push_back(Check{n, index, std::move(victims)});
        }
        std::stable_sort(checks.begin(), checks.end(), [&](const Check& a, const Check& b) {
            if (a.start != b.start) return a.start < b.start;
            return p.nodes[a.node].id < p.nodes[b.node].id;
        });
        bool found = false;
        uint32_t bestNode = 0;
        int bestIndex = -1;
        uint64_t bestScore = kScoreUnfit;
        for (size_t b = 0; b < checks.size(); b += 10) {
            for (size_t i = b; i < std::min(checks.size(), b + 10); ++i) {
                int index = shimCheck(checks[i].node, checks[i].victims, checks[i].start);
                if (index == -2) continue;
                uint64_t score = solutionScore(checks[i].node, index);
                if (!found || score < bestScore) {
                    found = true;
                    bestNode = checks[i].node;
                    bestIndex = index;
                    bestScore = score;
                }
            }
            if (found && bestScore < kScoreFitMax) break;
        }
        if (!found) return false;
        const Check* chosen = nullptr;
        for (const auto& c : checks)
            if (c.node == bestNode) chosen = &c;
        victimsOut->clear();
        if (bestIndex >= int(chosen->victims.size())) return false;
        for (int i = 0; i <= bestIndex; ++i) victimsOut->push_back(chosen->victims[size_t(i)]);
        *nodeOut = bestNode;
        return true;
    }

    // calculateAdditionalVictims: more victims anywhere until the ask's queue is within its guarantee.
    bool additionalVictims(const std::vector<uint32_t>& nodeVictims, std::vector<uint32_t>* out) {
        std::vector<Snapshot> v = snaps;
        const int32_t askSnap = snapOf[askQueue];
        if (askSnap < 0) return false;
        std::set<uint32_t> seen;
        for (uint32_t victim : nodeVictims) {
            auto qv = victimQueue.find(victim);
            if (qv == victimQueue.end()) continue;
            removeAllocation(v, qv->second, p.askRes[p.asks[victim].res]);
            seen.insert(victim);
        }
        std::vector<uint32_t> potential;
        for (int32_t s : liveSnapshots())
            for (uint32_t victim : snaps[size_t(s)].victims)
                if (!seen.count(victim)) potential.push_back(victim);
        auto score = [&](const Ask& a) {
            uint64_t sc = 0;
            if (a.originator) sc |= kScoreOriginator;
            if (!a.allowPreemptSelf) sc |= kScoreNoPreempt;
            return sc;
        };
        goStableSort(potential, [&](int i, int j) {
            const Ask& l = p.asks[potential[size_t(i)]];
            const Ask& r = p.asks[potential[size_t(j)]];
            if (score(l) != score(r)) return score(l) < score(r);
            return l.createTime > r.createTime;
        });
        out->clear();
        for (uint32_t victim : potential) {
            if (!releaseVictim(v, victim)) continue;
            Res askRem;
            if (!giveToAskQueue(v, victim, askSnap, &askRem)) break;
            if (!equalsOrEmpty(askRem, remaining(v, askSnap)))
                out->push_back(victim);
            else
                returnVictim(v, victim, askSnap);
        }
        if (out->empty()) return true;
        Res fin = remaining(v, askSnap);
        return !fin.isNil() && askQueueUnderGuaranteed(askRes, fin);
    }

    bool run(uint32_t* nodeOut, std::vector<uint32_t>* final) {
        findEligible();
        if (!checkQueueGuarantees()) {
            p.asks[ask].preemptionFailure = kPreemptionDoesNotGuarantee;
            return false;
        }
        initWorkingState();
        uint32_t node = 0;
        std::vector<uint32_t> victims;
        if (!tryNodes(&node, &victims)) return false;
        std::vector<uint32_t> extra;
        if (!additionalVictims(victims, &extra)) return false;
        victims.insert(victims.end(), extra.begin(), extra.end());
        if (victims.empty()) return false;
        Res nodeFree;
        for (const auto& [n, avail] : available)
            if (n == node) nodeFree = avail;
        const bool fitIn = nodeFree.fitIn(askRes);
        Res total = Res::empty();
        for (uint32_t victim : victims) {
            if (!fitIn && uint32_t(p.asks[victim].node) != node) continue;
            if (askRes.strictlyGreaterThanOnlyExisting(total)) final->push_back(victim);
            total.addTo(p.askRes[p.asks[victim].res]);
        }
        if (askRes.strictlyGreaterThanOnlyExisting(total)) {
            p.asks[ask].preemptionFailure = kPreemptionShortfall;
            final->clear();
            return false;
        }
        for (uint32_t victim : *final)
            if (p.asks[victim].released) {
                p.asks[ask].preemptionFailure = kPreemptionVictimsReleased;
                final->clear();
                return false;
            }
        *nodeOut = node;
        return true;
    }
};

// CheckPreconditions, and the time since the ask came and since its last attempt.
bool Partition::preemptionWaits(const Ask& k, double preemptionDelay, double now) const {
    if (!k.allowPreemptOther || k.triggeredPreemption || k.hasRequiredNode()) return true;
    if (now < k.createTime + preemptionDelay) return true;
    return k.preemptCheckTime != kNever && now < k.preemptCheckTime + timings.preemptAttemptFrequency;
}

bool Partition::tryPreemption(uint32_t app, const Res& headRoom, double preemptionDelay, int* attemptsLeft,
                              uint32_t ask, bool nodesTried, double now, CycleDecision* out) {
    (void)headRoom;
    Ask& k = asks[ask];
    if (*attemptsLeft == 0) {
        k.preemptionFailure = kPreemptionMaxAttemptsExhausted;
        return false;
    }
    if (preemptionWaits(k, preemptionDelay, now)) {
        k.preemptionFailure = kPreemptionPreconditionsFailed;
        return false;
    }
    k.preemptCheckTime = now;
    --*attemptsLeft;
    Preemptor pre{*this, app, ask, apps[app].queue, askRes[k.res], nodesTried, now, {}, {}, {}, {}, {}};
    uint32_t node = 0;
    std::vector<uint32_t> victims;
    if (!pre.run(&node, &victims)) return false;
    for (uint32_t v : victims) {
        asks[v].preempted = true;
        revised(asks[v].app);
        incPreempting(apps[asks[v].app].queue, askRes[asks[v].res]);
    }
    asks[ask].triggeredPreemption = true;
    out->type = ResultType::Reserved;
    out->ask = ask;
    out->node = node;
    out->byPreemption = true;
    out->preempted = victims;
    return true;
}

} // namespace gantry::engine::yunikorn
