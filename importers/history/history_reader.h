#pragma once
// Reads a window of a cluster's past from Prometheus: every pod kube-state-metrics reported in it
// (created, started, completed, last seen, owner, requests, labels, priority class, node) and every
// node (allocatable, labels). The window is read in chunks (at most 6 hours, or 1,440 steps), each
// one instant query per series family with a range over the chunk, so no query grows with the
// window; a chunk Prometheus finds too large (query timeout, too many samples) is split in two.
#include "history/prometheus_client.h"
#include "model/resources.h"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

namespace gantry::history {

// Strings that repeat (namespaces, owners, label keys and values, nodes) are kept once.
class StringPool {
  public:
    StringPool() { intern(""); }
    uint32_t intern(const std::string& s);
    const std::string& operator[](uint32_t id) const { return strings_[id]; }

  private:
    std::unordered_map<std::string, uint32_t> ids_;
    std::vector<std::string> strings_;
};

constexpr double kNever = -std::numeric_limits<double>::infinity();

// One pod as kube-state-metrics saw it: one UID (a pod re-created under the same name is another).
struct PodSeen {
    uint32_t ns = 0;
    std::string name;
    double created = kNever;
    double started = kNever;               // status.startTime; kNever = never started
    double lastSeen = kNever;              // the last sample of kube_pod_created
    double completion = kNever;            // the last kube_pod_completion_time value
    double completionSeen = kNever;        // the last sample of that series
    uint32_t ownerKind = 0, ownerName = 0; // the controller owner; 0 = none
    uint32_t priorityClass = 0, node = 0;
    std::vector<std::pair<uint32_t, uint32_t>> labels; // key, value
    struct Request {
        uint32_t container = 0, resource = 0;
        int64_t amount = 0;
        bool init = false;
    };
    std::vector<Request> requests;
};

struct NodeSeen {
    std::string name;
    ResourceList allocatable;
    std::vector<std::pair<uint32_t, uint32_t>> labels;
    bool unschedulable = false;
};

struct HistoryData {
    double start = 0, end = 0, step = 60; // Unix seconds
    StringPool strings;
    std::vector<PodSeen> pods;
    std::unordered_map<std::string, uint32_t> podByUid;
    std::vector<NodeSeen> nodes;
    std::unordered_map<std::string, uint32_t> nodeByName;
    // "namespace/job" -> the JobSet that owns that batch Job (kube_job_owner).
    std::unordered_map<std::string, std::string> jobSetOfJob;
    std::vector<std::string> unknownResources; // sanitized names Gantry could not map back
    int queries = 0, chunks = 0, splits = 0, retries = 0;
    std::string serverVersion;
};

struct ReadProgress {
    int chunk = 0, chunks = 0; // chunks done, and all there are so far (splits add some)
    double chunkStart = 0, chunkEnd = 0;
    size_t pods = 0, nodes = 0;
    int queries = 0;
    bool done = false; // every chunk read
};

struct ReadOptions {
    double start = 0, end = 0; // Unix seconds
    double step = 60;          // seconds: the resolution of "last seen"
    double maxChunk = 0;       // seconds; 0 = 6 hours, at most 1,440 steps
    live::Timeouts timeouts;
    std::function<void(const ReadProgress&)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

// Throws live::LiveError (Cancelled when asked to stop).
HistoryData readHistory(const Endpoint& endpoint, const ReadOptions& options);

// The chunk length readHistory starts with for a window and step.
double chunkSeconds(double window, double step, double maxChunk = 0);

} // namespace gantry::history
