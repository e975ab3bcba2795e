#pragma once
// Internal to the snapshot importer: what is being assembled, and the per-kind readers.
#include "model/cluster.h"
#include "yaml/yaml_reader.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace gantry::snapshot {

// Well-known labels and annotations (Volcano, Kueue, YuniKorn, coscheduling, GPU sharing, Gantry).
namespace key {
inline constexpr const char* KubeGroupName = "scheduling.k8s.io/group-name";
inline constexpr const char* VolcanoGroupName = "scheduling.volcano.sh/group-name";
inline constexpr const char* CoschedulingGroupLegacy = "pod-group.scheduling.sigs.k8s.io";
inline constexpr const char* CoschedulingGroup = "scheduling.x-k8s.io/pod-group";
inline constexpr const char* TaskSpec = "volcano.sh/task-spec";
inline constexpr const char* Preemptable = "volcano.sh/preemptable";
inline constexpr const char* VolcanoQueueName = "scheduling.volcano.sh/queue-name";
inline constexpr const char* VolcanoJobName = "volcano.sh/job-name";
inline constexpr const char* KueueQueueName = "kueue.x-k8s.io/queue-name";
inline constexpr const char* YuniKornQueue = "yunikorn.apache.org/queue";
inline constexpr const char* YuniKornQueueLegacy = "queue";
inline constexpr const char* GpuMilli = "alibabacloud.com/gpu-milli";
inline constexpr const char* GpuCount = "alibabacloud.com/gpu-count";
inline constexpr const char* GpuIndex = "alibabacloud.com/gpu-index";
inline constexpr const char* GpuCardModel = "alibabacloud.com/gpu-card-model";
inline constexpr const char* GpuProduct = "nvidia.com/gpu.product";
inline constexpr const char* GpuMemoryMiB = "nvidia.com/gpu.memory";
inline constexpr const char* VgpuNumber = "volcano.sh/vgpu-number";
inline constexpr const char* VgpuCores = "volcano.sh/vgpu-cores";
inline constexpr const char* Arrival = "gantry.io/arrival";
inline constexpr const char* Duration = "gantry.io/duration";
inline constexpr const char* Checkpoint = "gantry.io/checkpoint";
// A job of a history read from Prometheus (docs/history.md): Gantry's own what-if, whatever scheduler
// its pods once named.
inline constexpr const char* History = "gantry.io/history";
} // namespace key

// One Kubernetes object: its reader, apiVersion split into group and version, kind, metadata.
struct Object {
    Y root;
    std::string group;
    std::string version;
    std::string kind;
    std::string name;
    std::string ns;
    Labels labels;
    Labels annotations;
    std::optional<int64_t> creationTimestamp; // metadata.creationTimestamp, Unix seconds
    SourceRef source;
};

// A workload object (Job, JobSet, Volcano Job, Kubeflow job) read now and expanded into pods once
// every file is in, so that pods the snapshot already holds are not created twice.
struct DeferredWorkload {
    std::string group; // API group, for ownership checks
    std::string kind;
    std::string ns;
    std::string name;
    SourceRef source;
    std::function<void()> expand;
};

