#pragma once
// The pods a window of history saw, as the jobs a what-if replays (docs/history.md says why each
// rule is what it is):
//   - a job is the set of pods with one controller owner (kube_pod_owner; a batch Job owned by a
//     JobSet counts as that JobSet); a pod without one is a job of its own;
//   - pods of one name within a job are one pod: a later incarnation (a new UID) is a restart, and
//     the pod's run is its last one that started;
//   - the job arrives when its first pod was created, and runs as long as its longest pod ran
//     (start to completion, else to when it was last seen; a pod still there at the window's end
//     runs at least until then, and the job is open-ended);
//   - its gang is the pods that started within one step of the first (all of them when none ran);
//   - its queue is the first Volcano, Kueue or YuniKorn queue label of its pods, else the namespace;
//   - jobs created before the window are not replayed; their pods still running at its end are
//     kept on their nodes for the whole replay.
#include "history/history_reader.h"

#include <string>
#include <vector>

namespace gantry::history {

struct ReplayPod {
    uint32_t seen = 0; // HistoryData::pods index of the incarnation whose labels and requests it keeps
    std::string name;  // unique in its namespace within the replay
    ResourceList requests;
    bool inGang = false; // started with the first (or none of the job's pods started)
};

struct ReplayJob {
    uint32_t ns = 0;
    std::string name;                 // the gang's name: the owner's, else the pod's (made unique)
    std::string ownerKind, ownerName; // empty for a pod without an owner
    double arrival = 0;               // seconds after the window's start
    double duration = 0;              // seconds; 0 with openEnded = until the end of the replay
    bool openEnded = false, neverRan = false;
    int32_t minMember = 0;
    std::string queue, priorityClass;
    std::vector<ReplayPod> pods;
};

// A pod of a job created before the window that still ran at its end: bound to its node.
struct RunningPod {
    uint32_t seen = 0;
    std::string name;
    uint32_t node = 0;
    ResourceList requests;
};

struct Replay {
    std::vector<ReplayJob> jobs;     // in arrival order
    std::vector<RunningPod> running; // from earlier jobs
    std::vector<std::string> queues; // every queue a job names, sorted
    std::vector<std::string> priorityClasses;
    // What the notes say.
    int64_t pods = 0, gpuMilli = 0;
    int openEnded = 0, neverRanWaiting = 0, neverRanGone = 0, staggered = 0, restarts = 0;
    int earlierJobs = 0, earlierPodsDropped = 0, runningWithoutNode = 0;
};

Replay replayOf(const HistoryData& data);

// The effective request of a pod incarnation: regular containers add up, each init container runs
// alone, the larger wins per resource (Kubernetes' rule without sidecars and overhead, which
// kube-state-metrics does not tell apart).
ResourceList effectiveRequests(const PodSeen& pod, const StringPool& strings);

} // namespace gantry::history
