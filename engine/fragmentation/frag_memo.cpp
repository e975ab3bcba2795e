#include "fragmentation/frag_memo.h"

#include <algorithm>
#include <functional>

namespace gantry::frag {

size_t FragMemo::KeyHash::operator()(const Key& k) const {
    uint64_t h = uint64_t(k.cpuLeft) * 0x9E3779B97F4A7C15ULL ^ uint64_t(uint32_t(k.model));
    for (uint64_t w : k.gpus) {
        h ^= w + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ULL;
    }
    return size_t(h ^ (h >> 31));
}

FragValue FragMemo::get(const NodeState& node) {
    std::array<int16_t, kMaxGpusPerNode> sorted{};
    std::copy(node.gpuLeft.begin(), node.gpuLeft.begin() + node.gpuCount, sorted.begin());
    std::sort(sorted.begin(), sorted.begin() + node.gpuCount, std::greater<>());
    Key key{node.cpuLeft, {0, 0, 0, 0}, node.model};
    for (int g = 0; g < node.gpuCount; ++g)
        key.gpus[g / 4] |= uint64_t(uint16_t(sorted[g])) << (16 * (g % 4));
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    FragBuckets b = nodeFragBuckets(node, *workload_);
    FragValue v{b.fragmented(), b.idle()};
    memo_.emplace(key, v);
    return v;
}

} // namespace gantry::frag
