// Kueue's job integrations at kubernetes-sigs/kueue ff69552e (pkg/controller/jobframework,
// pkg/controller/jobs/*): a workload is Kueue's when it carries the kueue.x-k8s.io/queue-name label
// (a LocalQueue of its namespace), on the job object or, for plain pods and pod groups, on the pods.
// Without it, and with manageJobsWithoutQueueName off (the default), Kueue leaves the job alone:
// it is not suspended and kube-scheduler places its pods as they come. A batch Job's pod set may be
// admitted partially down to its kueue.x-k8s.io/job-min-parallelism annotation
// (pkg/controller/jobs/job/job_controller.go, PodSets: MinCount). Plain pods and a Deployment's pods
// are admitted one by one, each a Workload of its own (the pod integration); a StatefulSet's pods
// form one pod group.
//
// The Workload's priority (jobframework ExtractPriority): the WorkloadPriorityClass the
// kueue.x-k8s.io/priority-class label names (the webhook defaults the label to the class "default"
// where one exists, WorkloadPriorityClassDefaulting), else the PriorityClass of the job (a Kubeflow
// job's schedulingPolicy) or of its first pod set naming one, else the cluster's globalDefault
// PriorityClass, else 0. A WorkloadPriorityClass named but missing leaves the job without a Workload.
//
// Workloads written for another scheduler (a Volcano PodGroup or Job) and Gantry's own what-ifs
// (templates, trace tasks) are the workload under study: they keep their queue, which the project
// maps to a ClusterQueue of the same name.
#include "profiles/kueue/controllers.h"

#include "model/go_text.h"
#include "model/workload_source.h"

#include <cctype>

