#include "profiles/volcano/framework/statement.h"

namespace gantry::engine {

void Statement::evict(uint32_t task) {
    const int32_t node = ssn_.state.tasks[task].node;
    ssn_.setStatus(task, TaskStatus::Releasing);
    ssn_.fireDeallocate(task);
    ops_.push_back(Operation{Op::Evict, task, node});
}

void Statement::pipeline(uint32_t task, uint32_t node) {
    ssn_.setStatus(task, TaskStatus::Pipelined, int32_t(node));
    ssn_.fireAllocate(task);
    ops_.push_back(Operation{Op::Pipeline, task, int32_t(node)});
}

void Statement::allocate(uint32_t task, uint32_t node) {
    ssn_.setStatus(task, TaskStatus::Allocated, int32_t(node));
    ssn_.fireAllocate(task);
    ops_.push_back(Operation{Op::Allocate, task, int32_t(node)});
}

void Statement::unpipeline(uint32_t task) {
    ssn_.setStatus(task, TaskStatus::Pending);
    ssn_.fireDeallocate(task);
}

void Statement::discard() {
    for (auto it = ops_.rbegin(); it != ops_.rend(); ++it) {
        const auto& t = ssn_.state.tasks[it->task];
        ssn_.recordLastTx(it->task, t.status, t.node);
        switch (it->op) {
        case Op::Evict:
            ssn_.setStatus(it->task, TaskStatus::Running);
            ssn_.fireAllocate(it->task);
            break;
        case Op::Pipeline:
        case Op::Allocate:
            ssn_.fireDeallocate(it->task);
            ssn_.setStatus(it->task, TaskStatus::Pending);
            break;
        }
    }
    ops_.clear();
}

void Statement::commit() {
    for (const auto& op : ops_) {
        switch (op.op) {
        case Op::Evict:
            ssn_.evict(op.task);
            break;
        case Op::Pipeline:
            break;
        case Op::Allocate:
            ssn_.bind(op.task);
            break;
        }
    }
    ops_.clear();
}

void Statement::merge(Statement& other) {
    ops_.insert(ops_.end(), other.ops_.begin(), other.ops_.end());
    other.ops_.clear();
}

void Statement::recover(const std::vector<Operation>& saved) {
    for (const auto& op : saved) {
        switch (op.op) {
        case Op::Evict:
            evict(op.task);
            break;
        case Op::Pipeline:
            pipeline(op.task, uint32_t(op.node));
            break;
        case Op::Allocate:
            allocate(op.task, uint32_t(op.node));
            break;
        }
    }
}

} // namespace gantry::engine
