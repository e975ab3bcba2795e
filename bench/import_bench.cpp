// Snapshot import speed: a generated cluster (nodes, pods, PodGroups) written as multi-document YAML
// and as a kubectl JSON List, each imported with SnapshotImporter.
//   import_bench [nodes] [pods]     (default 2000 nodes, 20000 pods)
#include "snapshot/snapshot_importer.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

std::string yamlSnapshot(int nodes, int pods) {
    std::string out;
    out.reserve(size_t(nodes) * 420 + size_t(pods) * 520);
    for (int i = 0; i < nodes; ++i) {
        std::string n = std::to_string(i);
        out += "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node-" + n +
               "\n  labels:\n    kubernetes.io/hostname: node-" + n +
               "\n    topology.kubernetes.io/zone: zone-" + std::to_string(i % 3) +
               "\n    topology.gantry.io/rack: rack-" + std::to_string(i / 16) +
               "\n    nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3\nstatus:\n  capacity: {cpu: \"192\", "
               "memory: 2Ti, "
               "nvidia.com/gpu: \"8\", pods: \"110\"}\n  allocatable: {cpu: 190500m, memory: 2000Gi, "
               "nvidia.com/gpu: \"8\", "
               "pods: \"110\"}\n  conditions:\n  - {type: Ready, status: \"True\"}\n";
    }
    for (int i = 0; i < pods; ++i) {
        std::string p = std::to_string(i);
        bool bound = i % 2 == 0;
        out += "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-" + p + "\n  namespace: ns-" +
               std::to_string(i % 20) + "\n  labels: {app: train-" + std::to_string(i / 8) +
               "}\n  annotations: {scheduling.k8s.io/group-name: pg-" + std::to_string(i / 8) +
               "}\nspec:\n  schedulerName: volcano\n" +
               (bound ? "  nodeName: node-" + std::to_string(i % nodes) + "\n" : std::string()) +
               "  tolerations:\n  - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}\n  "
               "containers:\n  - name: main\n"
               "    image: registry.example.com/train:1\n    resources:\n      requests: {cpu: \"4\", "
               "memory: 64Gi, "
               "nvidia.com/gpu: \"1\"}\n      limits: {nvidia.com/gpu: \"1\"}\nstatus:\n  phase: " +
               (bound ? "Running" : "Pending") + "\n";
    }
    return out;
}

std::string jsonSnapshot(int nodes, int pods) {
    std::string out = "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n";
    for (int i = 0; i < nodes; ++i) {
        std::string n = std::to_string(i);
        out += std::string(i ? ",\n" : "") +
               "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"node-" + n +
               "\", \"labels\": {\"kubernetes.io/hostname\": \"node-" + n +
               "\", \"topology.kubernetes.io/zone\": \"zone-" + std::to_string(i % 3) +
               "\"}}, \"status\": {\"allocatable\": {\"cpu\": \"190500m\", \"memory\": \"2000Gi\", "
               "\"nvidia.com/gpu\": \"8\", "
               "\"pods\": \"110\"}, \"conditions\": [{\"type\": \"Ready\", \"status\": \"True\"}]}}";
    }
    for (int i = 0; i < pods; ++i) {
        std::string p = std::to_string(i);
        bool bound = i % 2 == 0;
        out += ",\n{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"pod-" + p +
               "\", \"namespace\": \"ns-" + std::to_string(i % 20) +
               "\", \"annotations\": {\"scheduling.k8s.io/group-name\": \"pg-" + std::to_string(i / 8) +
               "\"}}, \"spec\": {\"schedulerName\": \"volcano\", " +
               (bound ? "\"nodeName\": \"node-" + std::to_string(i % nodes) + "\", " : std::string()) +
               "\"containers\": [{\"name\": \"main\", \"image\": \"x\", \"resources\": {\"requests\": "
               "{\"cpu\": \"4\", "
               "\"memory\": \"64Gi\", \"nvidia.com/gpu\": \"1\"}}}]}, \"status\": {\"phase\": \"" +
               (bound ? "Running" : "Pending") + "\"}}";
    }
    return out + "\n]}\n";
}

void run(const char* what, const std::string& text) {
    auto t0 = std::chrono::steady_clock::now();
    gantry::SnapshotImporter importer;
    importer.addText(text, what);
    gantry::Diagnostics d;
    gantry::Cluster c = importer.finish(d);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%-5s %6.1f MB  %6zu nodes %7zu pods  %6.2f s  %6.1f MB/s\n", what, double(text.size()) / 1e6,
                c.nodes.size(), c.pods.size(), s, double(text.size()) / 1e6 / s);
}

} // namespace

int main(int argc, char** argv) {
    int nodes = argc > 1 ? std::atoi(argv[1]) : 2000;
    int pods = argc > 2 ? std::atoi(argv[2]) : 20000;
    if (nodes < 1 || pods < 0) {
        std::fprintf(stderr, "usage: import_bench [nodes] [pods]\n");
        return 1;
    }
    run("yaml", yamlSnapshot(nodes, pods));
    run("json", jsonSnapshot(nodes, pods));
    return 0;
}
