#pragma once
// The decayed usage a fair-share scheduler orders work by, over a what-if run: one line per
// LocalQueue (Kueue's Admission Fair Sharing, afs_usage) or per queue/namespace (Volcano's fairshare
// plugin, decayed_usage_<resource>_hours). Null when the run has none.
#include "whatif/whatif_result.h"

#include <QPalette>

class QChart;

namespace gantry::studio {

QChart* makeFairShareChart(const WhatIfResult* run, const QPalette& palette);

} // namespace gantry::studio
