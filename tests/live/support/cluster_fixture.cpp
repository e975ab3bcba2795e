#include "cluster_fixture.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace gantry::testing {

using json = nlohmann::json;

namespace {

std::string uidFor(const std::string& seed) {
    // Deterministic, UUID-shaped.
    uint64_t h = 1469598103934665603ull;
    for (char c : seed) h = (h ^ uint8_t(c)) * 1099511628211ull;
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%08x-%04x-4%03x-8%03x-%012llx", unsigned(h >> 32),
                  unsigned(h >> 16 & 0xffff), unsigned(h >> 4 & 0xfff), unsigned(h & 0xfff),
                  static_cast<unsigned long long>(h * 31 & 0xffffffffffffull));
    return buffer;
}

json managedFields(const std::string& manager) {
    return json::array({{{"manager", manager},
                         {"operation", "Update"},
                         {"apiVersion", "v1"},
                         {"time", "2025-03-01T10:00:00Z"},
                         {"fieldsType", "FieldsV1"},
                         {"fieldsV1", {{"f:metadata", {{"f:labels", {{".", json::object()}}}}}}}}});
}

} // namespace

json makeNode(int index, const std::string& gpuModel, int gpus) {
    char name[32];
    std::snprintf(name, sizeof name, "gpu-node-%04d", index);
    int rack = index / 8, zone = index / 64;
    json labels = {{"kubernetes.io/hostname", name},
                   {"kubernetes.io/os", "linux"},
                   {"kubernetes.io/arch", "amd64"},
                   {"node.kubernetes.io/instance-type", "p4d.24xlarge"},
                   {"topology.kubernetes.io/zone", "zone-" + std::to_string(zone)},
                   {"topology.kubernetes.io/rack", "rack-" + std::to_string(rack)},
                   {"nvidia.com/gpu.product", gpuModel},
                   {"nvidia.com/gpu.count", std::to_string(gpus)}};
    json capacity = {{"cpu", "96"},
                     {"memory", "1161925836Ki"},
                     {"pods", "110"},
                     {"ephemeral-storage", "7814036Mi"},
                     {"nvidia.com/gpu", std::to_string(gpus)},
                     {"hugepages-1Gi", "0"}};
    json allocatable = capacity;
    allocatable["cpu"] = "95690m";
    allocatable["memory"] = "1160826060Ki";
    return {{"apiVersion", "v1"},
            {"kind", "Node"},
            {"metadata",
             {{"name", name},
              {"uid", uidFor(name)},
              {"creationTimestamp", "2025-01-15T08:00:00Z"},
              {"labels", labels},
              {"annotations",
               {{"node.alpha.kubernetes.io/ttl", "0"},
                {"volumes.kubernetes.io/controller-managed-attach-detach", "true"}}},
              {"managedFields", managedFields("kubelet")}}},
            {"spec",
             {{"providerID", std::string("aws:///us-east-1a/i-0") + name},
              {"podCIDR", "10.244." + std::to_string(index % 250) + ".0/24"}}},
            {"status",
             {{"capacity", capacity},
              {"allocatable", allocatable},
              {"conditions",
               {{{"type", "MemoryPressure"}, {"status", "False"}, {"reason", "KubeletHasSufficientMemory"}},
                {{"type", "Ready"},
                 {"status", "True"},
                 {"reason", "KubeletReady"},
                 {"message", "kubelet is posting ready status"}}}},
              {"addresses",
               {{{"type", "InternalIP"},
                 {"address", "10.0." + std::to_string(index / 250) + "." + std::to_string(index % 250)}},
                {{"type", "Hostname"}, {"address", name}}}},
              {"nodeInfo",
               {{"kubeletVersion", "v1.31.2"},
                {"containerRuntimeVersion", "containerd://1.7.22"},
                {"osImage", "Ubuntu 22.04.4 LTS"},
                {"kernelVersion", "5.15.0-1066-aws"},
                {"architecture", "amd64"}}},
              {"images",
               {{{"names", {"nvcr.io/nvidia/pytorch@sha256:0123", "nvcr.io/nvidia/pytorch:24.05-py3"}},
                 {"sizeBytes", 9876543210}},
                {{"names", {"registry.k8s.io/pause:3.9"}}, {"sizeBytes", 321520}}}}}}};
}

