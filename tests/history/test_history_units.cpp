// The pieces of the history import that need no Prometheus: times and spans as users write them,
// kube-state-metrics' names and the way back, and how pods become jobs (docs/history.md).
#include "history/history_jobs.h"
#include "history/ksm_names.h"
#include "history/time_text.h"
#include "snapshot/snapshot_importer.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry::history;

class HistoryUnitsTest : public QObject {
    Q_OBJECT

    // A pod incarnation of the made-up data below.
    static PodSeen& pod(HistoryData& d, const std::string& ns, const std::string& name,
                        const std::string& uid, double created) {
        d.podByUid[uid] = uint32_t(d.pods.size());
        PodSeen p;
        p.ns = d.strings.intern(ns);
        p.name = name;
        p.created = created;
        p.lastSeen = d.end;
        d.pods.push_back(p);
        return d.pods.back();
    }
    static void owner(HistoryData& d, PodSeen& p, const std::string& kind, const std::string& name) {
        p.ownerKind = d.strings.intern(kind);
        p.ownerName = d.strings.intern(name);
    }
    static void gpus(HistoryData& d, PodSeen& p, int n) {
        p.requests.push_back(
            {d.strings.intern("main"), d.strings.intern("nvidia.com/gpu"), int64_t(n) * 1000, false});
    }

  private slots:
    void rfc3339() {
        QCOMPARE(parseRfc3339("1970-01-01T00:00:00Z").value(), 0.0);
        QCOMPARE(parseRfc3339("2026-10-01T00:00:00Z").value(), 1790812800.0);
        QCOMPARE(parseRfc3339("2026-10-01T02:00:00+02:00").value(), 1790812800.0);
        QCOMPARE(parseRfc3339("2026-10-01t00:00:00.5z").value(), 1790812800.5);
        QCOMPARE(parseRfc3339("2024-02-29T12:00:00Z").value(), 1709208000.0);
        QVERIFY(!parseRfc3339("2023-02-29T12:00:00Z"));
        QVERIFY(!parseRfc3339("2026-10-01 00:00:00Z"));
        QVERIFY(!parseRfc3339("2026-10-01T00:00:00"));
        QVERIFY(!parseRfc3339("2026-13-01T00:00:00Z"));
        QVERIFY(!parseRfc3339("yesterday"));
        QCOMPARE(formatRfc3339(1790812800.9), std::string("2026-10-01T00:00:00Z"));
    }

    void spans() {
        QCOMPARE(parseSpan("30d").value(), 30 * 86400.0);
        QCOMPARE(parseSpan("1d12h").value(), 36 * 3600.0);
        QCOMPARE(parseSpan("2w").value(), 14 * 86400.0);
        QCOMPARE(parseSpan("1h30m").value(), 5400.0);
        QCOMPARE(parseSpan("1.5h").value(), 5400.0);
        QCOMPARE(parseSpan("250ms").value(), 0.25);
        QCOMPARE(parseSpan(" 90 ").value(), 90.0);
        QVERIFY(!parseSpan("90 s"));
        QVERIFY(!parseSpan("1h90"));
        QVERIFY(!parseSpan("3 days"));
        QVERIFY(!parseSpan(""));
        QCOMPARE(formatSpan(30 * 86400), std::string("30d"));
        QCOMPARE(formatSpan(5400), std::string("1h30m"));
        QCOMPARE(formatSpan(0.25), std::string("250ms"));
    }

    // kube-state-metrics c92fe0c5, internal/store/utils_test.go TestKubeLabelsToPrometheusLabels.
    void labelNamesAsKubeStateMetricsWritesThem() {
        QCOMPARE(ksmLabelName("app1"), std::string("label_app1"));
        QCOMPARE(ksmLabelName("0_app3"), std::string("label_0_app3"));
        QCOMPARE(ksmLabelName("$app4"), std::string("label__app4"));
        QCOMPARE(ksmLabelName("_app5"), std::string("label__app5"));
        QCOMPARE(ksmLabelName("camelCase"), std::string("label_camel_case"));
        QCOMPARE(ksmLabelName("snake_camelCase"), std::string("label_snake_camel_case"));
        QCOMPARE(ksmLabelName("nvidia.com/gpu.product"), std::string("label_nvidia_com_gpu_product"));
        QCOMPARE(ksmLabelName("kueue.x-k8s.io/queue-name"), std::string("label_kueue_x_k8s_io_queue_name"));
    }

    void labelKeysComeBack() {
        QCOMPARE(labelKeyOf("label_nvidia_com_gpu_product").value(), std::string("nvidia.com/gpu.product"));
        QCOMPARE(labelKeyOf("label_volcano_sh_queue_name").value(), std::string("volcano.sh/queue-name"));
        QCOMPARE(labelKeyOf("label_yunikorn_apache_org_queue").value(),
                 std::string("yunikorn.apache.org/queue"));
        QCOMPARE(labelKeyOf("label_applicationId").value_or(""), std::string("applicationId"));
        QCOMPARE(labelKeyOf("label_application_id").value(), std::string("applicationId"));
        QCOMPARE(labelKeyOf("label_team_owner").value(), std::string("team_owner")); // unknown: as exported
        QVERIFY(!labelKeyOf("namespace"));
        QVERIFY(!labelKeyOf("label_"));
    }

