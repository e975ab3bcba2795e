#include "input_loader.h"

#include "input_error.h"
#include "inventory/inventory_reader.h"
#include "project/project_reader.h"
#include "project/project_schema.h"
#include "snapshot/snapshot_importer.h"
#include "yaml/yaml_source.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace gantry {

const char* toString(InputKind kind) {
    switch (kind) {
    case InputKind::Snapshot:
        return "snapshot";
    case InputKind::Inventory:
        return "inventory";
    case InputKind::Project:
        return "project";
    case InputKind::SchedulerConf:
        return "scheduler configuration";
    }
    return "snapshot";
}

namespace {

std::string unquote(std::string v) {
    v.erase(0, std::min(v.size(), v.find_first_not_of(" \t")));
    while (!v.empty() && (v.back() == ' ' || v.back() == '\r' || v.back() == '\t')) v.pop_back();
    if (auto hash = v.find(" #"); hash != std::string::npos) v.resize(hash);
    if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front())
        v = v.substr(1, v.size() - 2);
    return v;
}

} // namespace

InputKind detectInputKindOfText(const std::string& text, const std::string& name) {
    if (std::filesystem::path(name).extension() == ".gantry") return InputKind::Project;
    // Top-level keys of the first YAML document; JSON is always a snapshot.
    std::string apiVersion, kind;
    bool confKeys = false, content = false;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t eol = text.find('\n', pos);
        if (eol == std::string::npos) eol = text.size();
        std::string line = text.substr(pos, eol - pos);
        pos = eol + 1;
        if (line.empty() || line[0] == '#' || line[0] == ' ' || line[0] == '\t' || line[0] == '\r') continue;
        if (line.rfind("---", 0) == 0) {
            if (content) break;
            continue;
        }
        if (line[0] == '{' || line[0] == '[') return InputKind::Snapshot;
        content = true;
        auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string key = unquote(line.substr(0, colon));
        std::string value = unquote(line.substr(colon + 1));
        if (key == "apiVersion")
            apiVersion = value;
        else if (key == "kind")
            kind = value;
        else if (key == "actions" || key == "tiers")
            confKeys = true;
    }
    if (apiVersion.rfind("gantry.io/", 0) == 0) {
        if (kind == kInventoryKind) return InputKind::Inventory;
        if (kind == project::kProjectKind) return InputKind::Project;
    }
    if (confKeys && kind.empty()) return InputKind::SchedulerConf;
    return InputKind::Snapshot;
}

InputKind detectInputKind(const std::string& path) {
    // The first document's top-level keys are near the start; a large snapshot is not read twice.
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(SourceRef{path, 0, 0, 0}, std::string("cannot open file: ") + std::strerror(errno));
    std::string head(size_t(1) << 18, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(size_t(in.gcount()));
    return detectInputKindOfText(head, path);
}

void adoptClusterPolicies(Project& project) {
    if (project.cluster.volcanoConf) project.volcano = *project.cluster.volcanoConf;
    if (project.cluster.kueueConf) project.kueue = project.cluster.kueueConf;
}

LoadedInput loadInputs(const std::vector<std::string>& paths) {
    if (paths.empty()) throw InputError(SourceRef{}, "no input files");
    LoadedInput in;
    in.files = paths;
    std::vector<InputKind> kinds;
    for (const auto& p : paths) kinds.push_back(detectInputKind(p));
    for (size_t i = 0; i < paths.size(); ++i) {
        if (kinds[i] == InputKind::SchedulerConf)
            throw InputError(SourceRef{paths[i], 0, 0, 0}, "this is a volcano-scheduler.conf, not a cluster "
                                                           "(gantry cycle reads it with --scheduler-conf)");
        if (kinds[i] != InputKind::Snapshot && paths.size() > 1)
            throw InputError(SourceRef{paths[i], 0, 0, 0},
                             std::string(kinds[i] == InputKind::Inventory ? "an inventory" : "a project") +
                                 " is opened on its own; only Kubernetes snapshot files can be combined");
    }
    in.kind = kinds.front();
    if (in.kind == InputKind::Project) {
        in.project = readProjectFile(paths.front(), &in.warnings);
        return in;
    }
    if (in.kind == InputKind::Inventory) {
        Inventory inv = readInventoryFile(paths.front(), &in.warnings);
        in.project.name = inv.cluster.name;
        in.project.description = inv.description;
        in.project.cluster = std::move(inv.cluster);
        in.project.workloads = std::move(inv.workloads);
    } else {
        in.project.cluster = readSnapshotFiles(paths, &in.warnings);
        in.project.name = in.project.cluster.name;
        adoptClusterPolicies(in.project);
    }
    const auto& queues = in.project.cluster.queues;
    auto has = [&](Queue::Kind k) {
        return std::any_of(queues.begin(), queues.end(), [&](const Queue& q) { return q.kind == k; });
    };
    if (has(Queue::Kind::KueueClusterQueue) && !has(Queue::Kind::Queue))
        in.project.target = TargetScheduler::Kueue;
    else if (has(Queue::Kind::YuniKornQueue) && !has(Queue::Kind::Queue))
        in.project.target = TargetScheduler::YuniKorn;
    return in;
}

} // namespace gantry
