// Node classes and buckets (nodes alike for every placement decision) and the cluster-wide sums,
// kept up to date as tasks move.
#include "state/cluster_state.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace gantry::engine {

// Device fit depends on the free milli of each device, not on which device has it: the key holds
// the node's device values sorted.
int ClusterState::sortedGpuFree(uint32_t n, int32_t* out) const {
    const int count = gpuCount(n);
    std::copy(gpuRow(n), gpuRow(n) + count, out);
    std::sort(out, out + count);
    return count;
}

std::vector<int64_t> ClusterState::dynamicKey(uint32_t n) const {
    const int d = D();
    std::vector<int64_t> key;
    key.reserve(size_t(6 * d + 4));
    key.push_back(nodes[n].cls);
    for (const auto* arr : {&idle, &used, &releasing, &pipelined, &k8sRequested}) {
        const int64_t* row = nodeRow(*arr, n);
        key.insert(key.end(), row, row + d);
    }
    key.push_back(nonZeroCpu[n]);
    key.push_back(nonZeroMem[n]);
    key.push_back(k8sPods[n]);
    int32_t gpus[kMaxNodeGpus];
    const int count = sortedGpuFree(n, gpus);
    key.insert(key.end(), gpus, gpus + count);
    return key;
}

uint64_t ClusterState::dynamicHash(uint32_t n) const {
    const int d = D();
    uint64_t h = 1469598103934665603ULL;
    auto mix = [&](int64_t v) { h ^= uint64_t(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    mix(nodes[n].cls);
    for (const auto* arr : {&idle, &used, &releasing, &pipelined, &k8sRequested}) {
        const int64_t* row = nodeRow(*arr, n);
        for (int i = 0; i < d; ++i) mix(row[i]);
    }
    mix(nonZeroCpu[n]);
    mix(nonZeroMem[n]);
    mix(k8sPods[n]);
    int32_t gpus[kMaxNodeGpus];
    const int count = sortedGpuFree(n, gpus);
    for (int g = 0; g < count; ++g) mix(gpus[g]);
    return h;
}

bool ClusterState::dynamicKeyEquals(uint32_t n, const std::vector<int64_t>& key) const {
    const size_t d = size_t(D());
    const int count = gpuCount(n);
    if (key.size() != 5 * d + 4 + size_t(count) || key[0] != nodes[n].cls) return false;
    size_t at = 1;
    for (const auto* arr : {&idle, &used, &releasing, &pipelined, &k8sRequested}) {
        if (std::memcmp(nodeRow(*arr, n), key.data() + at, d * sizeof(int64_t)) != 0) return false;
        at += d;
    }
    if (key[at] != nonZeroCpu[n] || key[at + 1] != nonZeroMem[n] || key[at + 2] != k8sPods[n]) return false;
    at += 3;
    if (count == 0) return true;
    int32_t gpus[kMaxNodeGpus];
    sortedGpuFree(n, gpus);
    for (int g = 0; g < count; ++g)
        if (key[at + size_t(g)] != gpus[g]) return false;
    return true;
}

void ClusterState::reindexNode(uint32_t n) {
    if (!fitTracks.empty()) updateFits(n);
    if (nodeBucket.size() != nodes.size()) return; // indexes not built yet
    uint32_t old = nodeBucket[n];
    if (old != UINT32_MAX && dynamicKeyEquals(n, buckets[old].key)) return;
    if (old != UINT32_MAX) {
        auto& b = buckets[old];
        b.ranks.erase(nodes[n].rank);
        if (b.ranks.empty()) {
            auto& list = classes[b.cls].buckets;
            list.erase(std::find(list.begin(), list.end(), old));
            auto range = bucketIndex.equal_range(b.hash);
            for (auto it = range.first; it != range.second; ++it)
                if (it->second == old) {
                    bucketIndex.erase(it);
                    break;
                }
            b.key.clear();
            freeBuckets.push_back(old);
        }
    }
    const uint64_t h = dynamicHash(n);
    uint32_t id = UINT32_MAX;
    auto range = bucketIndex.equal_range(h);
    for (auto it = range.first; it != range.second; ++it)
        if (dynamicKeyEquals(n, buckets[it->second].key)) {
            id = it->second;
            break;
        }
    if (id == UINT32_MAX) {
        if (!freeBuckets.empty()) {
            id = freeBuckets.back();
            freeBuckets.pop_back();
        } else {
            id = uint32_t(buckets.size());
            buckets.emplace_back();
        }
        buckets[id].cls = nodes[n].cls;
        buckets[id].key = dynamicKey(n);
        buckets[id].hash = h;
        bucketIndex.emplace(h, id);
        classes[nodes[n].cls].buckets.push_back(id);
    }
    auto& bucket = buckets[id];
    bucket.ranks.insert(nodes[n].rank);
    nodeBucket[n] = id;
    nodeJoin[n] = ++bucket.joins;
    auto& log = bucket.joinLog;
    if (log.size() > 2 * bucket.ranks.size() + 32)
        std::erase_if(log, [&](const std::pair<uint32_t, uint32_t>& e) {
            return nodeBucket[e.second] != id || nodeJoin[e.second] != e.first;
        });
    log.emplace_back(bucket.joins, n);
}

VResource ClusterState::totalAllocatable() const {
    VResource r(D());
    r.cpu = double(allocatableSum[kCpu]);
    r.mem = double(allocatableSum[kMemory]);
    for (int d = 2; d < D(); ++d)
        if ((allocatableMask >> d) & 1u) r.set(d, double(allocatableSum[size_t(d)]));
    return r;
}

VResource ClusterState::totalUsed() const {
    VResource r(D());
    r.cpu = double(usedSum[kCpu]);
    r.mem = double(usedSum[kMemory]);
    for (int d = 2; d < D(); ++d)
        if (usedNodes[size_t(d)] > 0) r.set(d, double(usedSum[size_t(d)]));
    return r;
}

void ClusterState::rebuildIndexes() {
    // Cluster-wide sums (nodes never change after the build; used is then kept by nodeAccount).
    const size_t d = size_t(D());
    allocatableSum.assign(d, 0);
    usedSum.assign(d, 0);
    usedNodes.assign(d, 0);
    allocatableMask = 0;
    for (uint32_t n = 0; n < nodes.size(); ++n) {
        allocatableMask |= nodes[n].allocMask;
        const int64_t* a = nodeRow(allocatable, n);
        const int64_t* u = nodeRow(used, n);
        for (size_t i = 0; i < d; ++i) {
            allocatableSum[i] += a[i];
            usedSum[i] += u[i];
            usedNodes[i] += u[i] != 0;
        }
    }
    // Node classes: everything static a predicate or score reads from the node object.
    indexesStale = false;
    classes.clear();
    std::unordered_map<std::string, uint32_t> classIndex;
    for (uint32_t n = 0; n < nodes.size(); ++n) {
        auto& node = nodes[n];
        std::string key;
        const int64_t* a = nodeRow(allocatable, n);
        key.append(reinterpret_cast<const char*>(a), size_t(D()) * sizeof(int64_t));
        key += '|' + std::to_string(node.maxTaskNum) + (node.unschedulable ? "U" : "S");
        for (const auto& [k, v] : node.labels)
            if (relevantLabelKeys.count(k)) key += '\x01' + k + '\x02' + v;
        for (const auto& t : node.taints) key += '\x03' + t.key + '\x02' + t.value + toString(t.effect);
        for (int32_t h : node.hyperNodes) key += '\x04' + std::to_string(h);
        key += '\x05' + node.gpus.model + '\x02' + std::to_string(gpuCount(n));
        auto [it, inserted] = classIndex.emplace(key, uint32_t(classes.size()));
        if (inserted) {
            classes.emplace_back();
            classes.back().representative = n;
        }
        node.cls = it->second;
        classes[it->second].members.push_back(n);
    }
    buckets.clear();
    bucketIndex.clear();
    freeBuckets.clear();
    nodeBucket.assign(nodes.size(), UINT32_MAX);
    nodeJoin.assign(nodes.size(), 0);
    for (uint32_t n = 0; n < nodes.size(); ++n) reindexNode(n);
}

} // namespace gantry::engine
