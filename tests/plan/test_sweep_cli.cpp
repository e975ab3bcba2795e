// gantry sweep through the real binary: a local run of a grid, the Job --emit-job writes with its
// pods run here (the ConfigMap's files in a folder, JOB_COMPLETION_INDEX set for every index) and
// merged into exactly the local report, the Job checked against the batch/v1 schema, and bad grids.
#include "cli_run.h"
#include "test_registry.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>
#include <regex>
#include <yaml-cpp/yaml.h>

using gantry::test::runGantry;
using nlohmann::json;

namespace {

const QString kGrid = QString(GANTRY_TEST_DATA) + "/plan/gang-grid.yaml";
const QString kJobSchema = QString(GANTRY_TEST_DATA) + "/plan/batch-v1-job.schema.json";

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const std::string& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.data(), qint64(text.size())) == qint64(text.size());
}

// YAML as the API server reads it into JSON: scalars the YAML 1.2 core schema types.
json toJson(const YAML::Node& n) {
    if (n.IsMap()) {
        json o = json::object();
        for (const auto& kv : n) o[kv.first.as<std::string>()] = toJson(kv.second);
        return o;
    }
    if (n.IsSequence()) {
        json a = json::array();
        for (const auto& item : n) a.push_back(toJson(item));
        return a;
    }
    if (n.IsNull()) return nullptr;
    const std::string s = n.Scalar();
    if (n.Tag() == "!") return s; // quoted
    if (s == "true" || s == "false") return s == "true";
    if (std::regex_match(s, std::regex("-?[0-9]+"))) return std::stoll(s);
    return s;
}

// A structural schema check (the subset of OpenAPI v3 the Kubernetes API server applies with
// strict field validation): types, required fields, unknown fields, maps, lists, enums, $ref.
class SchemaCheck {
  public:
    explicit SchemaCheck(json schema) : schema_(std::move(schema)) {}
    std::vector<std::string> run(const json& value) {
        problems_.clear();
        check(value, schema_["definitions"][schema_["root"].get<std::string>()], "");
        return problems_;
    }

  private:
    void check(const json& v, const json& s, const std::string& at) {
        if (s.contains("$ref")) return check(v, schema_["definitions"][s["$ref"].get<std::string>()], at);
        if (s.value("x-kubernetes-int-or-string", false)) {
            if (!v.is_string() && !v.is_number_integer()) problem(at, "expected an integer or a string");
            return;
        }
        const std::string type = s.value("type", "");
        if (type == "object") {
            if (!v.is_object()) return problem(at, "expected an object");
            for (const auto& r : s.value("required", json::array()))
                if (!v.contains(r.get<std::string>()))
                    problem(at, "missing required " + r.get<std::string>());
            for (const auto& [key, item] : v.items()) {
                if (s.contains("properties") && s["properties"].contains(key))
                    check(item, s["properties"][key], at + "." + key);
                else if (s.contains("additionalProperties") && s["additionalProperties"].is_object())
                    check(item, s["additionalProperties"], at + "." + key);
                else if (!s.value("x-kubernetes-preserve-unknown-fields", false))
                    problem(at + "." + key, "unknown field");
            }
        } else if (type == "array") {
            if (!v.is_array()) return problem(at, "expected a list");
            for (size_t i = 0; i < v.size(); ++i) check(v[i], s["items"], at + "[" + std::to_string(i) + "]");
        } else if (type == "string") {
            if (!v.is_string()) problem(at, "expected a string");
        } else if (type == "integer") {
            if (!v.is_number_integer())
                problem(at, "expected an integer");
            else if (s.value("format", "") == "int32" &&
                     (v.get<int64_t>() > INT32_MAX || v.get<int64_t>() < INT32_MIN))
                problem(at, "out of int32");
        } else if (type == "boolean") {
            if (!v.is_boolean()) problem(at, "expected a boolean");
        } else if (type == "number") {
            if (!v.is_number()) problem(at, "expected a number");
        }
        if (s.contains("enum") && std::find(s["enum"].begin(), s["enum"].end(), v) == s["enum"].end())
            problem(at, "not one of " + s["enum"].dump());
    }
    void problem(const std::string& at, const std::string& what) { problems_.push_back(at + ": " + what); }
    json schema_;
    std::vector<std::string> problems_;
};

bool dnsLabel(const std::string& s) {
    return s.size() <= 63 && std::regex_match(s, std::regex("[a-z0-9]([-a-z0-9]*[a-z0-9])?"));
}

