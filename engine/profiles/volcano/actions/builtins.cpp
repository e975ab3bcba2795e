#include "profiles/volcano/actions/actions.h"

namespace gantry::engine::actions {

void registerBuiltins(const std::function<void(const std::string&, ActionFactory)>& add) {
    add("enqueue", makeEnqueue);
    add("allocate", makeAllocate);
    add("backfill", makeBackfill);
    add("preempt", makePreempt);
    add("reclaim", makeReclaim);
}

} // namespace gantry::engine::actions
