// Volcano's controllers at volcano-sh/volcano ed72c7c8:
// - its own objects: a PodGroup, or the one the job controller makes for a Volcano Job, keep their
//   gang; a PodGroup without spec.queue goes to the scheduler's default queue (setPodGroup in
//   pkg/scheduler/cache/event_handlers.go);
// - a Kubeflow Trainer TrainJob whose runtime's podGroupPolicy is volcano: the trainer's PodGroup;
// - a Kubeflow job: the training operator, run with Volcano as its gang scheduler, makes one
//   PodGroup of runPolicy.schedulingPolicy.minAvailable (else every replica) in
//   schedulingPolicy.queue;
// - any other workload's pods (a batch Job, a JobSet's Jobs, plain pods): the pod-group controller
//   (pkg/controllers/podgroup/pg_controller_handler.go, buildPodGroupFromPod) makes one PodGroup per
//   owner with minMember 1, or the owner's scheduling.volcano.sh/group-min-member annotation when
//   it is a non-negative number, minResources = the pod's requests times minMember, and the queue
//   of the pod's scheduling.volcano.sh/queue-name annotation.
#include "profiles/volcano/controllers.h"

#include "model/go_text.h"
#include "model/workload_source.h"

namespace gantry::engine::volcano {

namespace {

constexpr const char* kQueueAnnotation = "scheduling.volcano.sh/queue-name";
constexpr const char* kMinMemberAnnotation = "scheduling.volcano.sh/group-min-member";

WorkloadReading asGiven(const PodGroup& g, std::string queue) {
    WorkloadReading r;
    r.queue = queue.empty() ? "default" : std::move(queue);
    r.minMember = g.minMember;
    r.minTaskMember = g.minTaskMember;
    r.minResources = g.minResources;
    return r;
}

} // namespace

WorkloadReading readWorkload(const PodGroup& g, const std::vector<const Pod*>& pods) {
    switch (workloadSource(g)) {
    case WorkloadSource::Gantry:
        return asGiven(g, g.queue);
    case WorkloadSource::Volcano:
        return asGiven(g, g.specQueue);
    case WorkloadSource::Kueue: // a Workload object: Volcano reads no such thing; its pods are plain
    case WorkloadSource::Generic:
        break;
    }
    // A TrainJob whose runtime asks for Volcano (podGroupPolicy): the trainer made the PodGroup its
    // pods join (kubeflow/trainer plugins/volcano: every pod, the runtime's queue annotation).
    if (g.origin == "trainer.kubeflow.org/TrainJob" && podAnnotation(pods, "scheduling.k8s.io/group-name"))
        return asGiven(g, g.specQueue);
    if (g.origin.rfind("kubeflow.org/", 0) == 0) {
        std::string queue = g.specQueue;
        if (queue.empty()) queue = workloadAnnotation(g, pods, kQueueAnnotation).value_or("");
        return asGiven(g, queue);
    }
    WorkloadReading r;
    r.queue = podAnnotation(pods, kQueueAnnotation).value_or("");
    if (r.queue.empty()) r.queue = "default";
    r.minMember = 1;
    // Read from the owner only (getAnnotationsFromUpperRes), not from the pod.
    if (auto text = g.annotations.find(kMinMemberAnnotation); text != g.annotations.end())
        if (auto n = parseGoInt(text->second); n && *n >= 0 && *n <= INT32_MAX) r.minMember = int32_t(*n);
    r.minResources = podRequestsTimes(pods, r.minMember);
    // GeneratePodgroupName: podgroup-<the controller owner's UID>, else podgroup-<the pod's UID>.
    if (!pods.empty()) {
        const Pod& first = *pods.front();
        const std::string& uid = first.ownerUid.empty() ? first.uid : first.ownerUid;
        if (!uid.empty()) r.name = "podgroup-" + uid;
    }
    r.note = "Volcano's pod-group controller gives the pods of a " + g.origin +
             " one PodGroup of minMember " +
             (r.minMember == 1 ? std::string("1 (no gang)") : std::to_string(r.minMember)) +
             " unless the workload sets " + kMinMemberAnnotation;
    return r;
}

} // namespace gantry::engine::volcano
