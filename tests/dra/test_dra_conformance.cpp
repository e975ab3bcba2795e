// GPUs as 2026 clusters expose them: the dra-mig conformance cases (tests/data/conformance/dra-mig
// and dra-mig-restated; layout and keys in dra-mig/README.md), each run through the real `gantry`
// binary and compared as the README prescribes.
//   inspect:      gantry inspect snapshot.yaml --json
//   kube-default: gantry cycle --profile kube-default --snapshot snapshot.yaml --json
//   kueue:        gantry cycle --profile kueue --snapshot snapshot.yaml --scheduler-conf config.yaml --json
//                 (compared by the Kueue suite's rules, tests/kueue/kueue_compare.h)
//   volcano:      gantry cycle --profile volcano --snapshot snapshot.yaml --scheduler-conf scheduler.yaml
//   --json
//                 (bindings, pending pods and reasons as for kube-default, and podgroup_phase)
//   yunikorn:     gantry cycle --profile yunikorn --snapshot snapshot.yaml --json (its allocations as
//   bindings)
#include "cli_run.h"
#include "kueue_compare.h"
#include "test_registry.h"

#include <QDir>
#include <QRegularExpression>
#include <QtTest>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

using nlohmann::json;

namespace {

using gantry::test::readJsonFile;
using Run = gantry::test::JsonRun;
using gantry::test::runGantryJson;

// Product names compare case-insensitively with spaces, '_' and '-' alike (NVML's "NVIDIA H100 80GB
// HBM3" is GPU feature discovery's "NVIDIA-H100-80GB-HBM3"); profiles case-insensitively without a
// leading "mig-"; zero entries are ignored.
std::string normModel(const std::string& s) {
    return QString::fromStdString(s)
        .trimmed()
        .toLower()
        .replace(QRegularExpression("[\\s_-]+"), "-")
        .toStdString();
}
std::string normProfile(const std::string& s) {
    std::string n = QString::fromStdString(s).trimmed().toLower().toStdString();
    return n.rfind("mig-", 0) == 0 ? n.substr(4) : n;
}
std::map<std::string, int64_t> counts(const json& j, std::string (*norm)(const std::string&)) {
    std::map<std::string, int64_t> out;
    if (!j.is_object()) return out;
    for (const auto& [k, v] : j.items())
        if (v.is_number_integer() && v.get<int64_t>() != 0) out[norm(k)] += v.get<int64_t>();
    return out;
}

const json* at(const json& obj, const std::string& path) {
    const json* cur = &obj;
    for (const auto& part : QString::fromStdString(path).split('.')) {
        if (!cur->is_object() || !cur->contains(part.toStdString())) return nullptr;
        cur = &(*cur)[part.toStdString()];
    }
    return cur;
}

std::string compareInspect(const json& e, const json& got) {
    for (const auto& [path, want] : e["inspect"].items()) {
        const json* have = at(got, path);
        if (!have) return path + " missing";
        if (path == "gpus.by_model" || path == "gpus.mig") {
            auto norm = path == "gpus.mig" ? normProfile : normModel;
            if (counts(want, norm) != counts(*have, norm))
                return path + ": want " + want.dump() + ", got " + have->dump();
        } else if (want.is_object()) {
            if (!have->is_number()) return path + " is not a number";
            const double v = have->get<double>();
            if ((want.contains("ne") && v == want["ne"].get<double>()) ||
                (want.contains("ge") && v < want["ge"].get<double>()) ||
                (want.contains("le") && v > want["le"].get<double>()))
                return path + ": " + have->dump() + " outside " + want.dump();
        } else if (!have->is_number() || have->get<double>() != want.get<double>()) {
            return path + ": want " + want.dump() + ", got " + have->dump();
        }
    }
    return {};
}

std::set<std::string> pendingOf(const json& got) {
    std::set<std::string> out;
    if (!got.contains("pending")) return out;
    if (got["pending"].is_array())
        for (const auto& p : got["pending"]) out.insert(p.get<std::string>());
    else
        for (const auto& [p, why] : got["pending"].items()) out.insert(p);
    return out;
}

std::string reasonOf(const json& got, const std::string& pod) {
    for (const char* key : {"pending_reasons", "pending"})
        if (got.contains(key) && got[key].is_object() && got[key].contains(pod) && got[key][pod].is_string())
            return got[key][pod].get<std::string>();
    return {};
}

std::string deviceId(const json& d) {
    return d.value("driver", "") + "/" + d.value("pool", "") + "/" + d.value("device", "");
}

std::string compareKubeDefault(const json& e, const json& got) {
    const json bindings = got.value("bindings", json::object());
    if (e.contains("bindings")) {
        for (const auto& [pod, node] : e["bindings"].items())
            if (!bindings.contains(pod) || bindings[pod] != node)
                return pod + " bound to " + (bindings.contains(pod) ? bindings[pod].dump() : "nothing") +
                       ", want " + node.dump();
        if (e.value("bindings_exact", false) && bindings.size() != e["bindings"].size())
            return "bindings " + bindings.dump() + ", want exactly " + e["bindings"].dump();
    }
    if (e.contains("bound_nodes")) {
        std::multiset<std::string> want, have;
        for (const auto& [pod, node] : e["bound_nodes"].items()) {
            (void)pod;
            want.insert(node.get<std::string>());
        }
        for (const auto& [pod, node] : e["bound_nodes"].items())
            if (bindings.contains(pod)) have.insert(bindings[pod].get<std::string>());
        if (want != have) return "bound_nodes: got " + bindings.dump();
    }
    if (e.contains("bind_count") && bindings.size() != e["bind_count"].get<size_t>())
        return "bind_count " + std::to_string(bindings.size()) + ", want " + e["bind_count"].dump();
    const auto pending = pendingOf(got);
    if (e.contains("pending"))
        for (const auto& pod : e["pending"]) {
            const std::string p = pod.get<std::string>();
            if (bindings.contains(p)) return p + " bound to " + bindings[p].dump() + ", want pending";
            if (!pending.count(p)) return p + " not listed pending";
        }
    if (e.contains("pending_reason_contains"))
        for (const auto& [pod, parts] : e["pending_reason_contains"].items())
            for (const auto& part : parts)
                if (reasonOf(got, pod).find(part.get<std::string>()) == std::string::npos)
                    return pod + " waits for '" + reasonOf(got, pod) + "', want it to hold " + part.dump();
    if (e.contains("podgroup_phase"))
        for (const auto& [group, phase] : e["podgroup_phase"].items()) {
            const json phases = got.value("podgroup_phase", json::object());
            const json have = phases.contains(group) ? phases[group] : json();
            if (have != phase) return "PodGroup " + group + " is " + have.dump() + ", want " + phase.dump();
        }
    const json claims = got.value("claims", json::object());
    std::map<std::string, std::string> owner; // device -> claim
    for (const auto& [claim, c] : claims.items())
        for (const auto& d : c.value("devices", json::array())) {
            if (e.value("distinct_devices", false) && owner.count(deviceId(d)) && owner[deviceId(d)] != claim)
                return deviceId(d) + " in both " + owner[deviceId(d)] + " and " + claim;
            owner[deviceId(d)] = claim;
        }
    if (e.contains("claims")) {
        for (const auto& [claim, want] : e["claims"].items()) {
            if (!claims.contains(claim)) return "claim " + claim + " not allocated; claims: " + claims.dump();
            const json& c = claims[claim];
            if (want.contains("node") && c.value("node", "") != want["node"].get<std::string>())
                return "claim " + claim + " on " + c.value("node", "") + ", want " + want["node"].dump();
            std::multiset<std::string> have;
            for (const auto& d : c.value("devices", json::array())) have.insert(deviceId(d));
            if (want.contains("devices")) {
                std::multiset<std::string> w;
                for (const auto& d : want["devices"]) w.insert(d.get<std::string>());
                if (w != have)
                    return "claim " + claim + " devices " + c["devices"].dump() + ", want " +
                           want["devices"].dump();
            }
            if (want.contains("count") && have.size() != want["count"].get<size_t>())
                return "claim " + claim + " has " + std::to_string(have.size()) + " devices, want " +
                       want["count"].dump();
            if (want.contains("devices_within")) {
                std::set<std::string> within;
                for (const auto& d : want["devices_within"]) within.insert(d.get<std::string>());
                for (const auto& d : have)
                    if (!within.count(d))
                        return "claim " + claim + " got " + d + ", not one of " +
                               want["devices_within"].dump();
            }
            if (want.contains("devices_include"))
                for (const auto& d : want["devices_include"])
                    if (!have.count(d.get<std::string>())) return "claim " + claim + " lacks " + d.dump();
        }
        if (e.value("claims_exact", false) && claims.size() != e["claims"].size())
            return "claims " + claims.dump() + ", want exactly " + e["claims"].dump();
    } else if (e.value("claims_exact", false) && !claims.empty()) {
        return "no claim should be allocated, got " + claims.dump();
    }
    return {};
}

} // namespace

