// Conversion: import(export(x)) keeps the queue tree and the quotas wherever the mapping between
// the two schedulers is lossless (docs/quota-mapping.md), and says what it lost otherwise. Inputs
// are real setups of each scheduler; every export goes through the rendered YAML and the snapshot
// importer, as a user's `gantry export` then `gantry import` would.
#include "export/export_support.h"
#include "export_fixtures.h"
#include "input_loader.h"
#include "project/project_reader.h"
#include "project/project_writer.h"
#include "snapshot/snapshot_importer.h"
#include "test_registry.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using namespace gantry::test;

namespace {

QString data(const char* rel) {
    return QString(GANTRY_TEST_DATA) + "/export/" + rel;
}

Cluster importFiles(const std::vector<std::pair<std::string, std::string>>& files) {
    SnapshotImporter in;
    for (const auto& [name, text] : files) in.addText(text, name);
    Diagnostics d;
    Cluster c = in.finish(d);
    if (hasErrors(d)) throw std::runtime_error(messages(d, Severity::Error).join('\n').toStdString());
    return c;
}

std::string readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) throw std::runtime_error("cannot read " + path.toStdString());
    return f.readAll().toStdString();
}

Project importFile(const QString& path) {
    Project p;
    p.cluster = importFiles({{path.toStdString(), readAll(path)}});
    if (p.cluster.volcanoConf) p.volcano = *p.cluster.volcanoConf;
    return p;
}

// Export to the target and import the rendered files back.
Project convert(const Project& from, TargetScheduler target, ExportBundle* bundleOut = nullptr) {
    ExportOptions o;
    o.target = target;
    ExportBundle b = exportProject(from, o);
    Diagnostics v = validateExport(b, ExportLayout::PerKind);
    if (hasErrors(v)) throw std::runtime_error(messages(v, Severity::Error).join('\n').toStdString());
    Project to;
    to.cluster = importFiles(renderExport(b, ExportLayout::PerKind));
    if (to.cluster.volcanoConf) to.volcano = *to.cluster.volcanoConf;
    if (bundleOut) *bundleOut = b;
    return to;
}

// The queue tree as "name <- parent" lines and the neutral quotas of every queue.
struct View {
    QStringList tree, reserved, entitled, cap;
};

View view(const Cluster& c) {
    ExportBundle scratch;
    exporting::Losses losses(scratch);
    auto tree = exporting::buildQueueTree(c);
    auto quota = exporting::neutralQuotas(tree, c, "test", losses);
    View v;
    for (size_t k = 0; k < tree.nodes.size(); ++k) {
        const auto& n = tree.nodes[k];
        QString name = QString::fromStdString(n.name);
        v.tree << name + " <- " +
                      (n.parent >= 0 ? QString::fromStdString(tree.nodes[size_t(n.parent)].name) : "root");
        v.reserved << name + ": " + QString::fromStdString(quota[k].reserved.str());
        v.entitled << name + ": " + QString::fromStdString(quota[k].entitled.str());
        v.cap << name + ": " + QString::fromStdString(quota[k].cap.str());
    }
    for (auto* l : {&v.tree, &v.reserved, &v.entitled, &v.cap}) l->sort();
    return v;
}

// The key paths of `in` that `out` lacks (lists item by item; scalars are compared elsewhere, by
// what they mean, since "2G" and its bytes are the same quantity). A flag written false may be left
// out: YuniKorn's booleans (parent, create) are false when absent (yunikorn-core configs.go).
void missingKeys(const Json& in, const Json& out, const QString& at, QStringList& missing) {
    if (in.is_object()) {
        for (const auto& [key, value] : in.items()) {
            const QString path = at + "." + QString::fromStdString(key);
            if ((!out.is_object() || !out.contains(key)) && value == Json(false)) continue;
            if (!out.is_object() || !out.contains(key))
                missing << path;
            else
                missingKeys(value, out[key], path, missing);
        }
    } else if (in.is_array()) {
        if (!out.is_array() || out.size() != in.size()) {
            missing << at + " (a list of " + QString::number(in.size()) + ")";
            return;
        }
        for (size_t i = 0; i < in.size(); ++i)
            missingKeys(in[i], out[i], at + "[" + QString::number(i) + "]", missing);
    }
}

} // namespace

