#include "history_fixture.h"

#include "prometheus_server.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

namespace gantry::testing {

namespace {

constexpr double kHour = 3600;
constexpr const char* kTarget = "job=\"kube-state-metrics\",instance=\"10.8.0.17:8080\"";

std::string number(double v) {
    char buffer[40];
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        std::snprintf(buffer, sizeof buffer, "%.0f", v);
    else
        std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

std::string quoted(const std::string& v) {
    std::string out = "\"";
    for (char c : v) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + "\"";
}

// kube-state-metrics' label names: invalid characters to '_', then snake case (utils.go labelName).
std::string ksmLabel(const std::string& key) {
    std::string s = key;
    for (auto& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
    std::string out = "label_";
    for (size_t i = 0; i < s.size(); ++i) {
        if (i > 0 && std::isupper(static_cast<unsigned char>(s[i])) &&
            (std::islower(static_cast<unsigned char>(s[i - 1])) ||
             std::isdigit(static_cast<unsigned char>(s[i - 1]))))
            out += '_';
        out += char(std::tolower(static_cast<unsigned char>(s[i])));
    }
    return out;
}

// One series: its labels, and the spans of time over which it reports a value (in time order).
struct Span {
    double from, to, value;
};
struct Series {
    std::string labels;
    std::vector<Span> spans;
};

const char* const kFamilies[] = {"kube_node_status_allocatable",
                                 "kube_node_labels",
                                 "kube_node_spec_unschedulable",
                                 "kube_job_owner",
                                 "kube_pod_created",
                                 "kube_pod_start_time",
                                 "kube_pod_completion_time",
                                 "kube_pod_owner",
                                 "kube_pod_info",
                                 "kube_pod_labels",
                                 "kube_pod_container_resource_requests",
                                 "kube_pod_init_container_resource_requests"};
constexpr int kFamilyCount = int(sizeof kFamilies / sizeof kFamilies[0]);

std::string podKey(const FixturePod& p) {
    return "namespace=" + quoted(p.ns) + ",pod=" + quoted(p.name) + ",uid=" + quoted(p.uid);
}

// The series of a pod in family `f`.
void podSeries(const FixturePod& p, int f, double scrape, std::vector<Series>& out) {
    const std::string key = podKey(p);
    const double c = p.created, g = p.gone;
    const std::string family = kFamilies[f];
    auto split = [&](const std::string& labels, double value) {
        // Series that carry the node: node="" until the pod started, then its node.
        if (p.started) {
            if (*p.started > c) out.push_back({labels + ",node=\"\"", {{c, *p.started - 1e-3, value}}});
            out.push_back({labels + ",node=" + quoted(p.node), {{*p.started, g, value}}});
        } else {
            out.push_back({labels + ",node=\"\"", {{c, g, value}}});
        }
    };
    if (family == "kube_pod_created") {
        out.push_back({key, {{c, g, c}}});
    } else if (family == "kube_pod_start_time") {
        if (p.started) out.push_back({key, {{*p.started, g, *p.started}}});
    } else if (family == "kube_pod_completion_time") {
        Series s{key, {}};
        // A restart: the terminated state shows at the next scrape only.
        if (p.restartedAt) s.spans.push_back({*p.restartedAt, *p.restartedAt + scrape - 1, *p.restartedAt});
        if (p.completion) s.spans.push_back({*p.completion, g, *p.completion});
        if (!s.spans.empty()) out.push_back(s);
    } else if (family == "kube_pod_owner") {
        const bool owned = !p.ownerKind.empty();
        out.push_back({key + ",owner_kind=" + quoted(owned ? p.ownerKind : "") +
                           ",owner_name=" + quoted(owned ? p.ownerName : "") +
                           ",owner_is_controller=" + quoted(owned ? "true" : ""),
                       {{c, g, 1}}});
    } else if (family == "kube_pod_info") {
        std::string labels = key + ",host_ip=\"\",pod_ip=\"\",created_by_kind=" + quoted(p.ownerKind) +
                             ",created_by_name=" + quoted(p.ownerName) +
                             ",priority_class=" + quoted(p.priorityClass) + ",host_network=\"false\"";
        split(labels, 1);
    } else if (family == "kube_pod_labels") {
        std::string labels = key;
        for (const auto& [k, v] : p.labels) labels += "," + ksmLabel(k) + "=" + quoted(v);
        out.push_back({labels, {{c, g, 1}}});
    } else if (family == "kube_pod_container_resource_requests" ||
               family == "kube_pod_init_container_resource_requests") {
        const bool init = family == "kube_pod_init_container_resource_requests";
        for (const auto& ct : p.containers) {
            if (ct.init != init) continue;
            const std::string base = key + ",container=" + quoted(ct.name);
            if (ct.cpu > 0) split(base + ",resource=\"cpu\",unit=\"core\"", ct.cpu);
            if (ct.memory > 0) split(base + ",resource=\"memory\",unit=\"byte\"", double(ct.memory));
            if (ct.gpus > 0) split(base + ",resource=\"nvidia_com_gpu\",unit=\"integer\"", ct.gpus);
        }
    }
}

void nodeSeries(const FixtureNode& n, int f, double from, double to, std::vector<Series>& out) {
    const std::string key = "node=" + quoted(n.name);
    const std::string family = kFamilies[f];
    if (family == "kube_node_status_allocatable") {
        out.push_back({key + ",resource=\"cpu\",unit=\"core\"", {{from, to, n.cpu}}});
        out.push_back({key + ",resource=\"memory\",unit=\"byte\"", {{from, to, double(n.memory)}}});
        out.push_back({key + ",resource=\"pods\",unit=\"integer\"", {{from, to, 110}}});
        if (n.gpus > 0)
            out.push_back(
                {key + ",resource=\"nvidia_com_gpu\",unit=\"integer\"", {{from, to, double(n.gpus)}}});
    } else if (family == "kube_node_labels") {
        std::string labels = key;
        for (const auto& [k, v] : n.labels) labels += "," + ksmLabel(k) + "=" + quoted(v);
        out.push_back({labels, {{from, to, 1}}});
    } else if (family == "kube_node_spec_unschedulable") {
        out.push_back({key, {{from, to, 0}}});
    }
}

struct Writer {
    double grid0, scrape, lo, hi;
    bool target;
    const std::function<void(const std::string&)>& sink;
    std::string buffer;
    int64_t count = 0;
    bool write = true;

    void series(const std::string& family, const Series& s) {
        for (const auto& span : s.spans) {
            // Scrapes at grid0 + k * scrape within the span and the slice.
            const double from = std::max(span.from, lo), to = std::min(span.to, hi);
            double t = grid0 + std::ceil((from - grid0) / scrape) * scrape;
            for (; t <= to && t < hi; t += scrape) {
                ++count;
                if (!write) continue;
                buffer += family;
                buffer += '{';
                buffer += s.labels;
                if (target) {
                    buffer += ',';
                    buffer += kTarget;
                }
                buffer += "} ";
                buffer += number(span.value);
                buffer += ' ';
                buffer += number(t);
                buffer += '\n';
            }
        }
        if (buffer.size() > (size_t(4) << 20)) flush();
    }
    void flush() {
        if (!buffer.empty()) sink(buffer);
        buffer.clear();
    }
};

} // namespace

void HistoryFixture::openMetrics(double from, double to,
                                 const std::function<void(const std::string&)>& sink) const {
    Writer w{dataStart, scrape, from, to, targetLabels, sink, {}, 0, true};
    std::vector<size_t> alive;
    for (size_t i = 0; i < pods.size(); ++i)
        if (pods[i].created < to && pods[i].gone >= from) alive.push_back(i);
    std::vector<Series> series;
    for (int f = 0; f < kFamilyCount; ++f) {
        w.buffer += std::string("# TYPE ") + kFamilies[f] + " gauge\n";
        series.clear();
        for (const auto& n : nodes) nodeSeries(n, f, dataStart, dataEnd, series);
        if (std::string(kFamilies[f]) == "kube_job_owner")
            for (const auto& o : jobOwners)
                series.push_back({"namespace=" + quoted(o.ns) + ",job_name=" + quoted(o.job) +
                                      ",owner_kind=\"JobSet\",owner_name=" + quoted(o.jobSet) +
                                      ",owner_is_controller=\"true\"",
                                  {{o.from, o.to, 1}}});
        for (const auto& s : series) w.series(kFamilies[f], s);
        for (size_t i : alive) {
            series.clear();
            podSeries(pods[i], f, scrape, series);
            for (const auto& s : series) w.series(kFamilies[f], s);
        }
    }
    w.buffer += "# EOF\n";
    w.flush();
}

std::string HistoryFixture::openMetrics() const {
    std::string text;
    openMetrics(dataStart, dataEnd + 1, [&](const std::string& piece) { text += piece; });
    return text;
}

int64_t HistoryFixture::load(const std::string& promtool, const std::string& tsdb, const std::string& scratch,
                             double sliceSeconds, int first, int last) const {
    int64_t bytes = 0;
    int slice = 0;
    for (double from = std::floor(dataStart / sliceSeconds) * sliceSeconds; from <= dataEnd;
         from += sliceSeconds, ++slice) {
        if (slice < first || slice >= last) continue;
        {
            std::ofstream out(scratch, std::ios::binary | std::ios::trunc);
            openMetrics(from, std::min(from + sliceSeconds, dataEnd + 1), [&](const std::string& s) {
                out << s;
                bytes += int64_t(s.size());
            });
        }
        char hours[32];
        std::snprintf(hours, sizeof hours, "%.0fh", sliceSeconds / 3600);
        createBlocks(promtool, scratch, tsdb, hours);
    }
    std::filesystem::remove(scratch);
    return bytes;
}

int64_t HistoryFixture::samples() const {
    std::function<void(const std::string&)> none = [](const std::string&) {};
    Writer w{dataStart, scrape, dataStart, dataEnd + 1, targetLabels, none, {}, 0, false};
    std::vector<Series> series;
    for (int f = 0; f < kFamilyCount; ++f) {
        series.clear();
        for (const auto& n : nodes) nodeSeries(n, f, dataStart, dataEnd, series);
        for (const auto& s : series) w.series(kFamilies[f], s);
        for (const auto& p : pods) {
            series.clear();
            podSeries(p, f, scrape, series);
            for (const auto& s : series) w.series(kFamilies[f], s);
        }
    }
    return w.count;
}

namespace {

// Builds pods and the truth together.
struct Builder {
    HistoryFixture& f;
    int uids = 0;

    std::string uid() {
        char buffer[48];
        std::snprintf(buffer, sizeof buffer, "6b1f0c2e-4d3a-4e8b-9c71-%012x", ++uids);
        return buffer;
    }

    FixturePod& pod(const std::string& ns, const std::string& name, double created) {
        FixturePod p;
        p.ns = ns;
        p.name = name;
        p.uid = uid();
        p.created = created;
        p.gone = f.dataEnd + 3600; // still there when the data ends
        f.pods.push_back(p);
        return f.pods.back();
    }

    static FixtureContainer gpuContainer(int gpus, double cpu = 8, int64_t memory = int64_t(64) << 30) {
        return FixtureContainer{"main", cpu, memory, gpus, false};
    }

    static std::map<std::string, int64_t> requests(const FixturePod& p) {
        std::map<std::string, int64_t> sum, init;
        auto add = [](std::map<std::string, int64_t>& m, const FixtureContainer& c, bool max) {
            auto put = [&](const char* r, int64_t v) {
                if (v <= 0) return;
                m[r] = max ? std::max(m[r], v) : m[r] + v;
            };
            put("cpu", int64_t(std::llround(c.cpu * 1000)));
            put("memory", c.memory);
            put("nvidia.com/gpu", int64_t(c.gpus) * 1000);
        };
        for (const auto& c : p.containers) add(c.init ? init : sum, c, c.init);
        for (const auto& [r, v] : init) sum[r] = std::max(sum[r], v);
        return sum;
    }

    std::string node(size_t i) const { return f.nodes[i % f.nodes.size()].name; }
};

} // namespace

HistoryFixture scenarioHistory(double start, int extraJobs, uint64_t seed) {
    HistoryFixture f;
    f.start = start;
    f.end = start + 26 * kHour;
    f.dataStart = start - 7 * kHour;
    f.dataEnd = f.end + 10 * 60; // a little after the window: the import must not look past its end
    f.scrape = 30;
    f.step = 60;
    for (int i = 0; i < 8; ++i) {
        FixtureNode n;
        n.name = "gpu-node-" + std::to_string(i + 1);
        n.cpu = 96;
        n.memory = int64_t(1024) << 30;
        n.gpus = 8;
        n.labels = {{"nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"},
                    {"topology.kubernetes.io/zone", i < 4 ? "zone-a" : "zone-b"},
                    {"kubernetes.io/hostname", n.name}};
        f.nodes.push_back(n);
    }
    Builder b{f};
    const double S = f.start, E = f.end;
    auto truthOf = [&](const std::string& ns, const std::string& kind, const std::string& name,
                       double arrival, double duration, bool open, const std::string& queue, int minMember,
                       const std::vector<const FixturePod*>& pods) {
        TruthJob t{ns, kind, name, arrival - S, duration, open, queue, minMember, {}};
        for (const FixturePod* p : pods) t.pods[p->name] = Builder::requests(*p);
        f.truth.push_back(t);
    };

    // 1. A PyTorchJob gang of 4 (Kueue queue label), started together, completed after 1 h.
    {
        std::vector<const FixturePod*> pods;
        double c = S + 1 * kHour + 17;
        for (int i = 0; i < 4; ++i) {
            auto& p =
                b.pod("ml", i == 0 ? "llama-ft-master-0" : "llama-ft-worker-" + std::to_string(i - 1), c + i);
            p.ownerKind = "PyTorchJob";
            p.ownerName = "llama-ft";
            p.started = c + 120 + i;
            p.completion = c + 120 + 3600;
            p.gone = p.completion.value() + 1800;
            p.node = b.node(i);
            p.priorityClass = "training";
            p.labels = {{"kueue.x-k8s.io/queue-name", "team-a"},
                        {"training.kubeflow.org/job-name", "llama-ft"}};
            p.containers = {Builder::gpuContainer(2)};
        }
        for (size_t i = f.pods.size() - 4; i < f.pods.size(); ++i) pods.push_back(&f.pods[i]);
        truthOf("ml", "PyTorchJob", "llama-ft", c, 3600 + 0, false, "team-a", 4, pods);
        f.truth.back().duration = 3600; // the master ran 1 h; the workers started up to 3 s later
    }
    // 2. A Volcano Job (owner kind Job, Volcano's queue label): 2 x 8 GPUs, still running at the end.
    {
        double c = S + 20 * kHour;
        for (int i = 0; i < 2; ++i) {
            auto& p = b.pod("research", "pretrain-worker-" + std::to_string(i), c);
            p.ownerKind = "Job";
            p.ownerName = "pretrain";
            p.started = c + 300;
            p.node = b.node(4 + i);
            p.labels = {{"volcano.sh/queue-name", "research"}, {"volcano.sh/job-name", "pretrain"}};
            p.containers = {Builder::gpuContainer(8, 90, int64_t(900) << 30)};
        }
        truthOf("research", "Job", "pretrain", c, E - (c + 300), true, "research", 2,
                {&f.pods[f.pods.size() - 2], &f.pods[f.pods.size() - 1]});
    }
    // 3. A batch Job of one pod without a queue label: the namespace is its queue.
    {
        double c = S + 2 * kHour;
        auto& p = b.pod("etl", "nightly-7f2kq", c);
        p.ownerKind = "Job";
        p.ownerName = "nightly";
        p.started = c + 5;
        p.completion = c + 5 + 1234;
        p.gone = *p.completion + 600;
        p.node = b.node(6);
        p.containers = {FixtureContainer{"extract", 4, int64_t(16) << 30, 0, false}};
        truthOf("etl", "Job", "nightly", c, 1234, false, "etl", 1, {&p});
    }
    // 4. A notebook pod of its own, deleted while it ran (no completion time).
    {
        double c = S + 3 * kHour;
        auto& p = b.pod("users", "notebook-alice", c);
        p.started = c + 30;
        p.gone = c + 30 + 5400;
        p.node = b.node(7);
        p.labels = {{"yunikorn.apache.org/queue", "root.sandbox"}};
        p.containers = {Builder::gpuContainer(1, 4, int64_t(32) << 30)};
        truthOf("users", "", "notebook-alice", c, 5400, false, "root.sandbox", 1, {&p});
    }
    // 5. A job that never started and still waits at the end: open-ended, runs until the end.
    {
        double c = S + 25 * kHour;
        auto& p = b.pod("ml", "huge-sweep-worker-0", c);
        p.ownerKind = "PyTorchJob";
        p.ownerName = "huge-sweep";
        p.labels = {{"kueue.x-k8s.io/queue-name", "team-b"}};
        p.containers = {Builder::gpuContainer(8)};
        truthOf("ml", "PyTorchJob", "huge-sweep", c, 0, true, "team-b", 1, {&p});
    }
    // 6. A job that never started and was deleted: it arrives, and leaves as soon as it starts.
    {
        double c = S + 5 * kHour;
        auto& p = b.pod("ml", "cancelled-0", c);
        p.ownerKind = "Job";
        p.ownerName = "cancelled";
        p.gone = c + 900;
        p.containers = {Builder::gpuContainer(4)};
        truthOf("ml", "Job", "cancelled", c, 1, false, "ml", 1, {&p});
    }
    // 7. A JobSet of two batch Jobs with two pods each: one job of four pods.
    {
        double c = S + 6 * kHour;
        std::vector<const FixturePod*> pods;
        for (int j = 0; j < 2; ++j) {
            const std::string job = "disttrain-workers-" + std::to_string(j);
            f.jobOwners.push_back({"ml", job, "disttrain", c, c + 2 * kHour});
            for (int k = 0; k < 2; ++k) {
                auto& p = b.pod("ml", job + "-" + std::to_string(k) + "-x9z", c + 1);
                p.ownerKind = "Job";
                p.ownerName = job;
                p.started = c + 60;
                p.completion = c + 60 + 2400;
                p.gone = *p.completion + 300;
                p.node = b.node(size_t(j * 2 + k));
                p.labels = {{"kueue.x-k8s.io/queue-name", "team-a"},
                            {"jobset.sigs.k8s.io/jobset-name", "disttrain"}};
                p.containers = {Builder::gpuContainer(4)};
            }
        }
        for (size_t i = f.pods.size() - 4; i < f.pods.size(); ++i) pods.push_back(&f.pods[i]);
        truthOf("ml", "JobSet", "disttrain", c + 1, 2400, false, "team-a", 4, pods);
    }
    // 8. A gang whose worker-1 was re-created (a new UID under the same name) and ran again.
    {
        double c = S + 8 * kHour;
        for (int i = 0; i < 2; ++i) {
            auto& p = b.pod("ml", "resnet-worker-" + std::to_string(i), c);
            p.ownerKind = "PyTorchJob";
            p.ownerName = "resnet";
            p.started = c + 10;
            p.completion = c + 10 + 3000;
            p.gone = *p.completion + 600;
            p.node = b.node(size_t(i));
            p.labels = {{"kueue.x-k8s.io/queue-name", "team-b"}};
            p.containers = {Builder::gpuContainer(1)};
        }
        FixturePod& first = f.pods[f.pods.size() - 1];
        first.completion.reset();
        first.gone = c + 10 + 1000; // its node went away
        const FixturePod firstCopy = first;
        auto& again = b.pod("ml", "resnet-worker-1", c + 1020);
        again.ownerKind = "PyTorchJob";
        again.ownerName = "resnet";
        again.started = c + 1100;
        again.completion = c + 1100 + 2500;
        again.gone = *again.completion + 600;
        again.node = b.node(3);
        again.labels = firstCopy.labels;
        again.containers = firstCopy.containers;
        // The pod's run is its last one (2,500 s); the other worker ran 3,000 s: the job's longest.
        truthOf("ml", "PyTorchJob", "resnet", c, 3000, false, "team-b", 1,
                {&f.pods[f.pods.size() - 3], &f.pods[f.pods.size() - 1]});
        // worker-0 started at c+10, worker-1's last run at c+1100: the gang that started together
        // is worker-0 and worker-1's first run (both at c+10).
        f.truth.back().minMember = 2;
    }
    // 9. A container that restarted once: its completion time showed for one scrape, the pod ran on.
    {
        double c = S + 9 * kHour;
        auto& p = b.pod("ml", "flaky-0", c);
        p.ownerKind = "Job";
        p.ownerName = "flaky";
        p.started = c + 20;
        p.restartedAt = c + 20 + 600;
        p.completion = c + 20 + 4000;
        p.gone = *p.completion + 600;
        p.node = b.node(2);
        p.containers = {Builder::gpuContainer(1)};
        truthOf("ml", "Job", "flaky", c, 4000, false, "ml", 1, {&p});
    }
    // 10. A batch Job that ran its three completions one after the other: a gang of one.
    {
        double c = S + 10 * kHour;
        std::vector<const FixturePod*> pods;
        for (int i = 0; i < 3; ++i) {
            auto& p = b.pod("etl", "backfill-" + std::string(1, char('a' + i)), c + i * 1800);
            p.ownerKind = "Job";
            p.ownerName = "backfill";
            p.started = p.created + 5;
            p.completion = *p.started + 1500 + i * 100;
            p.gone = f.dataEnd + 3600;
            p.node = b.node(5);
            p.containers = {FixtureContainer{"load", 2, int64_t(8) << 30, 0, false}};
        }
        for (size_t i = f.pods.size() - 3; i < f.pods.size(); ++i) pods.push_back(&f.pods[i]);
        truthOf("etl", "Job", "backfill", c, 1700, false, "etl", 1, pods);
    }
    // 11. An init container that asks for more memory than the main one: the larger counts.
    {
        double c = S + 11 * kHour;
        auto& p = b.pod("ml", "prep-0", c);
        p.ownerKind = "Job";
        p.ownerName = "prep";
        p.started = c + 40;
        p.completion = c + 40 + 700;
        p.gone = *p.completion + 60;
        p.node = b.node(1);
        p.containers = {Builder::gpuContainer(1, 2, int64_t(8) << 30),
                        FixtureContainer{"download", 1, int64_t(48) << 30, 0, true}};
        p.priorityClass = "batch-low";
        truthOf("ml", "Job", "prep", c, 700, false, "ml", 1, {&p});
    }
    // 12. A ReplicaSet's two pods made in the window and serving to its end.
    {
        double c = S + 12 * kHour;
        std::vector<const FixturePod*> pods;
        for (int i = 0; i < 2; ++i) {
            auto& p = b.pod("serving", "vllm-6d4f9-" + std::string(i ? "qk2lp" : "zt8wm"), c);
            p.ownerKind = "ReplicaSet";
            p.ownerName = "vllm-6d4f9";
            p.started = c + 45;
            p.node = b.node(6 + size_t(i));
            p.labels = {{"app", "vllm"}};
            p.containers = {Builder::gpuContainer(1, 8, int64_t(80) << 30)};
        }
        for (size_t i = f.pods.size() - 2; i < f.pods.size(); ++i) pods.push_back(&f.pods[i]);
        truthOf("serving", "ReplicaSet", "vllm-6d4f9", c, E - (c + 45), true, "serving", 2, pods);
    }
    // 13. Jobs made before the window: one runs through it (its pod stays on its node), one ends inside.
    {
        auto& through = b.pod("research", "long-run-worker-0", S - 6 * kHour);
        through.ownerKind = "PyTorchJob";
        through.ownerName = "long-run";
        through.started = S - 6 * kHour + 60;
        through.node = b.node(3);
        through.containers = {Builder::gpuContainer(4)};
        f.runningThrough.push_back("research/long-run-worker-0@" + through.node);
        auto& ends = b.pod("research", "warmup-0", S - 2 * kHour);
        ends.ownerKind = "Job";
        ends.ownerName = "warmup";
        ends.started = S - 2 * kHour + 30;
        ends.completion = S + 1 * kHour;
        ends.gone = S + 1 * kHour + 300;
        ends.node = b.node(2);
        ends.containers = {Builder::gpuContainer(2)};
    }

    // Random gangs: PyTorchJobs of 1 to 8 pods, started together, most complete, some run to the end.
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0, 1);
    for (int j = 0; j < extraJobs; ++j) {
        const std::string name = "sweep-" + std::to_string(j);
        const int size = 1 << int(unit(rng) * 4);
        const int gpus = unit(rng) < 0.5 ? 1 : 8;
        const double c = S + std::floor(unit(rng) * 25 * kHour);
        const double wait = std::floor(unit(rng) * 900);
        const double run = 300 + std::floor(unit(rng) * 8 * kHour);
        const bool finishes = c + wait + run < E - 300;
        const std::string queue = "team-" + std::string(1, char('a' + j % 3));
        std::vector<const FixturePod*> pods;
        for (int i = 0; i < size; ++i) {
            auto& p = b.pod("sweeps", name + "-worker-" + std::to_string(i), c);
            p.ownerKind = "PyTorchJob";
            p.ownerName = name;
            p.started = c + wait;
            if (finishes) {
                p.completion = c + wait + run;
                p.gone = *p.completion + 900;
            }
            p.node = b.node(size_t(i + j));
            p.labels = {{"kueue.x-k8s.io/queue-name", queue}};
            p.containers = {Builder::gpuContainer(gpus, gpus * 10, int64_t(gpus) * (int64_t(96) << 30))};
        }
        for (size_t i = f.pods.size() - size_t(size); i < f.pods.size(); ++i) pods.push_back(&f.pods[i]);
        truthOf("sweeps", "PyTorchJob", name, c, finishes ? run : E - (c + wait), !finishes, queue, size,
                pods);
    }
    f.priorityClasses = {"batch-low", "training"};
    return f;
}

HistoryFixture largeHistory(double start, int nodes, double days, int64_t pods, double scrape,
                            uint64_t seed) {
    HistoryFixture f;
    f.start = start;
    f.end = start + days * 86400;
    f.dataStart = start;
    f.dataEnd = f.end;
    f.scrape = scrape;
    f.step = scrape;
    f.targetLabels = false; // a tenth of the text, nothing the import reads
    for (int i = 0; i < nodes; ++i) {
        FixtureNode n;
        char name[32];
        std::snprintf(name, sizeof name, "h100-%05d", i);
        n.name = name;
        n.cpu = 192;
        n.memory = int64_t(2048) << 30;
        n.gpus = 8;
        n.labels = {{"nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"},
                    {"topology.kubernetes.io/zone", "zone-" + std::to_string(i * 4 / nodes)},
                    {"topology.gantry.io/rack", "rack-" + std::to_string(i / 16)}};
        f.nodes.push_back(n);
    }
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0, 1);
    std::lognormal_distribution<double> duration(std::log(3600.0), 1.0);
    // Gang sizes (pods) and how often: single pods most, a tail of large gangs of 8-GPU pods.
    const int sizes[] = {1, 1, 1, 1, 1, 2, 4, 8, 16, 64};
    // Mean pods per job, to spread the arrivals over the window.
    double meanSize = 0;
    for (int s : sizes) meanSize += s;
    meanSize /= double(sizeof sizes / sizeof sizes[0]);
    const double jobs = double(pods) / meanSize;
    std::exponential_distribution<double> gap(jobs / (f.end - f.start));
    Builder b{f};
    f.pods.reserve(size_t(pods));
    double t = start;
    int64_t made = 0;
    for (int64_t j = 0; made < pods; ++j) {
        t += gap(rng);
        if (t >= f.end) t = start + unit(rng) * (f.end - start); // keep the count exact
        const int size = int(std::min<int64_t>(sizes[size_t(unit(rng) * 10)], pods - made));
        const int gpus = size == 1 ? 1 << int(unit(rng) * 4) : 8;
        const double c = std::floor(t);
        const double wait = std::floor(unit(rng) * 1200);
        const double run = std::max(60.0, std::floor(std::min(duration(rng), 3 * 86400.0)));
        const double fate = unit(rng);
        const std::string name = "job-" + std::to_string(j);
        const std::string ns = "team-" + std::to_string(j % 20);
        for (int i = 0; i < size; ++i) {
            auto& p = b.pod(ns, name + "-" + std::to_string(i), c);
            p.gone = f.dataEnd + 3600;
            if (fate < 0.1) {
                // a pod of its own (a notebook), deleted after it ran
            } else {
                p.ownerKind = size > 1 ? "PyTorchJob" : "Job";
                p.ownerName = name;
            }
            if (fate > 0.01) {
                p.started = c + wait;
                p.node = b.node(size_t(j * 7 + i));
                if (fate < 0.1)
                    p.gone = c + wait + run;
                else {
                    p.completion = c + wait + run;
                    p.gone = *p.completion + 600;
                }
            } else {
                p.gone = c + wait; // never ran: deleted while waiting
            }
            p.labels = {{"kueue.x-k8s.io/queue-name", "q-" + std::to_string(j % 10)}};
            p.containers = {Builder::gpuContainer(gpus, gpus * 12, int64_t(gpus) * (int64_t(120) << 30))};
        }
        made += size;
    }
    return f;
}

} // namespace gantry::testing
