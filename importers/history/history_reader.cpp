#include "history/history_reader.h"

#include "history/ksm_names.h"
#include "history/time_text.h"
#include "live/live_error.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <set>

namespace gantry::history {

using live::FailureKind;
using live::LiveError;

uint32_t StringPool::intern(const std::string& s) {
    auto [it, added] = ids_.emplace(s, uint32_t(strings_.size()));
    if (added) strings_.push_back(s);
    return it->second;
}

double chunkSeconds(double window, double step, double maxChunk) {
    double chunk = maxChunk > 0 ? maxChunk : std::min(6.0 * 3600, 1440 * step);
    chunk = std::max(chunk, step);
    return std::min(chunk, std::max(window, step));
}

namespace {

// The queries of one chunk, in the order they run. "%R" is the chunk's range and "%S" the step,
// both in milliseconds; every pod query keeps namespace, pod and uid.
enum Query {
    Seen,
    Created,
    Started,
    Completion,
    CompletionSeen,
    Owner,
    Info,
    Labels,
    Requests,
    InitRequests,
    JobOwner,
    NodeAllocatable,
    NodeLabels,
    NodeUnschedulable,
    QueryCount
};

const char* const kQueries[QueryCount] = {
    "max by (namespace, pod, uid) (max_over_time(timestamp(kube_pod_created)[%R:%S]))",
    "max by (namespace, pod, uid) (max_over_time(kube_pod_created[%R]))",
    "max by (namespace, pod, uid) (max_over_time(kube_pod_start_time[%R]))",
    "max by (namespace, pod, uid) (last_over_time(kube_pod_completion_time[%R]))",
    "max by (namespace, pod, uid) (max_over_time(timestamp(kube_pod_completion_time)[%R:%S]))",
    "max by (namespace, pod, uid, owner_kind, owner_name) "
    "(last_over_time(kube_pod_owner{owner_is_controller=\"true\"}[%R]))",
    "max by (namespace, pod, uid, node, priority_class) (last_over_time(kube_pod_info[%R]))",
    "last_over_time(kube_pod_labels[%R])",
    "max by (namespace, pod, uid, container, resource) "
    "(max_over_time(kube_pod_container_resource_requests[%R]))",
    "max by (namespace, pod, uid, container, resource) "
    "(max_over_time(kube_pod_init_container_resource_requests[%R]))",
    "max by (namespace, job_name, owner_name) "
    "(last_over_time(kube_job_owner{owner_kind=\"JobSet\",owner_is_controller=\"true\"}[%R]))",
    "max by (node, resource) (last_over_time(kube_node_status_allocatable[%R]))",
    "last_over_time(kube_node_labels[%R])",
    "max by (node) (last_over_time(kube_node_spec_unschedulable[%R]))",
};

std::string millis(double seconds) {
    return std::to_string(int64_t(std::llround(seconds * 1000))) + "ms";
}

std::string expand(const char* pattern, double range, double step) {
    std::string out;
    for (const char* p = pattern; *p; ++p) {
        if (p[0] == '%' && p[1] == 'R') {
            out += millis(range);
            ++p;
        } else if (p[0] == '%' && p[1] == 'S') {
            out += millis(step);
            ++p;
        } else {
            out += *p;
        }
    }
    return out;
}

class Merger {
  public:
    explicit Merger(HistoryData& d) : d_(d) {}

