// YuniKorn: the yunikorn-configs ConfigMap (queues.yaml with the partition, the queue tree,
// placement rules, limits, node sort policy, preemption), PriorityClasses, gang-scheduled Job templates
// (yunikorn.apache.org/task-groups) and node label patches.
#include "export/export_support.h"
#include "export/scheduler_conf_writer.h"
#include "model/yunikorn_mapping.h"

#include <algorithm>
#include <functional>
#include <regex>

namespace gantry {

using namespace exporting;

namespace {

using yunikorn::PartitionConfig;
using yunikorn::QueueConfig;

// A canonical amount as YuniKorn writes it (the mapping made it whole): vcore in cores or
// millicores, every other resource in whole units, bytes as Kubernetes writes them.
std::string yunikornQuantity(const std::string& resource, int64_t amount) {
    if (resource == "vcore")
        return amount % 1000 == 0 ? std::to_string(amount / 1000) : std::to_string(amount) + "m";
    if (unitOf(resource) == ResourceUnit::Milli) return std::to_string(amount / 1000);
    return readableAmount(resource, amount); // bytes and counts: 64Gi, 10G, 500M, 110
}

// Queue resources in the order of their Kubernetes names (cpu first, as vcore).
Json resourcesJson(const ResourceList& r) {
    std::vector<std::pair<std::string, int64_t>> entries(r.begin(), r.end());
    std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        return fromYuniKornResource(a.first) < fromYuniKornResource(b.first);
    });
    Json out = Json::object();
    for (const auto& [name, amount] : entries) out[name] = yunikornQuantity(name, amount);
    return out;
}

Json limitJson(const QueueLimit& l) {
    Json j = Json::object();
    if (!l.description.empty()) j["limit"] = l.description;
    if (!l.users.empty()) j["users"] = l.users;
    if (!l.groups.empty()) j["groups"] = l.groups;
    if (!l.maxResources.empty()) {
        Json r = Json::object();
        for (const auto& [name, amount] : l.maxResources) r[name] = yunikornQuantity(name, amount);
        j["maxresources"] = r;
    }
    if (l.maxApplications > 0) j["maxapplications"] = l.maxApplications;
    return j;
}

Json limitsJson(const std::vector<QueueLimit>& limits) {
    Json out = Json::array();
    for (const auto& l : limits) out.push_back(limitJson(l));
    return out;
}

// Rules Gantry generated spell out create: false after the value (the parent rule's excepted).
Json ruleJson(const PlacementRule& r, bool generated = false) {
    Json j = Json::object();
    j["name"] = r.name;
    if (r.create && !generated) j["create"] = true;
    if (!r.value.empty()) j["value"] = r.value;
    if (generated) j["create"] = r.create;
    if (!r.filterType.empty() || !r.filterUsers.empty() || !r.filterGroups.empty()) {
        Json f = Json::object();
        f["type"] = r.filterType;
        if (!r.filterUsers.empty()) f["users"] = r.filterUsers;
        if (!r.filterGroups.empty()) f["groups"] = r.filterGroups;
        j["filter"] = f;
    }
    if (!r.parent.empty()) j["parent"] = ruleJson(r.parent.front());
    return j;
}

Json childTemplateJson(const ChildTemplate& t) {
    Json j = Json::object();
    if (t.maxApplications > 0) j["maxapplications"] = t.maxApplications;
    if (!t.properties.empty()) j["properties"] = t.properties;
    Json res = Json::object();
    if (!t.guaranteed.empty()) res["guaranteed"] = resourcesJson(t.guaranteed);
    if (!t.max.empty()) res["max"] = resourcesJson(t.max);
    if (!res.empty()) j["resources"] = res;
    return j;
}

Json queueJson(const QueueConfig& q) {
    Json j = Json::object();
    j["name"] = q.name;
    if (q.parent) j["parent"] = true;
    Json res = Json::object();
    if (!q.guaranteed.empty()) res["guaranteed"] = resourcesJson(q.guaranteed);
    if (!q.max.empty()) res["max"] = resourcesJson(q.max);
    if (!res.empty()) j["resources"] = res;
    if (q.maxApplications > 0) j["maxapplications"] = q.maxApplications;
    if (!q.properties.empty()) j["properties"] = q.properties;
    if (!q.adminAcl.empty()) j["adminacl"] = q.adminAcl;
    if (!q.submitAcl.empty()) j["submitacl"] = q.submitAcl;
    if (!q.childTemplate.empty()) j["childtemplate"] = childTemplateJson(q.childTemplate);
    if (!q.queues.empty()) {
        Json children = Json::array();
        for (const auto& c : q.queues) children.push_back(queueJson(c));
        j["queues"] = children;
    }
    if (!q.limits.empty()) j["limits"] = limitsJson(q.limits);
    return j;
}

Json rootJson(const QueueConfig& q) {
    Json root = Json::object();
    root["name"] = "root";
    if (!q.submitAcl.empty()) root["submitacl"] = q.submitAcl;
    if (!q.adminAcl.empty()) root["adminacl"] = q.adminAcl;
    if (!q.properties.empty()) root["properties"] = q.properties;
    if (q.maxApplications > 0) root["maxapplications"] = q.maxApplications;
    if (!q.childTemplate.empty()) root["childtemplate"] = childTemplateJson(q.childTemplate);
    Json children = Json::array();
    for (const auto& c : q.queues) children.push_back(queueJson(c));
    if (!children.empty()) root["queues"] = children;
    if (!q.limits.empty()) root["limits"] = limitsJson(q.limits);
    return root;
}

