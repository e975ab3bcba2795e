// DRA over simulated time: a device is given to one claim at a time and comes back when the pod that
// holds it finishes (KEP-4381: the ResourceClaim controller deallocates a claim no pod uses), so a
// second job waits for the first; with a second device both run at once. The same under kube-scheduler
// and under Volcano, whose predicates plugin runs DynamicResources.
#include "cli_run.h"
#include "test_registry.h"

#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>

namespace {

nlohmann::json simulate(const QString& snapshot, const QString& profile) {
    const auto r = gantry::test::runGantry({"simulate", "--profile", profile, snapshot, "--json"});
    if (r.code != 0) qFatal("gantry simulate failed: %s", qPrintable(r.err));
    return nlohmann::json::parse(r.out.toStdString());
}

// The profiles whose placement allocates claims.
void profiles() {
    QTest::addColumn<QString>("profile");
    QTest::newRow("kube-default") << "kube-default";
    QTest::newRow("volcano") << "volcano";
}

} // namespace

class DraSimulateTest : public QObject {
    Q_OBJECT
  private slots:
    void aDeviceComesBackWhenItsPodFinishes_data() { profiles(); }
    void aDeviceComesBackWhenItsPodFinishes() {
        QFETCH(QString, profile);
        const QString one = QString(GANTRY_TEST_DATA) + "/dra/two-jobs-one-gpu.yaml";
        const auto r = simulate(one, profile);
        QCOMPARE(r["jobs"]["completed"].get<int>(), 2);
        QCOMPARE(r["wait_seconds"]["max"].get<double>(), 3600.0); // the second waits out the first
        QCOMPARE(r["end_seconds"].get<double>(), 7200.0);

        // The same with a second GPU in the slice: both start at once.
        QFile f(one);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(f.readAll());
        text.replace("  - name: gpu-0\n",
                     "  - name: gpu-1\n    attributes: {type: {string: gpu}}\n  - name: gpu-0\n");
        QTemporaryDir dir;
        const QString two = dir.filePath("two-gpus.yaml");
        QFile out(two);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
        out.close();
        const auto both = simulate(two, profile);
        QCOMPARE(both["jobs"]["completed"].get<int>(), 2);
        QCOMPARE(both["wait_seconds"]["max"].get<double>(), 0.0);
        QCOMPARE(both["end_seconds"].get<double>(), 3600.0);
    }

    // A GPU job arriving after a CPU job finished (its pod may take the CPU pod's task slot) still
    // waits for the device: 20 min arrival, the first GPU job ends at 60 min, so 40 min of wait.
    // A claim two pods share stays allocated until neither uses it: the ResourceClaim controller
    // removes a finished pod from status.reservedFor and deallocates the claim only once that list is
    // empty (KEP-4381; kubernetes test/e2e/dra "removes reservation from claim when pod is done",
    // "must deallocate after use"). Jobs a (1 h) and b (2 h) share it, so c, which wants the same
    // GPU through a template of its own, starts at 2 h, not when a is done.
    void aSharedClaimIsHeldUntilItsLastPodIsDone_data() { profiles(); }
    void aSharedClaimIsHeldUntilItsLastPodIsDone() {
        QFETCH(QString, profile);
        const auto r = simulate(QString(GANTRY_TEST_DATA) + "/dra/shared-claim.yaml", profile);
        QCOMPARE(r["jobs"]["completed"].get<int>(), 3);
        QCOMPARE(r["wait_seconds"]["max"].get<double>(), 7200.0);
        QCOMPARE(r["end_seconds"].get<double>(), 10800.0);
    }

