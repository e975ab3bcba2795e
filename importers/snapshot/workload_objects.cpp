// What-if workloads (batch/v1 Job, JobSet, Kubeflow PyTorchJob / MPIJob / TFJob) expanded into pods
// and an implicit gang, and the coscheduling / Koordinator scheduling.sigs.k8s.io PodGroup.
#include "import_state.h"
#include "replicated_job_order.h"

#include <algorithm>
#include <cctype>

namespace gantry::snapshot {

namespace {

struct Timing {
    double arrival = 0, duration = 0, checkpoint = 0;
};

Timing readTiming(const Y& metadata) {
    auto a = metadata["annotations"];
    return Timing{a[key::Arrival].durationSeconds(0), a[key::Duration].durationSeconds(0),
                  a[key::Checkpoint].durationSeconds(0)};
}

// Pods of a batch/v1 JobSpec that run at once: parallelism, capped by completions.
int32_t runningPods(const Y& jobSpec) {
    int32_t parallelism = jobSpec["parallelism"].i32(1);
    if (parallelism < 0) jobSpec["parallelism"].fail("parallelism must not be negative");
    auto completions = jobSpec["completions"].optI32();
    if (completions && *completions < 0) jobSpec["completions"].fail("completions must not be negative");
    return completions ? std::min(parallelism, *completions) : parallelism;
}

} // namespace

void checkJobSpec(const Y& spec, const std::string& kind) {
    spec.checkKeys(kind, {"parallelism", "completions", "template"},
                   {"completionMode", "suspend", "backoffLimit", "backoffLimitPerIndex", "maxFailedIndexes",
                    "activeDeadlineSeconds", "ttlSecondsAfterFinished", "selector", "manualSelector",
                    "podFailurePolicy", "podReplacementPolicy", "successPolicy", "managedBy"});
}

namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

} // namespace

// The queue a workload asks for: its own metadata first, then its pod template's.
void queueOf(Expansion& e) {
    e.queue = queueFromMetadata(e.labels, e.annotations, &e.queueIsKueueLocal);
    for (const auto& role : e.roles) {
        if (!e.queue.empty()) break;
        e.queue = queueFromMetadata(role.pod.labels, role.pod.annotations, &e.queueIsKueueLocal);
    }
}

int32_t replicasTimes(int32_t jobs, int32_t perJob) {
    return int32_t(std::min<int64_t>(int64_t(jobs) * perJob, INT32_MAX));
}

