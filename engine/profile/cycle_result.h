#pragma once
// What one scheduling cycle of a profile decided: the type `gantry cycle` prints and the studio and
// the simulator consume. Keys are "namespace/name" as Kubernetes spells them.
#include "model/pod_group.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gantry::engine {

struct GangStatus {
    int minMember = 0;
    int placeable = 0; // tasks that were ready or found a node in a statement that was later undone
    int tasks = 0;
    bool ready = false;
    std::string reason; // "minMember 8, 5 placeable" or empty when ready
};

struct CycleResult {
    std::map<std::string, std::string> bindings;               // pod -> node
    std::vector<std::string> evicted;                          // pods, in eviction order
    std::map<std::string, std::vector<std::string>> pipelined; // podgroup -> nodes of its pipelined tasks
    std::map<std::string, PodGroupPhase> podGroupPhase;        // podgroup -> phase after the session
    std::map<std::string, std::string> pending;                // pod -> why it is still pending
    std::map<std::string, std::string>
        nominated;                           // kube-scheduler: pending pod -> node preemption made room on
    std::map<std::string, GangStatus> gangs; // podgroup -> how far it got
    // pod -> node -> summed node-order score (only when asked for).
    std::map<std::string, std::map<std::string, double>> scores;
    std::vector<std::string> warnings; // configuration parts Gantry does not model
    // The same decisions by index into the cluster state (for the simulator): tasks bound, with
    // their nodes, in binding order, and tasks evicted, in eviction order.
    std::vector<std::pair<uint32_t, uint32_t>> boundTasks;
    std::vector<uint32_t> evictedTasks;
    // Nominated nodes that changed (TaskRec::nominatedNode): task, node or -1 when cleared.
    std::vector<std::pair<uint32_t, int32_t>> nominations;
    // With CycleOptions::compact: jobs whose PodGroup phase the cycle changed, and for each job with
    // a pending pod the reason of its first one (in the job's pod order).
    std::vector<std::pair<uint32_t, PodGroupPhase>> phaseChanges;
    std::vector<std::pair<uint32_t, std::string>> jobReasons;
    // With ProfileShortcuts::skipJobsThatCannotStart: jobs the cycle did not try because too few of
    // their pods fit the cluster; they have no entry in jobReasons and keep their last reason.
    std::vector<uint32_t> parkedJobs;
    // Jobs the scheduler gives up on, with why (YuniKorn: an application whose Hard placeholders
    // timed out): they leave the cluster unfinished, their pods released.
    std::vector<std::pair<uint32_t, std::string>> failedJobs;
};

} // namespace gantry::engine