class RoundTripTest : public QObject {
    Q_OBJECT
  private slots:
    void conversions_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("via");
        QTest::addColumn<bool>("reservedKept"); // Volcano guarantee / Kueue lendingLimit survive the trip
        const auto volcano = int(TargetScheduler::Volcano), yunikorn = int(TargetScheduler::YuniKorn),
                   kueue = int(TargetScheduler::Kueue);
        QString v = data("manifests/valid-volcano-hierarchy.yaml"),
                k = data("roundtrip/kueue-cohorts-plain.yaml"),
                y = data("manifests/valid-yunikorn-configmap.yaml"),
                single = data("manifests/valid-kueue-single-clusterqueue.yaml");
        QTest::newRow("volcano-volcano") << v << volcano << true;
        QTest::newRow("volcano-kueue") << v << kueue << true;
        QTest::newRow("volcano-yunikorn") << v << yunikorn << false;
        QTest::newRow("kueue-kueue") << k << kueue << true;
        QTest::newRow("kueue-volcano") << k << volcano << true;
        QTest::newRow("kueue-yunikorn") << k << yunikorn << false;
        QTest::newRow("kueue-single-volcano") << single << volcano << true;
        QTest::newRow("yunikorn-yunikorn") << y << yunikorn << true;
        QTest::newRow("yunikorn-volcano") << y << volcano << true;
        QTest::newRow("yunikorn-kueue") << y << kueue << true;
    }
    void conversions() {
        QFETCH(QString, source);
        QFETCH(int, via);
        QFETCH(bool, reservedKept);
        Project original = importFile(source);
        auto target = TargetScheduler(via);
        // Back to the scheduler the setup came from.
        auto home = original.cluster.queues.front().kind == Queue::Kind::Queue ? TargetScheduler::Volcano
                    : original.cluster.queues.front().kind == Queue::Kind::YuniKornQueue
                        ? TargetScheduler::YuniKorn
                        : TargetScheduler::Kueue;
        ExportBundle there;
        Project converted = convert(original, target, &there);
        Project back = convert(converted, home);
        View a = view(original.cluster), b = view(back.cluster), mid = view(converted.cluster);
        QCOMPARE(mid.tree, a.tree);
        QCOMPARE(b.tree, a.tree);
        QCOMPARE(mid.entitled, a.entitled);
        QCOMPARE(b.entitled, a.entitled);
        QCOMPARE(mid.cap, a.cap);
        QCOMPARE(b.cap, a.cap);
        if (reservedKept) {
            QCOMPARE(b.reserved, a.reserved);
        } else {
            // Lost, and said so.
            QVERIFY(a.reserved != b.reserved);
            bool warned = false;
            for (const auto& w : there.warnings)
                warned = warned || w.message.find("spec.guarantee") != std::string::npos ||
                         w.message.find("lendingLimit") != std::string::npos;
            QVERIFY(warned);
        }
    }

    void sameSchedulerKeepsEveryNativeField() {
        // Volcano: every Queue field the model holds.
        Project v = importFile(data("manifests/valid-volcano-hierarchy.yaml"));
        Project v2 = convert(v, TargetScheduler::Volcano);
        QCOMPARE(v2.cluster.queues.size(), v.cluster.queues.size());
        for (const auto& q : v.cluster.queues) {
            const Queue* r = v2.cluster.findQueue(q.name);
            QVERIFY(r);
            Queue expected = q;
            if (expected.parent == "root") expected.parent.clear(); // "root" and "" are both top level
            Queue got = *r;
            if (got.parent == "root") got.parent.clear();
            QVERIFY2(got == expected, q.name.c_str());
        }
        // Kueue: resource groups, preemption, fair sharing, selectors, cohorts.
        Project k = importFile(data("roundtrip/kueue-cohorts-plain.yaml"));
        Project k2 = convert(k, TargetScheduler::Kueue);
        for (const auto& q : k.cluster.queues) {
            const Queue* r = k2.cluster.findQueue(q.name);
            QVERIFY2(r, q.name.c_str());
            QVERIFY2(*r == q, q.name.c_str());
        }
        QCOMPARE(k2.cluster.localQueues, k.cluster.localQueues);
        QCOMPARE(k2.cluster.resourceFlavors, k.cluster.resourceFlavors);
        // YuniKorn: the queues and the partition (placement rules, sort policy, preemption, limits).
        Project y = importFile(data("manifests/valid-yunikorn-configmap.yaml"));
        Project y2 = convert(y, TargetScheduler::YuniKorn);
        QCOMPARE(y2.cluster.queues.size(), y.cluster.queues.size());
        for (const auto& q : y.cluster.queues) {
            const Queue* r = y2.cluster.findQueue(q.name);
            QVERIFY2(r, q.name.c_str());
            QVERIFY2(*r == q, q.name.c_str());
        }
        QVERIFY(y2.cluster.yunikorn);
        QCOMPARE(y2.cluster.yunikorn->placementRules, y.cluster.yunikorn->placementRules);
        QCOMPARE(y2.cluster.yunikorn->nodeSortPolicy, y.cluster.yunikorn->nodeSortPolicy);
        QCOMPARE(y2.cluster.yunikorn->nodeSortWeights, y.cluster.yunikorn->nodeSortWeights);
        QCOMPARE(y2.cluster.yunikorn->preemptionEnabled, y.cluster.yunikorn->preemptionEnabled);
        QCOMPARE(y2.cluster.yunikorn->settings, y.cluster.yunikorn->settings);
    }

    // YuniKorn's configurations as its own examples and docs write them (each data file names the
    // one it is shaped as) travel whole: import -> project -> .gantry -> export keeps every key of
    // the ConfigMap and of queues.yaml, and reading the export back gives the same partition and
    // queues, the keys Gantry does not model (usergroupresolver) included.
    void yunikornExamplesTravelWhole_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"yunikorn-placement-filters.yaml", "yunikorn-priority-fence.yaml",
                              "yunikorn-partition-settings.yaml", "yunikorn-bare-queues.yaml"})
            QTest::newRow(f) << data((std::string("roundtrip/") + f).c_str());
    }
    void yunikornExamplesTravelWhole() {
        QFETCH(QString, file);
        const Project original = loadInputs({file.toStdString()}).project;
        QCOMPARE(original.target, TargetScheduler::YuniKorn);
        QVERIFY(original.cluster.yunikorn);
        QTemporaryDir dir;
        const std::string saved = dir.filePath("p.gantry").toStdString();
        writeProjectFile(saved, original);
        const Project p = readProjectFile(saved);
        QVERIFY(p == original);

        ExportBundle b;
        const Project back = convert(p, TargetScheduler::YuniKorn, &b);
        QVERIFY(back.cluster.yunikorn);
        QVERIFY(*back.cluster.yunikorn == *original.cluster.yunikorn);
        QCOMPARE(back.cluster.queues.size(), original.cluster.queues.size());
        for (size_t i = 0; i < original.cluster.queues.size(); ++i) {
            Queue got = back.cluster.queues[i], want = original.cluster.queues[i];
            got.source = want.source = {};
            QVERIFY2(got == want, want.name.c_str());
        }

        // Every key the file wrote is in the exported text.
        const Json in = parseManifests(readAll(file), "in", YamlRules::Yaml12).at(0).value;
        const Json& inData = in.contains("data") ? in["data"] : in;
        const Json* out = nullptr;
        for (const auto& o : b.objects)
            if (o.object["kind"] == "ConfigMap" && o.object["metadata"]["name"] == "yunikorn-configs")
                out = &o.object;
        QVERIFY(out);
        QStringList missing;
        missingKeys(inData, (*out)["data"], "data", missing);
        const Json inQueues =
            parseManifests(inData["queues.yaml"].get<std::string>(), "q", YamlRules::Yaml12).at(0).value;
        const Json outQueues =
            parseManifests((*out)["data"]["queues.yaml"].get<std::string>(), "q", YamlRules::Yaml12)
                .at(0)
                .value;
        missingKeys(inQueues, outQueues, "queues.yaml", missing);
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join('\n')));
    }

    void perFlavorQuotasAreLossyAndSaySo() {
        // Two GPU flavors summed into one quota, in Volcano and in YuniKorn.
        Project k = importFile(data("manifests/valid-kueue-cohorts.yaml"));
        for (auto target : {TargetScheduler::Volcano, TargetScheduler::YuniKorn}) {
            ExportBundle b;
            convert(k, target, &b);
            QVERIFY(hasWarning(
                b, std::string("queue team-nlp, spec.resourceGroups[nvidia.com/gpu]: the quotas of flavors "
                               "h100, a100 are summed into one nvidia.com/gpu quota: ") +
                       (target == TargetScheduler::Volcano ? "Volcano" : "YuniKorn")));
        }
    }

    void conformanceSnapshotsExportToEveryTarget() {
        // The Volcano setups of the conformance cases (restated from Volcano's own tests).
        QDir dir(QString(GANTRY_TEST_DATA) + "/conformance/volcano");
        const auto cases = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY(cases.size() >= 10);
        for (const QString& c : cases) {
            Project p = importFile(dir.filePath(c + "/snapshot.yaml"));
            for (auto target :
                 {TargetScheduler::Volcano, TargetScheduler::YuniKorn, TargetScheduler::Kueue}) {
                ExportOptions o;
                o.target = target;
                Diagnostics d = validateExport(exportProject(p, o), ExportLayout::PerKind);
                QVERIFY2(!hasErrors(d), qPrintable(c + " -> " + toString(target) + ":\n" +
                                                   messages(d, Severity::Error).join('\n')));
            }
        }
    }
};

GANTRY_TEST(RoundTripTest)
#include "test_roundtrip.moc"
