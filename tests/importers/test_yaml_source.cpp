// The located document tree against yaml-cpp's own: same structure, values and positions for YAML
// and JSON inputs; and the yaml-cpp node API other importers walk themselves.
#include "test_registry.h"
#include "test_support.h"
#include "yaml/yaml_reader.h"
#include "yaml/yaml_source.h"

#include <QtTest>

using namespace gantry;
using namespace gantry::test;

namespace {

// Compares a DomNode with the yaml-cpp node of the same text; returns "" or where they differ.
std::string compare(const DomNode* d, const YAML::Node& y, const std::string& path) {
    auto at =
        path + " (" + std::to_string(y.Mark().line + 1) + ":" + std::to_string(y.Mark().column + 1) + ")";
    if (d->line != y.Mark().line || d->column != y.Mark().column)
        return at + ": position " + std::to_string(d->line + 1) + ":" + std::to_string(d->column + 1);
    if (y.IsNull()) return d->kind == DomNode::Kind::Null ? "" : at + ": expected null";
    if (y.IsScalar()) {
        if (!d->isScalar() || d->text != y.Scalar())
            return at + ": scalar '" + d->text + "' vs '" + y.Scalar() + "'";
        if (d->quoted != (y.Tag() == "!")) return at + ": quoting differs";
        return "";
    }
    if (y.IsSequence()) {
        if (!d->isSequence() || d->children.size() != y.size()) return at + ": sequence differs";
        for (size_t i = 0; i < y.size(); ++i)
            if (auto e = compare(d->children[i], y[i], path + "[" + std::to_string(i) + "]"); !e.empty())
                return e;
        return "";
    }
    if (!d->isMap() || d->mapSize() != y.size()) return at + ": mapping differs";
    size_t i = 0;
    for (auto it = y.begin(); it != y.end(); ++it, ++i) {
        if (auto e = compare(d->children[2 * i], it->first, path + ".<key>"); !e.empty()) return e;
        if (auto e = compare(d->children[2 * i + 1], it->second, path + "." + it->first.Scalar()); !e.empty())
            return e;
    }
    return "";
}

} // namespace

class YamlSourceTest : public QObject {
    Q_OBJECT
  private slots:
    void treeMatchesYamlCpp_data() {
        QTest::addColumn<QString>("file");
        for (const char* f :
             {"importers/kubectl-list.json", "importers/kueue.yaml", "importers/volcano-objects.yaml",
              "importers/yunikorn-configs.yaml", "importers/training-jobs.yaml",
              "conformance/volcano/94-binpack-scores-custom-weights/snapshot.yaml"})
            QTest::newRow(f) << QString::fromStdString(dataPath(f));
        QTest::newRow("sample") << QString(GANTRY_SOURCE_DIR) + "/resources/samples/gpu-cloud-east.yaml";
    }
    void treeMatchesYamlCpp() {
        QFETCH(QString, file);
        std::string text = readTextFile(file.toStdString());
        auto ours = loadDocuments(text, file.toStdString());
        auto theirs = loadYamlString(text, file.toStdString());
        QCOMPARE(ours.size(), theirs.size());
        QVERIFY(!ours.empty());
        for (size_t i = 0; i < ours.size(); ++i) {
            QCOMPARE(ours[i].index, theirs[i].index);
            std::string diff = compare(ours[i].root, theirs[i].root, "doc" + std::to_string(ours[i].index));
            QVERIFY2(diff.empty(), diff.c_str());
        }
    }
    void anchorsAndAliases() {
        auto docs = loadDocuments("base: &b {cpu: 2}\nother: *b\n", "a.yaml");
        Y root = readerFor(docs[0], nullptr, nullptr);
        QCOMPARE(root["other"].resources().get("cpu"), int64_t(2000));
        QCOMPARE(errorOf([] { loadDocuments("base: {cpu: 2}\nother: *b\n", "a.yaml"); }),
                 QString("a.yaml:2:8: error: YAML syntax error: alias *b names no anchor defined before it"));
    }
    void yamlCppApiStaysAvailable() {
        auto docs = loadYamlString("a: \"1\"\nb:\n  - x\n", "c.yaml");
        QCOMPARE(docs.size(), size_t(1));
        QCOMPARE(whereOf(docs[0].root["b"], "c.yaml").str(), std::string("c.yaml:3:3"));
        Y root = readerFor(docs[0], nullptr, nullptr);
        QCOMPARE(root["b"].strings(), std::vector<std::string>{"x"});
        QCOMPARE(errorOf([&] { root["a"].i32(); }),
                 QString("c.yaml:1:4: error: a: expected an integer, got the string \"1\""));
        // JSON is checked strictly on this path too.
        QCOMPARE(errorOf([] { loadYamlString("{\"a\": 1,}", "j.json"); }),
                 QString("j.json:1:9: error: JSON syntax error: expected a string key, got '}'"));
        QCOMPARE(errorOf([] { loadYamlFile("/nonexistent.yaml"); }),
                 QString("/nonexistent.yaml: error: cannot open file: No such file or directory"));
    }
};

GANTRY_TEST(YamlSourceTest)
#include "test_yaml_source.moc"
