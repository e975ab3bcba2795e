// The structural OpenAPI validator on small hand-written schemas: each keyword, alone, against
// values that pass and values that fail with the exact message.
#include "model/kubernetes_names.h"
#include "test_registry.h"
#include "validation/openapi_schema.h"

#include <QtTest>

using namespace gantry;

namespace {

Json yaml(const std::string& text) {
    return parseManifests(text, "t.yaml").at(0).value;
}

// Compiles a schema written in YAML and validates a value written in YAML.
QStringList problems(const std::string& schemaYaml, const std::string& valueYaml) {
    static SchemaSet set; // keeps compiled schemas alive across calls
    Json doc = yaml(schemaYaml);
    const Schema* s = set.compile(doc, "");
    SchemaProblems out;
    validateAgainstSchema(yaml(valueYaml), *s, FieldPath(), out);
    QStringList lines;
    for (const auto& p : out)
        lines << QString::fromStdString((p.severity == Severity::Error ? "E " : "W ") + p.path.str() + ": " +
                                        p.message);
    return lines;
}

const char* kQuantityPattern =
    R"(^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$)";

} // namespace

class OpenApiTest : public QObject {
    Q_OBJECT
  private slots:
    void typesAndUnknownFields() {
        const char* schema = R"(
type: object
properties:
  weight: {type: integer, format: int32, minimum: 1, maximum: 65535}
  name: {type: string, maxLength: 5, minLength: 1}
  ratio: {type: number}
  'on': {type: boolean}
)";
        QCOMPARE(problems(schema, "{weight: 3, name: abc, ratio: 1, 'on': true}"), QStringList());
        QCOMPARE(problems(schema, "{weight: '3'}"),
                 QStringList{"E weight: must be of type integer, not string (\"3\")"});
        QCOMPARE(problems(schema, "{weight: 1.5}"),
                 QStringList{"E weight: must be of type integer, not number (1.5)"});
        QCOMPARE(problems(schema, "{weight: 0}"),
                 QStringList{"E weight: must be greater than or equal to 1 (got 0)"});
        QCOMPARE(problems(schema, "{weight: 70000}"),
                 QStringList{"E weight: must be less than or equal to 65535 (got 70000)"});
        QCOMPARE(problems(schema, "{weight: 3000000000}"),
                 QStringList({"E weight: 3000000000 is out of range for int32",
                              "E weight: must be less than or equal to 65535 (got 3000000000)"}));
        QCOMPARE(problems(schema, "{name: abcdef}"),
                 QStringList{"E name: must be no more than 5 characters (6)"});
        QCOMPARE(problems(schema, "{name: ''}"), QStringList{"E name: must be at least 1 characters long"});
        // YAML 1.1 as kubectl reads it: `yes` is a boolean, so a string field rejects it unquoted.
        QCOMPARE(problems(schema, "{name: yes}"),
                 QStringList{"E name: must be of type string, not boolean (true)"});
        QCOMPARE(problems(schema, "{'on': 'true'}"),
                 QStringList{"E on: must be of type boolean, not string (\"true\")"});
        // Unquoted, the key `on` is the boolean true, so it names another field (as in kubectl).
        QCOMPARE(problems(schema, "{on: true}"), QStringList{"E true: unknown field \"true\""});
        QCOMPARE(problems(schema, "{wieght: 3}"), QStringList{"E wieght: unknown field \"wieght\""});
    }

    void requiredEnumNullable() {
        const char* schema = R"(
type: object
required: [mode]
properties:
  mode: {type: string, enum: [hard, soft]}
  note: {type: string, nullable: true}
  other: {type: string}
)";
        QCOMPARE(problems(schema, "{mode: hard, note: null}"), QStringList());
        QCOMPARE(problems(schema, "{note: x}"), QStringList{"E mode: required field \"mode\" is missing"});
        QCOMPARE(problems(schema, "{mode: Hard}"),
                 QStringList{"E mode: unsupported value \"Hard\": supported values: \"hard\", \"soft\""});
        QCOMPARE(problems(schema, "{mode: soft, other: null}"),
                 QStringList{"W other: null value; the API server drops it (the field is not nullable)"});
    }

    void intOrStringAndQuantityPattern() {
        std::string schema = std::string(R"(
type: object
additionalProperties:
  anyOf: [{type: integer}, {type: string}]
  x-kubernetes-int-or-string: true
  pattern: ')") + kQuantityPattern +
                             "'\n";
        QCOMPARE(problems(schema, "{cpu: 4, memory: 16Gi, gpu: '8', x: 500m, y: 1e3, z: '.5', w: +1}"),
                 QStringList());
        // Unquoted, 0.5 is a JSON number with a fraction: neither an integer nor a string.
        QCOMPARE(problems(schema, "{cpu: 0.5}"),
                 QStringList{"E [cpu]: must be an integer or a string, not number"});
        QCOMPARE(problems(schema, "{cpu: 4 cores}"),
                 QStringList{QString("E [cpu]: \"4 cores\" does not match the pattern ") + kQuantityPattern});
        QCOMPARE(problems(schema, "{cpu: 1.5.2}").size(), 1);
        QCOMPARE(problems(schema, "{cpu: 16gi}").size(), 1); // binary suffixes are upper-case
        QCOMPARE(problems(schema, "{cpu: true}"),
                 QStringList{"E [cpu]: must be an integer or a string, not boolean"});
        QCOMPARE(problems(schema, "{cpu: [1]}"),
                 QStringList{"E [cpu]: must be an integer or a string, not array"});
    }

    void patternsOfTheCrds() {
        // Go RE2 patterns used by the bundled CRDs, in ECMAScript; (?i) becomes a flag.
        const char* dns = R"(^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)";
        std::string schema = std::string("{type: string, pattern: '") + dns + "'}";
        QCOMPARE(problems(schema, "team-a.ml"), QStringList());
        QCOMPARE(problems(schema, "Team-A").size(), 1);
        QCOMPARE(problems(schema, "-a").size(), 1);
        QCOMPARE(problems("{type: string, pattern: '^(?i)[a-z]([-a-z0-9]*[a-z0-9])?$'}", "Cpu-Mem"),
                 QStringList());
        QCOMPARE(problems("{type: string, pattern: '^(?i)[a-z]([-a-z0-9]*[a-z0-9])?$'}", "9cpu").size(), 1);
        const char* qualified =
            R"(^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$)";
        schema = std::string("{type: string, pattern: '") + qualified + "'}";
        QCOMPARE(problems(schema, "nvidia.com/gpu"), QStringList());
        QCOMPARE(problems(schema, "cpu"), QStringList());
        QCOMPARE(problems(schema, "nvidia.com/"),
                 QStringList{QString("E : \"nvidia.com/\" does not match the pattern ") + qualified});
    }

    void mapsListsAndPreserveUnknown() {
        const char* schema = R"(
type: object
properties:
  labels: {type: object, additionalProperties: {type: string}}
  free: {type: object, x-kubernetes-preserve-unknown-fields: true}
  any: {type: object, additionalProperties: true}
  tags: {type: array, items: {type: string}, x-kubernetes-list-type: set, minItems: 1, maxItems: 3}
  ports:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    items: {type: object, properties: {name: {type: string}, port: {type: integer}}}
)";
        QCOMPARE(problems(schema, "{labels: {a: b}, free: {x: {y: 1}}, any: {q: 1}, tags: [a, b], ports: "
                                  "[{name: a, port: 1}]}"),
                 QStringList());
        QCOMPARE(problems(schema, "{labels: {a: 1}}"),
                 QStringList{"E labels[a]: must be of type string, not integer (1)"});
        QCOMPARE(problems(schema, "{tags: []}"), QStringList{"E tags: must have at least 1 item(s), has 0"});
        QCOMPARE(problems(schema, "{tags: [a, b, c, d]}"),
                 QStringList{"E tags: must have at most 3 items, has 4"});
        QCOMPARE(problems(schema, "{tags: [a, a]}"), QStringList{"E tags[1]: duplicate value \"a\""});
        QCOMPARE(problems(schema, "{ports: [{name: a}, {name: a, port: 2}]}"),
                 QStringList{"E ports[1]: duplicate entry {\"name\":\"a\"}"});
    }

    void defaultsFeedCelRules() {
        // Kueue's flavorFungibility: preference needs both fields TryNextFlavor; whenCanBorrow
        // defaults to MayStopSearch, so leaving it out fails the rule as it does in the API server.
        const char* schema = R"YAML(
type: object
properties:
  flavorFungibility:
    type: object
    properties:
      preference: {type: string}
      whenCanBorrow: {type: string, default: MayStopSearch}
      whenCanPreempt: {type: string, default: TryNextFlavor}
    x-kubernetes-validations:
    - rule: "!has(self.preference) || (self.whenCanBorrow == 'TryNextFlavor' && self.whenCanPreempt == 'TryNextFlavor')"
      message: preference can only be set when both whenCanBorrow and whenCanPreempt are TryNextFlavor
)YAML";
        QCOMPARE(
            problems(
                schema,
                "{flavorFungibility: {preference: BorrowingOverPreemption, whenCanBorrow: TryNextFlavor}}"),
            QStringList());
        QCOMPARE(problems(schema, "{flavorFungibility: {preference: BorrowingOverPreemption}}"),
                 QStringList{"E flavorFungibility: preference can only be set when both whenCanBorrow and "
                             "whenCanPreempt are "
                             "TryNextFlavor"});
    }

    void unknownCelRuleIsListedNotGuessed() {
        SchemaSet set;
        Json doc = yaml("{type: object, x-kubernetes-preserve-unknown-fields: true, "
                        "x-kubernetes-validations: [{rule: 'self.x > 2', "
                        "message: m}, {rule: 'self == oldSelf', message: i}]}");
        const Schema* s = set.compile(doc, "");
        SchemaProblems out;
        validateAgainstSchema(yaml("{x: 1}"), *s, FieldPath(), out);
        QCOMPARE(out.size(), size_t(0));
        QCOMPARE(set.unevaluatedRules(),
                 std::vector<std::string>{"self.x > 2"}); // the transition rule is not listed
    }

    void recursiveLocalReferences() {
        SchemaSet set;
        // (moc cannot read this text as a raw string literal, so it is spelt out line by line)
        Json doc = yaml("root: {x-gantry-ref: \"#/definitions/node\"}\n"
                        "definitions:\n"
                        "  node:\n"
                        "    type: object\n"
                        "    required: [name]\n"
                        "    properties:\n"
                        "      name: {type: string}\n"
                        "      children: {type: array, items: {x-gantry-ref: \"#/definitions/node\"}}\n");
        const Schema* s = set.compile(doc, "/root");
        SchemaProblems out;
        validateAgainstSchema(yaml("{name: a, children: [{name: b, children: [{nam: c}]}]}"), *s, FieldPath(),
                              out);
        QCOMPARE(out.size(), size_t(2));
        QCOMPARE(QString::fromStdString(out[0].path.str() + ": " + out[0].message),
                 QString("children[0].children[0].name: required field \"name\" is missing"));
        QCOMPARE(QString::fromStdString(out[1].message),
                 QString("unknown field \"children[0].children[0].nam\""));
    }

    void kubernetesNames() {
        QVERIFY(checkDns1123Subdomain("team-a.ml").empty());
        QVERIFY(!checkDns1123Subdomain("Team").empty());
        QVERIFY(!checkDns1123Subdomain(std::string(254, 'a')).empty());
        QVERIFY(checkDns1123Label("team-a").empty());
        QVERIFY(!checkDns1123Label("team.a").empty());
        QVERIFY(!checkDns1123Label(std::string(64, 'a')).empty());
        QVERIFY(checkQualifiedName("kueue.x-k8s.io/queue-name").empty());
        QVERIFY(checkQualifiedName("Foo_bar.baz").empty());
        QCOMPARE(QString::fromStdString(checkQualifiedName("a/b/c")),
                 QString("a qualified name must be a name with an optional DNS subdomain prefix and '/'"));
        QVERIFY(!checkQualifiedName("UPPER.example/x").empty());
        QVERIFY(checkLabelValue("").empty());
        QVERIFY(!checkLabelValue("-bad").empty());
    }
};

GANTRY_TEST(OpenApiTest)
#include "test_openapi.moc"
