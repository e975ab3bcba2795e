#pragma once
// The built-in actions, one file each, named as Volcano names them.
#include <functional>
#include <memory>
#include <string>

#include "profiles/volcano/framework/session.h"

namespace gantry::engine::actions {

std::unique_ptr<Action> makeEnqueue();
std::unique_ptr<Action> makeAllocate();
std::unique_ptr<Action> makeBackfill();
std::unique_ptr<Action> makePreempt();
std::unique_ptr<Action> makeReclaim();

void registerBuiltins(const std::function<void(const std::string&, ActionFactory)>& add);

} // namespace gantry::engine::actions
