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
