#pragma once
// Qt Charts for what-if results. Each builder takes the primary run and, when there is one, the
// comparison run, and shows both in one chart (comparison dashed or in its own bar set).
#include "whatif/whatif_result.h"

#include <QPalette>
#include <QString>

class QChart;

namespace gantry::studio {

// GPU allocation and fragmentation (% of all GPUs) over time; for a single session, before/after bars.
QChart* makeAllocationChart(const WhatIfResult* primary, const WhatIfResult* contrast,
                            const QPalette& palette);
// Per queue: GPUs used (stacked over time; bars for a single session) against deserved and guarantee.
QChart* makeQueueChart(const WhatIfResult* primary, const WhatIfResult* contrast, const QString& shareTerm,
                       const QPalette& palette);
// Per queue: distribution of job wait times (box plots); null when the run has no wait times.
QChart* makeWaitChart(const WhatIfResult* primary, const WhatIfResult* contrast, const QPalette& palette);
// A chart with only a centred message (nothing to plot yet, and why).
QChart* makeMessageChart(const QString& title, const QString& message, const QPalette& palette);

// The chart colours used for the primary and comparison runs.
QColor primaryColor();
QColor contrastColor();

} // namespace gantry::studio