struct Emitted {
    json configMap, job;
};

Emitted emitJob(const QStringList& extra = {}) {
    const auto r = runGantry(
        QStringList{"sweep", "--grid", kGrid, "--emit-job", "--image", "registry.example/gantry:0.1"} +
        extra);
    if (r.code != 0) qFatal("emit-job failed: %s", qPrintable(r.err));
    Emitted e;
    for (const auto& doc : YAML::LoadAll(r.out.toStdString())) {
        json o = toJson(doc);
        if (o["kind"] == "ConfigMap") e.configMap = o;
        if (o["kind"] == "Job") e.job = o;
    }
    return e;
}

} // namespace

class SweepCliTest : public QObject {
    Q_OBJECT
  private slots:
    void localSweepReport() {
        QTemporaryDir dir;
        const auto r = runGantry({"sweep", "--grid", kGrid, "--out", dir.path(), "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const json d = json::parse(readFile(dir.path() + "/report.json").toStdString());
        QCOMPARE(json::parse(r.out.toStdString()), d);
        QCOMPARE(d["points_total"].get<size_t>(), size_t(8));
        QCOMPARE(d["points"].size(), size_t(8));
        QCOMPARE(QDir(dir.path() + "/points").entryList(QDir::Files).size(), 8);
        // Fixed order: profile, policy, node count, seed.
        QCOMPARE(d["points"][0]["profile"], "volcano");
        QCOMPARE(d["points"][1]["seed"], 2);
        QCOMPARE(d["points"][2]["nodes"], 7);
        QCOMPARE(d["points"][4]["profile"], "kube-default");
        QCOMPARE(d["groups"].size(), size_t(4));
        for (const auto& g : d["groups"]) {
            const bool enough = g["nodes"] == 7;
            QCOMPARE(g["pass"].get<bool>(), enough);
            QCOMPARE(g["mean"]["wait.max"].get<double>(), enough ? 0.0 : 3 * 3600.0);
        }
        const auto text = runGantry({"sweep", "--grid", kGrid, "--out", dir.path()});
        QVERIFY2(text.out.contains("Sweep gang-grid: 8 points"), qPrintable(text.out));
        // The same grid again, one simulation at a time: the same bytes.
        QTemporaryDir serial;
        QCOMPARE(runGantry({"sweep", "--grid", kGrid, "--out", serial.path(), "--jobs", "1"}).code, 0);
        QCOMPARE(readFile(serial.path() + "/report.json"), readFile(dir.path() + "/report.json"));
    }

    void emittedJobRunLocallyMergesToTheLocalReport() {
        QTemporaryDir local, cluster;
        QCOMPARE(runGantry({"sweep", "--grid", kGrid, "--out", local.path()}).code, 0);
        const Emitted e = emitJob();
        const json& job = e.job;
        QCOMPARE(job["spec"]["completionMode"], "Indexed");
        const int completions = job["spec"]["completions"].get<int>();
        QCOMPARE(completions, 8);
        // The pod's volumes here: the ConfigMap's keys as files, and a results folder.
        const json& pod = job["spec"]["template"]["spec"];
        const json& container = pod["containers"][0];
        std::map<std::string, QString> mounted;
        for (const auto& m : container["volumeMounts"]) {
            const std::string name = m["name"];
            const QString path = cluster.path() + "/" + QString::fromStdString(name);
            QVERIFY(QDir().mkpath(path));
            mounted[m["mountPath"]] = path;
            for (const auto& v : pod["volumes"])
                if (v["name"] == name && v.contains("configMap")) {
                    QCOMPARE(v["configMap"]["name"], e.configMap["metadata"]["name"]);
                    for (const auto& [key, text] : e.configMap["data"].items())
                        QVERIFY(writeFile(path + "/" + QString::fromStdString(key), text.get<std::string>()));
                }
        }
        QCOMPARE(mounted.size(), size_t(2));
        const std::vector<std::string> command = container["command"];
        QCOMPARE(command.front(), std::string("gantry"));
        QStringList args;
        for (size_t i = 1; i < command.size(); ++i) {
            QString arg = QString::fromStdString(command[i]);
            for (const auto& [from, to] : mounted)
                if (arg.startsWith(QString::fromStdString(from))) arg.replace(0, int(from.size()), to);
            args << arg;
        }
        for (int i = 0; i < completions; ++i) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert("JOB_COMPLETION_INDEX", QString::number(i));
            p.setProcessEnvironment(env);
            p.start(GANTRY_CLI, args);
            QVERIFY(p.waitForFinished(120000));
            QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                     p.readAllStandardError().constData());
        }
        QString results;
        for (const auto& m : container["volumeMounts"])
            if (m["name"] == "results") results = mounted[m["mountPath"]];
        const auto merged = runGantry({"sweep", "merge", results, "--json"});
        QVERIFY2(merged.code == 0, qPrintable(merged.err));
        QCOMPARE(readFile(results + "/report.json"), readFile(local.path() + "/report.json"));
        for (const QString& f : QDir(local.path() + "/points").entryList(QDir::Files))
            QCOMPARE(readFile(results + "/points/" + f), readFile(local.path() + "/points/" + f));

        QFile::remove(results + "/points/point-000003.json");
        const auto partial = runGantry({"sweep", "merge", results});
        QCOMPARE(partial.code, 2);
        QVERIFY2(partial.err.contains("1 of 8 points have no result yet: 3"), qPrintable(partial.err));
        // The pod without its index is an error, not point 0.
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("JOB_COMPLETION_INDEX");
        p.setProcessEnvironment(env);
        p.start(GANTRY_CLI, args);
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 1);
    }

    void jobFollowsTheBatchV1Schema() {
        const Emitted e = emitJob({"--parallelism", "3", "--namespace", "sweeps"});
        SchemaCheck check(json::parse(readFile(kJobSchema).toStdString()));
        const auto problems = check.run(e.job);
        std::string all;
        for (const auto& p : problems) all += p + "\n";
        QVERIFY2(problems.empty(), all.c_str());
        // The checker is not blind: a misspelt field and a wrong type are caught.
        json broken = e.job;
        broken["spec"]["completion"] = 8;
        broken["spec"]["template"]["spec"]["containers"][0]["image"] = 3;
        QCOMPARE(check.run(broken).size(), size_t(2));

        // What the API server checks beyond the schema (Kubernetes pkg/apis/batch/validation and
        // core validation), for an Indexed Job.
        QCOMPARE(e.job["apiVersion"], "batch/v1");
        QCOMPARE(e.job["metadata"]["namespace"], "sweeps");
        QCOMPARE(e.configMap["metadata"]["namespace"], "sweeps");
        QVERIFY(dnsLabel(e.job["metadata"]["name"]));
        QCOMPARE(e.job["spec"]["parallelism"], 3);
        QVERIFY(e.job["spec"]["completions"].get<int>() <= 100000);
        const json& pod = e.job["spec"]["template"]["spec"];
        QVERIFY(pod["restartPolicy"] == "Never" || pod["restartPolicy"] == "OnFailure");
        std::set<std::string> volumes;
        for (const auto& v : pod["volumes"]) {
            QVERIFY(dnsLabel(v["name"]));
            QVERIFY(volumes.insert(v["name"]).second);
        }
        for (const auto& c : pod["containers"]) {
            QVERIFY(dnsLabel(c["name"]));
            for (const auto& m : c["volumeMounts"]) QVERIFY(volumes.count(m["name"]));
        }
        // ConfigMap keys are valid file names, and the grid brings its input along.
        for (const auto& [key, text] : e.configMap["data"].items())
            QVERIFY(std::regex_match(key, std::regex("[-._a-zA-Z0-9]+")));
        QVERIFY(e.configMap["data"].contains("grid.yaml"));
        QVERIFY(e.configMap["data"].contains("gang-pool.yaml"));
    }

    // A variant's `set:` changes one field of the policy and nothing else: turning fairshare's job order
    // off runs as a configuration without fairshare, setting the half-life the sample already has runs
    // as the sample, and a half-life of its own is a run of its own.
    void policyFieldVariants() {
        QTemporaryDir dir;
        const std::string sample = std::string(GANTRY_SOURCE_DIR) + "/resources/samples/fairshare-day.yaml";
        const QString noFairshare = dir.path() + "/no-fairshare.conf";
        QVERIFY(writeFile(noFairshare,
                          "actions: \"enqueue, allocate, backfill\"\ntiers:\n- plugins:\n"
                          "  - name: priority\n  - name: gang\n  - name: conformance\n"
                          "- plugins:\n  - name: drf\n  - name: predicates\n  - name: proportion\n"
                          "  - name: nodeorder\n  - name: binpack\n"));
        const QString grid = dir.path() + "/grid.yaml";
        QVERIFY(writeFile(
            grid,
            std::string(
                "apiVersion: gantry.io/v1alpha1\nkind: SweepGrid\nname: fields\ninputs: [" + sample +
                "]\npolicies:\n"
                "  - {name: default}\n"
                "  - {name: same-half-life, set: {volcano.fairshare.fairshare.halfLifeMinutes: \"240\"}}\n"
                "  - {name: half-life-30m, set: {volcano.fairshare.fairshare.halfLifeMinutes: \"30\"}}\n"
                "  - {name: order-off, set: {volcano.fairshare.enableJobOrder: \"false\"}}\n"
                "  - {name: without, schedulerConf: no-fairshare.conf}\n"
                "seeds: 1\n")));
        const auto r = runGantry({"sweep", "--grid", grid, "--out", dir.path() + "/out", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const json d = json::parse(r.out.toStdString());
        std::map<std::string, json> metrics;
        for (const auto& p : d["points"]) metrics[p["policy"]] = p["metrics"];
        QCOMPARE(metrics.size(), size_t(5));
        QCOMPARE(metrics["same-half-life"], metrics["default"]);
        QCOMPARE(metrics["order-off"], metrics["without"]);
        QVERIFY(metrics["half-life-30m"] != metrics["default"]);
        QVERIFY(metrics["order-off"] != metrics["default"]);

        // Refused at their line: an unknown field, a value of the wrong form, a plugin not configured.
        const std::pair<const char*, const char*> bad[] = {
            {"{volcano.fairshare: \"1\"}", "write volcano.<plugin>.<argument>"},
            {"{kueue.admissionFairSharing.usageHalfLifeTime: soon}", "'soon' is not a duration"},
            {"{kube.percentageOfNodesToScore: \"120\"}", "not a whole number from 0 to 100"},
            {"{yunikorn.nodesortpolicy: fair}", "unknown policy field 'yunikorn.nodesortpolicy'"},
            {"{volcano.sla.sla-waiting-time: 1h}", "the Volcano configuration lists no plugin 'sla'"}};
        for (const auto& [set, why] : bad) {
            QVERIFY(writeFile(grid, std::string("apiVersion: gantry.io/v1alpha1\nkind: SweepGrid\n"
                                                "inputs: [" +
                                                sample +
                                                "]\npolicies:\n  - name: x\n"
                                                "    set: " +
                                                set + "\n")));
            const auto e = runGantry({"sweep", "--grid", grid, "--out", dir.path() + "/bad"});
            QCOMPARE(e.code, 2);
            QVERIFY2(e.err.contains("grid.yaml:6:") && e.err.contains(why), qPrintable(e.err));
        }
    }

    void badGrids() {
        QTemporaryDir dir;
        const QString grid = dir.path() + "/grid.yaml";
        QVERIFY(writeFile(grid, "apiVersion: gantry.io/v1alpha1\nkind: SweepGrid\ninputs: [missing.yaml]\n"
                                "nodes: [1]\nprofiles: [volcano, slurm]\n"));
        auto r = runGantry({"sweep", "--grid", grid, "--out", dir.path() + "/out"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("grid.yaml:4:") && r.err.contains("node counts need a nodeType"),
                 qPrintable(r.err));
        QVERIFY(writeFile(grid, "apiVersion: gantry.io/v1alpha1\nkind: SweepGrid\ninputs: [missing.yaml]\n"
                                "profiles: [volcano, slurm]\n"));
        r = runGantry({"sweep", "--grid", grid, "--out", dir.path() + "/out"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("grid.yaml:4:") && r.err.contains("unknown profile 'slurm'"),
                 qPrintable(r.err));
        QVERIFY(writeFile(grid, "apiVersion: gantry.io/v1alpha1\nkind: SweepGrid\ninputs: [x.yaml]\n"
                                "slo: ['wait.p95 < soon']\n"));
        r = runGantry({"sweep", "--grid", grid, "--out", dir.path() + "/out"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("grid.yaml:4:") && r.err.contains("column 12"), qPrintable(r.err));
        r = runGantry({"sweep", "--grid", kGrid});
        QCOMPARE(r.code, 1);
    }
};

GANTRY_TEST(SweepCliTest)
#include "test_sweep_cli.moc"
