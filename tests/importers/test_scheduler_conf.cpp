// volcano-scheduler.conf: Volcano's own helm configurations, every shape the parser accepts, and the
// located errors for the shapes it rejects.
#include "test_registry.h"
#include "test_support.h"
#include "volcano/scheduler_conf_reader.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using namespace gantry;
using namespace gantry::test;

namespace {

SchedulerConf parse(const std::string& text, Diagnostics* warnings = nullptr) {
    TextOrigin origin;
    origin.file = "conf.yaml";
    return parseSchedulerConf(text, origin, warnings);
}

QString parseError(const std::string& text) {
    return errorOf([&] { parse(text); });
}

} // namespace

class SchedulerConfTest : public QObject {
    Q_OBJECT
  private slots:
    void helmDefaultIsTheModelDefault() {
        // The configuration Volcano's chart ships is exactly what defaultVolcanoConf() says it is.
        Diagnostics w;
        auto conf = readSchedulerConfFile(dataPath("importers/volcano-scheduler.conf"), &w);
        QVERIFY2(w.empty(), qPrintable(joined(w)));
        QVERIFY(conf == defaultVolcanoConf());
        QCOMPARE(conf.actions, (std::vector<std::string>{"enqueue", "allocate", "backfill"}));
        // actions: "enqueue, allocate, backfill" - quoted, so names start one column after the quote.
        QCOMPARE(conf.actionSources[0].line, 1);
        QCOMPARE(conf.actionSources[0].column, 11);
        QCOMPARE(conf.actionSources[2].column, 30);
        QCOMPARE(conf.tiers.size(), size_t(2));
        QCOMPARE(conf.tiers[1].plugins[1].name, std::string("drf"));
        QCOMPARE(conf.tiers[1].plugins[1].source.line, 10);
        QCOMPARE(conf.tiers[1].plugins[1].source.column, 11);
        QVERIFY(!conf.plugin("gang")->enabled("enablePreemptable"));
        QVERIFY(conf.plugin("gang")->enabled("enableJobOrder")); // omitted switch = on
        QVERIFY(!conf.plugin("gang")->enabled("enableHierarchy"));
    }
    void helmCiConf() {
        auto conf = readSchedulerConfFile(dataPath("importers/volcano-scheduler-ci.conf"));
        QCOMPARE(conf.actions.size(), size_t(5));
        QCOMPARE(conf.actions[4], std::string("preempt"));
        QCOMPARE(
            conf.plugin("predicates")->argument("predicate.DynamicResourceAllocationEnable").value_or(""),
            std::string("true"));
        QVERIFY(conf.plugin("network-topology-aware"));
    }
    void nestedArgumentsFlatten() {
        auto conf =
            parse("actions: allocate\ntiers:\n- plugins:\n  - name: resource-strategy-fit\n    arguments:\n"
                  "      resourceStrategyFitWeight: 10\n      resources:\n        nvidia.com/gpu:\n"
                  "          type: MostAllocated\n          weight: 2\n      zones: [a, b]\n      empty:\n"
                  "metrics:\n  address: http://prometheus:9090\n  interval: 30s\n");
        const auto* p = conf.plugin("resource-strategy-fit");
        QCOMPARE(p->arguments.size(), size_t(6));
        QCOMPARE(p->argument("resources.nvidia.com/gpu.type").value_or(""), std::string("MostAllocated"));
        QCOMPARE(p->argument("resources.nvidia.com/gpu.weight").value_or(""), std::string("2"));
        QCOMPARE(p->argument("zones.1").value_or(""), std::string("b"));
        QCOMPARE(p->argument("empty").value_or("x"), std::string(""));
        QCOMPARE(conf.metrics.at("interval"), std::string("30s"));
    }
    void unknownNamesAreKeptForTheEngine() {
        // Names are not judged here: the engine reports unknown actions and plugins with these locations.
        Diagnostics w;
        auto conf = parse(
            "actions: enqueue,allocat ,  backfill\ntiers:\n- plugins:\n  - name: gangg\n    enableFoo: true\n"
            "    enableJobOrder: false\n    colour: blue\nextra: 1\n",
            &w);
        QCOMPARE(conf.actions, (std::vector<std::string>{"enqueue", "allocat", "backfill"}));
        QCOMPARE(conf.actionSources[1].column, 18);
        QCOMPARE(conf.actionSources[2].column, 29);
        QCOMPARE(conf.tiers[0].plugins[0].name, std::string("gangg"));
        QCOMPARE(conf.tiers[0].plugins[0].source.str(), std::string("conf.yaml:4:11"));
        QCOMPARE(conf.tiers[0].plugins[0].switches.at("enableFoo"), true);
        QCOMPARE(conf.tiers[0].plugins[0].switches.at("enableJobOrder"), false);
        QCOMPARE(w.size(), size_t(3));
        QCOMPARE(QString::fromStdString(w[0].str()),
                 QString("conf.yaml:5:16: warning: tiers[0].plugins[0].enableFoo: plugin 'gangg': "
                         "'enableFoo' is not a "
                         "switch Volcano knows; kept, but no plugin reads it"));
        QCOMPARE(QString::fromStdString(w[1].str()),
                 QString("conf.yaml:7:13: warning: tiers[0].plugins[0].colour: plugin 'gangg': unknown "
                         "option 'colour' "
                         "ignored (Volcano ignores it too)"));
        QCOMPARE(
            QString::fromStdString(w[2].str()),
            QString(
                "conf.yaml:8:8: warning: extra: unknown key 'extra' ignored (Volcano reads actions, tiers, "
                "configurations, metrics)"));
    }
    void syntaxAndTypeErrors() {
        QCOMPARE(
            parseError(
                "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n    enableJobReady: \"true\"\n"),
            QString(
                "conf.yaml:5:21: error: tiers[0].plugins[0].enableJobReady: expected true or false, got the "
                "string \"true\""));
        QCOMPARE(parseError("actions: allocate\ntiers:\n- plugins:\n  - enableJobReady: true\n"),
                 QString("conf.yaml:4:5: error: tiers[0].plugins[0]: plugin has no name"));
        QCOMPARE(parseError("actions: allocate\ntiers:\n  plugins: []\n"),
                 QString("conf.yaml:3:3: error: tiers: expected a list, got a mapping"));
        QCOMPARE(parseError("actions: allocate,,backfill\n"),
                 QString("conf.yaml:1:19: error: actions: empty action name in \"allocate,,backfill\""));
        QCOMPARE(parseError("actions: [allocate]\n"),
                 QString("conf.yaml:1:10: error: actions: expected a string, got a list"));
        QCOMPARE(
            parseError("actions: allocate\ntiers:\n- plugins:\n  - name: gang\n    arguments: [1]\n"),
            QString("conf.yaml:5:16: error: tiers[0].plugins[0].arguments: expected a mapping, got a list"));
        QCOMPARE(parseError("actions: allocate\ntiers: [\n"),
                 QString("conf.yaml:3:1: error: YAML syntax error: did not find expected node content while "
                         "parsing a flow node"));
        QCOMPARE(parseError(""), QString("conf.yaml:1:1: error: the scheduler configuration is empty"));
    }
    void configMapForms() {
        QTemporaryDir dir;
        std::string yamlPath = dir.filePath("cm.yaml").toStdString();
        std::ofstream(yamlPath)
            << "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: volcano-scheduler-configmap\ndata:\n"
               "  volcano-scheduler.conf: |\n    actions: \"enqueue, allocate\"\n    tiers:\n"
               "    - plugins:\n      - name: priority\n      - name: gang\n        enableJobReady: 3\n";
        QCOMPARE(errorOf([&] { readSchedulerConfFile(yamlPath); }),
                 QString::fromStdString(yamlPath) +
                     ":12:25: error: tiers[0].plugins[1].enableJobReady: expected true or false, got '3'");
        std::string jsonPath = dir.filePath("cm.json").toStdString();
        std::ofstream(jsonPath) << R"({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "vc"},
 "data": {"volcano-scheduler.conf": "actions: \"allocate, backfill\"\ntiers:\n- plugins:\n  - name: binpack\n"}})";
        auto conf = readSchedulerConfFile(jsonPath);
        QCOMPARE(conf.actions, (std::vector<std::string>{"allocate", "backfill"}));
        // Inside a JSON string lines cannot be mapped: locations point at the string itself.
        QCOMPARE(QString::fromStdString(conf.tiers[0].plugins[0].source.str()),
                 QString::fromStdString(jsonPath + ":2:37"));
        std::string other = dir.filePath("svc.yaml").toStdString();
        std::ofstream(other) << "apiVersion: v1\nkind: Service\nmetadata: {name: x}\n";
        QCOMPARE(errorOf([&] { readSchedulerConfFile(other); }),
                 QString::fromStdString(other) + ":2:7: error: kind: a Service is not a scheduler "
                                                 "configuration (expected the conf itself or a "
                                                 "ConfigMap with key 'volcano-scheduler.conf')");
    }
};

GANTRY_TEST(SchedulerConfTest)
#include "test_scheduler_conf.moc"