Json partitionJson(const PartitionConfig& c, Losses& losses) {
    Json partition = Json::object();
    partition["name"] = c.name;
    Json rules = Json::array();
    for (const auto& r : c.placementRules) rules.push_back(ruleJson(r, c.placementGenerated));
    partition["placementrules"] = rules;
    if (!c.limits.empty()) partition["limits"] = limitsJson(c.limits);
    // Unset settings stay unwritten: YuniKorn then applies its own defaults (preemption on, fair).
    Json p = Json::object();
    if (c.preemptionEnabled) p["enabled"] = *c.preemptionEnabled;
    if (c.quotaPreemptionEnabled) p["quotapreemptionenabled"] = *c.quotaPreemptionEnabled;
    if (!p.empty()) partition["preemption"] = p;
    if (!c.nodeSortPolicy.empty()) {
        Json sort{{"type", c.nodeSortPolicy}};
        if (!c.nodeSortWeights.empty()) {
            Json weights = Json::object();
            for (const auto& [resource, weight] : c.nodeSortWeights) weights[resource] = weight;
            sort["resourceweights"] = weights;
        }
        partition["nodesortpolicy"] = sort;
    }
    partition["queues"] = Json::array({rootJson(c.root)});
    if (!c.unmodelled.empty()) {
        // Written by the importer; a hand-edited .gantry may hold anything else.
        const Json kept = Json::parse(c.unmodelled, nullptr, false);
        if (kept.is_object())
            for (const auto& [key, value] : kept.items()) partition[key] = value;
        else
            losses.add("partition", c.name, "unmodelled",
                       "the project's unmodelled partition keys are not a JSON object; not written");
    }
    return partition;
}

} // namespace

ExportBundle exportYuniKorn(const Project& project, const ExportOptions& options) {
    ExportBundle bundle;
    bundle.target = TargetScheduler::YuniKorn;
    Losses losses(bundle);
    const Cluster& cluster = project.cluster;
    for (const auto& n : cluster.nodes) bundle.clusterCapacity += n.allocatable;
    yunikorn::Mapping mapping =
        yunikorn::mapToYuniKorn(cluster, yunikorn::namespaceQueues(cluster, project.workloads));
    losses.replay(mapping.log);
    const QueueTree& tree = mapping.tree;
    Json config{{"partitions", Json::array({partitionJson(mapping.config, losses)})}};

    Json data = Json::object();
    for (const auto& [key, value] : mapping.config.settings) data[key] = value;
    data["queues.yaml"] = toYaml(config);
    bundle.objects.push_back({Json{{"apiVersion", "v1"},
                                   {"kind", "ConfigMap"},
                                   {"metadata", objectMeta("yunikorn-configs", options.yunikornNamespace)},
                                   {"data", data}},
                              "yunikorn-configs.yaml"});
    addPriorityClasses(project, bundle, losses);

    if (options.workloads) {
        ExportBundle scratch;
        for (const auto& w : project.workloads) {
            int k = -1;
            for (size_t i = 0; i < tree.nodes.size(); ++i)
                if (tree.nodes[i].queue->name == w.queue) k = int(i);
            std::string queuePath =
                k >= 0 ? mapping.paths[size_t(k)]
                       : "root." + yunikorn::yunikornQueueName(w.queue.empty() ? w.ns : w.queue);
            if (k < 0)
                losses.add("workload", w.name, "queue",
                           "queue " + w.queue + " is not in the project; pods name " + queuePath);
            if (w.networkTopology.mode != NetworkTopologyConstraint::Mode::None)
                losses.add("workload", w.name, "networkTopology",
                           "YuniKorn has no topology-aware gang placement; dropped");
            std::string role = dnsLabel(w.role.empty() ? "worker" : w.role);
            int32_t minMember = w.minMember > 0 ? w.minMember : w.replicas;
            // The task group describes the pods, so it is built from the same template.
            Json shape = workloadPodTemplate(w, losses, {}, {}, "yunikorn");
            Json group = Json::object();
            group["name"] = role;
            group["minMember"] = minMember;
            Json minResource = Json::object();
            const Json& container = shape["spec"]["containers"][0];
            if (container.contains("resources"))
                for (const char* section : {"requests", "limits"})
                    if (container["resources"].contains(section))
                        for (const auto& [name, value] : container["resources"][section].items())
                            minResource[name] = value;
            group["minResource"] = minResource;
            if (shape["spec"].contains("nodeSelector")) group["nodeSelector"] = shape["spec"]["nodeSelector"];
            if (shape["spec"].contains("tolerations")) group["tolerations"] = shape["spec"]["tolerations"];
            Labels labels{{"yunikorn.apache.org/queue", queuePath}};
            Labels annotations{
                {"yunikorn.apache.org/task-group-name", role},
                {"yunikorn.apache.org/task-groups", Json::array({group}).dump()},
                {"yunikorn.apache.org/schedulingPolicyParameters", "gangSchedulingStyle=Hard"}};
            if (!w.preemptable) annotations["yunikorn.apache.org/allow-preemption"] = "false";
            Losses quiet(scratch); // the shape above already reported the template's losses
            Json tmpl = workloadPodTemplate(w, quiet, labels, annotations, "yunikorn");
            if (!w.priorityClass.empty()) tmpl["spec"]["priorityClassName"] = w.priorityClass;
            Json spec{{"parallelism", w.replicas},
                      {"completions", w.replicas},
                      {"backoffLimit", 0},
                      {"template", tmpl}};
            Json obj = workloadJob("batch/v1", w, spec);
            bundle.objects.push_back({obj, "jobs.yaml"});
        }
    }
    addNodeLabelPatches(project, nodeClasses(cluster), false, bundle);
    return bundle;
}

} // namespace gantry