struct State {
    Cluster cluster;
    Diagnostics warnings;
    FieldNotes notes;
    struct Skipped {
        int count = 0;
        SourceRef first;
    };
    std::map<std::string, Skipped> skipped; // "Deployment (apps/v1)" -> count
    std::vector<std::string> skippedOrder;
    std::vector<DeferredWorkload> workloads;
    // (apiGroup/kind, namespace, name) of every controller owner named by an imported pod.
    std::set<std::tuple<std::string, std::string, std::string>> podOwners;
    // PodGroups whose queue is a Kueue LocalQueue name, resolved to its ClusterQueue in finish().
    std::vector<std::pair<std::string, std::string>> kueueGroupQueues; // group key -> LocalQueue name
    std::map<std::string, std::string> texts;                          // file -> text (for embedded configs)
    std::vector<std::pair<bool, Y>> yunikornMaps; // (is yunikorn-defaults, data) read in finish()
    // Volcano JobTemplates by (namespace, name), and the JobFlows that make jobs of them: resolved in
    // finish(), whatever order the files came in.
    std::map<std::pair<std::string, std::string>, Object> jobTemplates;
    std::vector<Object> jobFlows;
    bool finished = false;
    bool requestsAboveLimitsAllowed = false; // while reading a Kueue Workload's pod templates
    // While reading a TrainJob's trainer pods: its resourcesPerNode over this container's resources.
    struct ContainerResources {
        std::string container;
        Y resources;
    };
    std::optional<ContainerResources> containerResources;
    // TrainingRuntime (namespace, name) and ClusterTrainingRuntime ("", name) objects, by kind.
    std::map<std::tuple<std::string, std::string, std::string>, Object> trainingRuntimes;

    void skip(const std::string& what, const SourceRef& where);
    // Whether the cluster has a gang of that name in the namespace (readers only append gangs, so
    // the index catches up with the new ones at each call).
    bool hasPodGroup(const std::string& ns, const std::string& name);

  private:
    std::set<std::pair<std::string, std::string>> groupNames_;
    size_t groupsIndexed_ = 0;
};

// Checks metadata keys and reads name, namespace, labels, annotations. Cluster-scoped kinds pass
// namespaced = false (their namespace is ignored).
void readMetadata(Object& o, bool namespaced);

// A PodGroup named, labelled and located as the object.
PodGroup podGroupOf(const Object& o, std::string origin);

void readNode(State& s, const Object& o);
void readDeviceClass(State& s, const Object& o);
void readResourceSlice(State& s, const Object& o);
void readResourceClaim(State& s, const Object& o);
void readResourceClaimTemplate(State& s, const Object& o);
void readNamespace(State& s, const Object& o);
void readPriorityClass(State& s, const Object& o);
void readPodDisruptionBudget(State& s, const Object& o);
void readPod(State& s, const Object& o);
void readConfigMap(State& s, const Object& o);
// A document with no kind that is YuniKorn's configuration as its examples ship it: queues.yaml
// itself (`partitions:`) or the ConfigMap's data alone (`queues.yaml: |`). False: neither.
bool readBareYuniKornConfig(State& s, const Y& root);
void finishYuniKorn(State& s);

void readVolcanoQueue(State& s, const Object& o);
void readVolcanoPodGroup(State& s, const Object& o);
void readHyperNode(State& s, const Object& o);
void readVolcanoJob(State& s, const Object& o);
// A Volcano Job's spec (a Job's, or a JobTemplate's when a JobFlow makes a job of it) and its UID.
void readVolcanoJobSpec(State& s, const Object& job, const Y& spec, const std::string& uid);
void readJobTemplate(State& s, const Object& o);
void readJobFlow(State& s, const Object& o);
// The Volcano Jobs the JobFlows make at once (their flows without dependsOn).
void finishJobFlows(State& s);

void readResourceFlavor(State& s, const Object& o);
void readClusterQueue(State& s, const Object& o);
void readCohort(State& s, const Object& o);
void readLocalQueue(State& s, const Object& o);
void readKueueTopology(State& s, const Object& o);
void readWorkloadPriorityClass(State& s, const Object& o);
void readKueueWorkload(State& s, const Object& o);
void readAdmissionCheck(State& s, const Object& o);
void readLimitRange(State& s, const Object& o);

void readCoschedulingPodGroup(State& s, const Object& o);
void readBatchJob(State& s, const Object& o);
void readJobSet(State& s, const Object& o);
void readKubeflowJob(State& s, const Object& o);
// Checks the keys of a batch/v1 JobSpec (a Job's, a JobSet's or a TrainingRuntime's replicated job).
void checkJobSpec(const Y& spec, const std::string& kind);
void readTrainingRuntime(State& s, const Object& o);
void readTrainJob(State& s, const Object& o);
void readDeployment(State& s, const Object& o);
void readReplicaSet(State& s, const Object& o);
void readStatefulSet(State& s, const Object& o);

