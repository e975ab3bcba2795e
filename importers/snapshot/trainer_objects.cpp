// Kubeflow Trainer (trainer.kubeflow.org/v1alpha1): a TrainingRuntime or ClusterTrainingRuntime is a
// template; a TrainJob runs as the JobSet the trainer builds from its runtime (kubeflow/trainer at
// 8c0f5059: pkg/runtime/core/trainingruntime.go newRuntimeInfo, the ML-policy plugins, and
// plugins/jobset syncParallelCount and builder.go):
// - one replicated job per replicated job of the runtime's JobSet template, the trainer and
//   initializer steps (label trainer.kubeflow.org/trainjob-ancestor-step) with a single replica;
// - the trainer step runs mlPolicy.numNodes pods, or the TrainJob's trainer.numNodes (for MPI, the
//   replicated job "node": numNodes, one less when the launcher runs as a node); other steps their
//   parallelism;
// - the TrainJob's trainer.resourcesPerNode over the resources of the trainer's container "node";
// - podGroupPolicy volcano: a Volcano PodGroup named after the TrainJob of all its pods, joined by
//   the pods' scheduling.k8s.io/group-name annotation, in the queue of the runtime template's
//   scheduling.volcano.sh/queue-name annotation; coscheduling: the scheduler-plugins PodGroup.
// - the runtime JobSet's creation order (startupPolicy, dependsOn), as for a JobSet;
// - the TrainJob's runtimePatches merged into the runtime's pod templates first (runtime_patches.h).
// Pods are named as the JobSet's: <trainjob>-<replicated job>-<job index>-<pod index>.
#include "import_state.h"
#include "replicated_job_order.h"
#include "runtime_patches.h"

