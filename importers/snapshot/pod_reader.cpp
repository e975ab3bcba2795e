// v1 Pod and pod templates: effective requests as kube-scheduler and Volcano compute them, placement
// constraints, priority, and the gang / role / GPU conventions carried by labels and annotations.
#include "import_state.h"
#include "kubernetes/k8s_fields.h"

#include <algorithm>
#include <charconv>

namespace gantry::snapshot {

namespace {

// A container's requests after API-server defaulting: a resource with a limit and no request
// requests its limit. A request above its limit is an error, except where the API server does not
// check it (a Kueue Workload's pod template: Kueue itself refuses such a workload later). *written
// receives the requests as written (a trainer's resourcesPerNode patch applied).
ResourceList containerRequests(const State& s, const Y& container, const std::string& kind,
                               ResourceList* written) {
    const bool aboveLimitAllowed = s.requestsAboveLimitsAllowed;
    container.checkKeys(kind + " container", {"name", "resources", "restartPolicy"},
                        {"image",
                         "command",
                         "args",
                         "workingDir",
                         "ports",
                         "envFrom",
                         "env",
                         "volumeMounts",
                         "volumeDevices",
                         "livenessProbe",
                         "readinessProbe",
                         "startupProbe",
                         "lifecycle",
                         "terminationMessagePath",
                         "terminationMessagePolicy",
                         "imagePullPolicy",
                         "securityContext",
                         "stdin",
                         "stdinOnce",
                         "tty",
                         "resizePolicy"});
    auto res = container["resources"];
    res.checkKeys(kind, {"requests", "limits", "claims"});
    ResourceList requests = res["requests"].resources(aboveLimitAllowed);
    ResourceList limits = res["limits"].resources(aboveLimitAllowed);
    if (s.containerResources && container["name"].str() == s.containerResources->container) {
        // Merged per resource name, the patch's value winning (a strategic merge of the maps).
        const Y& patch = s.containerResources->resources;
        patch.checkKeys(kind, {"requests", "limits"});
        for (const auto& [name, amount] : patch["requests"].resources()) requests.set(name, amount);
        for (const auto& [name, amount] : patch["limits"].resources()) limits.set(name, amount);
    }
    *written = requests;
    for (const auto& [name, amount] : limits) {
        if (!requests.has(name))
            requests.set(name, amount);
        else if (requests.get(name) > amount && !aboveLimitAllowed)
            res["requests"][name].fail("request " + formatAmount(name, requests.get(name)) +
                                       " exceeds the limit " + formatAmount(name, amount));
    }
    return requests;
}

std::optional<bool> parseGoBool(const std::string& s) {
    if (s == "1" || s == "t" || s == "T" || s == "true" || s == "TRUE" || s == "True") return true;
    if (s == "0" || s == "f" || s == "F" || s == "false" || s == "FALSE" || s == "False") return false;
    return std::nullopt;
}

const std::string* find(const Labels& m, const char* k) {
    auto it = m.find(k);
    return it == m.end() ? nullptr : &it->second;
}

std::optional<int64_t> toInt(const std::string& s) {
    int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

} // namespace

namespace {

// resourcehelper.PodRequests over one reading of the containers' requests: the regular containers
// plus sidecars run together; each plain init container runs alone next to the sidecars started
// before it; pod-level resources (PodLevelResources) override cpu and memory when set.
ResourceList effectiveRequests(const std::vector<ResourceList>& containers,
                               const std::vector<ResourceList>& inits, const std::vector<bool>& sidecar,
                               const ResourceList& podLevel) {
    ResourceList sum;
    for (const auto& c : containers) sum += c;
    ResourceList sidecars, initPeak;
    for (size_t i = 0; i < inits.size(); ++i) {
        ResourceList req = inits[i];
        if (sidecar[i]) {
            sum += req;
            sidecars += req;
            req = sidecars;
        } else {
            req += sidecars;
        }
        initPeak = ResourceList::max(initPeak, req);
    }
    ResourceList requests = ResourceList::max(sum, initPeak);
    for (const auto& [name, amount] : podLevel) requests.set(name, amount);
    return requests;
}

// spec.resourceClaims and the containers' resources.claims, checked as the API server checks them
// (validatePodResourceClaims): each entry named once, with exactly one source; a container names
// only claims of the pod.
void readPodClaims(const Y& spec, Pod& pod) {
    for (const auto& c : spec["resourceClaims"].items()) {
        c.checkKeys("pod resource claim", {"name", "resourceClaimName", "resourceClaimTemplateName"});
        PodResourceClaim claim;
        claim.name = c["name"].str();
        if (claim.name.empty()) c.fail("a pod resource claim needs a name");
        for (const auto& other : pod.resourceClaims)
            if (other.name == claim.name) c["name"].fail("duplicate pod resource claim '" + claim.name + "'");
        claim.resourceClaimName = c["resourceClaimName"].str();
        claim.resourceClaimTemplateName = c["resourceClaimTemplateName"].str();
        if (claim.resourceClaimName.empty() == claim.resourceClaimTemplateName.empty())
            c.fail("pod resource claim '" + claim.name +
                   "' needs exactly one of resourceClaimName and resourceClaimTemplateName");
        pod.resourceClaims.push_back(std::move(claim));
    }
    auto containers = spec["containers"].items();
    for (const auto& c : spec["initContainers"].items()) containers.push_back(c);
    for (const auto& c : containers)
        for (const auto& used : c["resources"]["claims"].items()) {
            used.checkKeys("container resource claim", {"name", "request"});
            std::string name = used["name"].str();
            bool known = false;
            for (const auto& claim : pod.resourceClaims) known = known || claim.name == name;
            if (!known) used["name"].fail("claim '" + name + "' is not in the pod's spec.resourceClaims");
        }
}

} // namespace

void readPodSpec(State& s, const Y& spec, Pod& pod, const std::string& kind,
                 ResourceList* requestsAsWritten) {
    if (!spec.present()) spec.fail("missing pod spec");
    spec.checkKeys(kind,
                   {"containers", "initContainers", "overhead", "nodeSelector", "affinity", "tolerations",
                    "topologySpreadConstraints", "priority", "priorityClassName", "preemptionPolicy",
                    "schedulerName", "nodeName", "resources", "schedulingGates", "resourceClaims"},
                   {"volumes",
                    "restartPolicy",
                    "terminationGracePeriodSeconds",
                    "activeDeadlineSeconds",
                    "dnsPolicy",
                    "dnsConfig",
                    "serviceAccountName",
                    "serviceAccount",
                    "automountServiceAccountToken",
                    "securityContext",
                    "imagePullSecrets",
                    "hostname",
                    "subdomain",
                    "enableServiceLinks",
                    "shareProcessNamespace",
                    "readinessGates",
                    "hostAliases",
                    "setHostnameAsFQDN",
                    "os",
                    "hostUsers",
                    "runtimeClassName",
                    "hostNetwork",
                    "hostPID",
                    "hostIPC",
                    "ephemeralContainers"});
    // Effective request (resourcehelper.PodRequests), after the API server's defaulting and as written.
    auto containers = spec["containers"].items();
    if (containers.empty() && spec["containers"].present())
        spec["containers"].fail("a pod needs at least one container");
    std::vector<ResourceList> main, mainWritten, init, initWritten;
    std::vector<bool> sidecar;
    for (const auto& c : containers) {
        mainWritten.emplace_back();
        main.push_back(containerRequests(s, c, kind, &mainWritten.back()));
    }
    for (const auto& c : spec["initContainers"].items()) {
        initWritten.emplace_back();
        init.push_back(containerRequests(s, c, kind, &initWritten.back()));
        std::string restart = c["restartPolicy"].str();
        if (!restart.empty() && restart != "Always")
            c["restartPolicy"].fail("only Always is allowed for init containers");
        sidecar.push_back(restart == "Always");
    }
    auto podRes = spec["resources"];
    podRes.checkKeys(kind, {"requests", "limits"});
    ResourceList podLimits = podRes["limits"].resources();
    ResourceList podRequests = podRes["requests"].resources();
    ResourceList podRequestsWritten = podRequests;
    for (const auto& [name, amount] : podLimits)
        if (!podRequests.has(name)) podRequests.set(name, amount);
    for (const auto& [name, amount] : podRequests)
        if (name != res::Cpu && name != res::Memory && name.rfind("hugepages-", 0) != 0)
            podRes["requests"][name].fail("pod-level resources support cpu, memory and hugepages only");
    const ResourceList overhead = spec["overhead"].resources();
    // Drop explicit zeros so that "no request" and "0" compare equal.
    auto clean = [&](ResourceList requests) {
        requests += overhead;
        ResourceList out;
        for (const auto& [name, amount] : requests)
            if (amount != 0) out.set(name, amount);
        return out;
    };
    pod.requests = clean(effectiveRequests(main, init, sidecar, podRequests));
    if (requestsAsWritten)
        *requestsAsWritten = clean(effectiveRequests(mainWritten, initWritten, sidecar, podRequestsWritten));

    pod.nodeSelector = spec["nodeSelector"].stringMap();
    auto affinity = spec["affinity"];
    affinity.checkKeys(kind, {"nodeAffinity", "podAffinity", "podAntiAffinity"});
    pod.nodeAffinity = readNodeAffinity(affinity["nodeAffinity"]);
    pod.podAffinity = readPodAffinity(affinity["podAffinity"]);
    pod.podAntiAffinity = readPodAffinity(affinity["podAntiAffinity"]);
    pod.tolerations = readTolerations(spec["tolerations"]);
    pod.topologySpread = readTopologySpread(spec["topologySpreadConstraints"]);
    pod.priority = spec["priority"].optI32();
    pod.priorityClassName = spec["priorityClassName"].str();
    pod.preemptionPolicy = spec["preemptionPolicy"].str();
    if (!pod.preemptionPolicy.empty() && pod.preemptionPolicy != "PreemptLowerPriority" &&
        pod.preemptionPolicy != "Never")
        spec["preemptionPolicy"].fail("expected PreemptLowerPriority or Never, got '" + pod.preemptionPolicy +
                                      "'");
    pod.schedulerName = spec["schedulerName"].str("default-scheduler");
    pod.nodeName = spec["nodeName"].str();
    // The API server's checks (validatePodSchedulingGates): each gate named, no name twice.
    for (const auto& gate : spec["schedulingGates"].items()) {
        gate.checkKeys("scheduling gate", {"name"});
        std::string name = gate["name"].str();
        if (name.empty()) gate["name"].fail("a scheduling gate needs a name");
        if (std::find(pod.schedulingGates.begin(), pod.schedulingGates.end(), name) !=
            pod.schedulingGates.end())
            gate["name"].fail("duplicate scheduling gate '" + name + "'");
        pod.schedulingGates.push_back(std::move(name));
    }
    if (!pod.schedulingGates.empty() && !pod.nodeName.empty())
        spec["nodeName"].fail("nodeName cannot be set until all schedulingGates have been removed");
    readPodClaims(spec, pod);
}

void applyPodConventions(const Y& where, Pod& pod) {
    const Labels& a = pod.annotations;
    const Labels& l = pod.labels;
    if (auto v = find(a, key::KubeGroupName))
        pod.group = *v;
    else if (auto v2 = find(a, key::VolcanoGroupName))
        pod.group = *v2;
    else if (auto v3 = find(l, key::CoschedulingGroup))
        pod.group = *v3;
    else if (auto v4 = find(l, key::CoschedulingGroupLegacy))
        pod.group = *v4;
    // Volcano reads the role from the annotation first, then the label.
    if (auto v = find(a, key::TaskSpec); v && !v->empty())
        pod.role = *v;
    else if (auto v2 = find(l, key::TaskSpec); v2 && !v2->empty())
        pod.role = *v2;
    const std::string* pre = find(a, key::Preemptable);
    if (!pre) pre = find(l, key::Preemptable);
    if (pre) {
        pod.preemptable = parseGoBool(*pre);
        if (!pod.preemptable) {
            where.warn(std::string(key::Preemptable) + "='" + *pre +
                       "' is not a boolean; Volcano treats the pod as not preemptable");
            pod.preemptable = false;
        }
    }

    // Whole GPUs: the first GPU resource requested.
    for (const auto& [name, amount] : pod.requests) {
        if (!isGpuResource(name) || amount == 0) continue;
        if (amount % 1000 != 0)
            where.fail(name + " must be requested in whole devices, got " + formatAmount(name, amount));
        pod.gpu.count = int32_t(amount / 1000);
        pod.gpu.milliPerGpu = 1000;
        break;
    }
    // GPU sharing (Alibaba's open-gpu-share, as in the GPU trace): a share of each of `count` devices.
    if (auto milli = find(a, key::GpuMilli)) {
        auto m = toInt(*milli);
        if (!m || *m < 0 || *m > 1000)
            where.fail("annotation " + std::string(key::GpuMilli) + "='" + *milli +
                       "' must be an integer in 0..1000");
        int64_t count = 1;
        if (auto c = find(a, key::GpuCount)) {
            auto n = toInt(*c);
            if (!n || *n < 0 || *n > 1024)
                where.fail("annotation " + std::string(key::GpuCount) + "='" + *c +
                           "' must be a small non-negative integer");
            count = *n;
        }
        if (*m > 0 && count > 0) {
            pod.gpu.count = int32_t(count);
            pod.gpu.milliPerGpu = int32_t(*m);
        }
    } else if (pod.requests.get(key::VgpuNumber) > 0) {
        // Volcano vGPU: vgpu-number devices, each with vgpu-cores percent of its compute.
        pod.gpu.count = int32_t((pod.requests.get(key::VgpuNumber) + 999) / 1000);
        int64_t cores = pod.requests.get(key::VgpuCores) / 1000;
        pod.gpu.milliPerGpu = cores > 0 && cores < 100 ? int32_t(cores * 10) : 1000;
    }
    if (auto model = find(a, key::GpuCardModel))
        pod.gpu.models = {*model};
    else if (auto sel = find(pod.nodeSelector, key::GpuProduct))
        pod.gpu.models = {*sel};
    else if (auto sel2 = find(pod.nodeSelector, key::GpuCardModel))
        pod.gpu.models = {*sel2};
    if (auto idx = find(a, key::GpuIndex)) {
        // "0", "0,1", "0-3"
        std::string_view rest = *idx;
        while (!rest.empty()) {
            size_t comma = rest.find(',');
            std::string part(rest.substr(0, comma));
            size_t dash = part.find('-');
            auto lo = toInt(part.substr(0, dash));
            auto hi = dash == std::string::npos ? lo : toInt(part.substr(dash + 1));
            if (!lo || !hi || *lo < 0 || *hi < *lo || *hi > 1024) {
                where.warn("annotation " + std::string(key::GpuIndex) + "='" + *idx +
                           "' is not a device list; ignored");
                pod.gpuIndices.clear();
                break;
            }
            for (int64_t i = *lo; i <= *hi; ++i) pod.gpuIndices.push_back(int32_t(i));
            if (comma == std::string::npos) break;
            rest.remove_prefix(comma + 1);
        }
    }
}

std::string queueFromMetadata(const Labels& labels, const Labels& annotations, bool* fromKueue) {
    if (fromKueue) *fromKueue = false;
    if (auto v = find(annotations, key::VolcanoQueueName)) return *v;
    if (auto v = find(labels, key::KueueQueueName)) {
        if (fromKueue) *fromKueue = true;
        return *v;
    }
    if (auto v = find(labels, key::YuniKornQueue)) return *v;
    if (auto v = find(annotations, key::YuniKornQueue)) return *v;
    return {};
}

void readPod(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("Pod", {"apiVersion", "kind", "metadata", "spec", "status"});
    Pod p;
    p.name = o.name;
    p.ns = o.ns;
    p.labels = o.labels;
    p.annotations = o.annotations;
    p.source = o.source;
    auto meta = r["metadata"];
    p.uid = meta["uid"].str();
    p.creationTimestamp = readTimestamp(meta["creationTimestamp"]);
    const Y* owner = nullptr;
    auto owners = meta["ownerReferences"].items();
    for (const auto& ref : owners)
        if (ref["controller"].boolean(false)) owner = &ref;
    if (!owner && !owners.empty()) owner = &owners.front();
    if (owner) {
        std::string apiVersion = (*owner)["apiVersion"].str();
        std::string group =
            apiVersion.find('/') == std::string::npos ? "" : apiVersion.substr(0, apiVersion.find('/'));
        p.ownerKind = (*owner)["kind"].str();
        p.ownerName = (*owner)["name"].str();
        p.ownerUid = (*owner)["uid"].str();
        s.podOwners.emplace(group + "/" + p.ownerKind, p.ns, p.ownerName);
    }
    readPodSpec(s, r["spec"], p, "Pod");
    auto phase = r["status"]["phase"];
    if (phase.present()) {
        auto ph = podPhaseFromString(phase.str());
        if (!ph)
            phase.fail("unknown pod phase '" + phase.str() +
                       "' (expected Pending, Running, Succeeded, Failed or Unknown)");
        p.phase = *ph;
    }
    p.startTime = readTimestamp(r["status"]["startTime"]);
    p.nominatedNodeName = r["status"]["nominatedNodeName"].str();
    // The claims the ResourceClaim controller made from the pod's templates (with their random suffix).
    for (const auto& st : r["status"]["resourceClaimStatuses"].items())
        for (auto& claim : p.resourceClaims)
            if (claim.name == st["name"].str()) claim.generatedClaimName = st["resourceClaimName"].str();
    applyPodConventions(r, p);
    s.cluster.pods.push_back(std::move(p));
}

PodTemplate readPodTemplate(State& s, const Y& tmpl, const std::string& kind) {
    if (!tmpl.present()) tmpl.fail("missing pod template");
    tmpl.checkKeys(kind, {"metadata", "spec"});
    PodTemplate t;
    auto meta = tmpl["metadata"];
    meta.checkKeys(kind, {"labels", "annotations"},
                   {"name", "namespace", "generateName", "creationTimestamp", "finalizers"});
    t.labels = meta["labels"].stringMap();
    t.annotations = meta["annotations"].stringMap();
    readPodSpec(s, tmpl["spec"], t.pod, kind, &t.requestsAsWritten);
    t.pod.labels = t.labels;
    t.pod.annotations = t.annotations;
    return t;
}

} // namespace gantry::snapshot
