// Small simulations whose every number is worked out by hand: preemption with and without
// checkpoints, the metrics of a three-job timeline, gang scheduling against the default
// kube-scheduler, and skipped idle cycles giving exactly what running every cycle gives.
#include "input_loader.h"
#include "profiles/volcano/framework/session.h"
#include "sim/reasons.h"
#include "sim/simulator.h"
#include "sim/sources.h"
#include "sim/whatif.h"
#include "snapshot/snapshot_importer.h"
#include "test_registry.h"
#include "volcano/scheduler_conf_reader.h"

#include <QtTest>
#include <cmath>

using namespace gantry;
using namespace gantry::sim;

namespace {

const std::string kData = std::string(GANTRY_TEST_DATA) + "/sim/";

struct Scenario {
    Project project;
    SimOptions options;
};

Scenario load(const std::string& inventory, const std::string& conf = {}) {
    Scenario s;
    s.project = loadInputs({kData + inventory}).project;
    s.options.policies = policiesOf(s.project);
    if (!conf.empty()) {
        Diagnostics w;
        s.options.policies.volcano = readSchedulerConfFile(kData + conf, &w);
    }
    return s;
}

SimResult run(const Scenario& s) {
    Cluster cluster = s.project.cluster;
    SimWorkload w = fromTemplates(s.project.workloads, cluster, s.options.seed);
    return simulate(cluster, w, s.options);
}

// A snapshot's what-if workloads (Jobs, JobSets) with the timing their annotations give.
SimResult runJobs(const Scenario& s) {
    Cluster cluster = s.project.cluster;
    SimWorkload w = projectWorkload(s.project.workloads, cluster, TimingDefaults{}, s.options.seed);
    return simulate(cluster, w, s.options);
}

WorkloadTemplate& workload(Scenario& s, const std::string& name) {
    for (auto& w : s.project.workloads)
        if (w.name == name) return w;
    throw std::runtime_error("no workload " + name);
}

const GroupSummary& priority(const SimResult& r, int value) {
    for (const auto& g : r.byPriority)
        if (g.key == std::to_string(value)) return g;
    throw std::runtime_error("no priority " + std::to_string(value));
}

const QueueSeries& queue(const SimResult& r, const std::string& name) {
    for (const auto& q : r.queues)
        if (q.name == name) return q;
    throw std::runtime_error("no queue " + name);
}

bool near(double a, double b) {
    return std::fabs(a - b) < 1e-9 * std::max(1.0, std::fabs(b));
}

#define QNEAR(a, b)                                                                                          \
    QVERIFY2(near((a), (b)), qPrintable(QString("%1 != %2").arg((a), 0, 'g', 17).arg((b), 0, 'g', 17)))

// reasons = false: the pending-reason table is left out (parked jobs keep the reason they last had).
void compareRuns(const SimResult& a, const SimResult& b, bool reasons = true) {
    QCOMPARE(a.endSeconds, b.endSeconds);
    QCOMPARE(a.time, b.time);
    QCOMPARE(a.gpuAllocationPct, b.gpuAllocationPct);
    QCOMPARE(a.fragmentationPct, b.fragmentationPct);
    QCOMPARE(a.pendingJobs, b.pendingJobs);
    QCOMPARE(a.runningJobs, b.runningJobs);
    QCOMPARE(a.pendingPods, b.pendingPods);
    QCOMPARE(a.partialJobs, b.partialJobs);
    QCOMPARE(a.jobsStarted, b.jobsStarted);
    QCOMPARE(a.jobsCompleted, b.jobsCompleted);
    QCOMPARE(a.podEvictions, b.podEvictions);
    QCOMPARE(a.jobRestarts, b.jobRestarts);
    QCOMPARE(a.lostGpuHours, b.lostGpuHours);
    QCOMPARE(a.allocatedGpuHours, b.allocatedGpuHours);
    QCOMPARE(a.partialHoldGpuHours, b.partialHoldGpuHours);
    for (auto [x, y] :
         {std::pair{&a.wait, &b.wait}, {&a.completion, &b.completion}, {&a.gangWait, &b.gangWait}}) {
        QCOMPARE(x->count, y->count);
        QCOMPARE(x->mean, y->mean);
        QCOMPARE(x->p99, y->p99);
    }
    QCOMPARE(a.queues.size(), b.queues.size());
    for (size_t q = 0; q < a.queues.size(); ++q) {
        QCOMPARE(a.queues[q].usedGpus, b.queues[q].usedGpus);
        QCOMPARE(a.queues[q].waitSeconds, b.queues[q].waitSeconds);
    }
    if (reasons) QCOMPARE(a.pendingReasons.size(), b.pendingReasons.size());
    for (size_t i = 0; reasons && i < a.pendingReasons.size(); ++i) {
        QCOMPARE(a.pendingReasons[i].reason, b.pendingReasons[i].reason);
        QCOMPARE(a.pendingReasons[i].jobSeconds, b.pendingReasons[i].jobSeconds);
    }
    QCOMPARE(a.pendingAtEnd.size(), b.pendingAtEnd.size());
    for (size_t i = 0; i < a.pendingAtEnd.size(); ++i) {
        QCOMPARE(a.pendingAtEnd[i].job, b.pendingAtEnd[i].job);
        QCOMPARE(a.pendingAtEnd[i].reason, b.pendingAtEnd[i].reason);
    }
    QCOMPARE(a.placements.size(), b.placements.size());
    for (size_t i = 0; i < a.placements.size(); ++i) {
        QCOMPARE(a.placements[i].node, b.placements[i].node);
        QCOMPARE(a.placements[i].devices, b.placements[i].devices);
    }
}

} // namespace

