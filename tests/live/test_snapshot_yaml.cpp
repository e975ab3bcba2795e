// The snapshot's YAML writer: whatever JSON the API serves comes back identical through a YAML reader.
#include "live/snapshot_sanitize.h"
#include "live/snapshot_yaml.h"
#include "test_registry.h"

#include <QtTest>
#include <yaml-cpp/yaml.h>

using namespace gantry::live;
using json = nlohmann::json;

namespace {

// YAML back to JSON, typing scalars the way a Kubernetes reader would: quoted = string.
json toJson(const YAML::Node& n) {
    if (n.IsMap()) {
        json o = json::object();
        for (const auto& kv : n) o[kv.first.as<std::string>()] = toJson(kv.second);
        return o;
    }
    if (n.IsSequence()) {
        json a = json::array();
        for (const auto& v : n) a.push_back(toJson(v));
        return a;
    }
    if (n.IsNull()) return nullptr;
    const std::string& s = n.Scalar();
    if (n.Tag() == "!") return s; // quoted or block scalar
    if (s == "true" || s == "false") return s == "true";
    json number = json::parse(s, nullptr, false);
    if (!number.is_discarded() && number.is_number()) return number;
    return s;
}

} // namespace

class SnapshotYamlTest : public QObject {
    Q_OBJECT
  private slots:
    void roundTripsThroughYamlCpp() {
        json object = {
            {"apiVersion", "v1"},
            {"kind", "ConfigMap"},
            {"metadata",
             {{"name", "volcano-scheduler-configmap"},
              {"labels", json::object()},
              {"finalizers", json::array()}}},
            {"data",
             {{"volcano-scheduler.conf",
               "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: gang\n"},
              {"no-newline-at-end", "a: 1\nb: 2"},
              {"extra-newlines", "x\n\n\n"},
              {"blank lines inside", "first\n\n  indented\nlast\n"},
              {"leading space", " starts with a blank\nsecond\n"},
              {"trailing space", "line with blank \nnext\n"},
              {"looks like bool", "true"},
              {"yes", "no"},
              {"looks like number", "0700"},
              {"float-ish", "1e3"},
              {"null-ish", "~"},
              {"empty", ""},
              {"colon space", "key: value"},
              {"hash", "a #comment"},
              {"dash", "- item"},
              {"quote", "say \"hi\" \\ bye"},
              {"tab\tkey", "tab\tvalue"},
              {"control", std::string("bell\x07", 5)},
              {"unicode", "GPU \xe2\x80\x94 \xe6\xb5\x8b\xe8\xaf\x95"},
              {"star", "*alias"},
              {"percent", "%YAML"},
              {"multi-doc marker", "---\n...\n"}}},
            {"numbers",
             {{"int", 42}, {"negative", -7}, {"big", 9007199254740993LL}, {"float", 0.25}, {"zero", 0}}},
            {"flags", {true, false, nullptr}},
            {"nested",
             {{{"a", {1, 2}}, {"b", {{"c", {{"d", "e"}}}}}}, {{1, 2}, {3}}, json::array(), json::object()}},
        };
        std::string text;
        appendYamlDocument(object, text);
        appendYamlDocument(json{{"second", "document"}}, text);
        auto docs = YAML::LoadAll(text);
        QCOMPARE(docs.size(), size_t(2));
        json back = toJson(docs[0]);
        if (back != object) {
            qWarning("%s", text.c_str());
            QCOMPARE(QString::fromStdString(back.dump(1)), QString::fromStdString(object.dump(1)));
        }
        QCOMPARE(toJson(docs[1]), (json{{"second", "document"}}));
        // Readable where it can be: kubectl-like plain scalars and literal blocks for config files.
        QVERIFY(text.find("kind: ConfigMap\n") != std::string::npos);
        QVERIFY(text.find("volcano-scheduler.conf: |\n    actions:") != std::string::npos);
        QVERIFY(text.find("\"looks like bool\": \"true\"") != std::string::npos);
    }

    void sanitizeKeepsSchedulingFieldsOnly() {
        json pod = {
            {"kind", "Pod"},
            {"metadata",
             {{"name", "p"},
              {"annotations", {{"kubectl.kubernetes.io/last-applied-configuration", "{}"}, {"keep", "me"}}},
              {"managedFields", json::array({{{"manager", "kubectl"}}})}}},
            {"spec",
             {{"containers",
               {{{"name", "c"},
                 {"image", "i"},
                 {"env", {{{"name", "T"}, {"value", "secret"}}}},
                 {"args", {"--password=x"}},
                 {"resources", {{"requests", {{"cpu", "1"}}}}}}}},
              {"initContainers", {{{"name", "init"}, {"restartPolicy", "Always"}, {"command", {"sh"}}}}},
              {"volumes", {{{"name", "v"}, {"csi", {{"volumeAttributes", {{"key", "secret"}}}}}}}},
              {"nodeSelector", {{"gpu", "h100"}}},
              {"imagePullSecrets", {{{"name", "regcred"}}}}}},
            {"status", {{"phase", "Running"}, {"containerStatuses", json::array()}, {"podIP", "1.2.3.4"}}}};
        sanitizeObject(pod, "Pod");
        QVERIFY(!pod["metadata"].contains("managedFields"));
        QCOMPARE(pod["metadata"]["annotations"], (json{{"keep", "me"}}));
        QCOMPARE(pod["spec"]["containers"][0],
                 (json{{"name", "c"}, {"image", "i"}, {"resources", {{"requests", {{"cpu", "1"}}}}}}));
        QCOMPARE(pod["spec"]["initContainers"][0], (json{{"name", "init"}, {"restartPolicy", "Always"}}));
        QCOMPARE(pod["spec"]["volumes"][0], (json{{"name", "v"}}));
        QCOMPARE(pod["spec"]["nodeSelector"], (json{{"gpu", "h100"}}));
        QVERIFY(!pod["spec"].contains("imagePullSecrets"));
        QCOMPARE(pod["status"], (json{{"phase", "Running"}}));
        json node = {
            {"kind", "Node"},
            {"status", {{"images", json::array({{{"names", {"x"}}}})}, {"allocatable", {{"cpu", "8"}}}}}};
        sanitizeObject(node, "Node");
        QCOMPARE(node["status"], (json{{"allocatable", {{"cpu", "8"}}}}));
    }
};

GANTRY_TEST(SnapshotYamlTest)
#include "test_snapshot_yaml.moc"
