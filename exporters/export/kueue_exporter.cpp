// Kueue (kueue.x-k8s.io/v1beta2): the policy objects of the engine's mapping (model/kueue_mapping.h,
// which the Kueue profile schedules with): Topology, ResourceFlavors, Cohorts and ClusterQueues,
// LocalQueues; then WorkloadPriorityClasses, suspended Job templates and node label patches.
#include "export/export_support.h"
#include "export/kueue_configuration.h"
#include "export/scheduler_conf_writer.h"
#include "model/kueue_mapping.h"

#include <algorithm>
#include <cmath>

namespace gantry {

using namespace exporting;

namespace {

constexpr const char* kApi = "kueue.x-k8s.io/v1beta2";
constexpr const char* kHostname = "kubernetes.io/hostname";

Json kueueObject(const char* kind, const std::string& name, const std::string& ns = "") {
    return Json{{"apiVersion", kApi}, {"kind", kind}, {"metadata", objectMeta(name, ns)}};
}

std::string weightText(double w) {
    if (std::floor(w) == w && std::fabs(w) < 1e15) return std::to_string(int64_t(w));
    std::string s = std::to_string(w);
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

Json resourceGroupsJson(const std::vector<ResourceGroup>& groups) {
    Json out = Json::array();
    for (const auto& g : groups) {
        Json flavors = Json::array();
        for (const auto& f : g.flavors) {
            Json resources = Json::array();
            for (const auto& r : f.resources) {
                Json j{{"name", r.resource}, {"nominalQuota", readableAmount(r.resource, r.nominal)}};
                if (r.borrowingLimit) j["borrowingLimit"] = readableAmount(r.resource, *r.borrowingLimit);
                if (r.lendingLimit) j["lendingLimit"] = readableAmount(r.resource, *r.lendingLimit);
                resources.push_back(j);
            }
            flavors.push_back(Json{{"name", f.flavor}, {"resources", resources}});
        }
        out.push_back(Json{{"coveredResources", g.coveredResources}, {"flavors", flavors}});
    }
    return out;
}

Json taintsJson(const std::vector<Taint>& taints) {
    Json out = Json::array();
    for (const auto& t : taints) {
        Json j{{"key", t.key}};
        if (!t.value.empty()) j["value"] = t.value;
        j["effect"] = toString(t.effect);
        out.push_back(j);
    }
    return out;
}

Json tolerationsJson(const std::vector<Toleration>& tolerations) {
    Json out = Json::array();
    for (const auto& t : tolerations) out.push_back(tolerationJson(t));
    return out;
}

Json topologyJson(const KueueTopology& t) {
    Json obj = kueueObject("Topology", t.name);
    Json lv = Json::array();
    for (const auto& l : t.levels) lv.push_back(Json{{"nodeLabel", l}});
    obj["spec"] = Json{{"levels", lv}};
    return obj;
}

Json flavorJson(const ResourceFlavor& f) {
    Json obj = kueueObject("ResourceFlavor", f.name);
    Json spec = Json::object();
    if (!f.nodeLabels.empty()) spec["nodeLabels"] = f.nodeLabels;
    if (!f.nodeTaints.empty()) spec["nodeTaints"] = taintsJson(f.nodeTaints);
    if (!f.tolerations.empty()) spec["tolerations"] = tolerationsJson(f.tolerations);
    if (!f.topologyName.empty()) spec["topologyName"] = f.topologyName;
    if (!spec.empty()) obj["spec"] = spec;
    return obj;
}

// A Cohort or a ClusterQueue of the mapping.
Json queueJson(const Queue& q) {
    const bool cohort = q.kind == Queue::Kind::KueueCohort;
    Json obj = kueueObject(cohort ? "Cohort" : "ClusterQueue", q.name);
    if (!q.labels.empty()) obj["metadata"]["labels"] = q.labels;
    if (!q.annotations.empty()) obj["metadata"]["annotations"] = q.annotations;
    Json spec = Json::object();
    if (!q.parent.empty()) spec[cohort ? "parentName" : "cohortName"] = q.parent;
    if (!q.resourceGroups.empty()) spec["resourceGroups"] = resourceGroupsJson(q.resourceGroups);
    if (q.fairSharingWeight) spec["fairSharing"] = Json{{"weight", weightText(*q.fairSharingWeight)}};
    if (!cohort) {
        if (q.namespaceSelector) spec["namespaceSelector"] = labelSelectorJson(*q.namespaceSelector);
        if (!q.queueingStrategy.empty()) spec["queueingStrategy"] = q.queueingStrategy;
        Json p = Json::object();
        if (q.preemption.withinClusterQueue != "Never")
            p["withinClusterQueue"] = q.preemption.withinClusterQueue;
        if (q.preemption.reclaimWithinCohort != "Never")
            p["reclaimWithinCohort"] = q.preemption.reclaimWithinCohort;
        if (q.preemption.borrowWithinCohort != "Never" || q.preemption.borrowMaxPriorityThreshold) {
            Json b{{"policy", q.preemption.borrowWithinCohort}};
            if (q.preemption.borrowMaxPriorityThreshold)
                b["maxPriorityThreshold"] = *q.preemption.borrowMaxPriorityThreshold;
            p["borrowWithinCohort"] = b;
        }
        if (!p.empty()) spec["preemption"] = p;
        if (!q.whenCanBorrow.empty() || !q.whenCanPreempt.empty()) {
            Json ff = Json::object();
            if (!q.whenCanBorrow.empty()) ff["whenCanBorrow"] = q.whenCanBorrow;
            if (!q.whenCanPreempt.empty()) ff["whenCanPreempt"] = q.whenCanPreempt;
            spec["flavorFungibility"] = ff;
        }
        if (!q.stopPolicy.empty()) spec["stopPolicy"] = q.stopPolicy;
    }
    if (!spec.empty()) obj["spec"] = spec;
    return obj;
}

Json localQueueJson(const LocalQueue& lq) {
    Json obj = kueueObject("LocalQueue", lq.name, lq.ns);
    Json spec{{"clusterQueue", lq.clusterQueue}};
    if (lq.fairSharingWeight) spec["fairSharing"] = Json{{"weight", weightText(*lq.fairSharingWeight)}};
    if (!lq.stopPolicy.empty()) spec["stopPolicy"] = lq.stopPolicy;
    obj["spec"] = spec;
    return obj;
}

} // namespace

ExportBundle exportKueue(const Project& project, const ExportOptions& options) {
    ExportBundle bundle;
    bundle.target = TargetScheduler::Kueue;
    Losses losses(bundle);
    const Cluster& cluster = project.cluster;
    for (const auto& n : cluster.nodes) bundle.clusterCapacity += n.allocatable;
    static const std::vector<WorkloadTemplate> none;
    kueue::Mapping mapping = kueue::mapToKueue(cluster, options.workloads ? project.workloads : none);
    losses.replay(mapping.log);
    for (const auto& t : mapping.objects.topologies)
        bundle.objects.push_back({topologyJson(t), "topology.yaml"});
    for (const auto& f : mapping.objects.flavors)
        bundle.objects.push_back({flavorJson(f), "resourceflavors.yaml"});
    for (const auto& q : mapping.objects.queues)
        bundle.objects.push_back(
            {queueJson(q), q.kind == Queue::Kind::KueueCohort ? "cohorts.yaml" : "clusterqueues.yaml"});
    for (const auto& lq : mapping.objects.localQueues)
        bundle.objects.push_back({localQueueJson(lq), "localqueues.yaml"});
    if (project.kueue) {
        const std::string ns = project.kueue->kueueNamespace;
        Json data = Json::object();
        data["controller_manager_config.yaml"] = toYaml(kueueConfigurationJson(*project.kueue));
        bundle.objects.push_back({Json{{"apiVersion", "v1"},
                                       {"kind", "ConfigMap"},
                                       {"metadata", objectMeta("kueue-manager-config", ns)},
                                       {"data", data}},
                                  "kueue-manager-config.yaml"});
        losses.note(
            "Kueue's Configuration is the kueue-manager-config ConfigMap in " + ns +
            " (as its install ships it); Kueue's manager reads it when it starts: restart it after applying");
    } else {
        losses.note(
            "the project has no Kueue Configuration: the one of Kueue's install is kept (none exported)");
    }

    for (const auto& pc : cluster.priorityClasses) {
        if (pc.name.rfind("system-", 0) == 0) continue;
        Json obj = kueueObject("WorkloadPriorityClass", pc.name);
        obj["value"] = pc.value;
        if (!pc.description.empty()) obj["description"] = pc.description;
        if (!pc.workload && (pc.globalDefault || pc.preemptionPolicy == "Never"))
            losses.add("PriorityClass", pc.name, pc.globalDefault ? "globalDefault" : "preemptionPolicy",
                       "a WorkloadPriorityClass has no default flag and no preemption policy; dropped");
        bundle.objects.push_back({obj, "workloadpriorityclasses.yaml"});
    }

    if (options.workloads) {
        std::vector<std::string> tasLevels = mapping.topologyLevels; // without the hostname, top first
        tasLevels.erase(std::remove(tasLevels.begin(), tasLevels.end(), kHostname), tasLevels.end());
        for (const auto& w : project.workloads) {
            auto lq = mapping.localQueueOf.find({w.ns, w.queue});
            if (lq == mapping.localQueueOf.end()) continue; // reported by the mapping
            Labels labels{{"kueue.x-k8s.io/queue-name", lq->second}};
            if (!w.priorityClass.empty()) labels["kueue.x-k8s.io/priority-class"] = w.priorityClass;
            Labels podAnnotations;
            if (w.networkTopology.mode != NetworkTopologyConstraint::Mode::None) {
                if (tasLevels.empty()) {
                    losses.add("workload", w.name, "networkTopology", "no Topology to place it in; dropped");
                } else {
                    size_t tier = 1;
                    if (w.networkTopology.highestTierAllowed)
                        tier = size_t(std::max(1, *w.networkTopology.highestTierAllowed));
                    tier = std::min(tier, tasLevels.size());
                    const std::string& label = tasLevels[tasLevels.size() - tier];
                    bool hard = w.networkTopology.mode == NetworkTopologyConstraint::Mode::Hard;
                    podAnnotations[hard ? "kueue.x-k8s.io/podset-required-topology"
                                        : "kueue.x-k8s.io/podset-preferred-topology"] = label;
                }
            }
            if (!w.preemptable)
                losses.add("workload", w.name, "preemptable",
                           "Kueue has no per-workload opt-out of preemption; dropped");
            Json tmpl = workloadPodTemplate(w, losses, {}, podAnnotations);
            Json spec{{"suspend", true},
                      {"parallelism", w.replicas},
                      {"completions", w.replicas},
                      {"backoffLimit", 0},
                      {"template", tmpl}};
            Labels annotations;
            if (w.minMember > 0 && w.minMember < w.replicas)
                annotations["kueue.x-k8s.io/job-min-parallelism"] = std::to_string(w.minMember);
            Json obj = workloadJob("batch/v1", w, spec, labels, annotations);
            bundle.objects.push_back({obj, "jobs.yaml"});
        }
    }
    addNodeLabelPatches(project, mapping.classes, mapping.classLabels, bundle);
    return bundle;
}

} // namespace gantry
