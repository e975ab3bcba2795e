#pragma once
// A cluster's past made up with its truth known: nodes, and pods with the times they were created,
// started, completed and deleted, owned as kube-state-metrics reports owners. It is written as the
// series kube-state-metrics exports (every scrape interval, with the scrape's own job and instance
// labels), in OpenMetrics text that `promtool tsdb create-blocks-from openmetrics` loads into a
// Prometheus TSDB. The truth is the jobs the what-if must give back.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gantry::testing {

struct FixtureContainer {
    std::string name;
    double cpu = 0;     // cores
    int64_t memory = 0; // bytes
    int gpus = 0;
    bool init = false;
};

struct FixturePod {
    std::string ns, name, uid;
    double created = 0;                // Unix seconds
    std::optional<double> started;     // status.startTime
    std::optional<double> completion;  // all containers terminated (reported until the pod is gone)
    double gone = 0;                   // deleted (its series end); past the data's end = still there
    std::optional<double> restartedAt; // a container restarted here: a completion time shows for one scrape
    std::string ownerKind, ownerName;  // the controller owner; empty = none
    std::string node;                  // where it ran, from its start
    std::string priorityClass;
    std::map<std::string, std::string> labels; // Kubernetes label keys
    std::vector<FixtureContainer> containers;
};

struct FixtureNode {
    std::string name;
    double cpu = 0;
    int64_t memory = 0;
    int gpus = 0;
    std::map<std::string, std::string> labels;
};

// A batch Job owned by a JobSet (kube_job_owner), reported while the Job exists.
struct FixtureJobOwner {
    std::string ns, job, jobSet;
    double from = 0, to = 0;
};

// What the replay must hold for one job.
struct TruthJob {
    std::string ns, ownerKind, ownerName; // ownerKind empty: a pod of its own (ownerName = pod)
    double arrival = 0;                   // seconds after the window's start
    double duration = 0;                  // seconds; 0 with openEnded = until the end
    bool openEnded = false;
    std::string queue;
    int minMember = 0;
    // pod name -> requests as canonical amounts: cpu (milli), memory (bytes), nvidia.com/gpu (milli)
    std::map<std::string, std::map<std::string, int64_t>> pods;
};

struct HistoryFixture {
    double dataStart = 0, dataEnd = 0; // the samples
    double start = 0, end = 0;         // the window the test imports
    double scrape = 30, step = 60;
    bool targetLabels = true; // the scrape's job and instance labels on every series
    std::vector<FixtureNode> nodes;
    std::vector<FixturePod> pods;
    std::vector<FixtureJobOwner> jobOwners;
    std::vector<TruthJob> truth;
    std::vector<std::string> runningThrough; // "namespace/pod@node": earlier jobs' pods still running
    std::vector<std::string> priorityClasses;

    // OpenMetrics text of every sample with from <= t < to (one family after the other, a
    // series' samples in time order), ending in "# EOF". `sink` gets the text in pieces.
    void openMetrics(double from, double to, const std::function<void(const std::string&)>& sink) const;
    std::string openMetrics() const;
    int64_t samples() const; // how many openMetrics() writes
    // Loads every sample into a TSDB at `tsdb` with promtool, in slices of `sliceSeconds` aligned on
    // the epoch as promtool aligns its blocks: one block per slice, and one pass over each slice's text
    // (a single file would be read once per block). The text goes through `scratch`. Returns its bytes.
    // Only slices `first` to `last` - 1 (counted from the one holding dataStart) are loaded, so a long
    // load can be resumed, or split between processes with their own `scratch`.
    int64_t load(const std::string& promtool, const std::string& tsdb, const std::string& scratch,
                 double sliceSeconds = 6 * 3600, int first = 0, int last = 1 << 30) const;
};

// The scenarios of docs/history.md on 8 GPU nodes over a 26-hour window starting at `start` (a
// whole hour): gangs, a JobSet, restarts, a container restart, staggered pods, pods that never ran,
// queue labels of each scheduler, init containers, jobs created before the window; plus `extraJobs`
// random gangs drawn from `seed`.
HistoryFixture scenarioHistory(double start, int extraJobs = 40, uint64_t seed = 7);

// A large made-up month for the benchmark: `nodes` 8-GPU nodes, `pods` pods in gangs of 1 to 64
// over `days` days, arriving as a Poisson process, scraped every `scrape` seconds.
HistoryFixture largeHistory(double start, int nodes, double days, int64_t pods, double scrape, uint64_t seed);

} // namespace gantry::testing
