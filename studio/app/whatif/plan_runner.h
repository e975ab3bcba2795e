#pragma once
// Runs the capacity planner (engine/plan, the search `gantry plan` runs) off the GUI thread: one
// search per profile compared, for the same node type, SLOs, range and seeds. Progress and every
// point measured come back as signals; cancel() sets the flag the planner checks before each
// simulation, and the runner lets go of the search at once.
#include "model/project.h"
#include "plan/planner.h"
#include "whatif/worker_run.h"

#include <QObject>
#include <QString>
#include <memory>
#include <string>
#include <vector>

namespace gantry::studio {

struct PlanSettings {
    std::string nodeType;              // a pool of the project's cluster (plan::nodePools)
    std::vector<std::string> slos;     // as `gantry plan --slo` takes them
    std::vector<std::string> profiles; // registry names; each gets its own search
    int seeds = 3;                     // the project's seed and the next ones
    int64_t min = 0, max = 8;          // nodes to add; negative: remove
    int threads = 0;                   // 0 = one per core
    // A policy field to vary (model/policy_settings.h, as `gantry sweep`'s `set:` names it) and its
    // values: every profile that reads the field gets one search per value, side by side.
    std::string varyField;
    std::vector<std::string> varyValues;
};

// Whether the profile reads the policy field (volcano.* Volcano, kueue.* Kueue, kube.* the
// kube-scheduler and Kueue's pod placement).
bool profileReadsField(const std::string& profile, const std::string& field);

// The SLO texts parsed, or where the first malformed one is wrong.
struct SloCheck {
    std::vector<plan::Slo> slos;
    int bad = -1; // index of the malformed text, -1 when all parse
    plan::SloError error;
};
SloCheck parseSlos(const std::vector<std::string>& texts);

struct ProfilePlan {
    std::string profile; // the registry's name
    std::string setting; // "field=value" this search varied; empty: the project's policy
    plan::PlanResult result;
    std::vector<std::string> notes; // what Gantry added to the profile's policy for the workload
};

struct PlanRun {
    plan::PlanRequest request;              // the type, range, SLOs and seeds every profile was searched with
    plan::PoolSummary pool;                 // the type as the project had it
    std::shared_ptr<const Cluster> cluster; // the nodes the answers count from
    std::vector<ProfilePlan> profiles;
    uint64_t projectRevision = 0;
};

// The searches a plan runs, in order, without results: each profile, and a profile that reads the
// varied field once per value.
std::vector<ProfilePlan> planColumns(const PlanSettings& settings);

// "Kueue" or "Kueue · usageHalfLifeTime=6h": the profile's title and the value it was searched with.
QString planTitle(const ProfilePlan& plan);

class PlanRunner : public QObject {
    Q_OBJECT
  public:
    // Going, it cancels and waits for the searches still finishing a simulation.
    explicit PlanRunner(QObject* parent = nullptr);

    bool isRunning() const { return worker_.isRunning(); }
    const PlanRun& last() const { return last_; }
    void clear();

    // Starts the searches on a copy of the project. Returns false (and emits failed) when a plan is
    // already running or the settings cannot run (a malformed SLO, no profile, a bad range).
    bool start(const Project& project, uint64_t revision, const PlanSettings& settings);
    // Stops the plan: the flag is set, so no further simulation starts, and the runner reports
    // cancelled at once; the simulations already going finish in the background, unreported.
    void cancel();
    // Blocks until the current plan ends, processing events (for the screenshot mode and tests).
    bool waitForFinished(int timeoutMs);
    // Blocks until every worker, cancelled ones included, has stopped.
    bool waitForWorkers(int timeoutMs);

  signals:
    void started();
    // Points measured so far, over every profile, and how many the searches may still take at most.
    void progress(int pointsDone, int pointsEstimated, const QString& stage);
    void pointFinished(int profileIndex, const gantry::plan::PlanPoint& point);
    void finished(const gantry::studio::PlanRun& run);
    void failed(const QString& message);
    void cancelled();
    void runningChanged(bool running);

  private:
    PlanRun last_;
    WorkerRun worker_; // declared last, so destroyed first: it waits for the threads using the rest
};

} // namespace gantry::studio

Q_DECLARE_METATYPE(gantry::studio::PlanRun)
Q_DECLARE_METATYPE(gantry::plan::PlanPoint)
