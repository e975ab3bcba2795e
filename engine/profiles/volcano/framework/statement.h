#pragma once
// framework.Statement: evict / pipeline / allocate applied to the session at once, then either
// committed (evictions become real, allocations are dispatched to binding) or discarded (undone in
// reverse order, remembering each task's last transaction for the pending reasons).
#include "profiles/volcano/framework/session.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gantry::engine {

class Statement {
  public:
    enum class Op : uint8_t { Evict, Pipeline, Allocate };
    struct Operation {
        Op op;
        uint32_t task;
        int32_t node;
    };

    explicit Statement(Session& ssn) : ssn_(ssn) {}

    void evict(uint32_t task);
    void pipeline(uint32_t task, uint32_t node);
    void allocate(uint32_t task, uint32_t node);
    void discard();
    void commit();
    void unpipeline(uint32_t task); // backfill's UnPipeline: not recorded
    // Moves the other statement's operations into this one (their effects are already applied).
    void merge(Statement& other);
    bool empty() const { return ops_.empty(); }
    const std::vector<Operation>& operations() const { return ops_; }
    // Re-applies saved operations (RecoverOperations): the same tasks onto the same nodes.
    void recover(const std::vector<Operation>& saved);

  private:
    Session& ssn_;
    std::vector<Operation> ops_;
};

} // namespace gantry::engine
