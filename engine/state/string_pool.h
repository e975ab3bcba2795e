#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gantry::engine {

// Interned strings with reference counts: intern() takes a reference, release() gives one back and
// frees the id for reuse when none is left (the simulator releases the names of finished jobs).
class StringPool {
  public:
    uint32_t intern(const std::string& s);
    void release(uint32_t id);
    const std::string& str(uint32_t id) const { return strings_[id]; }
    std::optional<uint32_t> find(const std::string& s) const;
    size_t size() const { return strings_.size() - free_.size(); }

  private:
    std::deque<std::string> strings_; // stable addresses: the index keys are views of these
    std::vector<uint32_t> refs_;
    std::vector<uint32_t> free_;
    std::unordered_map<std::string_view, uint32_t> index_;
};

} // namespace gantry::engine
