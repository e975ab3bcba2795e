// Quantity parsing, table-driven from the examples of the Kubernetes "Resource Management for Pods
// and Containers" page and apimachinery's quantity grammar (decimal SI, binary SI, exponents, milli).
#include "model/quantity.h"
#include "model/resources.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;

static constexpr qint64 kOverflow = std::numeric_limits<qint64>::min(); // milli value does not fit

class QuantityTest : public QObject {
    Q_OBJECT
  private slots:
    void parsesValid_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<qint64>("milli");
        // From the docs: these memory amounts are all roughly 129 MB.
        QTest::newRow("128974848") << "128974848" << qint64(128974848) << qint64(128974848000);
        QTest::newRow("129e6") << "129e6" << qint64(129000000) << qint64(129000000000);
        QTest::newRow("129M") << "129M" << qint64(129000000) << qint64(129000000000);
        QTest::newRow("128974848000m") << "128974848000m" << qint64(128974848) << qint64(128974848000);
        QTest::newRow("123Mi") << "123Mi" << qint64(128974848) << qint64(128974848000);
        // "400m" of memory is 0.4 bytes: Value() rounds up to 1.
        QTest::newRow("400m") << "400m" << qint64(1) << qint64(400);
        // CPU: 0.1 is 100m; 0.5 is 500m.
        QTest::newRow("0.1") << "0.1" << qint64(1) << qint64(100);
        QTest::newRow("0.5") << "0.5" << qint64(1) << qint64(500);
        QTest::newRow("1.5") << "1.5" << qint64(2) << qint64(1500);
        QTest::newRow(".5") << ".5" << qint64(1) << qint64(500);
        QTest::newRow("5.") << "5." << qint64(5) << qint64(5000);
        QTest::newRow("0") << "0" << qint64(0) << qint64(0);
        QTest::newRow("+3") << "+3" << qint64(3) << qint64(3000);
        QTest::newRow("-3") << "-3" << qint64(-3) << qint64(-3000);
        QTest::newRow("-1.5") << "-1.5" << qint64(-1) << qint64(-1500);
        // 1G and 1Gi differ.
        QTest::newRow("1k") << "1k" << qint64(1000) << qint64(1000000);
        QTest::newRow("1Ki") << "1Ki" << qint64(1024) << qint64(1024000);
        QTest::newRow("1M") << "1M" << qint64(1000000) << qint64(1000000000);
        QTest::newRow("1Mi") << "1Mi" << qint64(1048576) << qint64(1048576000);
        QTest::newRow("1G") << "1G" << qint64(1000000000) << qint64(1000000000000);
        QTest::newRow("1Gi") << "1Gi" << qint64(1073741824) << qint64(1073741824000);
        QTest::newRow("1T") << "1T" << qint64(1000000000000) << qint64(1000000000000000);
        QTest::newRow("1Ti") << "1Ti" << qint64(1099511627776) << qint64(1099511627776000);
        QTest::newRow("1P") << "1P" << qint64(1000000000000000) << qint64(1000000000000000000);
        QTest::newRow("1.5Gi") << "1.5Gi" << qint64(1610612736) << qint64(1610612736000);
        QTest::newRow("0.5Ki") << "0.5Ki" << qint64(512) << qint64(512000);
        // Exponents: "E" alone is exa, "E3" is 10^3.
        QTest::newRow("1E") << "1E" << qint64(1000000000000000000) << kOverflow;
        QTest::newRow("1e3") << "1e3" << qint64(1000) << qint64(1000000);
        QTest::newRow("1E3") << "1E3" << qint64(1000) << qint64(1000000);
        QTest::newRow("1e-3") << "1e-3" << qint64(1) << qint64(1);
        QTest::newRow("2e+2") << "2e+2" << qint64(200) << qint64(200000);
        // Nano and micro round up to one milli.
        QTest::newRow("12n") << "12n" << qint64(1) << qint64(1);
        QTest::newRow("5u") << "5u" << qint64(1) << qint64(1);
        QTest::newRow("1500u") << "1500u" << qint64(1) << qint64(2);
        QTest::newRow("leading zeros") << "0007" << qint64(7) << qint64(7000);
    }
    void parsesValid() {
        QFETCH(QString, text);
        QFETCH(qint64, value);
        QFETCH(qint64, milli);
        std::string error;
        auto q = Quantity::parse(text.toStdString(), &error);
        QVERIFY2(q.has_value(), error.c_str());
        QCOMPARE(q->value().value_or(-999), value);
        if (milli != kOverflow)
            QCOMPARE(q->milliValue().value_or(-999), milli);
        else
            QVERIFY2(!q->milliValue(), "milli value of 1E overflows int64");
    }

    void rejectsInvalid_data() {
        QTest::addColumn<QString>("text");
        for (const char* bad : {"", "abc", "1.1.1", "1Gb", "1 Gi", "Mi", "1i", "1e", "1e3.5", "--1", "1 ",
                                " 1", "1KI", "1mi", "0x10", "1,5", "1e+", "."})
            QTest::newRow(bad[0] ? bad : "empty") << QString::fromLatin1(bad);
    }
    void rejectsInvalid() {
        QFETCH(QString, text);
        std::string error;
        QVERIFY(!Quantity::parse(text.toStdString(), &error).has_value());
        QVERIFY(!error.empty());
    }

    void overflowIsDetected() {
        auto q = Quantity::parse("8Ei");
        QVERIFY(q.has_value());
        QVERIFY(!q->value().has_value());
        auto tooPrecise = Quantity::parse("1234567890123456789012345678901234567890");
        QVERIFY(!tooPrecise.has_value());
    }

    void resourceUnits() {
        std::string error;
        QCOMPARE(parseAmount("cpu", "500m", &error).value(), 500);
        QCOMPARE(parseAmount("cpu", "2", &error).value(), 2000);
        QCOMPARE(parseAmount("memory", "1Gi", &error).value(), int64_t(1) << 30);
        QCOMPARE(parseAmount("nvidia.com/gpu", "8", &error).value(), 8000);
        QCOMPARE(parseAmount("pods", "110", &error).value(), 110);
        QCOMPARE(parseAmount("ephemeral-storage", "100Gi", &error).value(), int64_t(100) << 30);
    }

    void formatsBack_data() {
        QTest::addColumn<QString>("resource");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("formatted");
        QTest::newRow("cpu milli") << "cpu"
                                   << "1500m"
                                   << "1500m";
        QTest::newRow("cpu whole") << "cpu"
                                   << "2000m"
                                   << "2";
        QTest::newRow("cpu 1.5") << "cpu"
                                 << "1.5"
                                 << "1500m";
        QTest::newRow("mem Gi") << "memory"
                                << "4Gi"
                                << "4Gi";
        QTest::newRow("mem G") << "memory"
                               << "1G"
                               << "1G";
        QTest::newRow("mem bytes") << "memory"
                                   << "1000001"
                                   << "1000001";
        QTest::newRow("gpu") << "nvidia.com/gpu"
                             << "8"
                             << "8";
        QTest::newRow("pods") << "pods"
                              << "110"
                              << "110";
        QTest::newRow("cpu k") << "cpu"
                               << "96"
                               << "96";
    }
    void formatsBack() {
        QFETCH(QString, resource);
        QFETCH(QString, text);
        QFETCH(QString, formatted);
        std::string error;
        auto amount = parseAmount(resource.toStdString(), text.toStdString(), &error);
        QVERIFY2(amount.has_value(), error.c_str());
        QCOMPARE(QString::fromStdString(formatAmount(resource.toStdString(), *amount)), formatted);
        // And the formatted text parses back to the same amount.
        QCOMPARE(parseAmount(resource.toStdString(), formatted.toStdString(), &error).value(), *amount);
    }
};

GANTRY_TEST(QuantityTest)
#include "test_quantity.moc"
