#pragma once
// One field of a scheduler's policy, named by a path, set to a value: what a sweep's policy variant
// changes to compare runs that differ in that field alone (a half-life over 1h, 6h and 24h).
//   volcano.<plugin>.<argument>   an argument of every entry of that plugin ("fairshare.halfLifeMinutes"),
//                                 or one of its switches (enableHierarchy ...: true or false)
//   kueue.admissionFairSharing.usageHalfLifeTime, .usageSamplingInterval   Go durations ("6h")
//   kueue.fairSharing                                                      true or false
//   kube.percentageOfNodesToScore                                          0 to 100
#include "model/diagnostic.h"
#include "model/policy.h"

#include <string>
#include <vector>

namespace gantry {

struct PolicySetting {
    std::string key, value;
    SourceRef source;
    bool operator==(const PolicySetting& o) const { return key == o.key && value == o.value; }
};

// Why the key or the value cannot be a setting ("" when it can); checked before any policy is read.
std::string policySettingProblem(const std::string& key, const std::string& value);

// Sets it in the policies; "" when done, else why not (the configuration lists no such plugin ...).
std::string applyPolicySetting(SchedulerPolicies& policies, const std::string& key, const std::string& value);

} // namespace gantry
