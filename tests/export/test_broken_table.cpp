// The table of manifests: every file under tests/data/export/manifests/ is validated and its
// diagnostics must be exactly the "# expect:" lines it carries (none for a valid file). Each broken
// file breaks one rule; the valid ones restate upstream examples.
#include "test_registry.h"
#include "validation/manifest_validator.h"

#include <QtTest>

using namespace gantry;

namespace {

QString dataDir() {
    return QString(GANTRY_TEST_DATA) + "/export/manifests";
}

// "# expect: 12:7: error: ..." lines, in any order.
QStringList expectations(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QStringList out;
    for (const QString& line : QString::fromUtf8(f.readAll()).split('\n'))
        if (line.startsWith("# expect: ")) out << line.mid(10).trimmed();
    return out;
}

} // namespace

class BrokenTableTest : public QObject {
    Q_OBJECT
  private slots:
    void eachFileGivesExactlyItsExpectedDiagnostics_data() {
        QTest::addColumn<QString>("path");
        QDir dir(dataDir());
        const auto files = dir.entryList({"*.yaml"}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 30);
        for (const QString& f : files) QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    void eachFileGivesExactlyItsExpectedDiagnostics() {
        QFETCH(QString, path);
        ManifestValidator v;
        v.addFile(path.toStdString());
        QStringList got;
        for (const auto& d : v.run()) {
            QString s = QString::fromStdString(d.str());
            got << s.mid(path.size() + 1).replace(path, "FILE"); // drop "<path>:"; other mentions become FILE
        }
        QStringList expected = expectations(path);
        got.sort();
        expected.sort();
        QCOMPARE(got, expected);
    }

    void brokenFilesHaveAnError() {
        QDir dir(dataDir());
        for (const QString& f : dir.entryList({"broken-*.yaml"}, QDir::Files)) {
            bool error = false;
            for (const QString& e : expectations(dir.filePath(f))) error = error || e.contains(": error: ");
            QVERIFY2(error, qPrintable(f + " expects no error"));
        }
    }
};

GANTRY_TEST(BrokenTableTest)
#include "test_broken_table.moc"
