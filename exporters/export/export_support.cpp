#include "export/export_support.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace gantry::exporting {

void Losses::replay(const LossLog& log) {
    for (const auto& l : log.losses) add(l.what, l.name, l.field, l.message, l.where);
    for (const auto& n : log.notes) note(n);
}

void Losses::add(const std::string& what, const std::string& name, const std::string& field,
                 const std::string& message, const SourceRef& where) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.where = where;
    d.message = what + " " + name + (field.empty() ? std::string() : ", " + field) + ": " + message;
    bundle_.warnings.push_back(std::move(d));
}

std::string readableAmount(const std::string& resource, int64_t amount) {
    if (unitOf(resource) != ResourceUnit::Bytes) return formatAmount(resource, amount);
    std::string binary = formatQuantity(amount, false, true);
    std::string decimal = formatQuantity(amount, false, false);
    return decimal.size() < binary.size() ? decimal : binary;
}

Json quantityMap(const ResourceList& resources) {
    Json out = Json::object();
    for (const auto& [name, amount] : resources) out[name] = readableAmount(name, amount);
    return out;
}

Json objectMeta(const std::string& name, const std::string& ns, const Labels& labels,
                const Labels& annotations) {
    Json m = Json::object();
    m["name"] = name;
    if (!ns.empty()) m["namespace"] = ns;
    if (!labels.empty()) m["labels"] = labels;
    if (!annotations.empty()) m["annotations"] = annotations;
    return m;
}

std::vector<Json> nodeLabelPatches(const Cluster& cluster, const std::vector<NodeClass>& classes) {
    auto levels = usedTopologyLevels(cluster);
    std::vector<Json> out;
    for (const auto& n : cluster.nodes) {
        Labels add;
        if (!n.pool.empty()) {
            // A designed node gets the labels the exported objects select on: topology levels,
            // Gantry's own labels and the labels of the ResourceFlavors.
            for (const auto& level : levels)
                if (auto it = n.labels.find(level.nodeLabel); it != n.labels.end())
                    add[it->first] = it->second;
            for (const auto& [key, value] : n.labels)
                if (key.rfind("gantry.io/", 0) == 0) add[key] = value;
            for (const auto& f : cluster.resourceFlavors)
                for (const auto& [key, value] : f.nodeLabels)
                    if (auto it = n.labels.find(key); it != n.labels.end()) add[key] = it->second;
            add.erase("kubernetes.io/hostname"); // the kubelet's
        }
        for (const auto& c : classes)
            if (c.patchLabel && std::find(c.nodes.begin(), c.nodes.end(), &n) != c.nodes.end())
                add[kNodeClassLabel] = c.name;
        if (add.empty()) continue;
        Json node = Json::object();
        node["apiVersion"] = "v1";
        node["kind"] = "Node";
        node["metadata"] = objectMeta(n.name, "", add);
        out.push_back(std::move(node));
    }
    return out;
}

Json workloadJob(const char* apiVersion, const WorkloadTemplate& w, Json spec, const Labels& labels,
                 Labels annotations) {
    annotations["gantry.io/what-if"] = describeWhatIf(w);
    return Json{{"apiVersion", apiVersion},
                {"kind", "Job"},
                {"metadata", objectMeta(dnsSubdomain(w.name), w.ns, labels, annotations)},
                {"spec", std::move(spec)}};
}

std::vector<NeutralQuota> neutralQuotas(const QueueTree& tree, const Cluster& cluster, const char* target,
                                        Losses& losses) {
    LossLog log;
    auto out = gantry::neutralQuotas(tree, cluster, target, log);
    losses.replay(log);
    return out;
}

void nameQueues(QueueTree& tree, std::string (*valid)(const std::string&), const std::string& rule,
                Losses& losses) {
    LossLog log;
    gantry::nameQueues(tree, valid, rule, log);
    losses.replay(log);
}

Json tolerationJson(const Toleration& t) {
    Json j = Json::object();
    if (!t.key.empty()) j["key"] = t.key;
    j["operator"] = t.exists ? "Exists" : "Equal";
    if (!t.exists && !t.value.empty()) j["value"] = t.value;
    if (t.effect) j["effect"] = toString(*t.effect);
    if (t.tolerationSeconds) j["tolerationSeconds"] = *t.tolerationSeconds;
    return j;
}

namespace {

int64_t meanSeconds(const DurationDistribution& d) {
    double s =
        d.kind == DurationDistribution::Kind::Uniform ? (d.minSeconds + d.maxSeconds) / 2 : d.meanSeconds;
    if (!(s > 0)) return 365 * 24 * 3600; // runs until stopped
    return int64_t(std::ceil(s));
}

const char* arrivalName(ArrivalProcess::Kind k) {
    switch (k) {
    case ArrivalProcess::Kind::Fixed:
        return "fixed";
    case ArrivalProcess::Kind::Poisson:
        return "poisson";
    case ArrivalProcess::Kind::Burst:
        return "burst";
    }
    return "fixed";
}

const char* durationName(DurationDistribution::Kind k) {
    switch (k) {
    case DurationDistribution::Kind::Fixed:
        return "fixed";
    case DurationDistribution::Kind::Exponential:
        return "exponential";
    case DurationDistribution::Kind::Uniform:
        return "uniform";
    case DurationDistribution::Kind::LogNormal:
        return "lognormal";
    }
    return "fixed";
}

std::string number(double v) {
    if (std::floor(v) == v && std::fabs(v) < 1e15) return std::to_string(int64_t(v));
    std::string s = std::to_string(v);
    while (!s.empty() && s.back() == '0') s.pop_back();
    return s;
}

} // namespace

