#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gantry::engine {

// Interned strings with reference counts: intern() takes a reference, release() gives one back and
// frees the id for reuse when none is left (the simulator releases the names of finished jobs).
// The index is an open-addressing table of ids: a simulation interns and releases the names of
// every job and pod it creates, so a lookup costs one probe of a flat array, not a node per string.
class StringPool {
  public:
    uint32_t intern(const std::string& s);
    void release(uint32_t id);
    const std::string& str(uint32_t id) const { return strings_[id]; }
    std::optional<uint32_t> find(const std::string& s) const;
    size_t size() const { return strings_.size() - free_.size(); }

  private:
    static constexpr uint32_t kEmpty = UINT32_MAX;
    size_t slotOf(std::string_view s, uint64_t hash) const; // its slot, or the empty one ending its run
    void grow();

    std::deque<std::string> strings_;
    std::vector<uint64_t> hashes_; // per id
    std::vector<uint32_t> refs_;
    std::vector<uint32_t> free_;
    std::vector<uint32_t> slots_; // ids by hash, linear probing; size a power of two, at most half full
    size_t used_ = 0;
};

} // namespace gantry::engine
