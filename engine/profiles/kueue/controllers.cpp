// Kueue's job integrations at kubernetes-sigs/kueue ff69552e (pkg/controller/jobframework,
// pkg/controller/jobs/*): a workload is Kueue's when it carries the kueue.x-k8s.io/queue-name label
// (a LocalQueue of its namespace), on the job object or, for plain pods and pod groups, on the pods.
// Without it, and with manageJobsWithoutQueueName off (the default), Kueue leaves the job alone:
// it is not suspended and kube-scheduler places its pods as they come. A batch Job's pod set may be
// admitted partially down to its kueue.x-k8s.io/job-min-parallelism annotation
// (pkg/controller/jobs/job/job_controller.go, PodSets: MinCount).
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
constexpr const char* kMinParallelism = "kueue.x-k8s.io/job-min-parallelism";

} // namespace

namespace {

// The integration that manages a workload of this origin (Configuration integrations.frameworks).
std::string frameworkOf(const std::string& origin) {
    if (origin == "batch/Job") return "batch/job";
    if (origin == "jobset.x-k8s.io/JobSet") return "jobset.x-k8s.io/jobset";
    if (origin == "apps/Deployment") return "deployment";
    if (origin == "apps/StatefulSet") return "statefulset";
    if (origin.rfind("kubeflow.org/", 0) == 0) {
        std::string kind = origin.substr(13);
        for (auto& c : kind) c = char(std::tolower(static_cast<unsigned char>(c)));
        return "kubeflow.org/" + kind;
    }
    return "pod"; // plain pods, pod groups, a ReplicaSet's pods
}

} // namespace

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
        return r;
    case WorkloadSource::Kueue: // a Workload object: its spec.queueName is read by the profile
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
    // Kueue's label: the workload's own for jobs; plain pods and pod groups carry it on the pods. The
    // webhook labels an unlabelled job with the namespace's LocalQueue "default" where there is one
    // (jobframework ApplyDefaultLocalQueue).
    r.queue = workloadLabel(g, pods, kQueueName).value_or("");
    if (r.queue.empty() && context.namespacesWithDefaultQueue.count(g.ns)) r.queue = "default";
    if (r.queue.empty()) {
        if (context.config.manageJobsWithoutQueueName && g.ns != "kube-system") {
            r.note = "manageJobsWithoutQueueName: a " + g.origin +
                     " without a queue name is suspended and never admitted";
            return r;
        }
        r.managed = false;
        r.note = "a " + g.origin + " without the " + std::string(kQueueName) +
                 " label is not Kueue's (manageJobsWithoutQueueName is off): it runs without admission, its "
                 "pods go straight to kube-scheduler";
        return r;
    }
    // A Deployment's pods are admitted one by one (the pod integration); a StatefulSet's as one group.
    if (g.origin == "apps/Deployment" || g.origin == "apps/ReplicaSet") r.admitAtLeast = 1;
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