    void merge(std::vector<Sample> (&r)[QueryCount]) {
        for (const auto& s : r[Seen])
            if (PodSeen* p = pod(s)) p->lastSeen = std::max(p->lastSeen, s.value);
        for (const auto& s : r[Created])
            if (PodSeen* p = pod(s)) p->created = s.value;
        for (const auto& s : r[Started])
            if (PodSeen* p = pod(s)) p->started = s.value;
        std::unordered_map<std::string, double> completion;
        for (const auto& s : r[Completion])
            if (const std::string* uid = s.label("uid")) completion[*uid] = s.value;
        for (const auto& s : r[CompletionSeen]) {
            const std::string* uid = s.label("uid");
            auto it = uid ? completion.find(*uid) : completion.end();
            if (it == completion.end()) continue;
            if (PodSeen* p = pod(s); p && s.value >= p->completionSeen) {
                p->completion = it->second;
                p->completionSeen = s.value;
            }
        }
        for (const auto& s : r[Owner]) {
            PodSeen* p = pod(s);
            const std::string* kind = s.label("owner_kind");
            const std::string* name = s.label("owner_name");
            if (!p || !kind || !name || kind->empty() || *kind == "<none>") continue;
            p->ownerKind = d_.strings.intern(*kind);
            p->ownerName = d_.strings.intern(*name);
        }
        for (const auto& s : r[Info]) {
            PodSeen* p = pod(s);
            if (!p) continue;
            if (const std::string* node = s.label("node"); node && !node->empty())
                p->node = d_.strings.intern(*node);
            if (const std::string* pc = s.label("priority_class"); pc && !pc->empty())
                p->priorityClass = d_.strings.intern(*pc);
        }
        for (const auto& s : r[Labels])
            if (PodSeen* p = pod(s)) p->labels = objectLabels(s);
        for (int q : {Requests, InitRequests}) {
            for (const auto& s : r[q]) {
                PodSeen* p = pod(s);
                const std::string* container = s.label("container");
                const std::string* resource = s.label("resource");
                if (!p || !container || !resource) continue;
                const uint32_t c = d_.strings.intern(*container);
                const std::string name = resourceName(*resource);
                const uint32_t res = d_.strings.intern(name);
                const int64_t amount = amountOf(name, s.value);
                const bool init = q == InitRequests;
                auto it =
                    std::find_if(p->requests.begin(), p->requests.end(), [&](const PodSeen::Request& x) {
                        return x.container == c && x.resource == res && x.init == init;
                    });
                if (it == p->requests.end())
                    p->requests.push_back({c, res, amount, init});
                else
                    it->amount = std::max(it->amount, amount);
            }
        }
        for (const auto& s : r[JobOwner]) {
            const std::string* ns = s.label("namespace");
            const std::string* job = s.label("job_name");
            const std::string* owner = s.label("owner_name");
            if (ns && job && owner && !owner->empty()) d_.jobSetOfJob[*ns + "/" + *job] = *owner;
        }
        for (const auto& s : r[NodeAllocatable]) {
            NodeSeen* n = node(s);
            const std::string* resource = s.label("resource");
            if (!n || !resource) continue;
            const std::string name = resourceName(*resource);
            n->allocatable.set(name, amountOf(name, s.value));
        }
        for (const auto& s : r[NodeLabels])
            if (NodeSeen* n = node(s)) n->labels = objectLabels(s);
        for (const auto& s : r[NodeUnschedulable])
            if (NodeSeen* n = node(s)) n->unschedulable = s.value > 0;
    }

  private:
    PodSeen* pod(const Sample& s) {
        const std::string* uid = s.label("uid");
        const std::string* ns = s.label("namespace");
        const std::string* name = s.label("pod");
        if (!uid || !ns || !name || uid->empty()) return nullptr;
        auto it = d_.podByUid.find(*uid);
        if (it == d_.podByUid.end()) {
            it = d_.podByUid.emplace(*uid, uint32_t(d_.pods.size())).first;
            PodSeen p;
            p.ns = d_.strings.intern(*ns);
            p.name = *name;
            d_.pods.push_back(std::move(p));
        }
        return &d_.pods[it->second];
    }

    NodeSeen* node(const Sample& s) {
        const std::string* name = s.label("node");
        if (!name || name->empty()) return nullptr;
        auto it = d_.nodeByName.find(*name);
        if (it == d_.nodeByName.end()) {
            it = d_.nodeByName.emplace(*name, uint32_t(d_.nodes.size())).first;
            d_.nodes.push_back(NodeSeen{*name, {}, {}, false});
        }
        return &d_.nodes[it->second];
    }