json makePod(const std::string& ns, const std::string& name, const std::string& node,
             const std::string& phase, int gpus, const std::string& group) {
    json labels = {{"app.kubernetes.io/name", "trainer"},
                   {"training.kubeflow.org/job-name", name.substr(0, name.rfind('-'))},
                   {"training.kubeflow.org/replica-type", "worker"}};
    json annotations = {{"kubectl.kubernetes.io/last-applied-configuration",
                         std::string("{\"") + kPlantedLastApplied + "\":1}"}};
    if (!group.empty()) annotations["scheduling.k8s.io/group-name"] = group;
    json resources = {{"requests", {{"cpu", "1500m"}, {"memory", "8Gi"}}}, {"limits", {{"memory", "8Gi"}}}};
    if (gpus > 0) {
        resources["requests"]["nvidia.com/gpu"] = std::to_string(gpus);
        resources["limits"]["nvidia.com/gpu"] = std::to_string(gpus);
    }
    json container = {
        {"name", "pytorch"},
        {"image", "nvcr.io/nvidia/pytorch:24.05-py3"},
        {"command", {"torchrun", "--nnodes=4", "train.py"}},
        {"env",
         {{{"name", "HF_TOKEN"}, {"value", kPlantedEnvSecret}},
          {{"name", "MASTER_ADDR"}, {"value", name + "-master-0"}}}},
        {"resources", resources},
        {"ports", {{{"containerPort", 23456}, {"name", "pytorchjob-port"}, {"protocol", "TCP"}}}},
        {"livenessProbe",
         {{"httpGet",
           {{"path", "/healthz"},
            {"port", 8080},
            {"httpHeaders", {{{"name", "Authorization"}, {"value", kPlantedProbeHeader}}}}}}}},
        {"volumeMounts", {{{"name", "dshm"}, {"mountPath", "/dev/shm"}}}}};
    json spec = {{"containers", {container}},
                 {"restartPolicy", "Never"},
                 {"schedulerName", group.empty() ? "default-scheduler" : "volcano"},
                 {"priorityClassName", "training"},
                 {"priority", 1000},
                 {"preemptionPolicy", "PreemptLowerPriority"},
                 {"serviceAccountName", "default"},
                 {"tolerations",
                  {{{"key", "nvidia.com/gpu"}, {"operator", "Exists"}, {"effect", "NoSchedule"}},
                   {{"key", "node.kubernetes.io/not-ready"},
                    {"operator", "Exists"},
                    {"effect", "NoExecute"},
                    {"tolerationSeconds", 300}}}},
                 {"volumes",
                  {{{"name", "dshm"}, {"emptyDir", {{"medium", "Memory"}}}},
                   {{"name", "data"}, {"persistentVolumeClaim", {{"claimName", "datasets"}}}},
                   {{"name", "creds"}, {"secret", {{"secretName", "s3-credentials"}}}}}}};
    if (!node.empty()) spec["nodeName"] = node;
    json status = {{"phase", phase}, {"qosClass", "Burstable"}};
    if (!node.empty()) {
        status["hostIP"] = "10.0.0.1";
        status["podIP"] = "10.244.0.17";
        status["startTime"] = "2025-03-01T10:00:05Z";
        status["conditions"] = {{{"type", "PodScheduled"}, {"status", "True"}},
                                {{"type", "Ready"}, {"status", phase == "Running" ? "True" : "False"}}};
        status["containerStatuses"] = {{{"name", "pytorch"},
                                        {"ready", true},
                                        {"restartCount", 0},
                                        {"imageID", "nvcr.io/nvidia/pytorch@sha256:0123"},
                                        {"containerID", "containerd://abc"}}};
    } else {
        status["conditions"] = {{{"type", "PodScheduled"},
                                 {"status", "False"},
                                 {"reason", "Unschedulable"},
                                 {"message", "0/8 nodes are available: 8 Insufficient nvidia.com/gpu."}}};
    }
    return {{"apiVersion", "v1"},
            {"kind", "Pod"},
            {"metadata",
             {{"name", name},
              {"namespace", ns},
              {"uid", uidFor(ns + "/" + name)},
              {"creationTimestamp", "2025-03-01T10:00:00Z"},
              {"labels", labels},
              {"annotations", annotations},
              {"ownerReferences",
               {{{"apiVersion", "kubeflow.org/v1"},
                 {"kind", "PyTorchJob"},
                 {"name", labels["training.kubeflow.org/job-name"]},
                 {"uid", uidFor(name)},
                 {"controller", true},
                 {"blockOwnerDeletion", true}}}},
              {"managedFields", managedFields("kube-controller-manager")}}},
            {"spec", spec},
            {"status", status}};
}

