#pragma once
// The default kube-scheduler as a scheduler profile (kube_scheduler.h says what it models): every
// cycle schedules the pending pods one by one, with the KubeSchedulerConfiguration's profile.
#include "profile/profile_info.h"

namespace gantry::engine::kube_default {

ProfileInfo profileInfo();

} // namespace gantry::engine::kube_default