    // Idle MIG instances: an instance counts its compute slices out of a GPU's seven (NVIDIA MIG
    // user guide: 1g.10gb is one slice, 3g.40gb three). Three running pods hold three of the seven
    // 1g.10gb instances: the four left are usable (pods ask for that profile), 4/7 GPU; nobody asks
    // for 3g.40gb, so its two free instances are the MIG layout's, 6/7 GPU. Once the jobs are done
    // all seven 1g.10gb instances are usable again.
    void migInstancesNoPodAsksForAreTheLayouts() {
        const auto r = simulate(QString(GANTRY_TEST_DATA) + "/dra/mig-idle.yaml", "kube-default");
        const auto& ts = r["timeseries"];
        QVERIFY(ts.contains("idle_mig_layout_gpus"));
        QVERIFY(std::abs(ts["idle_usable_gpus"][0].get<double>() - 4.0 / 7) < 0.001);
        QVERIFY(std::abs(ts["idle_mig_layout_gpus"][0].get<double>() - 6.0 / 7) < 0.001);
        const auto& end = r["fragmentation"]["idle_at_end_gpus"];
        QVERIFY(std::abs(end["usable"].get<double>() - 1.0) < 0.001);
        QVERIFY(std::abs(end["mig_layout"].get<double>() - 6.0 / 7) < 0.001);
        QCOMPARE(end["scattered"].get<double>(), 0.0);
        // A cluster without MIG resources has no such series (its outputs are as before).
        const auto whole = simulate(QString(GANTRY_TEST_DATA) + "/dra/two-jobs-one-gpu.yaml", "kube-default");
        QVERIFY(!whole["timeseries"].contains("idle_mig_layout_gpus"));
    }

    // The GPUs counted are physical ones, a GPU split into MIG instances once (the node's
    // nvidia.com/gpu.count, GPU feature discovery's label for the mixed strategy: NVIDIA
    // k8s-device-plugin internal/lm/mig-strategy.go), and an instance is allocated by its compute
    // slices, one of seven for 1g.10gb (NVIDIA MIG user guide, "Supported MIG Profiles"). Three
    // pods hold one 1g.10gb each for their hour: 3/7 of a GPU out of 2, 21.4 %; then nothing.
    void migInstancesCountInTheAllocation() {
        const auto r = simulate(QString(GANTRY_TEST_DATA) + "/dra/mig-idle.yaml", "kube-default");
        QCOMPARE(r["cluster"]["gpus"].get<double>(), 2.0);
        const auto& pct = r["timeseries"]["gpu_allocation_pct"];
        QVERIFY2(std::abs(pct[0].get<double>() - 100.0 * 3 / 7 / 2) < 0.01, pct.dump().c_str());
        QCOMPARE(pct.back().get<double>(), 0.0);
        QVERIFY(std::abs(r["gpu"]["allocated_gpu_hours"].get<double>() - 3.0 / 7) < 0.001);
    }

    // Under the single strategy nvidia.com/gpu counts instances (mig-strategy.go): 14 1g.5gb on an
    // A100 40GB are two GPUs (seven per GPU, MIG user guide), and three of them 3/7 of a GPU.
    void singleStrategyInstancesCountBySlices() {
        const auto r = simulate(QString(GANTRY_TEST_DATA) + "/dra/mig-single.yaml", "kube-default");
        QCOMPARE(r["cluster"]["gpus"].get<double>(), 2.0);
        const auto& pct = r["timeseries"]["gpu_allocation_pct"];
        QVERIFY2(std::abs(pct[0].get<double>() - 100.0 * 3 / 7 / 2) < 0.01, pct.dump().c_str());
    }

    // FGD's measure (Weng et al., ATC '23, section 3.2) with MIG instances as the GPU a task can or
    // cannot use: F_n(m) is the free GPU of node n task m cannot use. The workload is one shape, a
    // pod asking one 1g.10gb. While the three pods run, the free instances are four 1g.10gb (4/7,
    // which the shape can use) and two 3g.40gb (6/7, which it cannot): 6/7 of the 2 GPUs is
    // fragmented, 42.9 %, and 60 % of the idle 10/7. Once they are done, 6/7 of the idle 13/7.
    void migInstancesAShapeCannotUseAreFragmented() {
        const auto r = simulate(QString(GANTRY_TEST_DATA) + "/dra/mig-idle.yaml", "kube-default");
        QVERIFY(r["fragmentation"]["measured"].get<bool>());
        const auto& ts = r["timeseries"];
        QVERIFY2(std::abs(ts["fragmentation_pct"][0].get<double>() - 100.0 * 6 / 7 / 2) < 0.1,
                 ts["fragmentation_pct"].dump().c_str());
        QVERIFY(std::abs(ts["frag_over_idle_pct"][0].get<double>() - 60.0) < 0.1);
        QVERIFY(std::abs(ts["frag_over_idle_pct"].back().get<double>() - 100.0 * 6 / 13) < 0.1);
    }

