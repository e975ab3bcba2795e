#pragma once
// The checks of YuniKorn's configuration validator (yunikorn-core configs/configvalidator.go) on a
// partition configuration: quotas (guaranteed within max, children within their parent), limits,
// maxapplications, names, ACLs, placement rules and their queues, node sorting, partition limits
// against the root's. YuniKorn refuses a configuration with any of these errors; so does the
// profile, each error located at the queue (or partition) it is about.
#include "model/diagnostic.h"
#include "profiles/yunikorn/config.h"

namespace gantry::engine::yunikorn {

Diagnostics validateConfig(const PartitionConfig& config);

} // namespace gantry::engine::yunikorn
