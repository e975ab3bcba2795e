#include "runtime_patches.h"

#include "kubernetes/k8s_fields.h"

#include <algorithm>

namespace gantry::snapshot {

namespace {

// The pod template of one replicated job in one patch (absent when the patch has none for it).
Y podTemplateOf(const Y& patch, const std::string& replicatedJob) {
    for (const auto& rj : patch["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"].items())
        if (rj["name"].str() == replicatedJob) return rj["template"]["spec"]["template"];
    return {};
}

// A map merged as a strategic merge patch merges one: keys added or replaced, a null value deletes.
void mergeMap(const Y& patch, Labels& into) {
    for (const auto& [key, value] : patch.entries()) {
        if (value.present())
            into[key] = value.str();
        else
            into.erase(key);
    }
}

// corev1.Affinity is a struct of structs: each part the patch names is merged on its own, and the
// lists inside them (node selector terms, preferred terms, pod affinity terms) are atomic, so a list
// the patch gives replaces the runtime's.
void mergeAffinity(const Y& patch, Pod& pod) {
    const Y node = patch["nodeAffinity"];
    if (node.present()) {
        const auto patched = readNodeAffinity(node);
        NodeAffinity merged = pod.nodeAffinity.value_or(NodeAffinity{});
        if (patched) {
            if (node["requiredDuringSchedulingIgnoredDuringExecution"].present())
                merged.required = patched->required;
            if (node["preferredDuringSchedulingIgnoredDuringExecution"].present())
                merged.preferred = patched->preferred;
        }
        pod.nodeAffinity = merged;
    }
    auto mergePodAffinity = [](const Y& p, PodAffinity& into) {
        if (!p.present()) return;
        const PodAffinity patched = readPodAffinity(p);
        if (p["requiredDuringSchedulingIgnoredDuringExecution"].present()) into.required = patched.required;
        if (p["preferredDuringSchedulingIgnoredDuringExecution"].present())
            into.preferred = patched.preferred;
    };
    mergePodAffinity(patch["podAffinity"], pod.podAffinity);
    mergePodAffinity(patch["podAntiAffinity"], pod.podAntiAffinity);
}

} // namespace

void checkRuntimePatches(const Y& patches) {
    for (const auto& patch : patches.items()) {
        patch.checkKeys("TrainJob runtimePatch", {"manager", "trainingRuntimeSpec"}, {"time"});
        // validation.IsDomainPrefixedPath: "<domain>/<path>".
        const std::string manager = patch["manager"].str();
        const size_t slash = manager.find('/');
        if (slash == std::string::npos || slash == 0 || slash + 1 == manager.size() ||
            manager.find('.') > slash)
            patch["manager"].fail("manager must be a domain-prefixed path (such as \"acme.io/foo\"), got '" +
                                  manager + "'");
        const Y runtimeSpec = patch["trainingRuntimeSpec"];
        runtimeSpec.checkKeys("TrainJob runtimePatch", {"template"});
        const Y jobSet = runtimeSpec["template"];
        jobSet.checkKeys("TrainJob runtimePatch template", {"spec"}, {"metadata"});
        jobSet["spec"].checkKeys("TrainJob runtimePatch JobSet", {"replicatedJobs"});
        for (const auto& rj : jobSet["spec"]["replicatedJobs"].items()) {
            rj.checkKeys("TrainJob runtimePatch replicated job", {"name", "template"});
            if (rj["name"].str().empty()) rj.fail("a replicated job patch needs a name");
            rj["template"].checkKeys("TrainJob runtimePatch job", {"spec"}, {"metadata"});
            rj["template"]["spec"].checkKeys("TrainJob runtimePatch job", {"template"});
            const Y pod = rj["template"]["spec"]["template"];
            pod.checkKeys("TrainJob runtimePatch pod template", {"metadata", "spec"});
            pod["metadata"].checkKeys("TrainJob runtimePatch pod template", {"labels", "annotations"});
            pod["spec"].checkKeys("TrainJob runtimePatch pod",
                                  {"nodeSelector", "affinity", "tolerations", "schedulingGates"},
                                  {"serviceAccountName", "volumes", "initContainers", "containers",
                                   "imagePullSecrets", "securityContext", "terminationGracePeriodSeconds"});
            pod["spec"]["affinity"].checkKeys("TrainJob runtimePatch pod",
                                              {"nodeAffinity", "podAffinity", "podAntiAffinity"});
        }
    }
}

void checkPatchedReplicatedJobs(const Y& patches, const std::vector<std::string>& runtimeJobs) {
    for (const auto& patch : patches.items())
        for (const auto& rj : patch["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"].items())
            if (std::find(runtimeJobs.begin(), runtimeJobs.end(), rj["name"].str()) == runtimeJobs.end())
                rj["name"].fail(
                    "replicated job '" + rj["name"].str() +
                    "' is not in the runtime's JobSet template: the trainer refuses the TrainJob");
}

void applyRuntimePatches(const Y& patches, const std::string& replicatedJob, Pod& pod) {
    for (const auto& patch : patches.items()) {
        const Y tmpl = podTemplateOf(patch, replicatedJob);
        if (!tmpl.present()) continue;
        mergeMap(tmpl["metadata"]["labels"], pod.labels);
        mergeMap(tmpl["metadata"]["annotations"], pod.annotations);
        const Y spec = tmpl["spec"];
        mergeMap(spec["nodeSelector"], pod.nodeSelector);
        mergeAffinity(spec["affinity"], pod);
        // Tolerations are an atomic list in corev1.PodSpec: the patch's replace the runtime's.
        if (spec["tolerations"].present()) pod.tolerations = readTolerations(spec["tolerations"]);
        // Scheduling gates merge by name (patchMergeKey name).
        for (const auto& gate : spec["schedulingGates"].items()) {
            const std::string name = gate["name"].str();
            if (name.empty()) gate["name"].fail("a scheduling gate needs a name");
            if (std::find(pod.schedulingGates.begin(), pod.schedulingGates.end(), name) ==
                pod.schedulingGates.end())
                pod.schedulingGates.push_back(name);
        }
    }
}

} // namespace gantry::snapshot
