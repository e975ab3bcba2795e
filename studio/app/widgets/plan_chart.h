#pragma once
// The planner's curve: one SLO's metric (its worst seed at each point) against the pool's node
// count, a line per profile, the SLO's threshold dashed across, each profile's answer starred and
// the points that break the monotonic assumption ringed in red.
#include "whatif/plan_runner.h"

#include <QPalette>

class QChart;

namespace gantry::studio {

// `run` may be a plan still going (its points so far, no answers yet). Null without points.
QChart* makePlanChart(const PlanRun& run, size_t sloIndex, const QPalette& palette);

} // namespace gantry::studio