class SimScenarioTest : public QObject {
    Q_OBJECT
  private slots:
    // The placements kept at the peak are those of a run stopped at the peak's time (same seed, same
    // decisions): what the studio replayed before the simulator kept them.
    void peakPlacementsAreTheStateAtThePeak() {
        Scenario s = load("contended.yaml");
        s.options.keepPeakPlacements = true;
        const SimResult full = run(s);
        QVERIFY(full.peakSeconds > 0);
        QVERIFY(!full.peakPlacements.empty());
        Scenario stopped = s;
        stopped.options.keepPeakPlacements = false;
        stopped.options.horizonSeconds = full.peakSeconds;
        const SimResult atPeak = run(stopped);
        QCOMPARE(full.peakPlacements.size(), atPeak.placements.size());
        for (size_t i = 0; i < atPeak.placements.size(); ++i) {
            const auto &a = full.peakPlacements[i], &b = atPeak.placements[i];
            QCOMPARE(a.node, b.node);
            QCOMPARE(a.devices, b.devices);
            QCOMPARE(full.peakJobNames[size_t(a.job)], atPeak.jobNames[size_t(b.job)]);
        }
        // Without the option nothing is kept.
        s.options.keepPeakPlacements = false;
        QCOMPARE(run(s).peakSeconds, -1.0);
    }

    // tests/data/sim/preempt.yaml: "train" (priority 10, 4 GPUs, 1000 s of work, checkpoint every
    // 300 s) starts at 0 on the only node; "urgent" (priority 1000, 4 GPUs, 200 s) arrives at 500.
    void preemptionLosesWorkSinceTheLastCheckpoint() {
        Scenario s = load("preempt.yaml", "preempt-conf.yaml");
        s.options.evictionGraceSeconds = 0;
        SimResult r = run(s);
        // 500: urgent preempts train; train has done 500 s, keeps 300 (its last checkpoint) and
        //      loses 200 s x 4 GPUs = 800 GPU-seconds. Its pod is gone at once (no grace).
        // 501: next cycle: urgent runs until 701 (wait 1 s, JCT 201 s).
        // 701: train runs again with 700 s left: done at 1401 (wait 0, it first ran at 0; JCT 1401).
        QCOMPARE(r.podEvictions, int64_t(1));
        QCOMPARE(r.jobRestarts, int64_t(1));
        QNEAR(r.lostGpuHours, 800.0 / 3600);
        const auto& urgent = priority(r, 1000);
        QCOMPARE(urgent.wait.max, 1.0);
        QCOMPARE(urgent.completion.max, 201.0);
        QCOMPARE(urgent.restarts, int64_t(0));
        const auto& train = priority(r, 10);
        QCOMPARE(train.wait.max, 0.0);
        QCOMPARE(train.completion.max, 1401.0);
        QCOMPARE(train.restarts, int64_t(1));
        QNEAR(train.lostGpuHours, 800.0 / 3600);
        QCOMPARE(r.endSeconds, 1401.0);
        // GPUs held: 4 over [0, 500], [501, 1401] -> 5600 GPU-seconds.
        QNEAR(r.allocatedGpuHours, 5600.0 / 3600);
        QNEAR(r.meanGpuAllocationPct, 100.0 * 5600 / (4 * 1401));
        // Why each waited: urgent 1 s for the evicted pod; train 200 s behind urgent's share.
        QCOMPARE(int(r.pendingReasons.size()), 2);
        QVERIFY2(r.pendingReasons[0].reason.find("ueue default") != std::string::npos, // the queue's share
                 r.pendingReasons[0].reason.c_str());
        QCOMPARE(r.pendingReasons[0].jobSeconds, 200.0);
        QCOMPARE(r.pendingReasons[1].jobSeconds, 1.0);
        QVERIFY(r.pendingReasons[1].reason.find("once resource is released") != std::string::npos);
    }

