#include "live/live_import.h"

#include "live/list_stream.h"
#include "live/live_error.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>

namespace gantry::live {

namespace {

struct Wanted {
    const char* group; // "" = core
    const char* resource;
    const char* kind;
    const char* label;
    const char* needs = nullptr; // a resource of the group whose objects these name
};

// API groups Gantry reads when discovery says they are served, with the project's name for each.
struct WantedGroup {
    const char* group;
    const char* product;
    std::vector<Wanted> resources;
};

const std::vector<WantedGroup>& wantedGroups() {
    static const std::vector<WantedGroup> groups = {
        {"scheduling.volcano.sh",
         "Volcano",
         {{"scheduling.volcano.sh", "queues", "Queue", "Volcano queues"}}},
        {"topology.volcano.sh",
         "Volcano network topology",
         {{"topology.volcano.sh", "hypernodes", "HyperNode", "Volcano hypernodes"}}},
        {"kueue.x-k8s.io",
         "Kueue",
         {{"kueue.x-k8s.io", "resourceflavors", "ResourceFlavor", "Kueue resource flavors"},
          {"kueue.x-k8s.io", "topologies", "Topology", "Kueue topologies"},
          {"kueue.x-k8s.io", "cohorts", "Cohort", "Kueue cohorts"},
          {"kueue.x-k8s.io", "clusterqueues", "ClusterQueue", "Kueue cluster queues"},
          {"kueue.x-k8s.io", "localqueues", "LocalQueue", "Kueue local queues", "clusterqueues"},
          {"kueue.x-k8s.io", "workloadpriorityclasses", "WorkloadPriorityClass",
           "Kueue workload priority classes"}}},
        // Dynamic Resource Allocation: GPUs a DRA driver publishes, and the claims that hold them.
        {"resource.k8s.io",
         "Dynamic Resource Allocation",
         {{"resource.k8s.io", "deviceclasses", "DeviceClass", "DRA device classes"},
          {"resource.k8s.io", "resourceslices", "ResourceSlice", "DRA resource slices"},
          {"resource.k8s.io", "resourceclaims", "ResourceClaim", "DRA resource claims"},
          {"resource.k8s.io", "resourceclaimtemplates", "ResourceClaimTemplate",
           "DRA resource claim templates"}}},
    };
    return groups;
}

std::string nowRfc3339() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer;
}

// Discovery: which version of a group serves a resource (preferred version first).
class Discovery {
  public:
    explicit Discovery(ApiClient& api) : api_(api) {
        nlohmann::json doc = api_.getJson("/apis", "the API group list (discovery)");
        if (!doc.is_object() || !doc.contains("groups") || !doc["groups"].is_array())
            throw LiveError(FailureKind::BadResponse, "the answer to GET /apis is not an APIGroupList");
        for (const auto& g : doc["groups"]) {
            if (!g.is_object()) continue;
            std::string name = g.value("name", "");
            std::vector<std::string> versions;
            std::string preferred;
            if (g.contains("preferredVersion") && g["preferredVersion"].is_object())
                preferred = g["preferredVersion"].value("version", "");
            if (!preferred.empty()) versions.push_back(preferred);
            if (g.contains("versions") && g["versions"].is_array())
                for (const auto& v : g["versions"])
                    if (v.is_object() && v.value("version", "") != preferred)
                        versions.push_back(v.value("version", ""));
            groups_[name] = versions;
        }
    }

    bool served(const std::string& group) const { return groups_.count(group) > 0; }

    // "/apis/group/version/resource", or nullopt when no served version has the resource.
    std::optional<std::string> path(const std::string& group, const std::string& resource) {
        auto g = groups_.find(group);
        if (g == groups_.end()) return std::nullopt;
        for (const auto& version : g->second) {
            std::string gv = "/apis/" + group + "/" + version;
            auto cached = resources_.find(gv);
            if (cached == resources_.end()) {
                std::vector<std::string> names;
                if (auto doc = api_.getJsonIfServed(gv, "discovery of " + group + "/" + version);
                    doc && doc->is_object() && doc->contains("resources") && (*doc)["resources"].is_array())
                    for (const auto& r : (*doc)["resources"])
                        if (r.is_object()) names.push_back(r.value("name", ""));
                cached = resources_.emplace(gv, std::move(names)).first;
            }
            for (const auto& name : cached->second)
                if (name == resource) return gv + "/" + resource;
        }
        return std::nullopt;
    }

  private:
    ApiClient& api_;
    std::map<std::string, std::vector<std::string>> groups_;
    std::map<std::string, std::vector<std::string>> resources_;
};

class Importer {
  public:
    Importer(const Connection& connection, SnapshotOutput& out, const ImportOptions& options)
        : api_(connection, options.timeouts, options.retry, options.cancel), out_(out), options_(options) {
        summary_.server = connection.server;
        summary_.context = connection.context;
        summary_.user = connection.user;
        summary_.warnings = connection.warnings;
    }