void addExpansion(State& s, const Y& where, Expansion e) {
    int64_t wanted = 0;
    for (const auto& role : e.roles) wanted += role.replicas;
    if (wanted > kMaxWorkloadPods)
        where.fail("the workload would create " + std::to_string(wanted) + " pods; Gantry expands at most " +
                   std::to_string(kMaxWorkloadPods) + " pods of one workload");
    std::string groupName = e.groupName.empty() ? e.name : e.groupName;
    Timing timing = readTiming(where["metadata"]);
    int32_t total = 0;
    bool ownGroup = false; // pods that name no PodGroup join the workload's implicit gang
    std::vector<Pod> pods;
    std::vector<std::vector<ResourceList>> requestsByRole(e.roles.size());
    for (size_t ri = 0; ri < e.roles.size(); ++ri) {
        const auto& role = e.roles[ri];
        for (int32_t i = 0; i < role.replicas; ++i) {
            Pod p = role.pod.pod;
            p.name = role.podName(i);
            p.ns = e.ns;
            p.phase = PodPhase::Pending;
            p.nodeName.clear();
            p.ownerKind = e.ownerKind;
            p.ownerName = e.name;
            p.ownerUid = e.uid;
            p.source = e.source;
            if (role.role.size() && !p.annotations.count(key::TaskSpec) && !p.labels.count(key::TaskSpec))
                p.role = role.role;
            applyPodConventions(where, p);
            if (p.role.empty()) p.role = role.role;
            if (role.customize) role.customize(s.cluster, i, p);
            if (p.group.empty()) p.group = groupName;
            if (p.group == groupName) ownGroup = true;
            requestsByRole[ri].push_back(role.minResourcesRequests ? *role.minResourcesRequests : p.requests);
            pods.push_back(std::move(p));
            ++total;
        }
    }
    if (total == 0) where.warn("the workload runs no pods (all replicas are 0); nothing to simulate");
    // Pods that finish before others are created (a JobSet's initializer) are not part of the gang
    // that runs together.
    int32_t transient = 0;
    for (const auto& p : pods)
        if (p.runSeconds) ++transient;
    for (auto& p : pods) s.cluster.pods.push_back(std::move(p));
    if (!ownGroup || s.cluster.findPodGroup(e.ns, groupName)) return;

    PodGroup g;
    g.name = groupName;
    g.ns = e.ns;
    g.origin = e.origin;
    g.queue = e.queue;
    g.specQueue = e.specQueue;
    g.priorityClassName = e.priorityClassName;
    if (g.priorityClassName.empty() && !e.roles.empty())
        g.priorityClassName = e.roles.front().pod.pod.priorityClassName;
    g.minMember = e.minMember.value_or(total - transient);
    g.minTaskMember = e.minTaskMember;
    g.networkTopology = e.networkTopology;
    g.dependsOn = e.dependsOn;
    g.creationTimestamp = e.creationTimestamp;
    g.labels = e.labels;
    g.annotations = e.annotations;
    g.phase = PodGroupPhase::Pending;
    g.arrivalSeconds = timing.arrival;
    g.durationSeconds = timing.duration > 0 ? timing.duration : e.durationSeconds;
    g.checkpointSeconds = timing.checkpoint;
    g.source = e.source;
    // minResources: each role's minimum first, then further pods in role order up to minMember.
    int32_t counted = 0;
    std::vector<size_t> used(e.roles.size(), 0);
    for (size_t ri = 0; ri < e.roles.size(); ++ri) {
        auto it = e.minTaskMember.find(e.roles[ri].role);
        size_t want = it == e.minTaskMember.end() ? 0 : size_t(std::max(it->second, 0));
        const auto& list = requestsByRole[ri];
        for (; used[ri] < list.size() && used[ri] < want && counted < g.minMember; ++counted)
            g.minResources += list[used[ri]++];
    }
    for (size_t ri = 0; ri < e.roles.size(); ++ri) {
        const auto& list = requestsByRole[ri];
        for (; used[ri] < list.size() && counted < g.minMember; ++counted) g.minResources += list[used[ri]++];
    }
    if (e.queueIsKueueLocal) s.kueueGroupQueues.emplace_back(g.key(), g.queue);
    s.cluster.podGroups.push_back(std::move(g));
}

Expansion expansionOf(const Object& o, const std::string& group) {
    Expansion e;
    e.ownerGroup = group;
    e.ownerKind = o.kind;
    e.origin = group + "/" + o.kind;
    e.ns = o.ns;
    e.name = o.name;
    e.source = o.source;
    e.labels = o.labels;
    e.annotations = o.annotations;
    e.uid = o.root["metadata"]["uid"].str();
    e.creationTimestamp = o.creationTimestamp;
    return e;
}

void deferExpansion(State& s, const Object& o, Expansion e) {
    s.workloads.push_back(DeferredWorkload{e.ownerGroup, e.ownerKind, e.ns, e.name, e.source, nullptr});
    Y where = o.root;
    s.workloads.back().expand = [&s, where, e = std::move(e)]() { addExpansion(s, where, e); };
}

