// The snapshot's streaming writer: whatever JSON the API serves comes back identical through a YAML
// reader, trimmed of what a snapshot must not keep.
#include "live/list_stream.h"
#include "test_registry.h"
#include "yaml/yaml_source.h"

#include <QtTest>
#include <nlohmann/json.hpp>
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

std::string listOf(const char* listKind, const json& items) {
    return json{
        {"kind", listKind}, {"apiVersion", "v1"}, {"metadata", {{"resourceVersion", "9"}}}, {"items", items}}
        .dump();
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
              // Outside YAML's printable set although valid UTF-8: C1 controls, U+FFFE and U+FFFF
              // (a YAML reader refuses them raw); U+0085 (next line) is printable.
              {"c1 controls", "\xc2\x80 and \xc2\x9f"},
              {"nonchar \xef\xbf\xbf key", "\xef\xbf\xbe\xef\xbf\xbf"},
              {"next line", "a\xc2\x85z"},
              {"c1 in a block", "first\xc2\x9b\nsecond\n"},
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
        StreamedPage page =
            streamListPage(listOf("ConfigMapList", {object, {{"second", "document"}}}), "ConfigMap", text);
        QCOMPARE(page.written, size_t(2));
        QVERIFY(page.continueToken.empty());
        // The strict reader (libyaml, as `gantry` reads snapshots) takes it too.
        QCOMPARE(gantry::loadDocuments(text, "page.yaml").size(), size_t(2));
        auto docs = YAML::LoadAll(text);
        QCOMPARE(docs.size(), size_t(2));
        json back = toJson(docs[0]);
        if (back != object) {
            qWarning("%s", text.c_str());
            QCOMPARE(QString::fromStdString(back.dump(1)), QString::fromStdString(object.dump(1)));
        }
        // The item without apiVersion and kind gets the list's.
        QCOMPARE(toJson(docs[1]),
                 (json{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"second", "document"}}));
        // Readable where it can be: kubectl-like plain scalars and literal blocks for config files.
        QVERIFY(text.find("kind: ConfigMap\n") != std::string::npos);
        QVERIFY(text.find("volcano-scheduler.conf: |\n    actions:") != std::string::npos);
        QVERIFY(text.find("\"looks like bool\": \"true\"") != std::string::npos);
    }

    // The list's apiVersion and the item kind it implies come from the server too: a value YAML
    // would misread (found by fuzz_list_stream: "v:" ended a line as a mapping indicator) is quoted.
    void quotesTheListsApiVersionAndKind() {
        const json list = {{"kind", "Pod: List"},
                           {"apiVersion", "v:"},
                           {"metadata", {{"resourceVersion", "1"}}},
                           {"items", {{{"metadata", {{"name", "p"}}}}}}};
        std::string text;
        StreamedPage page = streamListPage(list.dump(), "Pod: ", text);
        QCOMPARE(page.written, size_t(1));
        auto docs = gantry::loadDocuments(text, "page.yaml");
        QCOMPARE(docs.size(), size_t(1));
        QCOMPARE(toJson(YAML::Load(text)),
                 (json{{"apiVersion", "v:"}, {"kind", "Pod: "}, {"metadata", {{"name", "p"}}}}));
    }

    void keepsSchedulingFieldsOnly() {
        json pod = {
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
        json finished = {{"metadata", {{"name", "done"}}}, {"status", {{"phase", "Succeeded"}}}};
        std::string text;
        StreamedPage page =
            streamListPage(json{{"kind", "PodList"},
                                {"apiVersion", "v1"},
                                {"metadata", {{"continue", "abc"}, {"remainingItemCount", 7}}},
                                {"items", {pod, finished}}}
                               .dump(),
                           "Pod", text);
        QCOMPARE(page.items, size_t(2));
        QCOMPARE(page.written, size_t(1));
        QCOMPARE(page.skipped, size_t(1));
        QCOMPARE(page.continueToken, std::string("abc"));
        QCOMPARE(*page.remaining, int64_t(7));
        json back = toJson(YAML::Load(text));
        json expected = {{"apiVersion", "v1"},
                         {"kind", "Pod"},
                         {"metadata", {{"name", "p"}, {"annotations", {{"keep", "me"}}}}},
                         {"spec",
                          {{"containers",
                            {{{"name", "c"}, {"image", "i"}, {"resources", {{"requests", {{"cpu", "1"}}}}}}}},
                           {"initContainers", {{{"name", "init"}, {"restartPolicy", "Always"}}}},
                           {"volumes", {{{"name", "v"}}}},
                           {"nodeSelector", {{"gpu", "h100"}}}}},
                         {"status", {{"phase", "Running"}}}};
        QCOMPARE(QString::fromStdString(back.dump()), QString::fromStdString(expected.dump()));

        std::string nodes;
        streamListPage(
            listOf("NodeList",
                   {{{"metadata", {{"name", "n"}}},
                     {"status",
                      {{"images", json::array({{{"names", {"x"}}}})}, {"allocatable", {{"cpu", "8"}}}}}}}),
            "Node", nodes);
        QCOMPARE(toJson(YAML::Load(nodes))["status"], (json{{"allocatable", {{"cpu", "8"}}}}));
    }

    void rejectsWhatIsNotAList() {
        std::string out;
        QVERIFY_THROWS_EXCEPTION(NotAList, streamListPage(R"({"kind":"Status","code":500})", "Pod", out));
        QVERIFY_THROWS_EXCEPTION(NotAList, streamListPage(R"({"kind":"PodList","items":[1,2]})", "Pod", out));
        QVERIFY_THROWS_EXCEPTION(NotAList, streamListPage(R"([1,2])", "Pod", out));
        try {
            streamListPage(R"({"kind":"PodList","items":[{"metadata":{"name":)", "Pod", out);
            QFAIL("expected MalformedJson");
        } catch (const MalformedJson& e) {
            QVERIFY(e.byte >= 40); // at the end: truncated
        }
    }
};

GANTRY_TEST(SnapshotYamlTest)
#include "test_snapshot_yaml.moc"