    // A GPU only the NVIDIA DRA driver publishes is a GPU of the cluster, and a claim allocated its
    // device holds it: job-a has the one GPU for the first hour, job-b for the second (the first test
    // above), so it is allocated all the time.
    void gpusHeldThroughClaimsCountInTheAllocation_data() { profiles(); }
    void gpusHeldThroughClaimsCountInTheAllocation() {
        QFETCH(QString, profile);
        const auto r = simulate(QString(GANTRY_TEST_DATA) + "/dra/two-jobs-one-gpu.yaml", profile);
        QCOMPARE(r["cluster"]["gpus"].get<double>(), 1.0);
        QCOMPARE(r["timeseries"]["gpu_allocation_pct"][0].get<double>(), 100.0);
        QVERIFY2(r["gpu"]["mean_allocation_pct"].get<double>() > 99.0, r["gpu"].dump().c_str());
        QVERIFY(std::abs(r["gpu"]["allocated_gpu_hours"].get<double>() - 2.0) < 0.05);
        // Free at the end, and the pods' claims ask for such a device: usable.
        const auto& end = r["fragmentation"]["idle_at_end_gpus"];
        QCOMPARE(end["usable"].get<double>(), 1.0);
        QCOMPARE(end["scattered"].get<double>(), 0.0);
        QVERIFY(!r["timeseries"].contains("idle_mig_layout_gpus")); // no MIG device
    }

    // Dynamic MIG (KEP-4815 partitionable devices, as the NVIDIA DRA driver publishes them): a
    // partition consumes its GPU's counters, so while train-a holds the 4g.40gb partition (memory
    // slices 0-3) train-b's cannot be made. The three compute slices left could only become
    // 1g.10gb partitions, which no pod asks for: the layout strands them, 3/7 of a GPU, and 4/7 is
    // allocated. Once both are done, the whole GPU is free and a 4g.40gb fits again: usable.
    void dynamicMigCountersNoAskedPartitionFitsAreTheLayouts_data() { profiles(); }
    void dynamicMigCountersNoAskedPartitionFitsAreTheLayouts() {
        QFETCH(QString, profile);
        const auto r = simulate(QString(GANTRY_TEST_DATA) + "/dra/dynamic-mig.yaml", profile);
        QCOMPARE(r["cluster"]["gpus"].get<double>(), 1.0);
        QCOMPARE(r["jobs"]["completed"].get<int>(), 2);
        QCOMPARE(r["wait_seconds"]["max"].get<double>(), 3600.0);
        const auto& ts = r["timeseries"];
        QVERIFY2(std::abs(ts["gpu_allocation_pct"][0].get<double>() - 100.0 * 4 / 7) < 0.2,
                 ts["gpu_allocation_pct"].dump().c_str());
        QVERIFY2(std::abs(ts["idle_mig_layout_gpus"][0].get<double>() - 3.0 / 7) < 0.002,
                 ts["idle_mig_layout_gpus"].dump().c_str());
        QCOMPARE(ts["idle_usable_gpus"][0].get<double>(), 0.0);
        const auto& end = r["fragmentation"]["idle_at_end_gpus"];
        QCOMPARE(end["usable"].get<double>(), 1.0);
        QCOMPARE(end["mig_layout"].get<double>(), 0.0);
    }

    void aLaterPodWaitsForTheDeviceWhateverSlotItTakes_data() { profiles(); }
    void aLaterPodWaitsForTheDeviceWhateverSlotItTakes() {
        QFETCH(QString, profile);
        const auto r = simulate(QString(GANTRY_TEST_DATA) + "/dra/slot-reuse.yaml", profile);
        QCOMPARE(r["jobs"]["completed"].get<int>(), 3);
        QCOMPARE(r["wait_seconds"]["max"].get<double>(), 2400.0);
        QCOMPARE(r["end_seconds"].get<double>(), 7200.0);
    }
};

GANTRY_TEST(DraSimulateTest)
#include "test_dra_simulate.moc"