class DraConformanceTest : public QObject {
    Q_OBJECT
  private slots:
    void cases_data() {
        QTest::addColumn<QString>("path");
        for (const char* suite : {"dra-mig", "dra-mig-restated"}) {
            QDir dir(QString(GANTRY_TEST_DATA) + "/conformance/" + suite);
            for (const auto& c : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
                QTest::newRow(qPrintable(QString(suite) + "/" + c)) << dir.filePath(c);
        }
    }
    void cases() {
        QFETCH(QString, path);
        const json e = readJsonFile(path + "/expected.json");
        QVERIFY2(!e.is_null(), qPrintable("cannot read " + path + "/expected.json"));
        const std::string mode = e.value("mode", "");
        const QString snapshot = path + "/snapshot.yaml";
        const Run r =
            mode == "inspect"   ? runGantryJson({"inspect", snapshot, "--json"})
            : mode == "kueue"   ? runGantryJson({"cycle", "--profile", "kueue", "--snapshot", snapshot,
                                                 "--scheduler-conf", path + "/config.yaml", "--json"})
            : mode == "volcano" ? runGantryJson({"cycle", "--profile", "volcano", "--snapshot", snapshot,
                                                 "--scheduler-conf", path + "/scheduler.yaml", "--json"})
            : mode == "yunikorn"
                ? runGantryJson({"cycle", "--profile", "yunikorn", "--snapshot", snapshot, "--json"})
                : runGantryJson({"cycle", "--profile", "kube-default", "--snapshot", snapshot, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(QString("gantry exited %1:\n%2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(!r.out.is_null(), qPrintable(r.err));
        // YuniKorn calls its bindings allocations.
        json got = r.out;
        if (mode == "yunikorn" && got.contains("allocations")) got["bindings"] = got["allocations"];
        const std::string problem = mode == "inspect" ? compareInspect(e, r.out)
                                    : mode == "kueue" ? gantry::test::compareKueue(e, r.out)
                                                      : compareKubeDefault(e, got);
        QVERIFY2(problem.empty(), qPrintable(QString::fromStdString(problem + "\n" + e.value("notes", "") +
                                                                    "\ngot: " + r.out.dump())));
    }
};

GANTRY_TEST(DraConformanceTest)
#include "test_dra_conformance.moc"
