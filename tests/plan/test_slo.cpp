// Service-level expressions and the metric vocabulary they name: what parses, the threshold units,
// where a malformed one is wrong, and that every catalogue name reads a value from a real run.
#include "plan/slo.h"
#include "sim/metrics.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;
using namespace gantry::plan;

namespace {

Slo ok(const char* text) {
    auto r = parseSlo(text);
    if (auto* e = std::get_if<SloError>(&r))
        qFatal("%s: column %zu: %s", text, e->column, e->message.c_str());
    return std::get<Slo>(r);
}

SloError bad(const char* text) {
    auto r = parseSlo(text);
    if (!std::holds_alternative<SloError>(r)) qFatal("%s parsed", text);
    return std::get<SloError>(r);
}

} // namespace

class SloTest : public QObject {
    Q_OBJECT
  private slots:
    void theIssuesExamplesParse() {
        Slo w = ok("wait.p95<1h");
        QCOMPARE(w.metric.name(), std::string("wait.p95"));
        QCOMPARE(w.comparison, Comparison::Less);
        QCOMPARE(w.threshold, 3600.0);
        QVERIFY(w.holds(3599) && !w.holds(3600));
        Slo q = ok(" queue[pretrain].wait.p95 <= 2h ");
        QCOMPARE(q.metric.group, std::string("pretrain"));
        QCOMPARE(q.metric.info().scope, sim::MetricScope::Queue);
        QCOMPARE(q.threshold, 7200.0);
        QCOMPARE(q.text, std::string("queue[pretrain].wait.p95 <= 2h"));
        QCOMPARE(ok("pending_at_end==0").comparison, Comparison::Equal);
        QCOMPARE(ok("gpu.mean_allocation_pct>=70").threshold, 70.0);
        QCOMPARE(ok("fragmentation.mean_pct<10").threshold, 10.0);
        QCOMPARE(ok("gang.partial_hold_gpu_hours==0").metric.info().unit, sim::MetricUnit::GpuHours);
        QCOMPARE(ok("priority[1000].completion.p50<1h30m").threshold, 5400.0);
        QCOMPARE(ok("wait.p99<90").threshold, 90.0); // seconds
    }

    void headroomAndWorstSeed() {
        Slo w = ok("wait.p95<1h");
        QCOMPARE(w.headroom(3000), 600.0);
        QCOMPARE(w.worst(100, 3000), 3000.0);
        Slo g = ok("gpu.mean_allocation_pct>=70");
        QCOMPARE(g.headroom(65), -5.0);
        QCOMPARE(g.worst(80, 65), 65.0);
    }

    void malformedExpressionsAreLocated() {
        SloError e = bad("wait.p95 < 1hour");
        QCOMPARE(e.column, size_t(12));
        QVERIFY2(QString::fromStdString(e.message).contains("duration"), e.message.c_str());
        e = bad("wait.p95 = 1h");
        QCOMPARE(e.column, size_t(10));
        QVERIFY(QString::fromStdString(e.message).contains("=="));
        e = bad("wait.p95 1h");
        QCOMPARE(e.column, size_t(10));
        e = bad("wait.p95<");
        QCOMPARE(e.column, size_t(10));
        e = bad("<1h");
        QCOMPARE(e.column, size_t(1));
        e = bad("gpu.mean_allocation_pct>=70%");
        QCOMPARE(e.column, size_t(26));
        e = bad("wiat.p95<1h");
        QCOMPARE(e.column, size_t(1));
        QVERIFY2(QString::fromStdString(e.message).contains("did you mean 'wait.p95'"), e.message.c_str());
        e = bad("queue[].wait.p95<1h");
        QVERIFY(QString::fromStdString(e.message).contains("names no queue"));
        e = bad("queue[a]wait.p95<1h");
        QVERIFY(QString::fromStdString(e.message).contains("queue[NAME].METRIC"));
        e = bad("queue[a].mean_allocation_pct<1");
        QVERIFY(QString::fromStdString(e.message).contains("unknown metric"));
    }

    void everyNameResolves() {
        // Each listed name parses back to itself (with a group filled in).
        for (std::string name : sim::metricNames()) {
            for (const char* group : {"[NAME]", "[N]"})
                if (auto at = name.find(group); at != std::string::npos)
                    name.replace(at, strlen(group), "[x]");
            std::string why;
            auto ref = sim::parseMetric(name, &why);
            QVERIFY2(ref.has_value(), why.c_str());
            QCOMPARE(ref->name(), name);
        }
    }
};

GANTRY_TEST(SloTest)
#include "test_slo.moc"
