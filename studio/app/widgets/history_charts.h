#pragma once
// A replayed history at a glance, the way the templates show their arrival pattern and durations:
// when the jobs arrive (jobs and GPUs asked for per period), how large they are (GPUs per job) and how
// long they run (open-ended jobs apart). Made from the project's jobs that carry gantry.io/arrival.
#include "model/cluster.h"

#include <QWidget>
#include <cstdint>
#include <vector>

class QChartView;
class QLabel;

namespace gantry::studio {

struct TimedJob {
    double arrival = 0, duration = 0; // seconds
    bool openEnded = false, neverRan = false;
    int64_t gpuMilli = 0;
    int pods = 0;
};

// The jobs of the cluster that carry an arrival annotation (a history's, or any timed what-if job).
std::vector<TimedJob> timedJobs(const Cluster& cluster);

class HistoryCharts : public QWidget {
    Q_OBJECT
  public:
    explicit HistoryCharts(QWidget* parent = nullptr);
    // Redraws from the cluster's timed jobs; hides itself when there are none.
    void refresh(const Cluster& cluster);
    int jobs() const { return jobs_; }

  private:
    QLabel* summary_;
    QChartView* arrivals_;
    QChartView* sizes_;
    QChartView* durations_;
    int jobs_ = 0;
};

} // namespace gantry::studio
