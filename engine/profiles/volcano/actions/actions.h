#pragma once
// The built-in actions, one file each, named as Volcano names them. Each file's descriptor says how
// to build the action and whether it evicts; the factory (profiles/volcano/factory.cpp) registers them.
#include "profiles/volcano/framework/registry.h"
#include "profiles/volcano/framework/session.h"

namespace gantry::engine::actions {

ActionDescriptor allocateAction();
ActionDescriptor backfillAction();
ActionDescriptor enqueueAction();
ActionDescriptor preemptAction();
ActionDescriptor reclaimAction();

} // namespace gantry::engine::actions
