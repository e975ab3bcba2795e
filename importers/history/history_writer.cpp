#include "history/history_writer.h"

#include "history/time_text.h"
#include "yaml/yaml_scalar.h"

#include <cmath>

namespace gantry::history {

namespace {

constexpr PlainStrings kStrings = PlainStrings::IdentifiersOnly;

// Buffers the text and hands it to the output in pieces of about 1 MiB.
class Text {
  public:
    explicit Text(live::SnapshotOutput& out) : out_(out) { buffer_.reserve(kFlush + 4096); }
    ~Text() = default;

    Text& raw(std::string_view s) {
        buffer_ += s;
        return *this;
    }
    Text& str(std::string_view s) {
        appendYamlScalar(s, kStrings, buffer_);
        return *this;
    }
    // "  key: value\n" with the key and value written as YAML scalars.
    Text& entry(std::string_view indent, std::string_view key, std::string_view value) {
        buffer_ += indent;
        appendYamlScalar(key, kStrings, buffer_);
        buffer_ += ": ";
        appendYamlScalar(value, kStrings, buffer_);
        buffer_ += '\n';
        return *this;
    }
    void endDocument() {
        if (buffer_.size() >= kFlush) flush();
    }
    void flush() {
        out_.write(buffer_);
        buffer_.clear();
    }

  private:
    static constexpr size_t kFlush = size_t(1) << 20;
    live::SnapshotOutput& out_;
    std::string buffer_;
};

std::string wholeSeconds(double s) {
    return std::to_string(int64_t(std::llround(s)));
}

void writeResources(Text& t, std::string_view indent, const ResourceList& r) {
    for (const auto& [name, amount] : r) t.entry(indent, name, formatAmount(name, amount));
}

void writeLabels(Text& t, const HistoryData& d, const std::vector<std::pair<uint32_t, uint32_t>>& labels,
                 const std::string* hostname) {
    if (labels.empty() && !hostname) return;
    t.raw("  labels:\n");
    bool hasHostname = false;
    for (const auto& [k, v] : labels) {
        t.entry("    ", d.strings[k], d.strings[v]);
        hasHostname = hasHostname || d.strings[k] == "kubernetes.io/hostname";
    }
    if (hostname && !hasHostname) t.entry("    ", "kubernetes.io/hostname", *hostname);
}

void writeTiming(Text& t, const ReplayJob& job) {
    t.entry("    ", "gantry.io/arrival", wholeSeconds(job.arrival));
    t.entry("    ", "gantry.io/duration", wholeSeconds(job.duration));
    if (job.openEnded) t.entry("    ", "gantry.io/open-ended", "true");
}

void writePod(Text& t, const HistoryData& d, const PodSeen& seen, const std::string& name,
              const ResourceList& requests, const ReplayJob* job, const std::string* node,
              const std::string& priorityClass) {
    t.raw("---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: ").str(name).raw("\n  namespace: ");
    t.str(d.strings[seen.ns]).raw("\n");
    writeLabels(t, d, seen.labels, nullptr);
    if (job) {
        t.raw("  annotations:\n");
        t.entry("    ", "scheduling.k8s.io/group-name", job->name);
        writeTiming(t, *job);
    }
    t.raw("spec:\n");
    if (node) t.raw("  nodeName: ").str(*node).raw("\n");
    if (!priorityClass.empty()) t.raw("  priorityClassName: ").str(priorityClass).raw("\n");
    t.raw("  containers:\n  - name: main\n");
    if (!requests.empty()) {
        t.raw("    resources:\n      requests:\n");
        writeResources(t, "        ", requests);
    }
    if (node) t.raw("status:\n  phase: Running\n");
    t.endDocument();
}

} // namespace

void writeReplay(const HistoryData& d, const Replay& replay, const WriteHeader& header,
                 live::SnapshotOutput& out) {
    Text t(out);
    int64_t gpus = 0;
    for (const auto& n : d.nodes)
        for (const auto& [name, amount] : n.allocatable)
            if (isGpuResource(name)) gpus += amount;
    t.raw(
        "# Gantry history: what a cluster ran, read from Prometheus (kube-state-metrics) as what-if jobs.\n");
    t.raw("#   prometheus: " + header.server +
          (header.serverVersion.empty() ? "" : " (" + header.serverVersion + ")") + "\n");
    t.raw("#   window: " + formatRfc3339(d.start) + " .. " + formatRfc3339(d.end) + " (" +
          formatSpan(d.end - d.start) + "), step " + formatSpan(d.step) + "\n");
    t.raw("#   nodes: " + std::to_string(d.nodes.size()) + " (" + std::to_string(gpus / 1000) +
          " GPUs); jobs created in the window: " + std::to_string(replay.jobs.size()) + " (" +
          std::to_string(replay.pods) +
          " pods); pods of earlier jobs still running: " + std::to_string(replay.running.size()) + "\n");
    if (!header.written.empty()) t.raw("#   written: " + header.written + "\n");
    t.raw(
        "# gantry.io/arrival is seconds after the window's start; docs/history.md says how jobs are made.\n");

    for (const auto& n : d.nodes) {
        t.raw("---\napiVersion: v1\nkind: Node\nmetadata:\n  name: ").str(n.name).raw("\n");
        writeLabels(t, d, n.labels, &n.name);
        if (n.unschedulable) t.raw("spec:\n  unschedulable: true\n");
        t.raw("status:\n  allocatable:\n");
        writeResources(t, "    ", n.allocatable);
        t.raw("  capacity:\n");
        writeResources(t, "    ", n.allocatable);
        t.endDocument();
    }
    for (const auto& q : replay.queues) {
        t.raw("---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: ").str(q);
        t.raw("\nspec:\n  weight: 1\n");
    }
    // Where every job comes from: the PodGroup's gantry.io/history makes it Gantry's own what-if
    // (snapshots.md), which every profile schedules whatever scheduler its pods once named.
    const std::string history = header.server + " " + formatRfc3339(d.start) + "/" + formatRfc3339(d.end);
    for (const auto& job : replay.jobs) {
        t.raw("---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata:\n  name: ")
            .str(job.name);
        t.raw("\n  namespace: ").str(d.strings[job.ns]).raw("\n  annotations:\n");
        writeTiming(t, job);
        t.entry("    ", "gantry.io/history", history);
        if (!job.ownerKind.empty()) t.entry("    ", "gantry.io/owner", job.ownerKind + "/" + job.ownerName);
        if (job.neverRan) t.entry("    ", "gantry.io/never-ran", "true");
        t.raw("spec:\n  minMember: ")
            .raw(std::to_string(job.minMember))
            .raw("\n  queue: ")
            .str(job.queue)
            .raw("\n");
        if (!job.priorityClass.empty()) t.raw("  priorityClassName: ").str(job.priorityClass).raw("\n");
        ResourceList minResources;
        for (const auto& p : job.pods)
            if (p.inGang) minResources += p.requests;
        if (!minResources.empty()) {
            t.raw("  minResources:\n");
            writeResources(t, "    ", minResources);
        }
        t.raw("status:\n  phase: Pending\n");
        for (const auto& p : job.pods)
            writePod(t, d, d.pods[p.seen], p.name, p.requests, &job, nullptr, job.priorityClass);
    }
    for (const auto& r : replay.running) {
        const PodSeen& seen = d.pods[r.seen];
        const std::string pc = seen.priorityClass ? d.strings[seen.priorityClass] : std::string();
        writePod(t, d, seen, r.name, r.requests, nullptr, &d.strings[r.node], pc);
    }
    t.flush();
}

} // namespace gantry::history
