// Reading manifests with kubectl's YAML rules and locations, and writing them back.
#include "input_error.h"
#include "manifest/document.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;

class DocumentsTest : public QObject {
    Q_OBJECT
  private slots:
    void scalarsResolveAsKubectlDoes_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("json");
        QTest::newRow("int") << "a: 10"
                             << R"({"a":10})";
        QTest::newRow("negative") << "a: -3"
                                  << R"({"a":-3})";
        QTest::newRow("hex") << "a: 0x1f"
                             << R"({"a":31})";
        QTest::newRow("octal-1.1") << "a: 0755"
                                   << R"({"a":493})";
        QTest::newRow("float") << "a: 1.5"
                               << R"({"a":1.5})";
        QTest::newRow("exponent") << "a: 1e3"
                                  << R"({"a":1000.0})";
        QTest::newRow("quantity") << "a: 500m"
                                  << R"({"a":"500m"})";
        QTest::newRow("binary-suffix") << "a: 16Gi"
                                       << R"({"a":"16Gi"})";
        QTest::newRow("yes") << "a: yes"
                             << R"({"a":true})";
        QTest::newRow("Off") << "a: Off"
                             << R"({"a":false})";
        QTest::newRow("quoted-yes") << "a: 'yes'"
                                    << R"({"a":"yes"})";
        QTest::newRow("quoted-number") << "a: \"8\""
                                       << R"({"a":"8"})";
        QTest::newRow("tilde") << "a: ~"
                               << R"({"a":null})";
        QTest::newRow("empty") << "a:"
                               << R"({"a":null})";
        QTest::newRow("str-tag") << "a: !!str 10"
                                 << R"({"a":"10"})";
        QTest::newRow("key-on") << "on: 1"
                                << R"({"true":1})";
        QTest::newRow("json") << R"({"a": [1, "x", true, null]})"
                              << R"({"a":[1,"x",true,null]})";
    }
    void scalarsResolveAsKubectlDoes() {
        QFETCH(QString, text);
        QFETCH(QString, json);
        auto docs = parseManifests(text.toStdString(), "t.yaml");
        QCOMPARE(QString::fromStdString(docs.at(0).value.dump()), json);
    }

    void locationsAndDuplicates() {
        auto docs = parseManifests(
            "---\n# empty first document\n---\nkind: Queue\nspec:\n  weight: 2\n  weight: 3\n", "q.yaml");
        QCOMPARE(docs.size(), size_t(1));
        QCOMPARE(docs[0].index, 2); // the empty document still counts
        SourceRef w = docs[0].where(FieldPath().field("spec").field("weight"));
        QCOMPARE(w.line, 6);
        QCOMPARE(w.column, 11);
        QCOMPARE(docs[0].readProblems.size(), size_t(1));
        QCOMPARE(QString::fromStdString(docs[0].readProblems[0].str()),
                 QString("q.yaml:7:3: error: duplicate field \"weight\" in spec"));
        // A path with no value of its own is located at its nearest ancestor.
        SourceRef missing = docs[0].where(FieldPath().field("spec").field("capability").key("cpu"));
        QCOMPARE(missing.line, 6); // the value of spec: a block map starts at its first key
    }

    void syntaxErrorIsLocated() {
        try {
            parseManifests("a: [1, 2\nb: c\n", "bad.yaml");
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).startsWith("bad.yaml:"), e.what());
            QVERIFY(QString(e.what()).contains("YAML syntax error"));
        }
    }

    void embeddedLiteralBlockMapsBack() {
        std::string text = "apiVersion: v1\nkind: ConfigMap\ndata:\n  queues.yaml: |\n    partitions:\n      "
                           "- name: default\n"
                           "        queues:\n          - name: root\n";
        auto outer = parseManifests(text, "cm.yaml");
        auto inner = parseEmbeddedYaml(outer.at(0), FieldPath().field("data").key("queues.yaml"), text);
        QCOMPARE(inner.size(), size_t(1));
        SourceRef w =
            inner[0].where(FieldPath().field("partitions").index(0).field("queues").index(0).field("name"));
        QCOMPARE(w.file, std::string("cm.yaml"));
        QCOMPARE(w.line, 8);
        QCOMPARE(w.column, 19);
        // A quoted value cannot be mapped line by line: everything is at the value.
        std::string quoted = "kind: ConfigMap\ndata:\n  queues.yaml: \"partitions: [{name: x}]\"\n";
        auto q = parseManifests(quoted, "q.yaml");
        auto qi = parseEmbeddedYaml(q.at(0), FieldPath().field("data").key("queues.yaml"), quoted);
        QCOMPARE(qi.at(0).where(FieldPath().field("partitions").index(0)).line, 3);
    }

    void writerQuotesWhatWouldChangeType() {
        Json v = Json::object();
        v["plain"] = "team-a";
        v["number"] = "8";
        v["bool"] = "yes";
        v["on"] = "on";
        v["null"] = "null";
        v["empty"] = "";
        v["colon"] = "a: b";
        v["date"] = "2024-01-01";
        v["quantity"] = "500m";
        v["int"] = 8;
        v["float"] = 0.5;
        v["list"] = Json::array({"a", Json::object({{"k", "v"}, {"n", 1}}), Json::array({1, 2})});
        v["emptyMap"] = Json::object();
        v["emptyList"] = Json::array();
        v["text"] = "line one\nline two\n";
        v["nested"] = Json::object({{"deep", Json::object({{"x", "1e3"}})}});
        std::string yaml = toYaml(v);
        auto back = parseManifests(yaml, "w.yaml");
        QCOMPARE(QString::fromStdString(back.at(0).value.dump()), QString::fromStdString(v.dump()));
        QVERIFY2(yaml.find("plain: team-a\n") != std::string::npos, yaml.c_str());
        QVERIFY2(yaml.find("quantity: 500m\n") != std::string::npos, yaml.c_str());
        QVERIFY2(yaml.find("number: \"8\"\n") != std::string::npos, yaml.c_str());
        QVERIFY2(yaml.find("text: |\n  line one\n  line two\n") != std::string::npos, yaml.c_str());
        // `n` alone is the boolean false in YAML 1.1, so even the key is quoted.
        QVERIFY2(yaml.find("list:\n- a\n- k: v\n  \"n\": 1\n-\n  - 1\n") != std::string::npos, yaml.c_str());
    }
};

GANTRY_TEST(DocumentsTest)
#include "test_documents.moc"
