#pragma once
// Apache YuniKorn as a scheduler profile (docs/yunikorn.md): the Kubernetes shim's view of the
// cluster's pods and the scheduler core's cycles (profiles/yunikorn/partition.h), with the
// configuration of the cluster's yunikorn-configs, of --scheduler-conf, or of the project's queues
// as `gantry export --target yunikorn` would write them (model/yunikorn_mapping.h).
#include "profile/profile_info.h"

namespace gantry::engine::yunikorn {

ProfileInfo profileInfo();

} // namespace gantry::engine::yunikorn
