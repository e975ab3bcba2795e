// Volcano: scheduling.volcano.sh Queue and PodGroup, topology.volcano.sh HyperNode, batch.volcano.sh Job.
#include "gantry/workload_reader.h"
#include "import_state.h"
#include "kubernetes/k8s_fields.h"

#include <algorithm>

namespace gantry::snapshot {

void readVolcanoQueue(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("Queue", {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    spec.checkKeys("Queue",
                   {"weight", "capability", "reclaimable", "guarantee", "deserved", "parent", "priority",
                    "dequeueStrategy"},
                   {"type"});
    Queue q;
    q.name = o.name;
    q.kind = Queue::Kind::Queue;
    q.labels = o.labels;
    q.annotations = o.annotations;
    q.source = o.source;
    q.weight = spec["weight"].i32(1);
    if (q.weight == 0) q.weight = 1; // Volcano's mutating policy turns 0 into the default
    if (q.weight < 0 || q.weight > 65535) spec["weight"].fail("weight must be in 1..65535");
    q.capability = spec["capability"].resources();
    q.deserved = spec["deserved"].resources();
    auto guarantee = spec["guarantee"];
    guarantee.checkKeys("Queue", {"resource"});
    q.guarantee = guarantee["resource"].resources();
    q.reclaimable = spec["reclaimable"].boolean(true);
    q.parent = spec["parent"].str();
    q.priority = spec["priority"].i32(0);
    if (q.priority < 0) spec["priority"].fail("priority must not be negative");
    q.dequeueStrategy = spec["dequeueStrategy"].str();
    if (!q.dequeueStrategy.empty() && q.dequeueStrategy != "fifo" && q.dequeueStrategy != "traverse")
        spec["dequeueStrategy"].fail("expected fifo or traverse, got '" + q.dequeueStrategy + "'");
    auto state = r["status"]["state"];
    if (state.present() && !state.str().empty()) {
        auto st = queueStateFromString(state.str());
        if (!st)
            state.fail("unknown queue state '" + state.str() +
                       "' (expected Open, Closed, Closing or Unknown)");
        q.state = *st;
    }
    s.cluster.queues.push_back(std::move(q));
}

void readVolcanoPodGroup(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("PodGroup", {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    spec.checkKeys("PodGroup", {"minMember", "minTaskMember", "queue", "priorityClassName", "minResources",
                                "networkTopology"});
    // A replayed history's job is the workload under study for every profile, as a template's is.
    PodGroup g = podGroupOf(o, o.annotations.count(key::History) ? "gantry.io/History"
                                                                 : "scheduling.volcano.sh/PodGroup");
    g.minMember = spec["minMember"].i32(0);
    if (g.minMember < 0) spec["minMember"].fail("minMember must not be negative");
    for (const auto& [role, count] : spec["minTaskMember"].entries()) {
        int32_t n = count.i32();
        if (n < 0) count.fail("must not be negative");
        g.minTaskMember[role] = n;
    }
    g.queue = spec["queue"].str();
    g.specQueue = g.queue;
    g.priorityClassName = spec["priorityClassName"].str();
    g.minResources = spec["minResources"].resources();
    g.networkTopology = readNetworkTopologyConstraint(spec["networkTopology"]);
    const std::string phase = r["status"]["phase"].str();
    if (auto p = podGroupPhaseFromString(phase))
        g.phase = *p;
    else
        r["status"]["phase"].fail("unknown PodGroup phase '" + phase +
                                  "' (expected Pending, Inqueue, Running, Unknown or Completed)");
    g.arrivalSeconds = r["metadata"]["annotations"][key::Arrival].durationSeconds(0);
    g.durationSeconds = r["metadata"]["annotations"][key::Duration].durationSeconds(0);
    g.checkpointSeconds = r["metadata"]["annotations"][key::Checkpoint].durationSeconds(0);
    s.cluster.podGroups.push_back(std::move(g));
}

void readHyperNode(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("HyperNode", {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    spec.checkKeys("HyperNode", {"tier", "tierName", "members"});
    HyperNode h;
    h.name = o.name;
    h.source = o.source;
    h.tier = spec["tier"].i32(0);
    if (h.tier < 0) (spec["tier"].present() ? spec["tier"] : spec).fail("tier must be at least 0");
    h.tierName = spec["tierName"].str();
    for (const auto& m : spec["members"].items()) {
        m.checkKeys("HyperNode member", {"type", "selector"});
        HyperNodeMember member;
        std::string type = m["type"].str();
        if (type == "Node")
            member.type = HyperNodeMember::Type::Node;
        else if (type == "HyperNode")
            member.type = HyperNodeMember::Type::HyperNode;
        else
            m["type"].fail("expected Node or HyperNode, got '" + type + "'");
        auto sel = m["selector"];
        sel.checkKeys("HyperNode member", {"exactMatch", "regexMatch", "labelMatch"});
        int kinds = sel["exactMatch"].present() + sel["regexMatch"].present() + sel["labelMatch"].present();
        if (kinds != 1) sel.fail("exactly one of exactMatch, regexMatch, labelMatch is required");
        if (sel["exactMatch"].present()) {
            member.match = HyperNodeMember::Match::Exact;
            member.value = sel["exactMatch"]["name"].str();
            if (member.value.empty()) sel["exactMatch"].fail("exactMatch needs a name");
        } else if (sel["regexMatch"].present()) {
            member.match = HyperNodeMember::Match::Regex;
            member.value = sel["regexMatch"]["pattern"].str();
            if (member.value.empty()) sel["regexMatch"].fail("regexMatch needs a pattern");
        } else {
            if (member.type != HyperNodeMember::Type::Node)
                sel.fail("labelMatch is only allowed for Node members");
            member.match = HyperNodeMember::Match::Label;
            member.selector = readLabelSelector(sel["labelMatch"]);
        }
        h.members.push_back(std::move(member));
    }
    s.cluster.hyperNodes.push_back(std::move(h));
}

void readVolcanoJob(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("Job", {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    spec.checkKeys("Job",
                   {"schedulerName", "minAvailable", "tasks", "queue", "priorityClassName", "networkTopology",
                    "runningEstimate"},
                   {"volumes", "policies", "plugins", "maxRetry", "ttlSecondsAfterFinished", "minSuccess"});
    Expansion e = expansionOf(o, "batch.volcano.sh");
    e.queue = spec["queue"].str("default");
    e.specQueue = e.queue;
    e.priorityClassName = spec["priorityClassName"].str();
    e.networkTopology = readNetworkTopologyConstraint(spec["networkTopology"]);
    // The job controller names the PodGroup <job>-<uid> when the job has a UID.
    std::string uid = r["metadata"]["uid"].str();
    e.groupName = uid.empty() ? o.name : o.name + "-" + uid;
    std::string scheduler = spec["schedulerName"].str("volcano");
    int32_t total = 0;
    auto tasks = spec["tasks"].items();
    if (tasks.empty()) spec.fail("a Volcano Job needs at least one task");
    for (const auto& t : tasks) {
        t.checkKeys("Job task", {"name", "replicas", "minAvailable", "template"},
                    {"policies", "topologyPolicy", "maxRetry", "dependsOn"});
        Expansion::Role role;
        role.role = t["name"].str();
        if (role.role.empty()) t.fail("task has no name");
        role.replicas = t["replicas"].i32(0);
        if (role.replicas < 0) t["replicas"].fail("replicas must not be negative");
        auto minAvail = t["minAvailable"].optI32();
        if (minAvail && (*minAvail < 0 || *minAvail > role.replicas))
            t["minAvailable"].fail("minAvailable must be in 0..replicas");
        e.minTaskMember[role.role] = minAvail.value_or(role.replicas);
        role.pod = readPodTemplate(s, t["template"], "Job");
        if (role.pod.pod.schedulerName == "default-scheduler") role.pod.pod.schedulerName = scheduler;
        if (role.pod.pod.priorityClassName.empty()) role.pod.pod.priorityClassName = e.priorityClassName;
        role.pod.pod.labels[key::TaskSpec] = role.role;
        role.pod.pod.labels[key::VolcanoJobName] = o.name;
        role.pod.pod.annotations[key::TaskSpec] = role.role;
        role.pod.pod.annotations[key::KubeGroupName] = e.groupName;
        std::string jobName = o.name, taskName = role.role;
        role.podName = [jobName, taskName](int i) {
            return jobName + "-" + taskName + "-" + std::to_string(i);
        };
        total += role.replicas;
        e.roles.push_back(std::move(role));
    }
    e.minMember = spec["minAvailable"].i32(total);
    if (e.minMember < 0 || e.minMember > total)
        spec["minAvailable"].fail("minAvailable must be in 0..sum of task replicas");
    e.durationSeconds = spec["runningEstimate"].durationSeconds(0);
    deferExpansion(s, o, std::move(e));
}

} // namespace gantry::snapshot
