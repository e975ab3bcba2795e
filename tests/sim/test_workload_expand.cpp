// Workload templates expanded into jobs: the statistics of the arrival processes and duration
// distributions, determinism, and the PodGroup and pods each job submits.
#include "test_registry.h"
#include "workload/expand.h"

#include <QtTest>
#include <cmath>
#include <numeric>

using namespace gantry;
using namespace gantry::workload;

namespace {

struct Moments {
    double mean = 0, sd = 0;
};

Moments moments(const std::vector<double>& v) {
    Moments m;
    for (double x : v) m.mean += x;
    m.mean /= double(v.size());
    for (double x : v) m.sd += (x - m.mean) * (x - m.mean);
    m.sd = std::sqrt(m.sd / double(v.size() - 1));
    return m;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

WorkloadTemplate trainTemplate() {
    WorkloadTemplate w;
    w.name = "train";
    w.ns = "research";
    w.queue = "llm";
    w.priorityClass = "high";
    w.jobs = 3;
    w.replicas = 4;
    w.minMember = 3;
    w.role = "worker";
    w.podRequests.set(res::Cpu, 8000);
    w.podRequests.set(res::Memory, int64_t(64) << 30);
    w.gpu.count = 1;
    w.gpu.milliPerGpu = 500;
    w.gpu.models = {"A100", "H100"};
    w.checkpointSeconds = 600;
    w.preemptable = false;
    return w;
}

} // namespace

class WorkloadExpandTest : public QObject {
    Q_OBJECT
  private slots:
    void poissonArrivals() {
        ArrivalProcess a;
        a.kind = ArrivalProcess::Kind::Poisson;
        a.ratePerHour = 60; // one a minute
        a.startSeconds = 1000;
        Random rng(7);
        const int n = 20000;
        auto times = arrivalTimes(a, n, rng);
        QCOMPARE(int(times.size()), n);
        QVERIFY(times.front() > 1000);
        std::vector<double> gaps;
        double prev = 1000;
        for (double t : times) {
            QVERIFY(t >= prev);
            gaps.push_back(t - prev);
            prev = t;
        }
        // Exponential gaps: mean 60 s (standard error 0.42 s), coefficient of variation 1, and
        // P(gap < mean) = 1 - 1/e.
        auto m = moments(gaps);
        QVERIFY2(std::fabs(m.mean - 60) < 1.5, qPrintable(QString::number(m.mean)));
        QVERIFY2(std::fabs(m.sd / m.mean - 1) < 0.03, qPrintable(QString::number(m.sd / m.mean)));
        double below = double(std::count_if(gaps.begin(), gaps.end(), [](double g) { return g < 60; })) / n;
        QVERIFY2(std::fabs(below - (1 - std::exp(-1.0))) < 0.01, qPrintable(QString::number(below)));
        // Arrivals in the first 10 hours: Poisson with mean 600 (sd 24.5).
        int first = int(std::count_if(times.begin(), times.end(), [](double t) { return t < 1000 + 36000; }));
        QVERIFY2(std::abs(first - 600) < 100, qPrintable(QString::number(first)));
    }

    void fixedArrivals() {
        Random rng(1);
        ArrivalProcess a; // all at start
        a.startSeconds = 30;
        QCOMPARE(arrivalTimes(a, 3, rng), (std::vector<double>{30, 30, 30}));
        a.intervalSeconds = 600;
        QCOMPARE(arrivalTimes(a, 4, rng), (std::vector<double>{30, 630, 1230, 1830}));
        a.intervalSeconds = 0;
        a.times = {3600, 0, 60};
        QCOMPARE(arrivalTimes(a, 3, rng), (std::vector<double>{30, 90, 3630}));
        // A short list repeats its last time (checkTemplate warns).
        a.times = {0, 100};
        QCOMPARE(arrivalTimes(a, 4, rng), (std::vector<double>{30, 130, 130, 130}));
        WorkloadTemplate w = trainTemplate();
        w.arrival = a;
        w.jobs = 4;
        auto warnings = checkTemplate(w);
        QCOMPARE(int(warnings.size()), 1);
        QVERIFY(warnings[0].message.find("4 jobs but 2 arrival times") != std::string::npos);
        w.jobs = 2;
        QVERIFY(checkTemplate(w).empty());
    }

    void burstArrivals() {
        Random rng(1);
        ArrivalProcess a;
        a.kind = ArrivalProcess::Kind::Burst;
        a.burstSize = 4;
        a.intervalSeconds = 7200;
        a.startSeconds = 60;
        QCOMPARE(arrivalTimes(a, 10, rng),
                 (std::vector<double>{60, 60, 60, 60, 7260, 7260, 7260, 7260, 14460, 14460}));
    }

