// Interned strings with reference counts.
#include "state/cluster_state.h"

namespace gantry::engine {

uint32_t StringPool::intern(const std::string& s) {
    auto it = index_.find(std::string_view(s));
    if (it != index_.end()) {
        ++refs_[it->second];
        return it->second;
    }
    uint32_t id;
    if (!free_.empty()) {
        id = free_.back();
        free_.pop_back();
        strings_[id] = s;
        refs_[id] = 1;
    } else {
        id = uint32_t(strings_.size());
        strings_.push_back(s);
        refs_.push_back(1);
    }
    index_.emplace(std::string_view(strings_[id]), id);
    return id;
}

void StringPool::release(uint32_t id) {
    if (id >= refs_.size() || refs_[id] == 0 || --refs_[id] > 0) return;
    index_.erase(std::string_view(strings_[id]));
    strings_[id] = std::string();
    free_.push_back(id);
}

std::optional<uint32_t> StringPool::find(const std::string& s) const {
    auto it = index_.find(std::string_view(s));
    if (it == index_.end()) return std::nullopt;
    return it->second;
}

} // namespace gantry::engine
