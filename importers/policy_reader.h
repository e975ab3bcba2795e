#pragma once
// `--scheduler-conf FILE`: reads a scheduler configuration in the format a profile names into that
// scheduler's part of the policies. Throws InputError (located) for bad input.
#include "model/diagnostic.h"
#include "model/policy.h"

#include <string>

namespace gantry {

void readPolicyFile(const std::string& path, ConfigFormat format, SchedulerPolicies& policies,
                    Diagnostics* warnings = nullptr);

} // namespace gantry
