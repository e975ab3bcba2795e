#pragma once
// Everything one window works on: the document, the what-if runner and its last results, the
// capacity planner, and the GPU occupancy derived from the project (snapshot) or from a result.
#include "core/project_document.h"
#include "gpumap/fragmentation_view.h"
#include "gpumap/gpu_occupancy.h"
#include "whatif/plan_runner.h"
#include "whatif/whatif_runner.h"

#include <QObject>
#include <memory>
#include <vector>

namespace gantry::studio {

class Workspace : public QObject {
    Q_OBJECT
  public:
    explicit Workspace(std::unique_ptr<WhatIfEngine> engine, QObject* parent = nullptr);

    ProjectDocument* document() { return &doc_; }
    const ProjectDocument* document() const { return &doc_; }
    WhatIfRunner* runner() { return &runner_; }
    PlanRunner* planner() { return &planner_; }

    // The cluster as loaded: pods bound in the snapshot, fragmentation against the job mix.
    std::shared_ptr<const GpuOccupancy> clusterOccupancy() const { return clusterOccupancy_; }
    const FragmentationSummary& clusterFragmentation() const { return clusterFragmentation_; }
    // The cluster as the last what-if's result `index` (in WhatIfRun::results) left it; null without.
    std::shared_ptr<const GpuOccupancy> resultOccupancy(size_t index) const {
        return index < resultOccupancy_.size() ? resultOccupancy_[index] : nullptr;
    }
    const WhatIfRun& results() const { return runner_.last(); }
    // Results exist but the project changed since they were computed.
    bool resultsStale() const;

    // Starts the project's what-if on the worker.
    bool runWhatIf();

  signals:
    void clusterOccupancyChanged();
    void resultsChanged();

  private:
    void recomputeClusterOccupancy();
    std::shared_ptr<const GpuOccupancy> occupancyOf(const WhatIfResult& result) const;

    ProjectDocument doc_;
    WhatIfRunner runner_;
    PlanRunner planner_;
    std::shared_ptr<const GpuOccupancy> clusterOccupancy_;
    std::vector<std::shared_ptr<const GpuOccupancy>> resultOccupancy_;
    FragmentationSummary clusterFragmentation_;
};

} // namespace gantry::studio
