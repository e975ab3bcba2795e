#include "workspace.h"

namespace gantry::studio {

Workspace::Workspace(std::unique_ptr<WhatIfEngine> engine, QObject* parent)
    : QObject(parent), doc_(this), runner_(std::move(engine), this), planner_(this) {
    recomputeClusterOccupancy();
    connect(&doc_, &ProjectDocument::projectReplaced, this, [this] {
        planner_.cancel(); // a plan of the project closed is of no use
        planner_.clear();
        runner_.clear();
        resultOccupancy_.clear();
        recomputeClusterOccupancy();
        emit resultsChanged();
    });
    // Fragmentation is measured against the job mix, so it follows the workloads.
    connect(&doc_, &ProjectDocument::workloadsReset, this, [this] {
        if (!doc_.isReplacing()) recomputeClusterOccupancy();
    });
    connect(&doc_, &ProjectDocument::workloadChanged, this, &Workspace::recomputeClusterOccupancy);
    connect(&doc_, &ProjectDocument::jobsChanged, this, &Workspace::recomputeClusterOccupancy);
    connect(&doc_, &ProjectDocument::nodesChanged, this, [this] { emit resultsChanged(); });
    // The results' GPU maps name nodes by their place in the old list: they go with it.
    connect(&doc_, &ProjectDocument::nodesReset, this, [this] {
        resultOccupancy_.clear();
        recomputeClusterOccupancy();
        emit resultsChanged();
    });
    connect(&runner_, &WhatIfRunner::finished, this, [this](const WhatIfRun& run) {
        resultOccupancy_.clear();
        for (const auto& r : run.results) resultOccupancy_.push_back(occupancyOf(*r));
        emit resultsChanged();
    });
    connect(&doc_, &ProjectDocument::changed, this, [this] {
        if (runner_.last().primary()) emit resultsChanged(); // staleness changed
    });
}

bool Workspace::resultsStale() const {
    return runner_.last().primary() && runner_.last().primary()->projectRevision != doc_.revision();
}

bool Workspace::runWhatIf() {
    return runner_.start(doc_.project(), doc_.revision());
}

void Workspace::recomputeClusterOccupancy() {
    const auto& cluster = doc_.project().cluster;
    std::vector<std::string> jobs, queues;
    auto placements = placementsFromCluster(cluster, &jobs, &queues);
    auto occ = std::make_shared<GpuOccupancy>(
        buildOccupancy(cluster, placements, std::move(jobs), std::move(queues)));
    clusterFragmentation_ = measureFragmentation(doc_.project(), *occ, boundCpuPerNode(cluster));
    clusterOccupancy_ = std::move(occ);
    emit clusterOccupancyChanged();
}

std::shared_ptr<const GpuOccupancy> Workspace::occupancyOf(const WhatIfResult& result) const {
    const auto& cluster = doc_.project().cluster;
    auto occ = std::make_shared<GpuOccupancy>(
        buildOccupancy(cluster, result.placements, result.jobNames, result.queueNames));
    std::vector<int64_t> cpu(cluster.nodes.size(), 0);
    for (const auto& p : result.placements)
        if (p.node >= 0 && size_t(p.node) < cpu.size()) cpu[size_t(p.node)] += p.cpuMilli;
    measureFragmentation(doc_.project(), *occ, cpu);
    return occ;
}

} // namespace gantry::studio