json makeNamespace(const std::string& name) {
    return {{"apiVersion", "v1"},
            {"kind", "Namespace"},
            {"metadata",
             {{"name", name}, {"uid", uidFor(name)}, {"labels", {{"kubernetes.io/metadata.name", name}}}}},
            {"spec", {{"finalizers", {"kubernetes"}}}},
            {"status", {{"phase", "Active"}}}};
}

void serveVolcano(LoopbackApiServer& server) {
    server.serve({"scheduling.volcano.sh", "v1beta1", "queues", "Queue", false});
    server.serve({"scheduling.volcano.sh", "v1beta1", "podgroups", "PodGroup", true});
    server.serve({"topology.volcano.sh", "v1alpha1", "hypernodes", "HyperNode", false});
}

void serveKueue(LoopbackApiServer& server) {
    for (const char* version : {"v1beta1", "v1beta2"}) {
        server.serve({"kueue.x-k8s.io", version, "resourceflavors", "ResourceFlavor", false});
        server.serve({"kueue.x-k8s.io", version, "clusterqueues", "ClusterQueue", false});
        server.serve({"kueue.x-k8s.io", version, "localqueues", "LocalQueue", true});
        server.serve({"kueue.x-k8s.io", version, "workloadpriorityclasses", "WorkloadPriorityClass", false});
        server.serve({"kueue.x-k8s.io", version, "topologies", "Topology", false});
    }
    server.serve({"kueue.x-k8s.io", "v1alpha1", "cohorts", "Cohort", false});
}

// resource.k8s.io/v1 as Kubernetes 1.34+ serves it, with objects shaped as the NVIDIA DRA driver's
// chart and kubelet plugin publish them.
void serveDra(LoopbackApiServer& server) {
    server.serve({"resource.k8s.io", "v1", "deviceclasses", "DeviceClass", false});
    server.serve({"resource.k8s.io", "v1", "resourceslices", "ResourceSlice", false});
    server.serve({"resource.k8s.io", "v1", "resourceclaims", "ResourceClaim", true});
    server.serve({"resource.k8s.io", "v1", "resourceclaimtemplates", "ResourceClaimTemplate", true});
    server.add("deviceclasses", json::parse(R"({
        "metadata": {"name": "gpu.nvidia.com"},
        "spec": {"selectors": [{"cel": {"expression":
                     "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"}}],
                 "extendedResourceName": "nvidia.com/gpu",
                 "config": [{"opaque": {"driver": "gpu.nvidia.com", "parameters": {"token": "opaque-5521"}}}]}})"));
    server.add("resourceslices", json::parse(R"({
        "metadata": {"name": "gpu-node-0000-gpu.nvidia.com-x2k9"},
        "spec": {"driver": "gpu.nvidia.com", "nodeName": "gpu-node-0000",
                 "pool": {"name": "gpu-node-0000", "generation": 1, "resourceSliceCount": 1},
                 "devices": [{"name": "gpu-0",
                              "attributes": {"type": {"string": "gpu"},
                                             "productName": {"string": "NVIDIA H100 80GB HBM3"}},
                              "capacity": {"memory": {"value": "81559Mi"}}}]}})"));
    server.add("resourceclaimtemplates", json::parse(R"({
        "metadata": {"name": "single-gpu", "namespace": "team-a"},
        "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly":
                     {"deviceClassName": "gpu.nvidia.com", "allocationMode": "ExactCount", "count": 1}}]}}}})"));
}