std::string describeWhatIf(const WorkloadTemplate& w) {
    std::string s = "jobs=" + std::to_string(w.jobs) + " arrival=" + arrivalName(w.arrival.kind);
    if (w.arrival.kind == ArrivalProcess::Kind::Poisson) s += " rate=" + number(w.arrival.ratePerHour) + "/h";
    if (w.arrival.kind == ArrivalProcess::Kind::Burst)
        s += " burst=" + std::to_string(w.arrival.burstSize) + " every=" + number(w.arrival.intervalSeconds) +
             "s";
    if (w.arrival.kind == ArrivalProcess::Kind::Fixed && w.arrival.intervalSeconds > 0)
        s += " every=" + number(w.arrival.intervalSeconds) + "s";
    s += " duration=" + std::string(durationName(w.duration.kind));
    s += ' ';
    if (w.duration.kind == DurationDistribution::Kind::Uniform)
        s += number(w.duration.minSeconds) + "s-" + number(w.duration.maxSeconds) + "s";
    else
        s += number(w.duration.meanSeconds) + "s";
    if (w.checkpointSeconds > 0) s += " checkpoint=" + number(w.checkpointSeconds) + "s";
    return s;
}

Json workloadPodTemplate(const WorkloadTemplate& w, Losses& losses, const Labels& labels,
                         const Labels& annotations, const std::string& schedulerName) {
    Json requests = Json::object(), limits = Json::object();
    bool gpuInRequests = false;
    for (const auto& [name, amount] : w.podRequests) {
        if (name == res::Cpu || name == res::Memory || name == res::EphemeralStorage ||
            unitOf(name) == ResourceUnit::Bytes) {
            requests[name] = readableAmount(name, amount);
            continue;
        }
        // Extended resources are whole numbers, set as limits (requests follow them).
        if (isGpuResource(name)) gpuInRequests = true;
        int64_t whole = (amount + 999) / 1000;
        if (amount % 1000 != 0)
            losses.add("workload", w.name, "podRequests[" + name + "]",
                       formatAmount(name, amount) +
                           " is not a whole number; Kubernetes extended resources are "
                           "counted in whole units, so the template asks for " +
                           std::to_string(whole));
        limits[name] = std::to_string(whole);
    }
    if (w.gpu.count > 0 && !gpuInRequests) {
        if (w.gpu.milliPerGpu < 1000)
            losses.add(
                "workload", w.name, "gpu",
                "a share of " + std::to_string(w.gpu.milliPerGpu) +
                    "/1000 of a GPU cannot be requested from the stock device plugin; the template asks for "
                    "whole GPUs");
        limits[std::string(res::NvidiaGpu)] = std::to_string(w.gpu.count);
    }
    if (!w.gpu.models.empty() && w.nodeSelector.empty())
        losses.add("workload", w.name, "gpu.models",
                   "the allowed GPU models are not expressed in the template; add a node selector for them");
    Json container = Json::object();
    container["name"] = dnsLabel(w.role.empty() ? "worker" : w.role);
    container["image"] = "busybox:1.36";
    container["command"] = Json::array({"sleep", std::to_string(meanSeconds(w.duration))});
    Json resources = Json::object();
    if (!requests.empty()) resources["requests"] = requests;
    if (!limits.empty()) resources["limits"] = limits;
    if (!resources.empty()) container["resources"] = resources;
    Json spec = Json::object();
    if (!schedulerName.empty()) spec["schedulerName"] = schedulerName;
    spec["restartPolicy"] = "Never";
    if (!w.nodeSelector.empty()) spec["nodeSelector"] = w.nodeSelector;
    if (!w.tolerations.empty()) {
        Json t = Json::array();
        for (const auto& x : w.tolerations) t.push_back(tolerationJson(x));
        spec["tolerations"] = t;
    }
    spec["containers"] = Json::array({container});
    Json tmpl = Json::object();
    Json meta = Json::object();
    if (!labels.empty()) meta["labels"] = labels;
    if (!annotations.empty()) meta["annotations"] = annotations;
    if (!meta.empty()) tmpl["metadata"] = meta;
    tmpl["spec"] = spec;
    return tmpl;
}

Json labelSelectorJson(const LabelSelector& s) {
    Json j = Json::object();
    if (!s.matchLabels.empty()) j["matchLabels"] = s.matchLabels;
    if (!s.matchExpressions.empty()) {
        Json exprs = Json::array();
        for (const auto& e : s.matchExpressions) {
            Json x{{"key", e.key}, {"operator", toString(e.op)}};
            if (!e.values.empty()) x["values"] = e.values;
            exprs.push_back(x);
        }
        j["matchExpressions"] = exprs;
    }
    return j;
}

} // namespace gantry::exporting