    void durationDistributions() {
        Random rng(11);
        const int n = 20000;
        DurationDistribution d;
        d.meanSeconds = 1234;
        QCOMPARE(drawDuration(d, rng), 1234.0);

        d.kind = DurationDistribution::Kind::Exponential;
        d.meanSeconds = 3600;
        std::vector<double> v(n);
        for (auto& x : v) x = drawDuration(d, rng);
        auto m = moments(v);
        QVERIFY2(std::fabs(m.mean / 3600 - 1) < 0.03, qPrintable(QString::number(m.mean)));
        QVERIFY2(std::fabs(m.sd / 3600 - 1) < 0.04, qPrintable(QString::number(m.sd)));
        QVERIFY2(std::fabs(median(v) / (3600 * std::log(2.0)) - 1) < 0.03,
                 qPrintable(QString::number(median(v))));
        QVERIFY(*std::min_element(v.begin(), v.end()) > 0);

        d.kind = DurationDistribution::Kind::Uniform;
        d.minSeconds = 3600;
        d.maxSeconds = 10800;
        for (auto& x : v) x = drawDuration(d, rng);
        m = moments(v);
        QVERIFY(*std::min_element(v.begin(), v.end()) >= 3600);
        QVERIFY(*std::max_element(v.begin(), v.end()) < 10800);
        QVERIFY2(std::fabs(m.mean - 7200) < 40, qPrintable(QString::number(m.mean)));
        QVERIFY2(std::fabs(m.sd - 7200 / std::sqrt(12.0)) < 40, qPrintable(QString::number(m.sd)));

        d.kind = DurationDistribution::Kind::LogNormal;
        d.meanSeconds = 43200; // median 12 h
        d.sigma = 0.4;
        for (auto& x : v) x = drawDuration(d, rng);
        QVERIFY2(std::fabs(median(v) / 43200 - 1) < 0.02, qPrintable(QString::number(median(v))));
        std::vector<double> logs(v.size());
        for (size_t i = 0; i < v.size(); ++i) logs[i] = std::log(v[i]);
        auto lm = moments(logs);
        QVERIFY2(std::fabs(lm.mean - std::log(43200.0)) < 0.01, qPrintable(QString::number(lm.mean)));
        QVERIFY2(std::fabs(lm.sd - 0.4) < 0.01, qPrintable(QString::number(lm.sd)));
    }

    void deterministicDraws() {
        WorkloadTemplate w = trainTemplate();
        w.jobs = 50;
        w.arrival.kind = ArrivalProcess::Kind::Poisson;
        w.arrival.ratePerHour = 4;
        w.duration.kind = DurationDistribution::Kind::Exponential;
        auto a = drawJobs(w, 42), b = drawJobs(w, 42), c = drawJobs(w, 43);
        QCOMPARE(int(a.size()), 50);
        bool same = true, differs = false;
        for (size_t i = 0; i < a.size(); ++i) {
            same = same && a[i].arrival == b[i].arrival && a[i].duration == b[i].duration;
            differs = differs || a[i].arrival != c[i].arrival;
        }
        QVERIFY(same);
        QVERIFY(differs);
        // Another template (another name) draws other values; the expansion of a template does not
        // depend on its neighbours.
        WorkloadTemplate other = w;
        other.name = "eval";
        QVERIFY(drawJobs(other, 42)[0].arrival != a[0].arrival);
        Cluster cluster;
        auto alone = expandWorkloads({w}, cluster, 42);
        auto both = expandWorkloads({other, w}, cluster, 42);
        QCOMPARE(both.podGroups[size_t(other.jobs)].arrivalSeconds, alone.podGroups[0].arrivalSeconds);
        QCOMPARE(both.podGroups.back().durationSeconds, alone.podGroups.back().durationSeconds);
    }

    void jobObjects() {
        Cluster cluster;
        PriorityClass high;
        high.name = "high";
        high.value = 5000;
        high.preemptionPolicy = "Never";
        cluster.priorityClasses.push_back(high);
        WorkloadTemplate w = trainTemplate();
        auto e = expandWorkloads({w}, cluster, 1);
        QCOMPARE(int(e.podGroups.size()), 3);
        QCOMPARE(int(e.pods.size()), 12);
        const PodGroup& g = e.podGroups[1];
        QCOMPARE(g.name, std::string("train-1"));
        QCOMPARE(g.ns, std::string("research"));
        QCOMPARE(g.queue, std::string("llm"));
        QCOMPARE(g.minMember, 3);
        QCOMPARE(g.checkpointSeconds, 600.0);
        QCOMPARE(g.annotations.at("volcano.sh/preemptable"), std::string("false"));
        // minResources: three pods' worth, the GPU share in milli-GPU.
        QCOMPARE(g.minResources.get(res::NvidiaGpu), int64_t(1500));
        QCOMPARE(g.minResources.get(res::Cpu), int64_t(24000));
        const Pod& p = e.pods[6]; // job 1, replica 2
        QCOMPARE(p.name, std::string("train-1-worker-2"));
        QCOMPARE(p.group, std::string("train-1"));
        QCOMPARE(p.role, std::string("worker"));
        QCOMPARE(p.requests.get(res::NvidiaGpu), int64_t(500));
        QCOMPARE(p.gpu.milliPerGpu, 500);
        QCOMPARE(*p.priority, 5000);
        QCOMPARE(p.preemptionPolicy, std::string("Never"));
        QVERIFY(p.preemptable && !*p.preemptable);
        QVERIFY(p.nodeAffinity && p.nodeAffinity->required);
        const auto& req = p.nodeAffinity->required->front().matchExpressions.front();
        QCOMPARE(req.key, std::string(kGpuProductLabel));
        QCOMPARE(req.values, (std::vector<std::string>{"A100", "H100"}));
        // Without a class the global default applies, else 0.
        w.priorityClass.clear();
        QCOMPARE(*templatePods(w, 0, cluster)[0].priority, 0);
        cluster.priorityClasses[0].globalDefault = true;
        QCOMPARE(*templatePods(w, 0, cluster)[0].priority, 5000);
    }
};

GANTRY_TEST(WorkloadExpandTest)
#include "test_workload_expand.moc"
