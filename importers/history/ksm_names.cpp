#include "history/ksm_names.h"

#include "model/cluster.h"
#include "model/resources.h"

#include <cctype>
#include <cmath>
#include <unordered_map>
#include <vector>

namespace gantry::history {

namespace {

std::string sanitized(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
    return out;
}

// Go's toSnakeCase: "([a-z0-9])([A-Z])" -> "${1}_${2}", then lower case.
std::string snakeCase(const std::string& s) {
    std::string out;
    out.reserve(s.size() + 4);
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (i > 0 && std::isupper(static_cast<unsigned char>(c))) {
            const char p = s[i - 1];
            if (std::islower(static_cast<unsigned char>(p)) || std::isdigit(static_cast<unsigned char>(p)))
                out += '_';
        }
        out += char(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

// The label keys the importers and profiles read, on nodes and on pods.
std::vector<std::string> knownKeys() {
    std::vector<std::string> keys = {
        // nodes
        "kubernetes.io/hostname", "kubernetes.io/arch", "kubernetes.io/os",
        "node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type", "topology.kubernetes.io/zone",
        "topology.kubernetes.io/region", "failure-domain.beta.kubernetes.io/zone",
        "failure-domain.beta.kubernetes.io/region", "nvidia.com/gpu.product", "nvidia.com/gpu.memory",
        "nvidia.com/gpu.count", "nvidia.com/gpu.family", "nvidia.com/gpu.clique", "nvidia.com/mig.strategy",
        "alibabacloud.com/gpu-card-model", "alibabacloud.com/gpu-count", "gantry.io/pool",
        "gantry.io/node-class", "gantry.io/flavor", "karpenter.sh/nodepool", "karpenter.sh/capacity-type",
        "cloud.google.com/gke-nodepool", "cloud.google.com/gke-accelerator", "eks.amazonaws.com/nodegroup",
        "kubernetes.azure.com/agentpool", "node-role.kubernetes.io/control-plane",
        "node-role.kubernetes.io/worker",
        // pods: queues, gangs, priorities, jobs
        "volcano.sh/queue-name", "scheduling.volcano.sh/queue-name", "kueue.x-k8s.io/queue-name",
        "kueue.x-k8s.io/priority-class", "kueue.x-k8s.io/pod-group-name", "yunikorn.apache.org/queue",
        "yunikorn.apache.org/app-id", "applicationId", "queue", "volcano.sh/job-name", "volcano.sh/task-spec",
        "volcano.sh/preemptable", "scheduling.x-k8s.io/pod-group", "pod-group.scheduling.sigs.k8s.io",
        "jobset.sigs.k8s.io/jobset-name", "jobset.sigs.k8s.io/replicatedjob-name",
        "training.kubeflow.org/job-name", "training.kubeflow.org/replica-type",
        "batch.kubernetes.io/job-name", "job-name", "app.kubernetes.io/name", "app.kubernetes.io/instance",
        "app.kubernetes.io/component", "app", "team"};
    for (const auto& level : defaultTopologyLevels()) keys.push_back(level.nodeLabel);
    return keys;
}

const std::unordered_map<std::string, std::string>& keyOfName() {
    static const std::unordered_map<std::string, std::string> map = [] {
        std::unordered_map<std::string, std::string> m;
        for (const auto& k : knownKeys()) m.emplace(ksmLabelName(k), k);
        return m;
    }();
    return map;
}

} // namespace

std::string ksmLabelName(std::string_view key) {
    return "label_" + snakeCase(sanitized(key));
}

std::optional<std::string> labelKeyOf(std::string_view promLabel) {
    if (promLabel.rfind("label_", 0) != 0 || promLabel.size() == 6) return std::nullopt;
    const auto& map = keyOfName();
    if (auto it = map.find(std::string(promLabel)); it != map.end()) return it->second;
    return std::string(promLabel.substr(6));
}

std::string resourceNameOf(std::string_view s, bool* known) {
    static const std::unordered_map<std::string, std::string> names = [] {
        std::unordered_map<std::string, std::string> m;
        for (const char* r : {"cpu",
                              "memory",
                              "pods",
                              "storage",
                              "ephemeral-storage",
                              "nvidia.com/gpu",
                              "amd.com/gpu",
                              "gpu.intel.com/i915",
                              "gpu.intel.com/xe",
                              "habana.ai/gaudi",
                              "aws.amazon.com/neuron",
                              "aws.amazon.com/neuroncore",
                              "aws.amazon.com/neurondevice",
                              "google.com/tpu",
                              "nvidia.com/gpu.shared",
                              "alibabacloud.com/gpu-milli",
                              "alibabacloud.com/gpu-count",
                              "alibabacloud.com/gpu-mem",
                              "volcano.sh/vgpu-number",
                              "volcano.sh/vgpu-cores",
                              "volcano.sh/vgpu-memory",
                              "rdma/ib",
                              "rdma/rdma_shared_device_a",
                              "rdma/hca_shared_devices_a",
                              "nvidia.com/hostdev",
                              "vpc.amazonaws.com/efa",
                              "hugepages-1Gi",
                              "hugepages-2Mi"})
            m.emplace(sanitized(r), r);
        return m;
    }();
    *known = true;
    const std::string key(s);
    if (auto it = names.find(key); it != names.end()) return it->second;
    // MIG profiles: nvidia.com/mig-<n>g.<m>gb.
    constexpr std::string_view mig = "nvidia_com_mig_";
    if (key.rfind(mig, 0) == 0) {
        std::string rest = key.substr(mig.size());
        const size_t under = rest.find('_');
        if (under != std::string::npos) rest[under] = '.';
        return "nvidia.com/mig-" + rest;
    }
    if (key.rfind("hugepages_", 0) == 0) return "hugepages-" + key.substr(10);
    *known = false;
    return key;
}

int64_t amountOf(std::string_view resource, double value) {
    switch (unitOf(resource)) {
    case ResourceUnit::Milli:
        return int64_t(std::llround(value * 1000));
    case ResourceUnit::Bytes:
    case ResourceUnit::Count:
        return int64_t(std::llround(value));
    }
    return int64_t(std::llround(value));
}

} // namespace gantry::history
