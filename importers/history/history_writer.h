#pragma once
// A replay written as a snapshot in Gantry's what-if form (docs/snapshots.md), which gantry inspect,
// simulate, plan and the studio read: the nodes; a Volcano Queue per queue the jobs name; per job a
// Volcano PodGroup (minMember, queue, priority class, minResources) and its pods, each carrying
// gantry.io/arrival and gantry.io/duration (and gantry.io/open-ended: "true" for a job still running,
// or still waiting, at the window's end); the pods of earlier jobs still running, bound to their nodes.
#include "history/history_jobs.h"
#include "live/live_import.h"

#include <string>

namespace gantry::history {

struct WriteHeader {
    std::string server, serverVersion;
    std::string written; // RFC 3339, when the file was made
};

void writeReplay(const HistoryData& data, const Replay& replay, const WriteHeader& header,
                 live::SnapshotOutput& out);

} // namespace gantry::history
