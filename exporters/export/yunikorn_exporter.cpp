// YuniKorn: the yunikorn-configs ConfigMap (queues.yaml with partition default, the queue tree,
// placement rules, node sort policy, preemption), PriorityClasses, gang-scheduled Job templates
// (yunikorn.apache.org/task-groups) and node label patches.
#include "export/export_support.h"
#include "export/scheduler_conf_writer.h"

#include <algorithm>
#include <functional>
#include <regex>

namespace gantry {

using namespace exporting;

namespace {

constexpr const char* kTarget = "YuniKorn";

std::string yunikornName(const std::string& name) {
    std::string out;
    for (unsigned char c : name)
        out += (std::isalnum(c) || std::string_view("_:#/@-").find(char(c)) != std::string_view::npos)
                   ? char(c)
                   : '_';
    if (out.empty()) out = "queue";
    if (out.size() > 64) out.resize(64);
    return out;
}

// A canonical amount as YuniKorn writes it: vcore in cores or millicores, no fractions elsewhere.
std::string yunikornQuantity(const std::string& resource, int64_t amount, const std::string& owner,
                             Losses& losses, const std::string& field) {
    if (resource == "vcore")
        return amount % 1000 == 0 ? std::to_string(amount / 1000) : std::to_string(amount) + "m";
    if (unitOf(resource) == ResourceUnit::Milli) {
        int64_t whole = (amount + 999) / 1000;
        if (amount % 1000 != 0)
            losses.add("queue", owner, field + "[" + resource + "]",
                       formatAmount(resource, amount) +
                           " is not a whole number and YuniKorn quantities have no "
                           "fractions; rounded up to " +
                           std::to_string(whole));
        return std::to_string(whole);
    }
    return readableAmount(resource, amount); // bytes and counts: 64Gi, 10G, 500M, 110
}

Json resourcesJson(const ResourceList& r, const std::string& owner, Losses& losses,
                   const std::string& field) {
    Json out = Json::object();
    for (const auto& [name, amount] : r) {
        std::string yk = toYuniKornResource(name);
        out[yk] = yunikornQuantity(yk, amount, owner, losses, field);
    }
    return out;
}

Json limitJson(const QueueLimit& l, const std::string& owner, Losses& losses) {
    Json j = Json::object();
    if (!l.description.empty()) j["limit"] = l.description;
    if (!l.users.empty()) j["users"] = l.users;
    if (!l.groups.empty()) j["groups"] = l.groups;
    if (!l.maxResources.empty()) {
        // YuniKorn resources stay in YuniKorn's names in the model.
        Json r = Json::object();
        for (const auto& [name, amount] : l.maxResources)
            r[name] = yunikornQuantity(name, amount, owner, losses, "limits.maxresources");
        j["maxresources"] = r;
    }
    if (l.maxApplications > 0) j["maxapplications"] = l.maxApplications;
    return j;
}

Json ruleJson(const PlacementRule& r) {
    Json j = Json::object();
    j["name"] = r.name;
    if (r.create) j["create"] = true;
    if (!r.value.empty()) j["value"] = r.value;
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

void foreignQueueLosses(const Queue& q, const NeutralQuota& nq, Losses& losses) {
    if (q.kind == Queue::Kind::Queue && !q.resourceGroups.empty())
        losses.queue(q, "flavors",
                     "the Kueue quotas per flavor designed for this queue are not used by YuniKorn (its own "
                     "quotas are)");
    if (q.kind == Queue::Kind::Queue) {
        if (!nq.reserved.empty())
            losses.queue(
                q, "spec.guarantee",
                "YuniKorn has no never-lent reservation; the queue's guaranteed is its deserved share, "
                "which other queues may use while it is idle");
        if (q.weight != 1)
            losses.queue(q, "spec.weight",
                         "YuniKorn queues have no weight (fair sorting uses guaranteed); dropped");
        if (q.priority > 0)
            losses.queue(q, "spec.priority", "Volcano's queue priority has no YuniKorn counterpart; dropped");
        if (!q.reclaimable)
            losses.queue(q, "spec.reclaimable",
                         "YuniKorn preempts any queue above its guaranteed; cannot be kept from reclaim");
        if (q.state == QueueState::Closed || q.state == QueueState::Closing)
            losses.queue(q, "status.state", "YuniKorn queues cannot be closed in queues.yaml; exported open");
        if (q.dequeueStrategy == "traverse")
            losses.queue(q, "spec.dequeueStrategy",
                         "YuniKorn has no traverse ordering (it sorts applications fifo or fair); dropped");
    }
    if (!q.labels.empty() || !q.annotations.empty())
        losses.queue(q, "metadata.labels/annotations", "queues.yaml has no labels or annotations; dropped");
    if (q.kind == Queue::Kind::KueueClusterQueue || q.kind == Queue::Kind::KueueCohort) {
        if (!nq.reserved.empty())
            losses.queue(q, "spec.resourceGroups.lendingLimit",
                         "YuniKorn has no limit on lending; the part kept back (" + nq.reserved.str() +
                             ") is lost");
        if (q.preemption.withinClusterQueue != "Never" || q.preemption.reclaimWithinCohort != "Never" ||
            q.preemption.borrowWithinCohort != "Never")
            losses.queue(q, "spec.preemption",
                         "YuniKorn's preemption is per partition and per queue policy; Kueue's policies are "
                         "not carried over");
        if (q.fairSharingWeight && *q.fairSharingWeight != 1)
            losses.queue(q, "spec.fairSharing.weight", "YuniKorn queues have no weight; dropped");
        if (q.stopPolicy == "Hold" || q.stopPolicy == "HoldAndDrain")
            losses.queue(q, "spec.stopPolicy",
                         "YuniKorn queues cannot be held in queues.yaml; exported open");
    }
}

struct Partition {
    const Project& project;
    const QueueTree& tree;
    std::vector<NeutralQuota>& quota;
    Losses& losses;

    std::string path(int k) const {
        std::string p;
        for (int i = k; i >= 0; i = tree.nodes[size_t(i)].parent) p = "." + tree.nodes[size_t(i)].name + p;
        return "root" + p;
    }

    // A child's max must fit in its ancestors' (component-wise minimum).
    void clampMax(int k, const ResourceList& parentMax) {
        auto& cap = quota[size_t(k)].cap;
        for (auto [res, amount] : cap.entries())
            if (parentMax.has(res) && amount > parentMax.get(res)) {
                losses.queue(*tree.nodes[size_t(k)].queue, "max[" + res + "]",
                             formatAmount(res, amount) + " is more than an ancestor allows; lowered to " +
                                 formatAmount(res, parentMax.get(res)));
                cap.set(res, parentMax.get(res));
            }
        ResourceList effective = parentMax;
        for (const auto& [res, amount] : cap)
            effective.set(res, parentMax.has(res) ? std::min(amount, parentMax.get(res)) : amount);
        for (int c : tree.nodes[size_t(k)].children) clampMax(c, effective);
    }

    Json queueJson(int k) {
        const QueueNode& n = tree.nodes[size_t(k)];
        const Queue& q = *n.queue;
        const NeutralQuota& nq = quota[size_t(k)];
        foreignQueueLosses(q, nq, losses);
        Json j = Json::object();
        j["name"] = n.name;
        if (q.kind == Queue::Kind::YuniKornQueue && q.parentFlag) j["parent"] = true;
        Json res = Json::object();
        if (!nq.entitled.empty())
            res["guaranteed"] = resourcesJson(nq.entitled, n.name, losses, "guaranteed");
        if (!nq.cap.empty()) res["max"] = resourcesJson(nq.cap, n.name, losses, "max");
        if (!res.empty()) j["resources"] = res;
        if (q.kind == Queue::Kind::YuniKornQueue) {
            if (q.maxApplications > 0) j["maxapplications"] = q.maxApplications;
            if (!q.properties.empty()) j["properties"] = q.properties;
            if (!q.adminAcl.empty()) j["adminacl"] = q.adminAcl;
            if (!q.submitAcl.empty()) j["submitacl"] = q.submitAcl;
        } else if (q.dequeueStrategy == "fifo" || q.queueingStrategy == "StrictFIFO") {
            if (n.leaf())
                j["properties"] = Json{{"application.sort.policy", "fifo"}};
            else
                losses.queue(q,
                             q.dequeueStrategy == "fifo" ? "spec.dequeueStrategy" : "spec.queueingStrategy",
                             "fifo ordering applies to applications, which YuniKorn runs in leaf queues "
                             "only; dropped on this parent");
        }
        if (!n.children.empty()) {
            Json children = Json::array();
            for (int c : n.children) children.push_back(queueJson(c));
            j["queues"] = children;
        }
        if (q.kind == Queue::Kind::YuniKornQueue && !q.limits.empty()) {
            Json limits = Json::array();
            for (const auto& l : q.limits) limits.push_back(limitJson(l, n.name, losses));
            j["limits"] = limits;
        }
        return j;
    }

    // Placement: the queue named on the pod first, then namespaces to the queue of the same name.
    Json placementRules() {
        const auto& yk = project.cluster.yunikorn;
        Json rules = Json::array();
        if (yk && !yk->placementRules.empty()) {
            for (const auto& r : yk->placementRules) rules.push_back(ruleJson(r));
            return rules;
        }
        rules.push_back(Json{{"name", "provided"}, {"create", false}});
        std::map<std::string, std::string> nsToQueue; // namespace -> queue name in the source
        for (const auto& lq : project.cluster.localQueues) nsToQueue.emplace(lq.ns, lq.clusterQueue);
        for (const auto& w : project.workloads)
            if (!w.queue.empty()) nsToQueue.emplace(w.ns, w.queue);
        std::set<int> tagParents; // -1 = root
        for (const auto& [ns, queue] : nsToQueue) {
            int k = -1;
            for (size_t i = 0; i < tree.nodes.size(); ++i)
                if (tree.nodes[i].queue->name == queue) k = int(i);
            if (k < 0) continue;
            if (tree.nodes[size_t(k)].name == ns && tree.nodes[size_t(k)].leaf()) {
                tagParents.insert(tree.nodes[size_t(k)].parent);
            } else {
                losses.add(
                    "namespace", ns, "placement",
                    "maps to queue " + path(k) +
                        ", but YuniKorn's placement rules match a namespace only to a "
                        "queue of the same name; its pods must carry the label yunikorn.apache.org/queue=" +
                        path(k) + " (the exported job templates do)");
            }
        }
        for (int parent : tagParents) {
            Json r{{"name", "tag"}, {"value", "namespace"}, {"create", false}};
            if (parent >= 0) r["parent"] = Json{{"name", "fixed"}, {"value", path(parent)}};
            rules.push_back(r);
        }
        return rules;
    }

    Json nodeSortPolicy() {
        const auto& yk = project.cluster.yunikorn;
        if (yk && !yk->nodeSortPolicy.empty()) {
            Json p{{"type", yk->nodeSortPolicy}};
            if (!yk->nodeSortWeights.empty()) p["resourceweights"] = yk->nodeSortWeights;
            return p;
        }
        const PluginOption* binpack = project.volcano.plugin("binpack");
        if (!binpack || binpack->argument("binpack.weight") == std::optional<std::string>("0")) {
            losses.note("node sort policy: fair (the chosen policy does not bin-pack)");
            return Json{{"type", "fair"}};
        }
        Json weights = Json::object();
        auto weight = [&](const std::string& key, const std::string& resource) {
            auto v = binpack->argument(key);
            double w = v ? std::strtod(v->c_str(), nullptr) : 1.0;
            weights[resource] = w < 0 ? 1.0 : w;
        };
        weight("binpack.cpu", "vcore");
        weight("binpack.memory", "memory");
        if (auto extra = binpack->argument("binpack.resources")) {
            std::string list = *extra;
            for (size_t s = 0; s <= list.size();) {
                size_t e = list.find(',', s);
                std::string r = list.substr(s, e == std::string::npos ? std::string::npos : e - s);
                r.erase(0, r.find_first_not_of(' '));
                r.erase(r.find_last_not_of(' ') + 1);
                if (!r.empty()) weight("binpack.resources." + r, r);
                if (e == std::string::npos) break;
                s = e + 1;
            }
        }
        losses.note("node sort policy: binpacking with the binpack plugin's resource weights");
        return Json{{"type", "binpacking"}, {"resourceweights", weights}};
    }

    Json preemption() {
        const auto& yk = project.cluster.yunikorn;
        Json p = Json::object();
        if (yk && (yk->preemptionEnabled || yk->quotaPreemptionEnabled)) {
            if (yk->preemptionEnabled) p["enabled"] = *yk->preemptionEnabled;
            if (yk->quotaPreemptionEnabled) p["quotapreemptionenabled"] = *yk->quotaPreemptionEnabled;
            return p;
        }
        const auto& actions = project.volcano.actions;
        bool preempts = std::find(actions.begin(), actions.end(), "preempt") != actions.end() ||
                        std::find(actions.begin(), actions.end(), "reclaim") != actions.end();
        p["enabled"] = preempts;
        losses.note(std::string("preemption: ") +
                    (preempts ? "enabled (the chosen policy preempts or reclaims)"
                              : "disabled (the chosen policy has neither preempt nor reclaim)"));
        return p;
    }
};

} // namespace

ExportBundle exportYuniKorn(const Project& project, const ExportOptions& options) {
    ExportBundle bundle;
    bundle.target = TargetScheduler::YuniKorn;
    Losses losses(bundle);
    const Cluster& cluster = project.cluster;
    for (const auto& n : cluster.nodes) bundle.clusterCapacity += n.allocatable;
    QueueTree tree = buildQueueTree(cluster);
    nameQueues(tree, yunikornName, "YuniKorn queue name", losses);
    auto quota = neutralQuotas(tree, cluster, kTarget, losses);
    Partition part{project, tree, quota, losses};
    for (int k : tree.topLevel) part.clampMax(k, {});

    Json root = Json::object();
    root["name"] = "root";
    if (tree.root && tree.root->kind == Queue::Kind::YuniKornQueue) {
        if (!tree.root->submitAcl.empty()) root["submitacl"] = tree.root->submitAcl;
        if (!tree.root->adminAcl.empty()) root["adminacl"] = tree.root->adminAcl;
        if (!tree.root->properties.empty()) root["properties"] = tree.root->properties;
        if (tree.root->maxApplications > 0) root["maxapplications"] = tree.root->maxApplications;
    } else {
        root["submitacl"] = "*";
        losses.note("root queue: submitacl '*' (everyone may submit), as YuniKorn's built-in configuration");
    }
    if (tree.root && (!tree.root->capability.empty() || !tree.root->deserved.empty()))
        losses.queue(*tree.root, "quotas",
                     "YuniKorn's root must not set resources (its size is the cluster's); dropped");
    Json children = Json::array();
    for (int k : tree.topLevel) children.push_back(part.queueJson(k));
    if (!children.empty()) root["queues"] = children;
    if (tree.root && tree.root->kind == Queue::Kind::YuniKornQueue && !tree.root->limits.empty()) {
        Json limits = Json::array();
        for (const auto& l : tree.root->limits) limits.push_back(limitJson(l, "root", losses));
        root["limits"] = limits;
    }

    Json partition = Json::object();
    partition["name"] = "default";
    partition["placementrules"] = part.placementRules();
    if (cluster.yunikorn && !cluster.yunikorn->limits.empty() && !root.contains("limits")) {
        Json limits = Json::array();
        for (const auto& l : cluster.yunikorn->limits)
            limits.push_back(limitJson(l, "partition default", losses));
        partition["limits"] = limits;
    }
    partition["preemption"] = part.preemption();
    partition["nodesortpolicy"] = part.nodeSortPolicy();
    partition["queues"] = Json::array({root});
    Json config{{"partitions", Json::array({partition})}};

    Json data = Json::object();
    if (cluster.yunikorn)
        for (const auto& [key, value] : cluster.yunikorn->settings) data[key] = value;
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
                k >= 0 ? part.path(k) : "root." + yunikornName(w.queue.empty() ? w.ns : w.queue);
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
