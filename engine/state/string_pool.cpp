// Interned strings with reference counts.
#include "state/cluster_state.h"

#include <functional>

namespace gantry::engine {

namespace {

uint64_t hashOf(std::string_view s) {
    return std::hash<std::string_view>{}(s);
}

} // namespace

size_t StringPool::slotOf(std::string_view s, uint64_t hash) const {
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const uint32_t id = slots_[i];
        if (id == kEmpty || (hashes_[id] == hash && strings_[id] == s)) return i;
    }
}

void StringPool::grow() {
    std::vector<uint32_t> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, kEmpty);
    const size_t mask = slots_.size() - 1;
    for (uint32_t id : old) {
        if (id == kEmpty) continue;
        size_t i = hashes_[id] & mask;
        while (slots_[i] != kEmpty) i = (i + 1) & mask;
        slots_[i] = id;
    }
}

uint32_t StringPool::intern(const std::string& s) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    const uint64_t hash = hashOf(s);
    const size_t slot = slotOf(s, hash);
    if (slots_[slot] != kEmpty) {
        ++refs_[slots_[slot]];
        return slots_[slot];
    }
    uint32_t id;
    if (!free_.empty()) {
        id = free_.back();
        free_.pop_back();
        strings_[id] = s;
        hashes_[id] = hash;
        refs_[id] = 1;
    } else {
        id = uint32_t(strings_.size());
        strings_.push_back(s);
        hashes_.push_back(hash);
        refs_.push_back(1);
    }
    slots_[slot] = id;
    ++used_;
    return id;
}

void StringPool::release(uint32_t id) {
    if (id >= refs_.size() || refs_[id] == 0 || --refs_[id] > 0) return;
    const size_t mask = slots_.size() - 1;
    size_t hole = hashes_[id] & mask;
    while (slots_[hole] != id) hole = (hole + 1) & mask;
    // Backward-shift deletion: every later id of the run whose home is not between the hole and
    // its slot moves into the hole, so that lookups never stop at a gap before it.
    for (size_t j = (hole + 1) & mask; slots_[j] != kEmpty; j = (j + 1) & mask) {
        const size_t home = hashes_[slots_[j]] & mask;
        const bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (stays) continue;
        slots_[hole] = slots_[j];
        hole = j;
    }
    slots_[hole] = kEmpty;
    --used_;
    strings_[id] = std::string();
    free_.push_back(id);
}

std::optional<uint32_t> StringPool::find(const std::string& s) const {
    if (slots_.empty()) return std::nullopt;
    const uint32_t id = slots_[slotOf(s, hashOf(s))];
    if (id == kEmpty) return std::nullopt;
    return id;
}

} // namespace gantry::engine