namespace gantry::engine::kueue {

namespace {

constexpr const char* kQueueName = "kueue.x-k8s.io/queue-name";
constexpr const char* kPriorityClass = "kueue.x-k8s.io/priority-class";
constexpr const char* kMinParallelism = "kueue.x-k8s.io/job-min-parallelism";
constexpr const char* kDefaultWorkloadPriorityClass = "default";

// The integration that manages a workload of this origin (Configuration integrations.frameworks).
std::string frameworkOf(const std::string& origin) {
    if (origin == "batch/Job") return "batch/job";
    if (origin == "jobset.x-k8s.io/JobSet") return "jobset.x-k8s.io/jobset";
    if (origin == "trainer.kubeflow.org/TrainJob") return "trainer.kubeflow.org/trainjob";
    if (origin == "apps/Deployment") return "deployment";
    if (origin == "apps/StatefulSet") return "statefulset";
    if (origin.rfind("kubeflow.org/", 0) == 0) {
        std::string kind = origin.substr(13);
        for (auto& c : kind) c = char(std::tolower(static_cast<unsigned char>(c)));
        return "kubeflow.org/" + kind;
    }
    return "pod"; // plain pods, pod groups, a ReplicaSet's pods
}

// A label as the integration reads it: from the job object, or for plain pods from the pods (a
// Deployment's webhook copies its labels into the pod template).
std::optional<std::string> labelOf(const PodGroup& g, const std::vector<const Pod*>& pods,
                                   bool podIntegration, const char* key) {
    if (!podIntegration || g.origin == "apps/Deployment") return workloadLabel(g, pods, key);
    for (const Pod* p : pods)
        if (auto it = p->labels.find(key); it != p->labels.end()) return it->second;
    return std::nullopt;
}

struct Priority {
    int32_t value = 0;
    std::string missing; // a WorkloadPriorityClass named but missing (then Kueue makes no Workload)
};

// The priority of a workload Kueue's integrations read (`integration`), or of Gantry's own what-if
// (its PriorityClass alone).
Priority priorityOf(const IntegrationContext& c, const PodGroup& g, const std::vector<const Pod*>& pods,
                    bool integration, bool podIntegration) {
    Priority out;
    std::optional<std::string> wpc;
    if (integration) {
        wpc = labelOf(g, pods, podIntegration, kPriorityClass);
        if (!wpc && c.config.gate("WorkloadPriorityClassDefaulting") &&
            c.workloadPriorityClasses.count(kDefaultWorkloadPriorityClass))
            wpc = kDefaultWorkloadPriorityClass;
    }
    if (wpc && !wpc->empty()) {
        if (auto it = c.workloadPriorityClasses.find(*wpc); it != c.workloadPriorityClasses.end())
            out.value = it->second;
        else
            out.missing = "WorkloadPriorityClass '" + *wpc + "'";
        return out;
    }
    std::string name = g.priorityClassName;
    for (const Pod* p : pods) {
        if (!name.empty()) break;
        name = p->priorityClassName;
    }
    // A missing PriorityClass is taken as none, as by every profile (the API server would have
    // refused the pods).
    auto it = name.empty() ? c.priorityClasses.end() : c.priorityClasses.find(name);
    out.value = it != c.priorityClasses.end() ? it->second : c.globalDefaultPriority.value_or(0);
    return out;
}

} // namespace

void IntegrationContext::addPriorityClasses(const std::vector<PriorityClass>& classes) {
    for (const auto& pc : classes) {
        if (pc.workload) {
            workloadPriorityClasses[pc.name] = pc.value;
            continue;
        }
        priorityClasses[pc.name] = pc.value;
        // Several global defaults (a race): the lowest value (getDefaultPriorityClass).
        if (pc.globalDefault && (!globalDefaultPriority || pc.value < *globalDefaultPriority))
            globalDefaultPriority = pc.value;
    }
}

bool IntegrationContext::managedNamespace(const std::string& ns) const {
    auto it = namespaceLabels.find(ns);
    // The API server labels every namespace with its name (a project's namespaces have no object).
    return config.managesNamespace(it != namespaceLabels.end() ? it->second
                                                               : Labels{{"kubernetes.io/metadata.name", ns}});
}

WorkloadReading readWorkload(const IntegrationContext& context, const PodGroup& g,
                             const std::vector<const Pod*>& pods) {
    WorkloadReading r;
    r.minMember = g.minMember;
    r.minTaskMember = g.minTaskMember;
    r.minResources = g.minResources;
    switch (workloadSource(g)) {
    case WorkloadSource::Gantry:
    case WorkloadSource::Volcano:
        r.queue = g.queue.empty() ? "default" : g.queue;
        r.priority = priorityOf(context, g, pods, false, false).value;
        return r;
    case WorkloadSource::Kueue: // a Workload object: its spec.queueName and priority are read by the profile
        r.queue = g.queue;
        return r;
    case WorkloadSource::Generic:
        break;
    }
    const std::string framework = frameworkOf(g.origin);
    if (!context.config.manages(framework)) {
        r.managed = false;
        r.note = "Kueue's integration " + framework + " is not enabled (integrations.frameworks): the " +
                 g.origin + " runs without admission, its pods go straight to kube-scheduler";
        return r;
    }
    // The pod integration takes plain pods one by one, pod groups (the pod-group-name label, a
    // StatefulSet) whole. Plain pods outside managedJobsNamespaceSelector are never Kueue's (the pod
    // webhook); a Deployment's or StatefulSet's pods are, through their parent.
    const bool podIntegration = framework == "pod" || framework == "deployment";
    const bool podGroup = g.origin == "kueue.x-k8s.io/pod-group" || g.origin == "apps/StatefulSet";
    const bool managedNamespace = context.managedNamespace(g.ns);
    if (framework == "pod" && !managedNamespace) {
        r.managed = false;
        r.note =
            "namespace " + g.ns +
            " is outside Kueue's managedJobsNamespaceSelector: its plain pods go straight to kube-scheduler";
        return r;
    }
    // Kueue's label: the workload's own for jobs; plain pods and pod groups carry it on the pods. The
    // webhook labels an unlabelled job with the namespace's LocalQueue "default" where there is one
    // (jobframework ApplyDefaultLocalQueue, in namespaces the selector manages).
    r.queue = labelOf(g, pods, podIntegration, kQueueName).value_or("");
    if (r.queue.empty() && managedNamespace && context.namespacesWithDefaultQueue.count(g.ns))
        r.queue = "default";
    if (r.queue.empty()) {
        if (context.config.manageJobsWithoutQueueName && managedNamespace) {
            r.note = "manageJobsWithoutQueueName: a " + g.origin +
                     " without a queue name is suspended and never admitted";
            return r;
        }
        r.managed = false;
        r.note = "a " + g.origin + " without the " + std::string(kQueueName) + " label is not Kueue's (" +
                 (context.config.manageJobsWithoutQueueName
                      ? "namespace " + g.ns + " is outside managedJobsNamespaceSelector"
                      : std::string("manageJobsWithoutQueueName is off")) +
                 "): it runs without admission, its pods go straight to kube-scheduler";
        return r;
    }
    const Priority priority = priorityOf(context, g, pods, true, podIntegration);
    if (!priority.missing.empty()) {
        // ExtractPriority fails: the job stays suspended and no Workload is made for it.
        r.queue.clear();
        r.note = "the " + g.origin + " " + g.key() + " names " + priority.missing +
                 ", which does not exist: Kueue makes no Workload for it and it stays suspended";
        return r;
    }
    r.priority = priority.value;
    r.podsAdmittedApart = podIntegration && !podGroup;
    if (!context.localQueues.count({g.ns, r.queue}))
        r.note = "Kueue: " + g.origin + " " + g.key() + " names LocalQueue '" + r.queue +
                 "', which does not exist in namespace '" + g.ns + "'; Kueue does not admit it";
    if (g.origin == "batch/Job")
        if (auto it = g.annotations.find(kMinParallelism); it != g.annotations.end())
            if (auto n = parseGoInt(it->second); n && *n > 0 && *n < g.minMember)
                r.admitAtLeast = int32_t(*n);
    return r;
}

} // namespace gantry::engine::kueue