    std::vector<std::pair<uint32_t, uint32_t>> objectLabels(const Sample& s) {
        std::vector<std::pair<uint32_t, uint32_t>> out;
        for (const auto& [k, v] : s.labels)
            if (auto key = labelKeyOf(k)) out.emplace_back(d_.strings.intern(*key), d_.strings.intern(v));
        return out;
    }

    std::string resourceName(const std::string& sanitized) {
        bool known = true;
        std::string name = resourceNameOf(sanitized, &known);
        if (!known && unknown_.insert(sanitized).second) d_.unknownResources.push_back(sanitized);
        return name;
    }

    HistoryData& d_;
    std::set<std::string> unknown_;
};

} // namespace

HistoryData readHistory(const Endpoint& endpoint, const ReadOptions& options) {
    if (!(options.end > options.start))
        throw LiveError(FailureKind::Config, "the window must end after it starts (" +
                                                 formatRfc3339(options.start) + " .. " +
                                                 formatRfc3339(options.end) + ")");
    if (!(options.step > 0)) throw LiveError(FailureKind::Config, "the step must be positive");
    PrometheusClient client(endpoint, options.timeouts, options.cancel);
    HistoryData data;
    data.start = options.start;
    data.end = options.end;
    data.step = options.step;
    data.serverVersion = client.version();

    const double length = chunkSeconds(options.end - options.start, options.step, options.maxChunk);
    std::deque<std::pair<double, double>> chunks;
    for (double t = options.start; t < options.end; t += length)
        chunks.emplace_back(t, std::min(t + length, options.end));
    Merger merger(data);
    ReadProgress progress;
    progress.chunks = int(chunks.size());
    while (!chunks.empty()) {
        auto [t0, t1] = chunks.front();
        if (options.progress) {
            progress.chunkStart = t0;
            progress.chunkEnd = t1;
            progress.queries = client.queries();
            options.progress(progress);
        }
        std::vector<Sample> results[QueryCount];
        try {
            for (int q = 0; q < QueryCount; ++q)
                results[q] = client.query(expand(kQueries[q], t1 - t0, options.step), t1);
        } catch (const QueryTooLarge& e) {
            if (t1 - t0 <= 2 * options.step)
                throw LiveError(FailureKind::ServerError,
                                "Prometheus at " + client.server() + " cannot answer for even " +
                                    formatSpan(t1 - t0) + " of the window from " + formatRfc3339(t0) + " (" +
                                    e.what() + "); raise its --query.timeout or --query.max-samples");
            const double mid = t0 + std::floor((t1 - t0) / 2 / options.step) * options.step;
            chunks.pop_front();
            chunks.emplace_front(mid, t1);
            chunks.emplace_front(t0, mid);
            ++data.splits;
            ++progress.chunks;
            continue;
        }
        chunks.pop_front();
        merger.merge(results);
        ++data.chunks;
        ++progress.chunk;
        progress.pods = data.pods.size();
        progress.nodes = data.nodes.size();
    }
    data.queries = client.queries();
    data.retries = client.retries();
    if (options.progress) {
        progress.queries = data.queries;
        progress.chunkStart = progress.chunkEnd = options.end;
        progress.done = true;
        options.progress(progress);
    }
    const std::string window = formatRfc3339(options.start) + " to " + formatRfc3339(options.end);
    if (data.nodes.empty() && data.pods.empty())
        throw LiveError(FailureKind::BadResponse,
                        "Prometheus at " + client.server() + " has no kube-state-metrics series from " +
                            window +
                            " (no kube_node_status_allocatable, no kube_pod_created): is kube-state-metrics "
                            "scraped by it, and is the window right?");
    if (data.nodes.empty())
        throw LiveError(FailureKind::BadResponse,
                        "Prometheus at " + client.server() +
                            " has pods but no kube_node_status_allocatable series from " + window +
                            ": without nodes there is no cluster to replay on (is kube-state-metrics' "
                            "nodes collector on?)");
    return data;
}

} // namespace gantry::history
