// The Alibaba trace reader: real files parse; bad input gets an exact file:line:column message; odd
// but survivable input gets counted warnings.
#include "input_error.h"
#include "test_registry.h"
#include "trace/alibaba_trace.h"

#include <QtTest>

using namespace gantry;

namespace {

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.diagnostic().str();
    }
    return "no error";
}

const std::string kPodsHeader = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_"
                                "time,deletion_time,scheduled_time\n";

} // namespace

class TraceCsvTest : public QObject {
    Q_OBJECT
  private slots:
    void readsTheFixtures() {
        Diagnostics warnings;
        Trace t = readTrace(GANTRY_TEST_DATA "/trace/nodes_small.csv",
                            GANTRY_TEST_DATA "/trace/pods_small.csv", warnings);
        QCOMPARE(t.nodes.size(), size_t(20));
        QCOMPARE(t.tasks.size(), size_t(120));
        QCOMPARE(t.nodes[0].name, std::string("openb-node-0000"));
        QCOMPARE(t.nodes[0].cpuMilli, int64_t(64000));
        QCOMPARE(t.nodes[0].memoryMiB, int64_t(262144));
        QCOMPARE(t.nodes[0].gpuCount, 2);
        QCOMPARE(t.nodes[0].gpuModel, std::string("P100"));
        QCOMPARE(t.nodes[0].source.line, 2);
        const TraceTask& first = t.tasks[0];
        QCOMPARE(first.name, std::string("openb-pod-0000"));
        QCOMPARE(first.gpuCount, 1);
        QCOMPARE(first.gpuMilli, 1000);
        auto spec =
            std::find_if(t.tasks.begin(), t.tasks.end(), [](auto& x) { return x.gpuModels.size() == 2; });
        QVERIFY(spec != t.tasks.end());
        QCOMPARE(spec->gpuSpec, std::string("V100M16|V100M32"));
        QVERIFY(first.creationTime.has_value());
        QVERIFY(warnings.empty());
    }

    void readsFiveColumnLists() {
        Diagnostics warnings;
        auto tasks = readTraceTasks(GANTRY_TEST_DATA "/trace/pods_multigpu_small.csv", warnings);
        QCOMPARE(tasks.size(), size_t(40));
        QVERIFY(tasks[0].gpuSpec.empty());
        QVERIFY(!tasks[0].creationTime);
    }

    void acceptsQuotesCrlfAndColumnOrder() {
        Diagnostics w;
        auto nodes = parseTraceNodes(
            "model,gpu,sn,memory_mib,cpu_milli\r\n\"T4\",2,\"node \"\"a\"\"\",1024,8000\r\n\r\n", "n.csv", w);
        QCOMPARE(nodes.size(), size_t(1));
        QCOMPARE(nodes[0].name, std::string("node \"a\""));
        QCOMPARE(nodes[0].gpuModel, std::string("T4"));
        QCOMPARE(nodes[0].cpuMilli, int64_t(8000));
    }