    void resourcesComeBack() {
        bool known = false;
        QCOMPARE(resourceNameOf("nvidia_com_gpu", &known), std::string("nvidia.com/gpu"));
        QVERIFY(known);
        QCOMPARE(resourceNameOf("ephemeral_storage", &known), std::string("ephemeral-storage"));
        QCOMPARE(resourceNameOf("nvidia_com_mig_1g_5gb", &known), std::string("nvidia.com/mig-1g.5gb"));
        QCOMPARE(resourceNameOf("hugepages_2Mi", &known), std::string("hugepages-2Mi"));
        QCOMPARE(resourceNameOf("example_com_widget", &known), std::string("example_com_widget"));
        QVERIFY(!known);
        QCOMPARE(amountOf("cpu", 0.25), int64_t(250));
        QCOMPARE(amountOf("nvidia.com/gpu", 8), int64_t(8000));
        QCOMPARE(amountOf("memory", 68719476736.0), int64_t(68719476736));
    }

    // Init containers run one at a time before the others: the larger of the two counts.
    void effectiveRequest() {
        HistoryData d;
        d.end = 1000;
        PodSeen& p = pod(d, "a", "p", "u1", 0);
        const uint32_t cpu = d.strings.intern("cpu"), mem = d.strings.intern("memory");
        p.requests = {{d.strings.intern("main"), cpu, 2000, false},
                      {d.strings.intern("side"), cpu, 500, false},
                      {d.strings.intern("main"), mem, 100, false},
                      {d.strings.intern("init"), cpu, 4000, true},
                      {d.strings.intern("init"), mem, 50, true}};
        auto r = effectiveRequests(p, d.strings);
        QCOMPARE(r.get("cpu"), int64_t(4000));
        QCOMPARE(r.get("memory"), int64_t(100));
    }

    // A history's PodGroup (gantry.io/history) is Gantry's own what-if job, as a template's is: every
    // profile schedules its pods. Another Volcano PodGroup stays Volcano's.
    void historyJobsAreGantrysOwnWhatIf() {
        gantry::SnapshotImporter in;
        in.addText(
            "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
            "metadata: {name: a, namespace: ml, annotations: {gantry.io/history: 'http://p:9090 "
            "2026-10-01T00:00:00Z/2026-10-02T00:00:00Z', gantry.io/arrival: '60', gantry.io/duration: '0'}}\n"
            "spec: {minMember: 1, queue: q}\n---\n"
            "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
            "metadata: {name: b, namespace: ml}\nspec: {minMember: 1, queue: q}\n",
            "history.yaml");
        gantry::Diagnostics diagnostics;
        gantry::Cluster c = in.finish(diagnostics);
        QCOMPARE(int(c.podGroups.size()), 2);
        QCOMPARE(c.podGroups[0].origin, std::string("gantry.io/History"));
        QCOMPARE(c.podGroups[0].arrivalSeconds, 60.0);
        QCOMPARE(c.podGroups[1].origin, std::string("scheduling.volcano.sh/PodGroup"));
    }

    void podsBecomeJobs() {
        HistoryData d;
        d.start = 1000;
        d.end = 100000;
        d.step = 60;
        // A gang of two started together and finished.
        for (int i = 0; i < 2; ++i) {
            PodSeen& p = pod(d, "ml", i ? "g-1" : "g-0", i ? "g1" : "g0", 2000);
            owner(d, p, "PyTorchJob", "g");
            p.started = 2100;
            p.completion = 5100 + i;
            p.completionSeen = p.lastSeen = 9000;
            gpus(d, p, 8);
        }
        // Two pods of a Job one after the other: a gang of one, as long as the longer ran.
        for (int i = 0; i < 2; ++i) {
            PodSeen& p = pod(d, "ml", i ? "s-1" : "s-0", i ? "s1" : "s0", 3000 + i * 5000);
            owner(d, p, "Job", "s");
            p.started = p.created + 10;
            p.completion = p.started + 1000 + i * 500;
            p.completionSeen = p.lastSeen = p.completion + 60;
        }
        // A pod of its own, deleted while running: it ran until last seen.
        {
            PodSeen& p = pod(d, "u", "nb", "nb", 4000);
            p.started = 4010;
            p.lastSeen = 6010;
        }
        // Created before the window and running at its end: kept on its node.
        {
            PodSeen& p = pod(d, "ml", "old", "old", 500);
            owner(d, p, "Job", "old");
            p.started = 600;
            p.node = d.strings.intern("n1");
        }
        Replay r = replayOf(d);
        QCOMPARE(int(r.jobs.size()), 3);
        const ReplayJob& g = r.jobs[0];
        QCOMPARE(g.name, std::string("g"));
        QCOMPARE(g.arrival, 1000.0);
        QCOMPARE(g.duration, 3001.0);
        QCOMPARE(g.minMember, 2);
        QCOMPARE(g.queue, std::string("ml"));
        QVERIFY(!g.openEnded);
        const ReplayJob& s = r.jobs[1];
        QCOMPARE(s.name, std::string("s"));
        QCOMPARE(s.minMember, 1);
        QCOMPARE(s.duration, 1500.0);
        QCOMPARE(int(s.pods.size()), 2);
        const ReplayJob& nb = r.jobs[2];
        QCOMPARE(nb.ownerKind, std::string());
        QCOMPARE(nb.duration, 2000.0);
        QCOMPARE(int(r.running.size()), 1);
        QCOMPARE(d.strings[r.running[0].node], std::string("n1"));
        QCOMPARE(r.earlierJobs, 1);
        QCOMPARE(r.gpuMilli, int64_t(16000));
    }
};

GANTRY_TEST(HistoryUnitsTest)
#include "test_history_units.moc"
