#pragma once
// Reading a running cluster into a snapshot: the objects Gantry plans with, as multi-document YAML
// that the snapshot importer reads like `kubectl get -o yaml` output. Built to run on a worker thread:
// progress comes through a callback after every page and a cancel flag stops it within moments.
//
//   live::ImportOptions options;
//   options.progress = [](const live::ImportProgress& p) { ... };
//   options.cancel = &stopFlag;
//   live::StringOutput out;  // or any SnapshotOutput, e.g. a file written atomically
//   live::ImportSummary summary = live::importCluster(connection, out, options);
#include "live/api_client.h"
#include "live/kubeconfig.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gantry::live {

// Where the snapshot text goes. truncate() drops what a list wrote when that list must start over.
class SnapshotOutput {
  public:
    virtual ~SnapshotOutput() = default;
    virtual void write(std::string_view text) = 0;
    virtual uint64_t size() const = 0;
    virtual void truncate(uint64_t size) = 0;
};

class StringOutput : public SnapshotOutput {
  public:
    void write(std::string_view text) override { text_ += text; }
    uint64_t size() const override { return text_.size(); }
    void truncate(uint64_t size) override { text_.resize(size); }
    const std::string& text() const { return text_; }

  private:
    std::string text_;
};

struct ImportProgress {
    std::string list;                   // "pods", "Volcano queues", ...
    size_t listRead = 0;                // objects of this list so far
    std::optional<size_t> listExpected; // from remainingItemCount, when the server says
    size_t totalRead = 0;               // objects of all lists so far
};

struct ImportOptions {
    Timeouts timeouts;
    RetryPolicy retry;
    int pageSize = 500; // kubectl's chunk size
    std::function<void(const ImportProgress&)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

struct ListSummary {
    std::string list;
    size_t objects = 0;
    int restarts = 0; // 410 Gone restarts
};

struct ImportSummary {
    std::string server, context, user, serverVersion;
    std::vector<ListSummary> lists;
    std::vector<std::string> notes; // groups not installed, objects skipped
    // Optional lists the server would not let us read (403), each "LABEL not read: why"; the snapshot
    // carries the same line as a "# MISSING:" comment where the list would be.
    std::vector<std::string> missing;
    std::vector<std::string> warnings; // from the connection (insecure TLS, ...)
    size_t objects = 0;
    int retries = 0; // 429/5xx answers retried
    int credentialPluginRuns = 0;
};

// Reads the cluster and writes the snapshot to `out`. Throws LiveError (FailureKind says which
// failure, Cancelled when asked to stop); what was written to `out` is then incomplete.
ImportSummary importCluster(const Connection& connection, SnapshotOutput& out, const ImportOptions& options);

} // namespace gantry::live
