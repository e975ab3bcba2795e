#pragma once
// `gantry import --prometheus` and the studio's File > Import history: a window of a cluster's past,
// read from Prometheus (kube-state-metrics series), written as a what-if snapshot whose jobs replay
// what the cluster ran. Built to run on a worker thread: progress after every chunk, and a cancel
// flag noticed within moments.
//
//   history::HistoryRequest request{{url, tokenFile, caFile}, start, end, step};
//   history::ImportOptions options;          // timeouts, progress, cancel
//   gantry::LiveSnapshotFile file(path);     // or live::StringOutput
//   history::HistorySummary s = history::importHistory(request, file, options);
//   file.commit();
#include "history/history_reader.h"
#include "live/live_import.h"

#include <string>
#include <vector>

namespace gantry::history {

struct HistoryRequest {
    Endpoint endpoint;
    double start = 0, end = 0; // Unix seconds
    double step = 60;          // seconds
};

struct ImportOptions {
    live::Timeouts timeouts;
    double maxChunk = 0; // seconds; 0 = readHistory's choice
    std::function<void(const ReadProgress&)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

struct HistorySummary {
    std::string server, serverVersion;
    size_t nodes = 0, jobs = 0, runningPods = 0;
    int64_t pods = 0, gpuMilli = 0;
    int queries = 0, chunks = 0, splits = 0, retries = 0;
    // Lines that say what the replay made of the history (open-ended jobs, restarts, jobs left out,
    // priority classes it cannot value, ...), for the CLI's notes and the studio's summary.
    std::vector<std::string> notes;
    std::vector<std::string> warnings;
};

// Throws live::LiveError (FailureKind::Config for a request that cannot work: exit 2 in the CLI).
HistorySummary importHistory(const HistoryRequest& request, live::SnapshotOutput& out,
                             const ImportOptions& options);

// "1,234,567"
std::string withThousands(int64_t n);

} // namespace gantry::history
