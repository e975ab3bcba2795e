// GoRand against values printed by Go 1.19's math/rand for the same seeds (rand.Seed(s) then the
// calls in the order below), so replays of Go simulators draw the same numbers.
#include "test_registry.h"
#include "trace/go_rand.h"

#include <QtTest>

using namespace gantry;

class GoRandTest : public QObject {
    Q_OBJECT
  private slots:
    void matchesGoSequences_data() {
        QTest::addColumn<qint64>("seed");
        QTest::addColumn<qint64>("first");
        QTest::addColumn<qint64>("second");
        QTest::addColumn<qint64>("intn1000");
        QTest::addColumn<qint64>("intn8152");
        QTest::addColumn<QList<int>>("perm12");
        QTest::addColumn<QList<int>>("shuffle10");
        QTest::addColumn<double>("float64");
        QTest::newRow("42") << qint64(42) << qint64(3440579354231278675) << qint64(608747136543856411)
                            << qint64(668) << qint64(1382) << QList<int>{6, 5, 0, 10, 2, 1, 3, 7, 9, 11, 8, 4}
                            << QList<int>{2, 3, 5, 4, 1, 0, 8, 9, 6, 7} << 0.041977903714453674;
        QTest::newRow("1") << qint64(1) << qint64(5577006791947779410) << qint64(8674665223082153551)
                           << qint64(847) << qint64(1395) << QList<int>{5, 10, 11, 8, 6, 3, 2, 7, 1, 9, 4, 0}
                           << QList<int>{4, 0, 3, 8, 7, 6, 1, 5, 9, 2} << 0.29708256355629153;
        // Seed 0 is replaced by 89482311 and negative seeds are folded into [0, 2^31-1), as in Go.
        QTest::newRow("0") << qint64(0) << qint64(8717895732742165505) << qint64(2259404117704393152)
                           << qint64(353) << qint64(6626) << QList<int>{5, 6, 8, 10, 2, 1, 11, 4, 9, 0, 7, 3}
                           << QList<int>{1, 3, 8, 4, 9, 2, 5, 6, 0, 7} << 0.6930700440076261;
        QTest::newRow("-5") << qint64(-5) << qint64(1811683815564572222) << qint64(4427849682616757295)
                            << qint64(917) << qint64(358) << QList<int>{7, 5, 8, 9, 3, 2, 11, 6, 4, 10, 1, 0}
                            << QList<int>{9, 2, 0, 8, 7, 4, 1, 6, 5, 3} << 0.20630131729444842;
    }
    void matchesGoSequences() {
        QFETCH(qint64, seed);
        QFETCH(qint64, first);
        QFETCH(qint64, second);
        QFETCH(qint64, intn1000);
        QFETCH(qint64, intn8152);
        QFETCH(QList<int>, perm12);
        QFETCH(QList<int>, shuffle10);
        QFETCH(double, float64);
        GoRand r(seed);
        QCOMPARE(qint64(r.int63()), first);
        QCOMPARE(qint64(r.int63()), second);
        QCOMPARE(qint64(r.intn(1000)), intn1000);
        QCOMPARE(qint64(r.intn(8152)), intn8152);
        auto p = r.perm(12);
        QCOMPARE(QList<int>(p.begin(), p.end()), perm12);
        QList<int> v{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        r.shuffle(v.size(), [&](int64_t i, int64_t j) { std::swap(v[i], v[j]); });
        QCOMPARE(v, shuffle10);
        QCOMPARE(r.float64(), float64);
    }
    void reseedingRestartsTheSequence() {
        GoRand r(7);
        const int64_t a = r.int63(), b = r.int63();
        r.seed(7);
        QCOMPARE(r.int63(), a);
        QCOMPARE(r.int63(), b);
        // Seeds that differ by 2^31 - 1 are the same seed in Go.
        GoRand folded(7 + 0x7fffffffLL);
        QCOMPARE(folded.int63(), a);
    }
    void boundedDrawsStayInRange() {
        GoRand r(3);
        for (int n : {1, 2, 3, 7, 1000, 1 << 20, 0x7fffffff}) {
            for (int i = 0; i < 200; ++i) {
                auto v = r.intn(n);
                QVERIFY(v >= 0 && v < n);
            }
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, r.intn(0));
    }
};

GANTRY_TEST(GoRandTest)
#include "test_go_rand.moc"
