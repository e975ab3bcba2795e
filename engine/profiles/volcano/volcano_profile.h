#pragma once
// Volcano (volcano-sh/volcano, scheduler at ed72c7c8) as a scheduler profile: every cycle is one
// session of the framework (framework/) running the configured actions (actions/) with the
// configured plugins (plugins/), as volcano-scheduler.conf lists them.
#include "model/diagnostic.h"
#include "model/scheduler_conf.h"
#include "profile/profile_info.h"

namespace gantry::engine::volcano {

ProfileInfo profileInfo();

} // namespace gantry::engine::volcano

namespace gantry {

// The semantic check of a volcano-scheduler.conf (framework/conf_check.cpp), with the locations
// the reader filled in.
//
// Errors (the real scheduler would silently drop or misread these, so Gantry refuses them):
//   - an action or plugin name Volcano does not know, or an empty action list;
//   - capacity together with proportion when both enforce queue quotas (allocatable, overused,
//     reclaimable, preemptive or job-enqueued on in both; queue order alone is only a warning);
//   - drf with enableHierarchy in the same tier as proportion (upstream refuses this one too);
//   - a plugin listed twice;
//   - a plugin or action argument of the wrong type (binpack.weight: "heavy", overcommit-factor: x).
// Warnings: actions and plugins Volcano has but Gantry does not model (they are ignored when a
// session runs), arguments a plugin does not read, configurations of actions that are not run.
Diagnostics checkSchedulerConf(const SchedulerConf& conf);

} // namespace gantry
