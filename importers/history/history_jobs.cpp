#include "history/history_jobs.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace gantry::history {

namespace {

// The queue labels of Volcano (the job controller's pod label and the PodGroup annotation key),
// Kueue and YuniKorn (canonical, then legacy), in the order they are asked.
const char* const kQueueLabels[] = {"volcano.sh/queue-name", "scheduling.volcano.sh/queue-name",
                                    "kueue.x-k8s.io/queue-name", "yunikorn.apache.org/queue", "queue"};

// One pod incarnation's run.
struct Run {
    bool started = false, finished = false, atEnd = false;
    double start = 0, end = 0;
};

Run runOf(const PodSeen& p, const HistoryData& d) {
    Run r;
    // Still there at the end: last seen within two steps of it (one for the step, one for the
    // scrape interval before it).
    r.atEnd = p.lastSeen >= d.end - 2 * d.step;
    r.started = p.started != kNever;
    // A completion time counts when the pod still reported it at its last sample; a container
    // that terminated and was restarted reports one for a moment only.
    r.finished = r.started && p.completion != kNever && p.completionSeen >= p.lastSeen - d.step &&
                 p.completion >= p.started;
    r.start = p.started;
    r.end = r.finished ? p.completion : r.atEnd ? d.end : p.lastSeen;
    if (r.started) r.end = std::max(r.end, r.start);
    return r;
}

std::string lower(std::string s) {
    for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

struct Group {
    uint32_t ns = 0;
    std::string kind, name; // empty kind: a pod without an owner
    std::vector<uint32_t> pods;
};

// Names unique per namespace: the name, else name-<kind>, else name-2, name-3, ...
class UniqueNames {
  public:
    std::string take(uint32_t ns, const std::string& name, const std::string& kind = {}) {
        std::string candidate = name;
        if (!used_.insert(key(ns, candidate)).second) {
            candidate = kind.empty() ? name : name + "-" + lower(kind);
            for (int n = 2; !used_.insert(key(ns, candidate)).second; ++n)
                candidate = name + "-" + std::to_string(n);
        }
        return candidate;
    }

  private:
    static std::string key(uint32_t ns, const std::string& name) { return std::to_string(ns) + "/" + name; }
    std::unordered_set<std::string> used_;
};

} // namespace

ResourceList effectiveRequests(const PodSeen& pod, const StringPool& strings) {
    ResourceList sum, init;
    for (const auto& r : pod.requests) {
        const std::string& name = strings[r.resource];
        if (r.init)
            init.set(name, std::max(init.get(name), r.amount));
        else
            sum.add(name, r.amount);
    }
    return ResourceList::max(sum, init);
}

Replay replayOf(const HistoryData& d) {
    Replay out;
    // Group the incarnations by controller owner (a JobSet's Jobs by their JobSet).
    std::vector<Group> groups;
    std::unordered_map<std::string, uint32_t> groupOf;
    for (uint32_t i = 0; i < d.pods.size(); ++i) {
        const PodSeen& p = d.pods[i];
        if (p.created == kNever) continue; // no kube_pod_created sample: nothing to place in time
        std::string kind = d.strings[p.ownerKind], name = d.strings[p.ownerName];
        if (kind == "Job")
            if (auto it = d.jobSetOfJob.find(d.strings[p.ns] + "/" + name); it != d.jobSetOfJob.end()) {
                kind = "JobSet";
                name = it->second;
            }
        if (kind.empty()) {
            groups.push_back(Group{p.ns, {}, p.name, {i}});
            continue;
        }
        std::string key = std::to_string(p.ns) + '\0' + kind + '\0' + name;
        auto [it, added] = groupOf.emplace(std::move(key), uint32_t(groups.size()));
        if (added) groups.push_back(Group{p.ns, kind, name, {}});
        groups[it->second].pods.push_back(i);
    }

    UniqueNames groupNames, podNames;
    std::set<std::string> queues, priorityClasses;
    std::vector<ReplayJob> jobs;
    for (auto& g : groups) {
        // Incarnations by pod name, oldest first.
        std::sort(g.pods.begin(), g.pods.end(), [&](uint32_t a, uint32_t b) {
            const PodSeen &x = d.pods[a], &y = d.pods[b];
            return x.name != y.name ? x.name < y.name : x.created < y.created;
        });
        double arrival = std::numeric_limits<double>::infinity();
        for (uint32_t i : g.pods) arrival = std::min(arrival, d.pods[i].created);
        struct PodRun {
            uint32_t last = 0; // the latest incarnation
            uint32_t kept = 0; // the incarnation whose run counts: the last that started, else the latest
            Run run;
            double firstStart = std::numeric_limits<double>::infinity();
        };
        std::vector<PodRun> runs;
        for (size_t a = 0; a < g.pods.size();) {
            size_t b = a;
            while (b < g.pods.size() && d.pods[g.pods[b]].name == d.pods[g.pods[a]].name) ++b;
            PodRun pr;
            pr.last = pr.kept = g.pods[b - 1];
            for (size_t k = a; k < b; ++k) {
                const PodSeen& p = d.pods[g.pods[k]];
                if (p.started != kNever) {
                    pr.kept = g.pods[k];
                    pr.firstStart = std::min(pr.firstStart, p.started);
                }
            }
            pr.run = runOf(d.pods[pr.kept], d);
            // A pod re-created after its last run and still waiting at the end is not running.
            if (pr.kept != pr.last && !runOf(d.pods[pr.last], d).started) pr.run.atEnd = false;
            out.restarts += int(b - a - 1);
            runs.push_back(pr);
            a = b;
        }

        if (arrival < d.start) {
            // Created before the window: not a job of it. Pods still running at its end stay where
            // they ran; the others are left out.
            ++out.earlierJobs;
            for (const auto& pr : runs) {
                const bool running = pr.run.started && pr.run.atEnd && !pr.run.finished;
                const PodSeen& p = d.pods[pr.kept];
                if (!running) {
                    ++out.earlierPodsDropped;
                } else if (p.node == 0) {
                    ++out.runningWithoutNode;
                } else {
                    out.running.push_back(RunningPod{pr.kept, podNames.take(p.ns, p.name), p.node,
                                                     effectiveRequests(p, d.strings)});
                }
            }
            continue;
        }

        ReplayJob job;
        job.ns = g.ns;
        job.ownerKind = g.kind;
        job.ownerName = g.kind.empty() ? std::string() : g.name;
        job.name = groupNames.take(g.ns, g.name, g.kind);
        job.arrival = arrival - d.start;
        double firstStart = std::numeric_limits<double>::infinity();
        bool ran = false, waitingAtEnd = false;
        for (const auto& pr : runs) {
            if (pr.run.started) {
                ran = true;
                firstStart = std::min(firstStart, pr.firstStart);
                job.duration = std::max(job.duration, pr.run.end - pr.run.start);
                if (pr.run.atEnd && !pr.run.finished) job.openEnded = true;
            } else if (runOf(d.pods[pr.last], d).atEnd) {
                waitingAtEnd = true;
            }
        }
        job.neverRan = !ran;
        if (job.neverRan) {
            // Never started: still waiting at the end, it runs until the end of the replay (it ran
            // "at least" zero seconds); gone before the end, it leaves at once if it starts.
            job.openEnded = waitingAtEnd;
            job.duration = waitingAtEnd ? 0 : 1;
            ++(waitingAtEnd ? out.neverRanWaiting : out.neverRanGone);
        } else {
            job.duration = std::max(1.0, std::ceil(job.duration));
        }
        for (const auto& pr : runs) {
            const PodSeen& p = d.pods[pr.kept];
            ReplayPod rp{pr.kept, podNames.take(p.ns, p.name), effectiveRequests(p, d.strings)};
            for (const auto& [name, amount] : rp.requests)
                if (isGpuResource(name)) out.gpuMilli += amount;
            rp.inGang = !ran || (pr.run.started && pr.firstStart <= firstStart + d.step);
            job.minMember += rp.inGang;
            job.pods.push_back(std::move(rp));
            if (job.queue.empty())
                for (const char* key : kQueueLabels) {
                    for (const auto& [k, v] : p.labels)
                        if (d.strings[k] == key && !d.strings[v].empty()) job.queue = d.strings[v];
                    if (!job.queue.empty()) break;
                }
            if (job.priorityClass.empty() && p.priorityClass) job.priorityClass = d.strings[p.priorityClass];
        }
        if (job.queue.empty()) job.queue = d.strings[g.ns];
        if (job.minMember < int32_t(job.pods.size())) ++out.staggered;
        out.openEnded += job.openEnded;
        out.pods += int64_t(job.pods.size());
        queues.insert(job.queue);
        if (!job.priorityClass.empty()) priorityClasses.insert(job.priorityClass);
        jobs.push_back(std::move(job));
    }
    std::stable_sort(jobs.begin(), jobs.end(), [&](const ReplayJob& a, const ReplayJob& b) {
        if (a.arrival != b.arrival) return a.arrival < b.arrival;
        if (a.ns != b.ns) return d.strings[a.ns] < d.strings[b.ns];
        return a.name < b.name;
    });
    out.jobs = std::move(jobs);
    out.queues.assign(queues.begin(), queues.end());
    out.priorityClasses.assign(priorityClasses.begin(), priorityClasses.end());
    return out;
}

} // namespace gantry::history
