#pragma once
// What the YuniKorn Kubernetes shim (apache/yunikorn-k8shim) reads from a pod: the application it
// belongs to and the queue it names (labels, then annotations), the user (annotation
// yunikorn.apache.org/user.info, else "nobody"), task groups and placeholders (gang scheduling),
// the DaemonSet's required node, the two preemption flags, the priority and the creation time.
#include "model/cluster.h"
#include "model/diagnostic.h"
#include "profiles/yunikorn/resource.h"
#include "profiles/yunikorn/ugm.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gantry::engine::yunikorn {

struct TaskGroupSpec {
    std::string name;
    int32_t minMember = 0;
    ResourceList minResource; // Kubernetes names, canonical amounts
};

struct PodMeta {
    bool yunikorn = false; // schedulerName yunikorn: the shim's pod
    std::string appId;
    std::string queue; // as named on the pod ("" = none)
    UserGroup user;
    bool validUser = true;
    std::string taskGroupName;
    std::vector<TaskGroupSpec> taskGroups;
    bool placeholder = false;
    std::optional<bool> allowPreemption; // annotation yunikorn.apache.org/allow-preemption
    std::string requiredNode;            // DaemonSet pods
    bool hardGang = false;               // schedulingPolicyParameters gangSchedulingStyle=Hard
    int64_t placeholderTimeout = 0;      // seconds, 0 = the core's default
};

// Reads a pod's metadata; problems the shim would log (bad task-groups JSON...) become warnings.
PodMeta readPodMeta(const Pod& pod, Diagnostics* warnings);

// What the shim adds to the tags of an application from its namespace's annotations
// (Context.updateApplicationTags): the quota (namespace.quota, else the deprecated
// namespace.max.cpu / namespace.max.memory), the guaranteed resources, the maximum of running
// applications and the parent queue. Kubernetes resource names, canonical amounts.
struct NamespaceTags {
    ResourceList quota, guaranteed;
    uint64_t maxApps = 0;
    std::string parentQueue;
};
// The namespaces with any of these annotations; what the shim would log as unusable becomes a
// warning.
std::map<std::string, NamespaceTags> readNamespaceTags(const std::vector<Namespace>& namespaces,
                                                       Diagnostics* warnings);

// YuniKorn's name of a Kubernetes resource (cpu is "vcore").
std::string yunikornResourceName(const std::string& kubernetesName);

} // namespace gantry::engine::yunikorn