    void evictedPodsHoldTheirGpusForTheGracePeriod() {
        Scenario s = load("preempt.yaml", "preempt-conf.yaml");
        s.options.evictionGraceSeconds = 30;
        SimResult r = run(s);
        // train's pod terminates at 530; urgent runs 530-730; train 730-1430.
        QCOMPARE(priority(r, 1000).wait.max, 30.0);
        QCOMPARE(priority(r, 1000).completion.max, 230.0);
        QCOMPARE(priority(r, 10).completion.max, 1430.0);
        QNEAR(r.lostGpuHours, 800.0 / 3600);
        QNEAR(r.allocatedGpuHours, 4.0 * 1430 / 3600);
    }

    void withoutCheckpointsAllWorkIsLost() {
        Scenario s = load("preempt.yaml", "preempt-conf.yaml");
        s.options.evictionGraceSeconds = 0;
        workload(s, "train").checkpointSeconds = 0;
        SimResult r = run(s);
        // 500 s x 4 GPUs lost; train restarts at 701 with all 1000 s to do: done at 1701.
        QNEAR(r.lostGpuHours, 2000.0 / 3600);
        QCOMPARE(priority(r, 10).completion.max, 1701.0);
    }

    void evictionOnACheckpointLosesNothing() {
        Scenario s = load("preempt.yaml", "preempt-conf.yaml");
        s.options.evictionGraceSeconds = 0;
        workload(s, "urgent").arrival.times = {600};
        SimResult r = run(s);
        // Evicted at 600 = 2 checkpoints: nothing lost, 400 s left; urgent 601-801, train 801-1201.
        QCOMPARE(r.jobRestarts, int64_t(1));
        QCOMPARE(r.lostGpuHours, 0.0);
        QCOMPARE(priority(r, 10).completion.max, 1201.0);
        QCOMPARE(priority(r, 1000).completion.max, 201.0);
    }

    void podStartDelaysTheClock() {
        Scenario s = load("preempt.yaml", "preempt-conf.yaml");
        s.options.evictionGraceSeconds = 0;
        s.options.podStartSeconds = 10;
        SimResult r = run(s);
        // train runs from 10; at 500 it has done 490 s: keeps 300, loses 190 s x 4 GPUs. urgent is
        // bound at 501 and runs 511-711 (wait 11 s); train is bound at 711, runs from 721 with 700 s
        // left: done at 1421.
        QNEAR(r.lostGpuHours, 760.0 / 3600);
        QCOMPARE(priority(r, 1000).wait.max, 11.0);
        QCOMPARE(priority(r, 1000).completion.max, 211.0);
        QCOMPARE(priority(r, 10).wait.max, 10.0);
        QCOMPARE(priority(r, 10).completion.max, 1421.0);
    }

