// Upstream's TaskStatus: names and the status groups the scheduler asks about.
#include "state/cluster_state.h"

namespace gantry::engine {

const char* toString(TaskStatus status) {
    switch (status) {
    case TaskStatus::Pending:
        return "Pending";
    case TaskStatus::Allocated:
        return "Allocated";
    case TaskStatus::Pipelined:
        return "Pipelined";
    case TaskStatus::Binding:
        return "Binding";
    case TaskStatus::Bound:
        return "Bound";
    case TaskStatus::Running:
        return "Running";
    case TaskStatus::Releasing:
        return "Releasing";
    case TaskStatus::Succeeded:
        return "Succeeded";
    case TaskStatus::Failed:
        return "Failed";
    case TaskStatus::NotCreated:
        return "NotCreated";
    default:
        return "Unknown";
    }
}

bool allocatedStatus(TaskStatus s) {
    return s == TaskStatus::Bound || s == TaskStatus::Binding || s == TaskStatus::Running ||
           s == TaskStatus::Allocated;
}
bool scheduledStatus(TaskStatus s) {
    return s == TaskStatus::Running || s == TaskStatus::Bound || s == TaskStatus::Failed ||
           s == TaskStatus::Succeeded;
}
bool completedStatus(TaskStatus s) {
    return s == TaskStatus::Failed || s == TaskStatus::Succeeded;
}
bool preemptableStatus(TaskStatus s) {
    return s == TaskStatus::Bound || s == TaskStatus::Running;
}
bool occupiesNode(TaskStatus s) {
    return s != TaskStatus::Pending && s != TaskStatus::Succeeded && s != TaskStatus::Failed &&
           s != TaskStatus::NotCreated;
}

} // namespace gantry::engine
