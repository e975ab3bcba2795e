#include "history/history_import.h"

#include "history/history_jobs.h"
#include "history/history_writer.h"
#include "history/time_text.h"
#include "live/live_error.h"

#include <ctime>

namespace gantry::history {

std::string withThousands(int64_t n) {
    std::string digits = std::to_string(n < 0 ? -n : n), out = n < 0 ? "-" : "";
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

namespace {

std::string plural(int64_t n, const std::string& one, const std::string& many) {
    return withThousands(n) + " " + (n == 1 ? one : many);
}

} // namespace

HistorySummary importHistory(const HistoryRequest& request, live::SnapshotOutput& out,
                             const ImportOptions& options) {
    ReadOptions read;
    read.start = request.start;
    read.end = request.end;
    read.step = request.step;
    read.maxChunk = options.maxChunk;
    read.timeouts = options.timeouts;
    read.progress = options.progress;
    read.cancel = options.cancel;
    HistoryData data = readHistory(request.endpoint, read);
    if (options.cancel && options.cancel->load())
        throw live::LiveError(live::FailureKind::Cancelled, "cancelled");
    Replay replay = replayOf(data);

    HistorySummary s;
    s.server = connectionFor(request.endpoint).server;
    s.serverVersion = data.serverVersion;
    WriteHeader header{s.server, s.serverVersion, formatRfc3339(double(std::time(nullptr)))};
    writeReplay(data, replay, header, out);

    s.nodes = data.nodes.size();
    s.jobs = replay.jobs.size();
    s.pods = replay.pods;
    s.gpuMilli = replay.gpuMilli;
    s.runningPods = replay.running.size();
    s.queries = data.queries;
    s.chunks = data.chunks;
    s.splits = data.splits;
    s.retries = data.retries;
    auto& n = s.notes;
    if (replay.jobs.empty())
        n.push_back("no job was created in the window: the replay has nothing to schedule");
    if (replay.openEnded > 0)
        n.push_back(
            plural(replay.openEnded, "job was", "jobs were") +
            " still running or waiting at the window's end: marked gantry.io/open-ended, each runs at least "
            "as long as it had");
    if (replay.neverRanWaiting > 0)
        n.push_back(plural(replay.neverRanWaiting, "job", "jobs") +
                    " never started and still waited at the end: each runs until the end of the replay");
    if (replay.neverRanGone > 0)
        n.push_back(plural(replay.neverRanGone, "job never started and was", "jobs never started and were") +
                    " deleted: each arrives, and leaves as soon as it starts");
    if (replay.staggered > 0)
        n.push_back(
            "in " + plural(replay.staggered, "job", "jobs") +
            " the pods started at different times: each gang is the pods that started with the first");
    if (replay.restarts > 0)
        n.push_back(plural(replay.restarts, "pod was", "pods were") +
                    " created again under the same name (restarts): each runs once, as its last run");
    if (replay.earlierJobs > 0) {
        std::string line = plural(replay.earlierJobs, "job created before the window is",
                                  "jobs created before the window are") +
                           " not replayed";
        if (!replay.running.empty())
            line += "; " + plural(int64_t(replay.running.size()),
                                  "pod of theirs still running at its end stays on its node",
                                  "pods of theirs still running at its end stay on their nodes");
        if (replay.earlierPodsDropped > 0)
            line += "; " +
                    plural(replay.earlierPodsDropped, "pod of theirs that ended inside it is left out",
                           "pods of theirs that ended inside it are left out") +
                    " (start the window earlier to replay them)";
        n.push_back(line);
    }
    if (replay.runningWithoutNode > 0)
        s.warnings.push_back(plural(replay.runningWithoutNode, "running pod", "running pods") +
                             " of earlier jobs name no node (kube_pod_info without node): left out");
    if (!replay.priorityClasses.empty()) {
        std::string names;
        for (const auto& pc : replay.priorityClasses) names += (names.empty() ? "" : ", ") + pc;
        s.warnings.push_back(
            "the jobs name priority classes " + names +
            ", whose values kube-state-metrics does not export: give their PriorityClass objects "
            "with the history (kubectl get priorityclasses -o yaml), or every job has priority 0");
    }
    for (const auto& r : data.unknownResources)
        s.warnings.push_back("resource '" + r +
                             "' is kept under the name kube-state-metrics gives it: Gantry does not know its "
                             "Kubernetes name");
    return s;
}

} // namespace gantry::history