// Pod template -> pod (shared by Pod and the workload kinds). `path` is the template's spec node.
struct PodTemplate {
    Labels labels;
    Labels annotations;
    Pod pod; // requests, affinity, ... filled; name/ns empty
    // The spec's requests as written, before the API server defaults a request from a limit.
    ResourceList requestsAsWritten;
};
PodTemplate readPodTemplate(State& s, const Y& templateNode, const std::string& kind);
// requestsAsWritten, when given, receives the requests without the limits' defaulting.
void readPodSpec(State& s, const Y& spec, Pod& pod, const std::string& kind,
                 ResourceList* requestsAsWritten = nullptr);
// Group, role, preemptable, GPU request from labels and annotations (after spec and metadata).
void applyPodConventions(const Y& where, Pod& pod);

// Queue name a workload or pod asks for, from the scheduler-specific labels/annotations. Returns the
// Kueue LocalQueue name in *kueueLocalQueue when it comes from Kueue's label.
std::string queueFromMetadata(const Labels& labels, const Labels& annotations, bool* fromKueue);

// The queue a workload asks for (its own metadata first, then its pod template's). (Kueue's
// priority-class label is read by the Kueue profile's integrations.)
struct Expansion;
void queueOf(Expansion& e);

// Adds expanded pods of a what-if workload and its gang (unless one is named by the template).
struct Expansion {
    std::string ownerGroup, ownerKind, ns, name, origin;
    std::string uid; // the workload's metadata.uid, its pods' owner UID
    SourceRef source;
    Labels labels, annotations; // of the workload object
    std::string queue;
    std::string specQueue; // the queue the workload's own spec names (PodGroup::specQueue)
    bool queueIsKueueLocal = false;
    std::string priorityClassName;
    std::optional<int32_t> minMember; // absent = all pods
    std::map<std::string, int32_t> minTaskMember;
    NetworkTopologyConstraint networkTopology;
    std::vector<TaskDependency> dependsOn;
    std::optional<int64_t> creationTimestamp; // the workload's: its PodGroup is made right after it
    std::string groupName;                    // gang name; defaults to name
    double durationSeconds = 0;               // when no gantry.io/duration annotation says otherwise
    struct Role {
        std::string role;
        int32_t replicas = 1;
        PodTemplate pod;
        std::function<std::string(int index)> podName;
        // What the workload's controllers and webhooks change on pod `index` (JobSet: its child
        // job's labels, exclusive placement), once every object is read; may be empty.
        std::function<void(const Cluster& cluster, int index, Pod& pod)> customize;
        // What each pod counts for in the gang's minResources, when its controller computes them
        // otherwise than from the pod's requests.
        std::optional<ResourceList> minResourcesRequests;
    };
    std::vector<Role> roles;
};
// Pods of one workload Gantry expands at most: a replica count past it is a located error, not an
// import that runs the machine out of memory.
inline constexpr int64_t kMaxWorkloadPods = 100000;
void addExpansion(State& s, const Y& where, Expansion e);
// replicated jobs x pods per job, saturating (the limit above then refuses it).
int32_t replicasTimes(int32_t jobs, int32_t perJob);
// The 40 hex digits of the SHA-1 of text (controllers derive label values with it).
std::string sha1Hex(std::string_view text);
// An Expansion for a workload object: owner, origin "<group>/<kind>", namespace, name, metadata.
Expansion expansionOf(const Object& o, const std::string& group);
// Queues the workload for expansion in finish(), once every file is in.
void deferExpansion(State& s, const Object& o, Expansion e);

} // namespace gantry::snapshot