    // tests/data/sim/metrics.yaml, Volcano's default policy. A (team-a, 2 GPUs, 100 s) arrives at 0,
    // B (team-b, 4 GPUs, 50 s) at 10, C (team-a, 1 GPU, 30 s) at 20. overcommit admits B only once
    // nothing else runs (4 GPUs > 1.2 x 4 - used), so: A 0-100, C 20-50, B 100-150.
    void metricsOfAThreeJobTimeline() {
        Scenario s = load("metrics.yaml");
        s.options.sampleSeconds = 10;
        SimResult r = run(s);
        QCOMPARE(r.endSeconds, 150.0);
        QCOMPARE(r.time.size(), size_t(16));
        QCOMPARE(r.time[3], 30.0);
        QCOMPARE(r.gpuAllocationPct,
                 (std::vector<double>{50, 50, 75, 75, 75, 50, 50, 50, 50, 50, 100, 100, 100, 100, 100, 0}));
        QCOMPARE(r.pendingJobs, (std::vector<int32_t>{0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0}));
        QCOMPARE(r.runningJobs, (std::vector<int32_t>{1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0}));
        // GPU-seconds: A 2 x 100 + C 1 x 30 + B 4 x 50 = 430 of 4 x 150.
        QNEAR(r.allocatedGpuHours, 430.0 / 3600);
        QNEAR(r.meanGpuAllocationPct, 100.0 * 430 / 600);
        // Waits 0, 0, 90; JCTs 100, 30, 140. Percentiles interpolate between ranks.
        QCOMPARE(r.wait.count, int64_t(3));
        QNEAR(r.wait.mean, 30.0);
        QNEAR(r.wait.p50, 0.0);
        QNEAR(r.wait.p95, 81.0);
        QNEAR(r.wait.p99, 88.2);
        QNEAR(r.wait.max, 90.0);
        QNEAR(r.completion.mean, 90.0);
        QNEAR(r.completion.p50, 100.0);
        QNEAR(r.completion.p95, 136.0);
        QNEAR(r.completion.p99, 139.2);
        // Queues against their quotas; usage per sample.
        const auto& a = queue(r, "team-a");
        const auto& b = queue(r, "team-b");
        QVERIFY(!a.guaranteeGpus);
        QCOMPARE(*a.deservedGpus, 3.0);
        QCOMPARE(*b.guaranteeGpus, 1.0);
        QCOMPARE(*b.capabilityGpus, 4.0);
        QCOMPARE(a.usedGpus, (std::vector<double>{2, 2, 3, 3, 3, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0}));
        QCOMPARE(b.usedGpus, (std::vector<double>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 0}));
        QCOMPARE(a.waitSeconds, (std::vector<double>{0, 0}));
        QCOMPARE(b.waitSeconds, (std::vector<double>{90}));
        QCOMPARE(a.summary.completed, int64_t(2));
        QNEAR(b.summary.wait.p50, 90.0);
        // Fragmentation: the target workload is the three shapes, a third each. With 2 GPUs free
        // (A alone) only the 4-GPU shape cannot use them: 2000/3 milli of 4000 = 16.67 %, of the
        // 2000 idle 33.3 %. With 1 free (A + C) the 4- and 2-GPU shapes cannot: 2 x 1000/3 again
        // 16.67 %, 66.7 % of idle. Full or empty: 0.
        QCOMPARE(int(r.targetWorkload.size()), 3);
        const double third = 100.0 * (2000.0 / 3) / 4000;
        const std::vector<double> frag{third, third, third, third, third, third, third, third,
                                       third, third, 0,     0,     0,     0,     0,     0};
        for (size_t i = 0; i < frag.size(); ++i) QNEAR(r.fragmentationPct[i], frag[i]);
        QNEAR(r.fragOverIdlePct[0], 100.0 / 3);
        QNEAR(r.fragOverIdlePct[2], 200.0 / 3);
        // B waited 90 s, refused by overcommit.
        QCOMPARE(int(r.pendingReasons.size()), 1);
        QCOMPARE(r.pendingReasons[0].reason,
                 std::string("resource in cluster is overused: overused nvidia.com/gpu"));
        QCOMPARE(r.pendingReasons[0].jobSeconds, 90.0);
        QCOMPARE(r.pendingReasons[0].jobs, int64_t(1));
        QVERIFY(r.pendingAtEnd.empty());
        QCOMPARE(r.jobsCompleted, int64_t(3));
        QCOMPARE(r.podEvictions, int64_t(0));
    }

    // tests/data/sim/gang.yaml: "hold" (2 GPUs, 50 s) and "gang" (2 pods x 2 GPUs, 100 s).
    void gangsWholeUnderVolcano() {
        Scenario s = load("gang.yaml");
        SimResult r = run(s);
        // The gang sorts first (job key) and fits whole: 0-100; hold waits, refused by overcommit
        // (4 GPUs used), and runs 100-150.
        QCOMPARE(r.gangJobs, int64_t(1));
        QCOMPARE(r.gangWait.count, int64_t(1));
        QCOMPARE(r.gangWait.max, 0.0);
        QCOMPARE(r.partialHoldGpuHours, 0.0);
        QCOMPARE(r.wait.max, 100.0);
        QCOMPARE(r.completion.max, 150.0);
        QVERIFY(r.partialJobs == std::vector<int32_t>(r.partialJobs.size(), 0));
    }

    // Volcano's job controller makes a dependent task's pods once the tasks it waits for run
    // (pkg/controllers/job/job_controller_actions.go, syncJob / waitDependsOnTaskMeetCondition): task
    // b's two GPU pods join the job when a's pod runs (5 s after its binding), not before.
    void dependentTaskPodsComeAfterTheirDependency() {
        SnapshotImporter in;
        in.addText(R"(apiVersion: v1
kind: Node
metadata: {name: gpu-0}
status: {allocatable: {cpu: "32", memory: 128Gi, nvidia.com/gpu: "8", pods: "110"}}
---
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: chain
  annotations: {gantry.io/duration: 100s}
spec:
  minAvailable: 1
  tasks:
  - name: a
    replicas: 1
    template: {spec: {containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "1"}}}]}}
  - name: b
    replicas: 2
    dependsOn: {name: [a]}
    template: {spec: {containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "1"}}}]}}
)",
                   "chain.yaml");
        Diagnostics d;
        Cluster cluster = in.finish(d);
        SimWorkload w = takeClusterJobs(cluster, TimingDefaults{}, 42);
        SimOptions o;
        o.profile = "volcano";
        o.policies.volcano = defaultVolcanoConf();
        o.podStartSeconds = 5;
        o.sampleSeconds = 1;
        o.horizonSeconds = 20;
        const SimResult r = simulate(cluster, w, o);
        const QueueSeries& q = queue(r, "default");
        QCOMPARE(q.usedGpus.at(2), 1.0); // a alone, bound at 0
        QCOMPARE(q.usedGpus.at(8), 3.0); // b's pods, made at 5 and bound in that cycle
        QCOMPARE(r.jobsStarted, int64_t(1));
    }

    void gangsPiecemealUnderKubeDefault() {
        Scenario s = load("gang.yaml");
        s.options.profile = "kube-default";
        SimResult r = run(s);
        QCOMPARE(r.profile, std::string("kube-default"));
        // Pod by pod in creation order: hold (2 GPUs) and half the gang (2 GPUs) at 0; the gang's
        // second pod waits for hold to finish at 50 and the gang runs 50-150: gang wait 50 s, with
        // 2 GPUs held for nothing over those 50 s.
        QCOMPARE(r.gangWait.max, 50.0);
        QNEAR(r.partialHoldGpuHours, 100.0 / 3600);
        QCOMPARE(r.partialJobs.front(), 1);
        QCOMPARE(r.wait.p50, 25.0);
        QCOMPARE(r.completion.max, 150.0);
        QCOMPARE(r.meanGpuAllocationPct, 100.0);
        QCOMPARE(int(r.pendingReasons.size()), 1);
        QVERIFY(r.pendingReasons[0].reason.find("started partly") != std::string::npos);
    }

    // kube-scheduler's victims leave one by one (docs/engine.md, Preemption): the low Job's two
    // pods fill the node from 0 s; the high pod (10 s) evicts one (the other started no earlier and
    // comes first by creation, so it is reprieved), is nominated, and binds when the victim is gone
    // at 40 s (30 s grace). The low Job's clock stops at 10 s (no checkpoints: its 10 s are lost);
    // its recreated pod waits for the high pod to finish at 90 s and the Job runs 90-190 s.
    void kubePreemptionEvictsOnlyTheVictims() {
        Scenario s = load("kube-preempt-one-pod.yaml");
        s.options.profile = "kube-default";
        const SimResult r = runJobs(s);
        QCOMPARE(r.podEvictions, int64_t(1));
        QCOMPARE(r.jobRestarts, int64_t(1));
        QCOMPARE(r.jobsCompleted, int64_t(2));
        QCOMPARE(r.endSeconds, 190.0);
        QCOMPARE(priority(r, 1000).wait.max, 30.0);
        // The low Job ran 0-10 s, then only from 90 s: its one remaining pod held 2 cpu throughout.
        QCOMPARE(priority(r, 1).completion.max, 190.0);
        s.options.skipIdleCycles = false;
        const SimResult every = runJobs(s);
        compareRuns(r, every);
    }

    // A JobSet's replicated jobs are created as its dependsOn allows: the initializer's pod succeeds
    // after its own 10 s, the launcher is created and runs at 10 s, the four workers (created once
    // it runs) at 11 s, and the JobSet's 100 s run from 11 s to 111 s.
    void jobSetDependsOnCreatesPodsInTurn() {
        Scenario s = load("jobset-depends-on.yaml");
        s.options.profile = "kube-default";
        const SimResult r = runJobs(s);
        QCOMPARE(r.jobsStarted, int64_t(1));
        QCOMPARE(r.jobsCompleted, int64_t(1));
        QCOMPARE(r.endSeconds, 111.0);
        QCOMPARE(r.wait.max, 11.0); // kube-scheduler has no queues: the one job waited 11 s
        // Under Volcano the controllers create the pods the same way; its pod-group controller gives
        // the JobSet minMember 1, so the JobSet's clock starts with the launcher at 10 s.
        s.options.profile = "volcano";
        const SimResult v = runJobs(s);
        QCOMPARE(v.jobsCompleted, int64_t(1));
        QCOMPARE(v.endSeconds, 110.0);
    }

    void jobsThatCanNeverRunAreReported() {
        Scenario s = load("metrics.yaml");
        workload(s, "b").gpu.count = 8; // more GPUs than the cluster has
        workload(s, "b").podRequests.set(res::NvidiaGpu, 8000);
        SimResult r = run(s);
        // Nothing can change once A and C are done: the run ends there with B pending.
        QCOMPARE(r.endSeconds, 100.0);
        QCOMPARE(r.jobsPendingAtEnd, int64_t(1));
        QCOMPARE(int(r.pendingAtEnd.size()), 1);
        QCOMPARE(r.pendingAtEnd[0].job, std::string("default/b-0"));
        QCOMPARE(r.pendingAtEnd[0].queue, std::string("team-b"));
        QCOMPARE(r.pendingAtEnd[0].gpus, 8.0);
        QCOMPARE(r.pendingAtEnd[0].waitingSeconds, 90.0);
        QVERIFY2(!r.pendingAtEnd[0].reason.empty(), r.pendingAtEnd[0].reason.c_str());
    }

    // tests/data/sim/hdrf-churn.yaml: volcano-sh/volcano#1661's queue tree, overloaded. Under
    // hierarchical drf with reclaim (the benchmark's policy), queues take pods back from each
    // other session after session, as upstream users reported: every queue's jobs restart over
    // and over and few finish. Without reclaim the same jobs run through. The simulator must show
    // the churn an operator would get, not a calmer policy than Volcano's.
    void hierarchicalDrfReclaimChurns() {
        Scenario churn = load("hdrf-churn.yaml", "tree-hdrf-conf.yaml");
        churn.options.horizonSeconds = 3 * 3600;
        const SimResult reclaiming = run(churn);
        Scenario plain = load("hdrf-churn.yaml");
        plain.options.horizonSeconds = 3 * 3600;
        const SimResult placing = run(plain);
        QCOMPARE(placing.podEvictions, int64_t(0));
        QVERIFY2(placing.jobsCompleted >= 200, qPrintable(QString::number(placing.jobsCompleted)));
        QVERIFY2(reclaiming.podEvictions >= 1000, qPrintable(QString::number(reclaiming.podEvictions)));
        QCOMPARE(reclaiming.jobRestarts, reclaiming.podEvictions); // one-pod jobs
        for (const char* name : {"side", "big", "little"}) {
            const GroupSummary& q = queue(reclaiming, name).summary;
            QVERIFY2(
                q.restarts >= 10 * q.completed,
                qPrintable(
                    QString("%1: %2 restarts, %3 completed").arg(name).arg(q.restarts).arg(q.completed)));
        }
        QVERIFY2(
            reclaiming.jobsCompleted * 4 < placing.jobsCompleted,
            qPrintable(QString("%1 against %2").arg(reclaiming.jobsCompleted).arg(placing.jobsCompleted)));
    }
    void horizonCutsTheRun() {
        Scenario s = load("metrics.yaml");
        s.options.horizonSeconds = 60;
        s.options.sampleSeconds = 25;
        SimResult r = run(s);
        QCOMPARE(r.endSeconds, 60.0);
        QCOMPARE(r.time, (std::vector<double>{0, 25, 50, 60}));
        QCOMPARE(r.jobsCompleted, int64_t(1));    // C
        QCOMPARE(r.jobsRunningAtEnd, int64_t(1)); // A
        QCOMPARE(r.jobsPendingAtEnd, int64_t(1)); // B
        QNEAR(r.allocatedGpuHours, (2.0 * 60 + 30) / 3600);
    }

    void reasonsAreGroupedWithoutNamesAndNumbers() {
        QCOMPARE(
            normalizeReason("0/12 nodes are unavailable: 4 Insufficient nvidia.com/gpu, 8 node(s) had "
                            "untolerated taint {a100: present}.",
                            "ns/p-0", "ns/p"),
            std::string("N/N nodes are unavailable: N Insufficient nvidia.com/gpu, N node(s) had untolerated "
                        "taint {a100: present}."));
        QCOMPARE(
            normalizeReason("Pod ns/job-3-worker-0 can possibly be assigned to gpu-07, once minAvailable is "
                            "satisfied (gang ns/job-3: minMember 8, 5 placeable)",
                            "ns/job-3-worker-0", "ns/job-3"),
            std::string("Pod <pod> can possibly be assigned to <node>, once minAvailable is satisfied (gang "
                        "<job>: minMember N, N placeable)"));
        QCOMPARE(
            normalizeReason("0/6 nodes are unavailable: 5 Insufficient nvidia.com/gpu, 1 Insufficient cpu.",
                            "ns/p-0", "ns/p"),
            normalizeReason("0/6 nodes are unavailable: 1 Insufficient nvidia.com/gpu, 5 Insufficient cpu.",
                            "ns/p-0", "ns/p"));
        // The resource name's own dot does not end the list.
        QCOMPARE(
            normalizeReason(
                "0/6 nodes are unavailable: 1 node(s) didn't match Pod's node affinity/selector, 5 "
                "Insufficient nvidia.com/gpu. (gang ns/p: minMember 2, 1 placed)",
                "ns/p-0", "ns/p"),
            std::string("N/N nodes are unavailable: N Insufficient nvidia.com/gpu, N node(s) didn't match "
                        "Pod's node affinity/selector. (gang <job>: minMember N, N placed)"));
        QCOMPARE(normalizeReason("In hyperNode rack-3: 0/4 nodes are unavailable.", "ns/p-0", "ns/p"),
                 std::string("In hyperNode <hypernode>: N/N nodes are unavailable."));
    }

    // Skipping the cycles that cannot decide anything new changes nothing.
    void skippedCyclesChangeNothing_data() {
        QTest::addColumn<QString>("inventory");
        QTest::addColumn<QString>("conf");
        QTest::addColumn<bool>("kube");
        QTest::addColumn<double>("grace");
        QTest::addColumn<double>("podStart");
        QTest::addColumn<double>("horizon");
        QTest::newRow("preempt") << "preempt.yaml"
                                 << "preempt-conf.yaml" << false << 30.0 << 7.0 << 0.0;
        QTest::newRow("metrics") << "metrics.yaml"
                                 << "" << false << 30.0 << 0.0 << 0.0;
        QTest::newRow("gang-kube") << "gang.yaml"
                                   << "" << true << 30.0 << 3.0 << 0.0;
        QTest::newRow("sla") << "metrics.yaml"
                             << "sla-conf.yaml" << false << 0.0 << 0.0 << 0.0;
        QTest::newRow("sample-12h") << "../../../resources/samples/gpu-cloud-east.yaml"
                                    << "" << false << 30.0 << 0.0 << 43200.0;
    }

    void skippedCyclesChangeNothing() {
        QFETCH(QString, inventory);
        QFETCH(QString, conf);
        QFETCH(bool, kube);
        QFETCH(double, grace);
        QFETCH(double, podStart);
        QFETCH(double, horizon);
        Scenario s = load(inventory.toStdString(), conf.toStdString());
        if (kube) s.options.profile = "kube-default";
        s.options.evictionGraceSeconds = grace;
        s.options.podStartSeconds = podStart;
        s.options.horizonSeconds = horizon;
        s.options.sampleSeconds = 7;
        if (s.options.policies.volcano == defaultVolcanoConf()) {
            PluginOption share;
            share.name = "deviceshare";
            s.options.policies.volcano.tiers.back().plugins.push_back(share);
        }
        s.options.skipIdleCycles = true;
        SimResult skipped = run(s);
        s.options.skipIdleCycles = false;
        SimResult every = run(s);
        QVERIFY(skipped.sessions < every.sessions);
        QCOMPARE(every.cyclesSkipped, int64_t(0));
        QCOMPARE(skipped.sessions + skipped.cyclesSkipped, every.sessions);
        compareRuns(skipped, every);
    }

    // Sessions that leave the settled jobs out (the default) decide exactly what sessions over
    // every job decide: the same placements at the same times, the same reasons. Under preempt and
    // reclaim too, where settled jobs lose pods as victims (the evicting rows must evict).
    void settledJobsOutChangeNothing_data() {
        QTest::addColumn<QString>("inventory");
        QTest::addColumn<QString>("conf");
        QTest::addColumn<double>("horizon");
        // Some waiting job is parked at some point (with an action that evicts too: allocate passes
        // it over, preempt and reclaim still try it).
        QTest::addColumn<bool>("parks");
        QTest::addColumn<int64_t>("evictions"); // at least this many pods evicted
        QTest::newRow("contended") << "contended.yaml"
                                   << "" << 0.0 << true << int64_t(0);
        QTest::newRow("metrics") << "metrics.yaml"
                                 << "" << 0.0 << false << int64_t(0);
        QTest::newRow("gang") << "gang.yaml"
                              << "" << 0.0 << false << int64_t(0);
        QTest::newRow("sla") << "metrics.yaml"
                             << "sla-conf.yaml" << 0.0 << false << int64_t(0);
        QTest::newRow("sample-12h") << "../../../resources/samples/gpu-cloud-east.yaml"
                                    << "" << 43200.0 << false << int64_t(0);
        QTest::newRow("preempt") << "preempt.yaml"
                                 << "preempt-conf.yaml" << 0.0 << true << int64_t(1);
        QTest::newRow("parked-preemptor") << "parked-preemptor.yaml"
                                          << "preempt-conf.yaml" << 0.0 << true << int64_t(1);
        QTest::newRow("evicting") << "evicting.yaml"
                                  << "evicting-conf.yaml" << 0.0 << true << int64_t(20);
        QTest::newRow("contended-evicting") << "contended.yaml"
                                            << "evicting-conf.yaml" << 0.0 << true << int64_t(0);
        // network-topology-aware: hard-topology gangs placed inside HyperNodes.
        QTest::newRow("topology") << "topology.yaml"
                                  << "topology-conf.yaml" << 28800.0 << true << int64_t(0);
        // The bench's queue tree: hierarchy reclaim really takes pods (settled jobs as victims);
        // hierarchical drf never parks (its queue order couples queues).
        QTest::newRow("tree-capacity") << "tree.yaml"
                                       << "tree-capacity-conf.yaml" << 28800.0 << true << int64_t(5);
        QTest::newRow("tree-hdrf") << "tree.yaml"
                                   << "tree-hdrf-conf.yaml" << 28800.0 << false << int64_t(1);
    }

    void settledJobsOutChangeNothing() {
        QFETCH(QString, inventory);
        QFETCH(QString, conf);
        QFETCH(double, horizon);
        QFETCH(bool, parks);
        QFETCH(int64_t, evictions);
        Scenario s = load(inventory.toStdString(), conf.toStdString());
        s.options.horizonSeconds = horizon;
        s.options.sampleSeconds = 7;
        QVERIFY(engine::SessionCache::covers(s.options.policies.volcano));
        s.options.shortcuts = {true, false};
        SimResult cached = run(s);
        s.options.shortcuts = {true, true};
        SimResult parked = run(s);
        s.options.shortcuts = {false, false};
        SimResult full = run(s);
        QVERIFY(full.jobsStarted > 0);
        QVERIFY2(full.podEvictions >= evictions, qPrintable(QString::number(full.podEvictions)));
        QCOMPARE(cached.sessions, full.sessions);
        compareRuns(cached, full);
        // Leaving parked jobs untried changes no decision, only how long each reason is counted.
        QCOMPARE(parked.sessions, full.sessions);
        compareRuns(parked, full, false);
        QCOMPARE(full.parkedJobSessions, int64_t(0));
        QCOMPARE(parked.parkedJobSessions > 0, parks);
        if (QByteArray(QTest::currentDataTag()) == "topology") {
            // Hard-topology gangs are parked too: untried, they meet their reasons from inside a
            // hypernode in fewer sessions than when every session tries them.
            auto inHyperNodes = [](const SimResult& r) {
                int64_t jobs = 0;
                for (const auto& rt : r.pendingReasons)
                    if (rt.reason.rfind("In hyperNode", 0) == 0) jobs += rt.jobs;
                return jobs;
            };
            QVERIFY(inHyperNodes(full) > 0);
            QVERIFY2(inHyperNodes(parked) < inHyperNodes(full),
                     qPrintable(QString("%1 of %2").arg(inHyperNodes(parked)).arg(inHyperNodes(full))));
        }
    }
};

GANTRY_TEST(SimScenarioTest)
#include "test_sim_scenarios.moc"
