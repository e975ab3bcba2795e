#pragma once
// Volcano (volcano-sh/volcano, scheduler at ed72c7c8) as a scheduler profile: every cycle is one
// session of the framework (framework/) running the configured actions (actions/) with the
// configured plugins (plugins/), as volcano-scheduler.conf lists them.
#include "profile/registry.h"

namespace gantry::engine::volcano {

ProfileInfo profileInfo();

} // namespace gantry::engine::volcano