void readBatchJob(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("Job", {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    checkJobSpec(spec, "Job");
    Expansion e = expansionOf(o, "batch");
    Expansion::Role role;
    role.replicas = runningPods(spec);
    role.pod = readPodTemplate(s, spec["template"], "Job");
    role.pod.pod.labels["batch.kubernetes.io/job-name"] = o.name;
    role.pod.pod.labels["job-name"] = o.name;
    std::string name = o.name;
    role.podName = [name](int i) { return name + "-" + std::to_string(i); };
    e.roles.push_back(std::move(role));
    queueOf(e);
    deferExpansion(s, o, std::move(e));
}

namespace {

// JobSet's labels, annotations and webhooks (kubernetes-sigs/jobset api/jobset/v1alpha2,
// pkg/constants, pkg/webhooks/pod_webhook.go, pkg/controllers/jobset_controller.go).
constexpr const char* kJobSetName = "jobset.sigs.k8s.io/jobset-name";
constexpr const char* kReplicatedJobName = "jobset.sigs.k8s.io/replicatedjob-name";
constexpr const char* kJobIndex = "jobset.sigs.k8s.io/job-index";
constexpr const char* kJobKey = "jobset.sigs.k8s.io/job-key";
constexpr const char* kPriority = "jobset.sigs.k8s.io/priority";
constexpr const char* kExclusive = "alpha.jobset.sigs.k8s.io/exclusive-topology";
constexpr const char* kNodeSelectorStrategy = "alpha.jobset.sigs.k8s.io/node-selector";
constexpr const char* kNamespacedJob = "alpha.jobset.sigs.k8s.io/namespaced-job";
constexpr const char* kNoScheduleTaint = "alpha.jobset.sigs.k8s.io/no-schedule";

// spec.priority as the Priority admission plugin resolves it: the pod's own, its class's, the
// globalDefault class's, else 0.
int32_t admittedPriority(const Cluster& c, const Pod& p) {
    if (p.priority) return *p.priority;
    for (const auto& pc : c.priorityClasses)
        if (!pc.workload && !p.priorityClassName.empty() && pc.name == p.priorityClassName) return pc.value;
    for (const auto& pc : c.priorityClasses)
        if (!pc.workload && pc.globalDefault) return pc.value;
    return 0;
}

// The webhook's exclusive-placement terms for a leader: with the pods of its own job, and with
// no pod of another job of the same priority, in one domain of the topology key.
void setExclusiveAffinities(Pod& p, const std::string& topologyKey) {
    const std::string& key = p.labels.at(kJobKey);
    PodAffinityTerm with;
    with.labelSelector = LabelSelector{{}, {SelectorRequirement{kJobKey, SelectorOp::In, {key}}}};
    with.topologyKey = topologyKey;
    with.namespaceSelector = LabelSelector{};
    p.podAffinity.required.push_back(std::move(with));
    PodAffinityTerm without;
    without.labelSelector =
        LabelSelector{{},
                      {SelectorRequirement{kJobKey, SelectorOp::Exists, {}},
                       SelectorRequirement{kJobKey, SelectorOp::NotIn, {key}},
                       SelectorRequirement{kPriority, SelectorOp::In, {p.labels.at(kPriority)}}}};
    without.topologyKey = topologyKey;
    without.namespaceSelector = LabelSelector{};
    p.podAntiAffinity.required.push_back(std::move(without));
}

} // namespace

void readJobSet(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("JobSet", {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    spec.checkKeys("JobSet", {"replicatedJobs", "startupPolicy"},
                   {"network", "successPolicy", "failurePolicy", "suspend", "coordinator", "managedBy",
                    "ttlSecondsAfterFinished"});
    ReplicatedJobOrder order(spec);
    Expansion e = expansionOf(o, "jobset.x-k8s.io");
    auto rjobs = spec["replicatedJobs"].items();
    if (rjobs.empty()) spec.fail("a JobSet needs at least one replicated job");
    for (const auto& rj : rjobs) {
        rj.checkKeys("JobSet replicated job", {"name", "replicas", "template", "dependsOn"}, {"groupName"});
        Expansion::Role role;
        role.role = rj["name"].str();
        if (role.role.empty()) rj.fail("replicated job has no name");
        int32_t jobs = rj["replicas"].i32(1);
        if (jobs < 0) rj["replicas"].fail("replicas must not be negative");
        auto tmpl = rj["template"];
        tmpl.checkKeys("JobSet replicated job", {"metadata", "spec"});
        auto jobMeta = tmpl["metadata"];
        jobMeta.checkKeys("JobSet replicated job template", {"annotations"}, {"labels"});
        const Labels jobAnnotations = jobMeta["annotations"].stringMap();
        auto jobSpec = tmpl["spec"];
        checkJobSpec(jobSpec, "JobSet");
        int32_t perJob = runningPods(jobSpec);
        role.replicas = replicasTimes(jobs, perJob);
        role.pod = readPodTemplate(s, jobSpec["template"], "JobSet");
        role.pod.pod.labels[kJobSetName] = o.name;
        role.pod.pod.labels[kReplicatedJobName] = role.role;
        order.next(rj, role);
        // Exclusive placement, for the JobSet or this replicated job (labelAndAnnotateObject): the
        // pod webhook's affinities, or with the node-selector strategy the controller's own
        // nodeSelector and toleration (nodes labelled and tainted per job beforehand).
        std::string topology;
        bool nodeSelectorStrategy = false;
        if (auto it = o.annotations.find(kExclusive); it != o.annotations.end()) {
            topology = it->second;
            nodeSelectorStrategy = o.annotations.count(kNodeSelectorStrategy) > 0;
        }
        if (auto it = jobAnnotations.find(kExclusive); it != jobAnnotations.end()) {
            topology = it->second;
            nodeSelectorStrategy = jobAnnotations.count(kNodeSelectorStrategy) > 0;
        }
        const std::string base = o.name + "-" + role.role;
        role.podName = [base, perJob](int i) {
            return base + "-" + std::to_string(i / std::max(perJob, 1)) + "-" +
                   std::to_string(i % std::max(perJob, 1));
        };
        const std::string ns = o.ns;
        role.customize = [base, perJob, ns, topology, nodeSelectorStrategy](const Cluster& c, int i, Pod& p) {
            const int job = i / std::max(perJob, 1), index = i % std::max(perJob, 1);
            const std::string jobName = base + "-" + std::to_string(job);
            p.labels[kJobIndex] = std::to_string(job);
            p.labels[kJobKey] = sha1Hex(ns + "/" + jobName);
            p.labels[kPriority] = std::to_string(admittedPriority(c, p));
            if (topology.empty()) return;
            if (nodeSelectorStrategy) {
                p.nodeSelector[kNamespacedJob] = ns + "_" + jobName;
                Toleration t;
                t.key = kNoScheduleTaint;
                t.exists = true;
                t.effect = TaintEffect::NoSchedule;
                p.tolerations.push_back(std::move(t));
                return;
            }
            if (index == 0) {
                setExclusiveAffinities(p, topology);
                return;
            }
            // A follower is admitted once its leader is scheduled, pinned to the leader's domain.
            p.createdAfter.push_back(
                CreationCondition{CreationCondition::Kind::PodScheduled, jobName + "-0", topology, p.source});
        };
        e.roles.push_back(std::move(role));
    }
    order.finish(e.roles, spec);
    queueOf(e);
    deferExpansion(s, o, std::move(e));
}

void readKubeflowJob(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys(o.kind, {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    const char* specsKey = o.kind == "PyTorchJob" ? "pytorchReplicaSpecs"
                           : o.kind == "TFJob"    ? "tfReplicaSpecs"
                                                  : "mpiReplicaSpecs";
    spec.checkKeys(o.kind, {specsKey, "runPolicy"},
                   {"nprocPerNode", "slotsPerWorker", "sshAuthMountPath", "mpiImplementation",
                    "launcherCreationPolicy", "successPolicy", "enableDynamicWorker", "cleanPodPolicy",
                    "runLauncherAsWorker"});
    Expansion e = expansionOf(o, "kubeflow.org");
    auto specs = spec[specsKey].entries();
    if (specs.empty()) spec.fail(std::string(specsKey) + " must list at least one replica type");
    for (const auto& [type, rs] : specs) {
        rs.checkKeys(o.kind + " replica spec", {"replicas", "template"}, {"restartPolicy"});
        Expansion::Role role;
        role.role = lower(type);
        role.replicas = rs["replicas"].i32(1);
        if (role.replicas < 0) rs["replicas"].fail("replicas must not be negative");
        role.pod = readPodTemplate(s, rs["template"], o.kind);
        role.pod.pod.labels["training.kubeflow.org/job-name"] = o.name;
        role.pod.pod.labels["training.kubeflow.org/replica-type"] = role.role;
        std::string base = o.name + "-" + role.role;
        bool single = o.kind == "MPIJob" && role.role == "launcher";
        role.podName = [base, single](int i) { return single ? base : base + "-" + std::to_string(i); };
        e.roles.push_back(std::move(role));
    }
    auto policy = spec["runPolicy"];
    policy.checkKeys(o.kind + " runPolicy", {"schedulingPolicy"},
                     {"cleanPodPolicy", "ttlSecondsAfterFinished", "activeDeadlineSeconds", "backoffLimit",
                      "suspend", "managedBy"});
    auto sched = policy["schedulingPolicy"];
    sched.checkKeys(o.kind + " schedulingPolicy", {"minAvailable", "queue", "priorityClass", "minResources"},
                    {"scheduleTimeoutSeconds"});
    const int32_t minAvailable = sched["minAvailable"].i32(0);
    if (minAvailable < 0) sched["minAvailable"].fail("minAvailable must not be negative");
    if (minAvailable > 0) e.minMember = minAvailable; // unset or 0: every replica
    queueOf(e);
    if (sched["queue"].present()) {
        e.queue = sched["queue"].str();
        e.specQueue = e.queue;
        e.queueIsKueueLocal = false;
    }
    if (sched["priorityClass"].present()) e.priorityClassName = sched["priorityClass"].str();
    deferExpansion(s, o, std::move(e));
}

void readCoschedulingPodGroup(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("PodGroup", {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    spec.checkKeys("PodGroup", {"minMember", "minResources"}, {"scheduleTimeoutSeconds"});
    PodGroup g = podGroupOf(o, o.group + "/PodGroup");
    g.minMember = spec["minMember"].i32(0);
    if (g.minMember < 0) spec["minMember"].fail("minMember must not be negative");
    g.minResources = spec["minResources"].resources();
    bool kueue = false;
    g.queue = queueFromMetadata(o.labels, o.annotations, &kueue);
    // The coscheduling plugin's phases, mapped onto Volcano's.
    std::string phase = r["status"]["phase"].str();
    if (phase == "Scheduled" || phase == "Running")
        g.phase = PodGroupPhase::Running;
    else if (phase == "Finished" || phase == "Failed")
        g.phase = PodGroupPhase::Completed;
    else if (phase == "Pending" || phase == "PreScheduling" || phase == "Scheduling")
        g.phase = PodGroupPhase::Pending;
    else if (!phase.empty())
        r["status"]["phase"].fail(
            "unknown PodGroup phase '" + phase +
            "' (expected Pending, PreScheduling, Scheduling, Scheduled, Running, Finished or Failed)");
    Timing t = readTiming(r["metadata"]);
    g.arrivalSeconds = t.arrival;
    g.durationSeconds = t.duration;
    g.checkpointSeconds = t.checkpoint;
    if (kueue) s.kueueGroupQueues.emplace_back(g.key(), g.queue);
    s.cluster.podGroups.push_back(std::move(g));
}

} // namespace gantry::snapshot