    ImportSummary run() {
        nlohmann::json version = api_.getJson("/version", "the server version");
        summary_.serverVersion = version.is_object() ? version.value("gitVersion", "") : "";
        Discovery discovery(api_);
        writeHeader();

        readList("/api/v1/namespaces", "", "Namespace", "namespaces");
        if (auto p = discovery.path("scheduling.k8s.io", "priorityclasses"))
            readList(*p, "", "PriorityClass", "priority classes", Need::Optional);
        else
            summary_.notes.push_back(
                "scheduling.k8s.io/priorityclasses is not served: no priority classes read");
        readList("/api/v1/nodes", "", "Node", "nodes");

        for (const auto& group : wantedGroups()) {
            if (!discovery.served(group.group)) {
                summary_.notes.push_back(std::string(group.product) + " is not installed (API group " +
                                         group.group + " is not served)");
                continue;
            }
            std::map<std::string, std::string> refused; // resource -> label
            for (const auto& w : group.resources) {
                if (w.needs && refused.count(w.needs)) {
                    // Objects naming others that could not be read would not import.
                    skipList(std::string(w.label) + " not read: they name " + refused[w.needs] +
                             ", which could not be read");
                    continue;
                }
                if (auto p = discovery.path(w.group, w.resource)) {
                    if (!readList(*p, "", w.kind, w.label, Need::Optional)) refused[w.resource] = w.label;
                } else
                    summary_.notes.push_back(std::string(w.group) + " serves no " + w.resource + ": no " +
                                             w.label + " read");
            }
        }
        // The scheduler configurations live in ConfigMaps whose namespace depends on the install.
        auto yunikorn = readList("/api/v1/configmaps", "fieldSelector=metadata.name%3Dyunikorn-configs",
                                 "ConfigMap", "YuniKorn configuration", Need::Optional);
        if (yunikorn == 0) summary_.notes.push_back("YuniKorn: no yunikorn-configs ConfigMap found");
        bool volcano = discovery.served("scheduling.volcano.sh");
        if (volcano) {
            auto conf =
                readList("/api/v1/configmaps", "fieldSelector=metadata.name%3Dvolcano-scheduler-configmap",
                         "ConfigMap", "Volcano scheduler configuration", Need::Optional);
            if (conf == 0)
                summary_.notes.push_back("Volcano: no volcano-scheduler-configmap ConfigMap found");
            if (auto p = discovery.path("scheduling.volcano.sh", "podgroups"))
                readList(*p, "", "PodGroup", "Volcano pod groups", Need::Optional);
        }
        readList("/api/v1/pods", "fieldSelector=status.phase%21%3DSucceeded%2Cstatus.phase%21%3DFailed",
                 "Pod", "pods");
        if (skippedFinished_ > 0)
            summary_.notes.push_back("skipped " + std::to_string(skippedFinished_) +
                                     " finished pods and completed pod groups");
        summary_.retries = api_.retriesDone();
        summary_.credentialPluginRuns = api_.credentialPluginRuns();
        return summary_;
    }

  private:
    void writeHeader() {
        std::string header = "# Gantry snapshot of a live cluster, read " + nowRfc3339() + "\n";
        header += "# server: " + summary_.server;
        if (!summary_.serverVersion.empty()) header += " (Kubernetes " + summary_.serverVersion + ")";
        header += "\n";
        if (!summary_.context.empty()) header += "# context: " + summary_.context + "\n";
        header += "# Trimmed for planning, with no Secrets or credentials: see docs/live-import.md.\n";
        out_.write(header);
    }

    // Nodes, namespaces and pods are the cluster; without them there is nothing to plan with. The
    // rest (scheduler objects and configurations, priority classes) may be refused by RBAC: the import
    // then goes on and says, in the summary and in the snapshot, what it could not read.
    enum class Need { Required, Optional };

    // The objects written; nullopt when an optional list was refused (403).
    std::optional<size_t> readList(const std::string& path, const std::string& query, const std::string& kind,
                                   const std::string& label, Need need = Need::Required) {
        uint64_t mark = out_.size();
        try {
            return readListOrThrow(path, query, kind, label);
        } catch (const LiveError& e) {
            if (need == Need::Required || e.kind() != FailureKind::Forbidden) throw;
            out_.truncate(mark);
            skipList(label + " not read: " + e.what());
            return std::nullopt;
        }
    }

    void skipList(std::string missing) {
        std::replace(missing.begin(), missing.end(), '\n', ' ');
        out_.write("# MISSING: " + missing + "\n");
        summary_.missing.push_back(missing);
    }

    size_t readListOrThrow(const std::string& path, const std::string& query, const std::string& kind,
                           const std::string& label) {
        uint64_t mark = out_.size();
        size_t written = 0, skipped = 0;
        std::string chunk;
        ImportProgress progress;
        progress.list = label;
        auto readPage = [&](std::istream& json) {
            chunk.clear();
            StreamedPage page = streamListPage(json, kind, chunk);
            out_.write(chunk);
            written += page.written;
            skipped += page.skipped;
            progress.listRead += page.items;
            progress.listExpected.reset();
            if (page.remaining) progress.listExpected = progress.listRead + size_t(*page.remaining);
            progress.totalRead = summary_.objects + written;
            if (options_.progress) options_.progress(progress);
            return page.continueToken;
        };
        auto onRestart = [&] {
            out_.truncate(mark);
            written = skipped = 0;
            progress.listRead = 0;
        };
        ListOutcome outcome = api_.list(path, query, label, options_.pageSize, readPage, onRestart);
        summary_.lists.push_back(ListSummary{label, written, outcome.restarts});
        summary_.objects += written;
        skippedFinished_ += skipped;
        return written;
    }

    ApiClient api_;
    SnapshotOutput& out_;
    const ImportOptions& options_;
    ImportSummary summary_;
    size_t skippedFinished_ = 0;
};

} // namespace

ImportSummary importCluster(const Connection& connection, SnapshotOutput& out, const ImportOptions& options) {
    Importer importer(connection, out, options);
    return importer.run();
}

} // namespace gantry::live
