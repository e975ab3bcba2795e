#include "project/project_reader.h"

#include "gantry/api_version.h"
#include "gantry/workload_reader.h"
#include "model/cluster_check.h"
#include "project/project_schema.h"
#include "volcano/scheduler_conf_reader.h"
#include "yaml/yaml_reader.h"

#include <algorithm>
#include <type_traits>

namespace gantry {

namespace {

using namespace project;

template <class T> void readValue(const Y& y, T& out);

template <class T>
void readStruct(const Y& y, T& obj, std::initializer_list<std::string_view> alsoAllowed = {}) {
    if (!y.isMap()) y.fail("expected a mapping");
    constexpr auto fields = Schema<T>::fields();
    // Unknown keys are errors: a typo must not silently fall back to a default.
    for (const auto& entry : y.entries()) {
        // Named, not a structured binding: clang before 16 cannot capture those (scripts/fuzz.sh).
        const auto& key = entry.first;
        const auto& value = entry.second;
        bool known = std::find(alsoAllowed.begin(), alsoAllowed.end(), key) != alsoAllowed.end();
        std::apply([&](const auto&... f) { ((known = known || key == f.key), ...); }, fields);
        if (!known) {
            std::string expected;
            std::apply(
                [&](const auto&... f) {
                    ((expected += (expected.empty() ? "" : ", ") + std::string(f.key)), ...);
                },
                fields);
            Y(value.node(), value.sharedContext(), y.path())
                .fail("unknown key '" + key + "' (expected one of: " + expected + ")");
        }
    }
    std::apply(
        [&](const auto&... f) {
            (([&] {
                 Y child = y[f.key];
                 if (!child.present()) {
                     if (f.required) y.fail(std::string(f.key) + " is required");
                     return;
                 }
                 readValue(child, obj.*(f.member));
             }()),
             ...);
        },
        fields);
    if constexpr (requires { obj.source; }) obj.source = y.where();
}

template <class T> void readValue(const Y& y, T& out) {
    if constexpr (std::is_same_v<T, std::string>) {
        out = y.str();
    } else if constexpr (std::is_same_v<T, bool>) {
        out = y.boolean();
    } else if constexpr (std::is_same_v<T, int32_t>) {
        out = y.i32();
    } else if constexpr (std::is_same_v<T, int64_t>) {
        out = y.i64();
    } else if constexpr (std::is_same_v<T, uint64_t>) {
        out = y.u64();
    } else if constexpr (std::is_same_v<T, double>) {
        out = y.num();
    } else if constexpr (std::is_enum_v<T>) {
        if (!y.isScalar() || !enumFromText(y.str(), out))
            y.fail("unknown value " + (y.isScalar() ? "'" + y.str() + "'" : std::string("(not a scalar)")));
    } else if constexpr (std::is_same_v<T, ResourceList>) {
        out = y.resources();
    } else if constexpr (std::is_same_v<T, SchedulerConf>) {
        out = readSchedulerConf(y);
    } else if constexpr (std::is_same_v<T, WorkloadTemplate>) {
        out = readWorkloadTemplate(y);
    } else if constexpr (IsOptional<T>::value) {
        out.emplace();
        readValue(y, *out);
    } else if constexpr (IsMap<T>::value) {
        out.clear();
        for (const auto& [k, v] : y.entries()) readValue(v, out[k]);
    } else if constexpr (IsPair<T>::value) {
        auto items = y.items();
        if (items.size() != 2) y.fail("expected a pair [a, b]");
        readValue(items[0], out.first);
        readValue(items[1], out.second);
    } else if constexpr (IsVector<T>::value) {
        out.clear();
        for (const auto& item : y.items()) readValue(item, out.emplace_back());
    } else {
        readStruct(y, out);
    }
}

// A hand-edited project gets the checks gantry import makes on a KubeSchedulerConfiguration.
void checkContrast(const Y& y, const KubeSchedulerProfile& k) {
    if (k.percentageOfNodesToScore)
        if (auto problem = percentageOfNodesToScoreProblem(*k.percentageOfNodesToScore); !problem.empty())
            y["percentageOfNodesToScore"].fail(problem);
    if (auto problem =
            defaultPreemptionArgsProblem(k.minCandidateNodesPercentage, k.minCandidateNodesAbsolute))
        (problem->first.empty() ? y : y[problem->first]).fail(problem->second);
}

} // namespace

Project readProject(const std::string& text, const std::string& name, Diagnostics* warnings) {
    TextOrigin origin;
    origin.file = name;
    auto doc = loadSingleDocument(text, origin, "the project file");
    Diagnostics local;
    auto root = readerFor(doc, &local, nullptr);
    if (!root.isMap()) root.fail("expected a project (a mapping with apiVersion and kind)");
    if (!root["apiVersion"].present())
        root.fail(std::string("a project needs apiVersion: ") + kGantryApiVersion);
    if (root["apiVersion"].str() != kGantryApiVersion)
        root["apiVersion"].fail(std::string("expected ") + kGantryApiVersion + " for a project, got '" +
                                root["apiVersion"].str() + "'");
    if (root["kind"].str() != kProjectKind)
        (root["kind"].present() ? root["kind"] : root).fail("expected kind: Project");
    Project p;
    readStruct(root, p, {"apiVersion", "kind"});
    if (p.contrast) checkContrast(root["contrast"], *p.contrast);
    auto checks = checkCluster(p.cluster);
    auto more = checkWorkloads(p.cluster, p.workloads);
    checks.insert(checks.end(), more.begin(), more.end());
    local.insert(local.end(), checks.begin(), checks.end());
    throwIfErrors(local);
    if (warnings) warnings->insert(warnings->end(), local.begin(), local.end());
    return p;
}

Project readProjectFile(const std::string& path, Diagnostics* warnings) {
    return readProject(readTextFile(path), path, warnings);
}

} // namespace gantry
