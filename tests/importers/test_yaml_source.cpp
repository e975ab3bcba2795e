// The located document tree against yaml-cpp's own: same structure, values and positions for YAML
// and JSON inputs; and the syntax check that keeps malformed text away from yaml-cpp.
#include "test_registry.h"
#include "test_support.h"
#include "yaml/yaml_reader.h"
#include "yaml/yaml_source.h"

#include <QtTest>
#include <yaml-cpp/yaml.h>

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
        std::vector<std::pair<int, YAML::Node>> theirs; // yaml-cpp's non-empty documents, 1-based index
        int index = 0;
        for (const auto& node : YAML::LoadAll(text))
            if (++index; node.IsDefined() && !node.IsNull()) theirs.emplace_back(index, node);
        QCOMPARE(ours.size(), theirs.size());
        QVERIFY(!ours.empty());
        for (size_t i = 0; i < ours.size(); ++i) {
            QCOMPARE(ours[i].index, theirs[i].first);
            std::string diff = compare(ours[i].root, theirs[i].second, "doc" + std::to_string(ours[i].index));
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
    void syntaxCheckBeforeYamlCpp() {
        TextOrigin origin{"m.yaml", 0, 0, std::nullopt};
        checkYamlSyntax("a: 1\n---\nb: [x]\n", origin);
        QCOMPARE(errorOf([&] { checkYamlSyntax("a: [1, 2\n", origin); }).left(28),
                 QString("m.yaml:2:1: error: YAML synt"));
        // Flow mappings that are not strict JSON are YAML, as yaml-cpp reads them.
        checkYamlSyntax("{gang: {minMember: 2},}", origin);
        // Inputs on which yaml-cpp 0.7 never returns; libyaml rejects them with a location.
        for (const char* hang : {"manifests/yaml-cpp-loadall-hang", "manifests/yaml-cpp-hang"}) {
            std::string text = readTextFile(std::string(GANTRY_SOURCE_DIR) + "/tests/fuzz/corpus/" + hang);
            QVERIFY2(errorOf([&] { checkYamlSyntax(text, origin); }).startsWith("m.yaml:"), hang);
        }
    }
};

GANTRY_TEST(YamlSourceTest)
#include "test_yaml_source.moc"
