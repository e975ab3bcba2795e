#pragma once
// Qt Charts for what-if results. Each builder takes the runs of the profiles compared (the first is
// the project's primary profile) and shows them in one chart, a colour per profile.
#include "whatif/whatif_result.h"

#include <QPalette>
#include <QString>
#include <utility>
#include <vector>

class QAbstractAxis;
class QChart;

namespace gantry::studio {

// GPU allocation and fragmentation (% of all GPUs) over time; for a single session, before/after bars.
QChart* makeAllocationChart(const std::vector<const WhatIfResult*>& runs, const QPalette& palette);
// Per queue: GPUs used (stacked over time; bars for a single session) against deserved and guarantee.
QChart* makeQueueChart(const std::vector<const WhatIfResult*>& runs, const QString& shareTerm,
                       const QPalette& palette);
// Per queue: distribution of job wait times (box plots); null when the run has no wait times.
QChart* makeWaitChart(const std::vector<const WhatIfResult*>& runs, const QPalette& palette);
// One run's idle GPUs over time, stacked by why they are idle (stranded, fractional, scattered, usable).
QChart* makeIdleChart(const WhatIfResult* run, const QPalette& palette);
// A chart with only a centred message (nothing to plot yet, and why).
QChart* makeMessageChart(const QString& title, const QString& message, const QPalette& palette);

// The look every chart of the studio shares: the palette's colours, a bold title, the legend below.
void styleChart(QChart* chart, const QString& title, const QPalette& palette);
void styleAxis(QAbstractAxis* axis, const QPalette& palette, const QString& title = {});

// The unit a time axis of a run this long reads in: seconds per unit, and its name ("hours").
std::pair<double, QString> timeUnit(double maxSeconds);
// Adds x below and y on the left, and attaches every series of the chart to both.
void addAxes(QChart* chart, QAbstractAxis* x, QAbstractAxis* y);

// The chart colour of the profile at `index` in a comparison; the primary's is index 0.
QColor profileColor(size_t index);
QColor primaryColor();

} // namespace gantry::studio