namespace gantry::snapshot {

namespace {

constexpr const char* kGroup = "trainer.kubeflow.org";
constexpr const char* kAncestor = "trainer.kubeflow.org/trainjob-ancestor-step";

bool initializerOrTrainer(const std::string& ancestor) {
    return ancestor == "trainer" || ancestor == "dataset-initializer" || ancestor == "model-initializer";
}

std::string runtimeKey(const std::string& kind, const std::string& ns) {
    return kind == "TrainingRuntime" ? ns : std::string();
}

void expandTrainJob(State& s, const Y& where, Expansion e, const std::string& kind,
                    const std::string& runtime, std::optional<int32_t> numNodes, const Y& resourcesPerNode,
                    const Y& patches) {
    auto found = s.trainingRuntimes.find({kind, runtimeKey(kind, e.ns), runtime});
    if (found == s.trainingRuntimes.end()) {
        where["spec"]["runtimeRef"].warn("names " + kind + " '" + runtime +
                                         "', which is not in the input: the trainer builds no JobSet for it");
        return;
    }
    const Y spec = found->second.root["spec"];
    const Y ml = spec["mlPolicy"];
    const bool mpi = ml["mpi"].present();
    const bool launcherAsNode = ml["mpi"]["runLauncherAsNode"].boolean(false);
    const Y pgPolicy = spec["podGroupPolicy"];
    const bool volcano = pgPolicy["volcano"].present(), coscheduling = pgPolicy["coscheduling"].present();
    const Labels templateAnnotations = spec["template"]["metadata"]["annotations"].stringMap();
    // The trainer copies the runtime's JobSet spec, its creation order included (an initializer
    // the trainer step dependsOn to Complete runs first).
    ReplicatedJobOrder order(spec["template"]["spec"]);
    std::vector<std::string> runtimeJobs;
    for (const auto& rj : spec["template"]["spec"]["replicatedJobs"].items())
        runtimeJobs.push_back(rj["name"].str());
    checkPatchedReplicatedJobs(patches, runtimeJobs);
    for (const auto& rj : spec["template"]["spec"]["replicatedJobs"].items()) {
        Expansion::Role role;
        role.role = rj["name"].str();
        const std::string ancestor = rj["template"]["metadata"]["labels"][kAncestor].str();
        const Y jobSpec = rj["template"]["spec"];
        int32_t count = jobSpec["parallelism"].i32(1);
        if (ancestor == "trainer" && ml.present()) count = ml["numNodes"].i32(1);
        if (numNodes) {
            if (mpi && role.role == "node")
                count = launcherAsNode ? std::max(*numNodes - 1, 1) : *numNodes;
            else if (!mpi && ancestor == "trainer")
                count = *numNodes;
        }
        const int32_t jobs = initializerOrTrainer(ancestor) ? 1 : rj["replicas"].i32(1);
        role.replicas = replicasTimes(jobs, count);
        const bool perNode =
            (ancestor == "trainer" && ml.present()) || (mpi && launcherAsNode && role.role == "node");
        if (perNode && resourcesPerNode.present())
            s.containerResources = State::ContainerResources{"node", resourcesPerNode};
        role.pod = readPodTemplate(s, jobSpec["template"], "TrainJob");
        s.containerResources.reset();
        applyRuntimePatches(patches, role.role, role.pod.pod);
        order.next(rj, role);
        role.pod.pod.labels["jobset.sigs.k8s.io/jobset-name"] = e.name;
        role.pod.pod.labels["jobset.sigs.k8s.io/replicatedjob-name"] = role.role;
        if (volcano) role.pod.pod.annotations["scheduling.k8s.io/group-name"] = e.name;
        if (coscheduling) role.pod.pod.labels["scheduling.x-k8s.io/pod-group"] = e.name;
        const std::string base = e.name + "-" + role.role;
        const int32_t perJob = std::max(count, 1);
        role.podName = [base, perJob](int i) {
            return base + "-" + std::to_string(i / perJob) + "-" + std::to_string(i % perJob);
        };
        e.roles.push_back(std::move(role));
    }
    order.finish(e.roles, spec["template"]["spec"]);
    queueOf(e);
    if (volcano) {
        auto queue = templateAnnotations.find("scheduling.volcano.sh/queue-name");
        if (queue != templateAnnotations.end()) e.specQueue = e.queue = queue->second;
    }
    addExpansion(s, where, std::move(e));
}

} // namespace

void readTrainingRuntime(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys(o.kind, {"apiVersion", "kind", "metadata", "spec"}, {"status"});
    auto spec = r["spec"];
    spec.checkKeys(o.kind, {"mlPolicy", "podGroupPolicy", "template"});
    auto ml = spec["mlPolicy"];
    ml.checkKeys(o.kind + " mlPolicy", {"numNodes", "mpi"}, {"torch", "jax", "xgboost", "flux"});
    if (ml["numNodes"].present() && ml["numNodes"].i32() < 1)
        ml["numNodes"].fail("numNodes must be at least 1");
    ml["mpi"].checkKeys(o.kind + " mlPolicy.mpi", {"runLauncherAsNode"},
                        {"numProcPerNode", "mpiImplementation", "sshAuthMountPath"});
    spec["podGroupPolicy"].checkKeys(o.kind + " podGroupPolicy", {"volcano", "coscheduling"});
    auto tmpl = spec["template"];
    if (!tmpl.present()) spec.fail(o.kind + " needs spec.template");
    tmpl.checkKeys(o.kind + " template", {"metadata", "spec"});
    tmpl["metadata"].checkKeys(o.kind + " template", {"annotations"}, {"labels"});
    auto js = tmpl["spec"];
    js.checkKeys(o.kind + " JobSet", {"replicatedJobs", "startupPolicy"},
                 {"network", "successPolicy", "failurePolicy", "suspend", "coordinator", "managedBy",
                  "ttlSecondsAfterFinished"});
    auto rjobs = js["replicatedJobs"].items();
    if (rjobs.empty()) js.fail("the runtime's JobSet needs at least one replicated job");
    for (const auto& rj : rjobs) {
        rj.checkKeys(o.kind + " replicated job", {"name", "replicas", "template", "dependsOn"},
                     {"groupName"});
        if (rj["name"].str().empty()) rj.fail("replicated job has no name");
        if (rj["replicas"].i32(1) < 0) rj["replicas"].fail("replicas must not be negative");
        rj["template"].checkKeys(o.kind + " replicated job", {"metadata", "spec"});
        rj["template"]["metadata"].checkKeys(o.kind + " replicated job", {"labels", "annotations"});
        checkJobSpec(rj["template"]["spec"], o.kind);
    }
    s.trainingRuntimes[{o.kind, runtimeKey(o.kind, o.ns), o.name}] = o;
}

void readTrainJob(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("TrainJob", {"apiVersion", "kind", "metadata", "spec"}, {"status"});
    auto spec = r["spec"];
    spec.checkKeys("TrainJob", {"runtimeRef", "trainer", "runtimePatches"},
                   {"initializer", "suspend", "activeDeadlineSeconds", "managedBy"});
    auto ref = spec["runtimeRef"];
    ref.checkKeys("TrainJob runtimeRef", {"name", "apiGroup", "kind"});
    const std::string runtime = ref["name"].str();
    if (runtime.empty()) ref.fail("a TrainJob needs runtimeRef.name");
    if (ref["apiGroup"].str(kGroup) != kGroup)
        ref["apiGroup"].fail(std::string("expected apiGroup ") + kGroup);
    const std::string kind =
        ref["kind"].choice("ClusterTrainingRuntime", {"ClusterTrainingRuntime", "TrainingRuntime"});
    auto trainer = spec["trainer"];
    trainer.checkKeys("TrainJob trainer", {"numNodes", "resourcesPerNode"},
                      {"image", "command", "args", "env", "numProcPerNode"});
    const std::optional<int32_t> numNodes = trainer["numNodes"].optI32();
    if (numNodes && *numNodes < 1) trainer["numNodes"].fail("numNodes must be at least 1");
    checkRuntimePatches(spec["runtimePatches"]);
    Expansion e = expansionOf(o, kGroup);
    s.workloads.push_back(DeferredWorkload{kGroup, "TrainJob", o.ns, o.name, o.source, nullptr});
    // The runtime may come later in the input: the JobSet is built once every file is in.
    s.workloads.back().expand = [&s, where = r, e = std::move(e), kind, runtime, numNodes,
                                 resources = trainer["resourcesPerNode"],
                                 patches = spec["runtimePatches"]]() {
        expandTrainJob(s, where, e, kind, runtime, numNodes, resources, patches);
    };
}

} // namespace gantry::snapshot