    void locatedErrors_data() {
        QTest::addColumn<bool>("nodes");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing columns") << true << "sn,cpu_milli,memory_mib\nn1,1,1\n"
                                         << "n.csv:1:1: error: missing columns 'gpu', 'model' in the header";
        QTest::newRow("missing one column") << false << "name,cpu_milli,memory_mib,num_gpu\n"
                                            << "p.csv:1:1: error: missing column 'gpu_milli' in the header";
        QTest::newRow("empty file") << true << ""
                                    << "n.csv:1:1: error: empty node list: expected a header line";
        QTest::newRow("wrong type") << true << "sn,cpu_milli,memory_mib,gpu,model\nn1,64000,abc,2,T4\n"
                                    << "n.csv:2:10: error: memory_mib: expected a whole number, found 'abc'";
        QTest::newRow("negative") << true << "sn,cpu_milli,memory_mib,gpu,model\nn1,-64000,1,2,T4\n"
                                  << "n.csv:2:4: error: cpu_milli: must not be negative, found '-64000'";
        QTest::newRow("empty number")
            << true << "sn,cpu_milli,memory_mib,gpu,model\nn1,64000,1,,T4\n"
            << "n.csv:2:12: error: gpu: expected a whole number, found an empty field";
        QTest::newRow("fraction") << false
                                  << QString::fromStdString(kPodsHeader) + "p1,1.5,1,0,0,,LS,Running,0,1,0\n"
                                  << "p.csv:2:4: error: cpu_milli: expected a whole number, found '1.5'";
        QTest::newRow("huge exponent")
            << true << "sn,cpu_milli,memory_mib,gpu,model\nn1,64000,2e76,1,A10\n"
            << "n.csv:2:10: error: memory_mib: expected a whole number, found '2e76'";
        QTest::newRow("too few fields") << true << "sn,cpu_milli,memory_mib,gpu,model\nn1,64000,1,2\n"
                                        << "n.csv:2:1: error: expected 5 fields as in the header, found 4";
        QTest::newRow("too many fields") << true << "sn,cpu_milli,memory_mib,gpu,model\nn1,64000,1,2,T4,x\n"
                                         << "n.csv:2:17: error: expected 5 fields as in the header, found 6";
        QTest::newRow("duplicate node")
            << true << "sn,cpu_milli,memory_mib,gpu,model\nn1,1,1,1,T4\nn1,1,1,1,T4\n"
            << "n.csv:3:1: error: duplicate node 'n1' (first at line 2)";
        QTest::newRow("too many GPUs")
            << true << "sn,cpu_milli,memory_mib,gpu,model\nn1,1,1,17,T4\n"
            << "n.csv:2:8: error: gpu: 17 GPUs on one node; at most 16 are supported";
        QTest::newRow("unterminated quote") << true << "sn,cpu_milli,memory_mib,gpu,model\n\"n1,1,1,1,T4\n"
                                            << "n.csv:2:1: error: unterminated quoted field";
        QTest::newRow("more than a GPU")
            << false << QString::fromStdString(kPodsHeader) + "p1,1000,1,1,1500,,LS,Running,0,1,0\n"
            << "p.csv:2:13: error: gpu_milli: 1500 is more than one whole GPU (1000)";
        QTest::newRow("shared multi-GPU")
            << false << QString::fromStdString(kPodsHeader) + "p1,1000,1,2,500,,LS,Running,0,1,0\n"
            << "p.csv:2:13: error: gpu_milli: a task of 2 GPUs must take them whole "
               "(1000), found 500";
        QTest::newRow("GPUs of nothing")
            << false << QString::fromStdString(kPodsHeader) + "p1,1000,1,1,0,,LS,Running,0,1,0\n"
            << "p.csv:2:13: error: gpu_milli: the task asks for 1 GPU(s) but 0 milli of each";
        QTest::newRow("negative time")
            << false << QString::fromStdString(kPodsHeader) + "p1,1000,1,0,0,,LS,Running,-3,1,0\n"
            << "p.csv:2:27: error: creation_time: must not be negative, found '-3'";
        QTest::newRow("duplicate header") << false << "name,name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
                                          << "p.csv:1:6: error: column 'name' appears twice in the header";
        QTest::newRow("duplicate task")
            << false << "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,1,1,0,0\np,1,1,0,0\n"
            << "p.csv:3:1: error: duplicate task 'p' (first at line 2)";
    }
    void locatedErrors() {
        QFETCH(bool, nodes);
        QFETCH(QString, text);
        QFETCH(QString, message);
        Diagnostics w;
        std::string s = text.toStdString();
        std::string got = errorOf([&] {
            if (nodes)
                parseTraceNodes(s, "n.csv", w);
            else
                parseTraceTasks(s, "p.csv", w);
        });
        QCOMPARE(QString::fromStdString(got), message);
    }

    void missingFileIsAnInputError() {
        Diagnostics w;
        std::string got = errorOf([&] { readTraceNodes("/nonexistent/nodes.csv", w); });
        QCOMPARE(QString::fromStdString(got),
                 QString("/nonexistent/nodes.csv: error: cannot open: No such file or directory"));
    }

    void countedWarnings() {
        Diagnostics w;
        Trace t;
        t.nodes = parseTraceNodes("sn,cpu_milli,memory_mib,gpu,model\nn1,64000,1024,2,T4\nn2,64000,1024,4,\n"
                                  "n3,64000,1024,0,P100\n",
                                  "n.csv", w);
        QCOMPARE(w.size(), size_t(2));
        QCOMPARE(QString::fromStdString(w[0].str()),
                 QString("n.csv:3:17: warning: 1 node(s) with GPUs but no model: tasks that name a model "
                         "never go there"));
        QCOMPARE(QString::fromStdString(w[1].str()),
                 QString("n.csv:4:17: warning: 1 node(s) name a GPU model but have no GPU"));
        w.clear();
        t.tasks = parseTraceTasks(kPodsHeader + "p1,1000,1,1,500,A100,LS,Running,0,1,0\n"
                                                "p2,1000,1,1,500,A100|T4,LS,Running,0,1,0\n"
                                                "p3,1000,1,0,300,,LS,Running,0,1,\n"
                                                "p4,1000,1,8,1000,T4,LS,Running,0,1,0\n"
                                                "p5,1000,1,1,1000,H100,LS,Running,0,1,0\n",
                                  "p.csv", w);
        QCOMPARE(w.size(), size_t(1));
        QCOMPARE(
            QString::fromStdString(w[0].str()),
            QString(
                "p.csv:4:13: warning: 1 task(s) give gpu_milli but num_gpu 0: they are taken as CPU-only"));
        QCOMPARE(t.tasks[2].gpuMilli, 0);
        QVERIFY(!t.tasks[2].scheduledTime);
        Diagnostics cross = checkTrace(t);
        QStringList got;
        for (auto& d : cross) got << QString::fromStdString(d.str());
        QCOMPARE(got,
                 (QStringList{
                     "p.csv:2:1: warning: 2 task(s) ask for GPU model 'A100' that no node has (first here)",
                     "p.csv:6:1: warning: 1 task(s) ask for GPU model 'H100' that no node has",
                     "p.csv:2:1: warning: 2 task(s) accept only GPU models no node has: they can never be "
                     "placed (first here)",
                     "p.csv:5:1: warning: 1 task(s) ask for more GPUs than any node they accept has",
                 }));
    }
};

GANTRY_TEST(TraceCsvTest)
#include "test_trace_csv.moc"