void populateCluster(LoopbackApiServer& server, int nodes, int pods, bool schedulers) {
    for (const char* ns : {"default", "team-a", "team-b"}) server.add("namespaces", makeNamespace(ns));
    server.add("priorityclasses", {{"metadata", {{"name", "training"}}},
                                   {"value", 1000},
                                   {"preemptionPolicy", "PreemptLowerPriority"},
                                   {"description", "batch training"}});
    server.add("priorityclasses",
               {{"metadata", {{"name", "inference"}}}, {"value", 100000}, {"globalDefault", false}});
    const char* models[] = {"NVIDIA-A100-SXM4-80GB", "NVIDIA-H100-80GB-HBM3"};
    for (int i = 0; i < nodes; ++i) server.add("nodes", makeNode(i, models[i % 2], 8));
    for (int i = 0; i < pods; ++i) {
        std::string ns = (i / 4) % 2 ? "team-a" : "team-b";
        std::string job = "job-" + std::to_string(i / 4);
        std::string phase = i % 50 == 49   ? "Succeeded"
                            : i % 97 == 96 ? "Failed"
                            : i % 10 == 9  ? "Pending"
                                           : "Running";
        char node[32];
        std::snprintf(node, sizeof node, "gpu-node-%04d", nodes ? i % nodes : 0);
        server.add("pods", makePod(ns, job + "-worker-" + std::to_string(i % 4),
                                   phase == "Pending" ? "" : node, phase,
                                   phase == "Pending"           ? 8
                                   : i / std::max(nodes, 1) < 8 ? 1
                                                                : 0,
                                   schedulers && i < 4 ? job : "")); // job-0 is a Volcano gang
    }
    if (!schedulers) return;
    serveVolcano(server);
    serveKueue(server);
    serveDra(server);
    server.add("queues", {{"metadata", {{"name", "research"}}},
                          {"spec",
                           {{"weight", 4},
                            {"reclaimable", true},
                            {"capability", {{"nvidia.com/gpu", "64"}}},
                            {"deserved", {{"nvidia.com/gpu", "32"}}}}},
                          {"status", {{"state", "Open"}}}});
    server.add("podgroups",
               {{"metadata", {{"name", "job-0"}, {"namespace", "team-b"}}},
                {"spec", {{"minMember", 4}, {"queue", "research"}, {"priorityClassName", "training"}}},
                {"status", {{"phase", "Running"}}}});
    server.add("podgroups", {{"metadata", {{"name", "job-old"}, {"namespace", "team-b"}}},
                             {"spec", {{"minMember", 2}, {"queue", "research"}}},
                             {"status", {{"phase", "Completed"}}}});
    server.add(
        "hypernodes",
        {{"metadata", {{"name", "rack-0"}}},
         {"spec",
          {{"tier", 1},
           {"members",
            {{{"type", "Node"}, {"selector", {{"regexMatch", {{"pattern", "gpu-node-000[0-7]"}}}}}}}}}}});
    server.add("resourceflavors",
               {{"metadata", {{"name", "h100"}}},
                {"spec", {{"nodeLabels", {{"nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"}}}}}});
    server.add("clusterqueues",
               {{"metadata", {{"name", "team-a-cq"}}},
                {"spec",
                 {{"cohort", "all"},
                  {"namespaceSelector", json::object()},
                  {"resourceGroups",
                   {{{"coveredResources", {"nvidia.com/gpu"}},
                     {"flavors",
                      {{{"name", "h100"},
                        {"resources", {{{"name", "nvidia.com/gpu"}, {"nominalQuota", 16}}}}}}}}}}}}});
    server.add("localqueues", {{"metadata", {{"name", "team-a"}, {"namespace", "team-a"}}},
                               {"spec", {{"clusterQueue", "team-a-cq"}}}});
    server.add("cohorts", {{"metadata", {{"name", "all"}}}, {"spec", json::object()}});
    server.add("workloadpriorityclasses",
               {{"metadata", {{"name", "urgent"}}}, {"value", 10000}, {"description", "urgent work"}});
    server.add(
        "configmaps",
        {{"metadata", {{"name", "yunikorn-configs"}, {"namespace", "yunikorn"}}},
         {"data",
          {{"queues.yaml",
            "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n"}}}});
    server.add("configmaps",
               {{"metadata", {{"name", "volcano-scheduler-configmap"}, {"namespace", "volcano-system"}}},
                {"data",
                 {{"volcano-scheduler.conf", "actions: \"enqueue, allocate, backfill\"\ntiers:\n- plugins:\n "
                                             " - name: priority\n  - name: gang\n"}}}});
    server.add("configmaps",
               {{"metadata", {{"name", "unrelated"}, {"namespace", "default"}}}, {"data", {{"x", "y"}}}});
}

} // namespace gantry::testing
