// Volcano: scheduling.volcano.sh Queue and PodGroup, topology.volcano.sh HyperNode, batch.volcano.sh Job.
#include "gantry/workload_reader.h"
#include "import_state.h"
#include "kubernetes/k8s_fields.h"

#include <algorithm>
#include <map>

namespace gantry::snapshot {

void readVolcanoQueue(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("Queue", {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    spec.checkKeys("Queue",
                   {"weight", "capability", "reclaimable", "guarantee", "deserved", "parent", "priority",
                    "dequeueStrategy", "affinity"},
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
    if (auto affinity = spec["affinity"]; affinity.present()) {
        affinity.checkKeys("Queue affinity", {"nodeGroupAffinity", "nodeGroupAntiAffinity"});
        auto groups = [](const Y& terms, std::vector<std::string>& required,
                         std::vector<std::string>& preferred) {
            terms.checkKeys("Queue affinity", {"requiredDuringSchedulingIgnoredDuringExecution",
                                               "preferredDuringSchedulingIgnoredDuringExecution"});
            required = terms["requiredDuringSchedulingIgnoredDuringExecution"].strings();
            preferred = terms["preferredDuringSchedulingIgnoredDuringExecution"].strings();
        };
        NodeGroupAffinity a;
        groups(affinity["nodeGroupAffinity"], a.required, a.preferred);
        groups(affinity["nodeGroupAntiAffinity"], a.antiRequired, a.antiPreferred);
        q.nodeGroupAffinity = std::move(a);
    }
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
    PodGroup g = podGroupOf(o, "scheduling.volcano.sh/PodGroup");
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

namespace {

// The tasks' start order (spec.tasks[].dependsOn). The webhook refuses a job whose dependencies
// name no task of the job or form a cycle (validateJobCreate's topoSort).
std::vector<TaskDependency> readDependsOn(const std::vector<std::pair<std::string, Y>>& tasks) {
    std::vector<TaskDependency> out;
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < tasks.size(); ++i) index.emplace(tasks[i].first, i);
    std::vector<std::vector<size_t>> after(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i) {
        auto d = tasks[i].second["dependsOn"];
        if (!d.present()) continue;
        d.checkKeys("Job task dependsOn", {"name", "iteration"});
        TaskDependency dep;
        dep.task = tasks[i].first;
        dep.after = d["name"].strings();
        dep.any = d["iteration"].choice("all", {"any", "all"}) == "any" && dep.after.size() > 1;
        for (const auto& name : dep.after) {
            auto it = index.find(name);
            if (it == index.end())
                d["name"].fail("job has dependencies between tasks, but doesn't form a directed acyclic "
                               "graph(DAG): task '" +
                               name + "' is not a task of this job");
            after[i].push_back(it->second);
        }
        if (!dep.after.empty()) out.push_back(std::move(dep));
    }
    // Kahn's walk: every task must come out.
    std::vector<int> waiting(tasks.size(), 0);
    std::vector<std::vector<size_t>> next(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i)
        for (size_t a : after[i]) {
            next[a].push_back(i);
            ++waiting[i];
        }
    std::vector<size_t> ready;
    for (size_t i = 0; i < tasks.size(); ++i)
        if (waiting[i] == 0) ready.push_back(i);
    size_t done = 0;
    while (!ready.empty()) {
        size_t t = ready.back();
        ready.pop_back();
        ++done;
        for (size_t n : next[t])
            if (--waiting[n] == 0) ready.push_back(n);
    }
    if (done != tasks.size())
        for (size_t i = 0; i < tasks.size(); ++i)
            if (waiting[i] > 0)
                tasks[i].second["dependsOn"].fail(
                    "job has dependencies between tasks, but doesn't form a directed acyclic graph(DAG): "
                    "task '" +
                    tasks[i].first + "' waits, through others, for itself");
    return out;
}

} // namespace

// A Volcano Job (or the job a JobFlow makes of a JobTemplate) as the API server stores it once
// Volcano's mutating webhook has run (pkg/webhooks/admission/jobs/mutate/mutate_job.go): a task
// without a name is default<index>; a task without minAvailable gets its replicas, or
// minPartitions x partitionSize when its partitionPolicy sets minPartitions; a job whose
// minAvailable is unset or 0 gets the sum of its tasks' minimums; queue default and scheduler
// volcano when none is named. The job controller then makes the PodGroup <job>-<uid> and a pod
// <job>-<task>-<i> per replica (pkg/controllers/job).
void readVolcanoJobSpec(State& s, const Object& o, const Y& spec, const std::string& uid) {
    spec.checkKeys("Job",
                   {"schedulerName", "minAvailable", "tasks", "queue", "priorityClassName", "networkTopology",
                    "runningEstimate"},
                   {"volumes", "policies", "plugins", "maxRetry", "ttlSecondsAfterFinished", "minSuccess"});
    Expansion e = expansionOf(o, "batch.volcano.sh");
    e.uid = uid;
    e.queue = spec["queue"].str();
    if (e.queue.empty()) e.queue = "default";
    e.specQueue = e.queue;
    e.priorityClassName = spec["priorityClassName"].str();
    e.networkTopology = readNetworkTopologyConstraint(spec["networkTopology"]);
    // The job controller names the PodGroup <job>-<uid> when the job has a UID.
    e.groupName = e.uid.empty() ? o.name : o.name + "-" + e.uid;
    std::string scheduler = spec["schedulerName"].str();
    if (scheduler.empty()) scheduler = "volcano";
    int32_t total = 0, minimums = 0;
    auto items = spec["tasks"].items();
    if (items.empty()) spec.fail("a Volcano Job needs at least one task");
    std::vector<std::pair<std::string, Y>> tasks;
    for (size_t index = 0; index < items.size(); ++index) {
        const Y& t = items[index];
        t.checkKeys("Job task", {"name", "replicas", "minAvailable", "template", "dependsOn"},
                    {"policies", "topologyPolicy", "maxRetry"});
        Expansion::Role role;
        role.role = t["name"].str();
        if (role.role.empty()) role.role = "default" + std::to_string(index);
        if (e.minTaskMember.count(role.role))
            (t["name"].present() ? t["name"] : t).fail("duplicated task name found");
        role.replicas = t["replicas"].i32(0);
        if (role.replicas < 0) t["replicas"].fail("replicas must not be negative");
        auto minAvail = t["minAvailable"].optI32();
        if (minAvail && (*minAvail < 0 || *minAvail > role.replicas))
            t["minAvailable"].fail("minAvailable must be in 0..replicas");
        int32_t taskMin = role.replicas;
        if (minAvail) {
            taskMin = *minAvail;
        } else if (auto partitions = t["partitionPolicy"]; partitions.present()) {
            const int32_t minPartitions = partitions["minPartitions"].i32(0);
            if (minPartitions > 0) taskMin = minPartitions * partitions["partitionSize"].i32(0);
        }
        e.minTaskMember[role.role] = taskMin;
        minimums += taskMin;
        role.pod = readPodTemplate(s, t["template"], "Job");
        // The controller sums the template's requests as written (CalcPGMinResources): a resource
        // with only a limit is not counted there, though the pod's defaulted request is.
        role.minResourcesRequests = role.pod.requestsAsWritten;
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
        tasks.emplace_back(role.role, t);
        e.roles.push_back(std::move(role));
    }
    e.dependsOn = readDependsOn(tasks);
    auto minAvailable = spec["minAvailable"].optI32();
    if (minAvailable && (*minAvailable < 0 || *minAvailable > total))
        spec["minAvailable"].fail("minAvailable must be in 0..sum of task replicas");
    e.minMember = minAvailable && *minAvailable > 0 ? *minAvailable : minimums;
    e.durationSeconds = spec["runningEstimate"].durationSeconds(0);
    deferExpansion(s, o, std::move(e));
}

void readVolcanoJob(State& s, const Object& o) {
    o.root.checkKeys("Job", {"apiVersion", "kind", "metadata", "spec", "status"});
    readVolcanoJobSpec(s, o, o.root["spec"], o.root["metadata"]["uid"].str());
}

} // namespace gantry::snapshot
