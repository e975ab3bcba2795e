#include "sweep_grid_reader.h"

#include "gantry/api_version.h"
#include "plan/slo.h"
#include "profile/registry.h"
#include "yaml/yaml_reader.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace gantry {

namespace {

constexpr size_t kMaxPoints = 100000; // an Indexed Job's completions are capped there

std::string resolved(const std::filesystem::path& folder, const std::string& path) {
    std::filesystem::path p(path);
    return (p.is_absolute() ? p : folder / p).lexically_normal().string();
}

std::vector<int64_t> readCounts(const Y& y) {
    std::vector<int64_t> out;
    if (!y.present()) return {0};
    if (y.isMap()) {
        y.checkKeys("node range", {"from", "to", "step"});
        if (!y["from"].present() || !y["to"].present()) y.fail("a node range needs from and to");
        const int64_t from = y["from"].i64(), to = y["to"].i64(), step = y["step"].i64(1);
        if (step < 1) y["step"].fail("step must be at least 1");
        if (to < from) y["to"].fail("to is below from");
        if ((to - from) / step >= int64_t(kMaxPoints)) y.fail("the range has too many counts");
        for (int64_t n = from; n <= to; n += step) out.push_back(n);
        return out;
    }
    std::set<int64_t> seen;
    for (const auto& item : y.items()) {
        const int64_t n = item.i64();
        if (!seen.insert(n).second) item.fail("count " + std::to_string(n) + " is listed twice");
        out.push_back(n);
    }
    if (out.empty()) y.fail("list at least one node count");
    return out;
}

} // namespace

SweepGridFile readSweepGrid(const std::string& text, const std::string& path) {
    TextOrigin origin;
    origin.file = path;
    auto doc = loadSingleDocument(text, origin, "the grid");
    Y root = readerFor(doc, nullptr, nullptr);
    if (!root.isMap()) root.fail("expected a sweep grid (a mapping with apiVersion, kind and inputs)");
    root.checkKeys("grid", {"apiVersion", "kind", "name", "inputs", "nodeType", "nodeTemplate", "nodes",
                            "profiles", "policies", "seeds", "horizon", "cycle", "slo"});
    if (root["apiVersion"].str() != kGantryApiVersion)
        (root["apiVersion"].present() ? root["apiVersion"] : root)
            .fail(std::string("expected apiVersion: ") + kGantryApiVersion);
    if (root["kind"].str() != kSweepGridKind)
        (root["kind"].present() ? root["kind"] : root).fail(std::string("expected kind: ") + kSweepGridKind);

    SweepGridFile out;
    out.text = text;
    plan::SweepGrid& g = out.grid;
    g.source = root.where();
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    g.name = root["name"].str(std::filesystem::path(path).stem().string());
    for (const auto& item : root["inputs"].items()) g.inputs.push_back(resolved(folder, item.str()));
    if (g.inputs.empty())
        (root["inputs"].present() ? root["inputs"] : root).fail("list the inputs to simulate");
    g.nodeType = root["nodeType"].str();
    if (root["nodeTemplate"].present()) g.nodeTemplate = resolved(folder, root["nodeTemplate"].str());
    if (!g.nodeType.empty() && !g.nodeTemplate.empty())
        root["nodeTemplate"].fail("give nodeType or nodeTemplate, not both");
    g.nodes = readCounts(root["nodes"]);
    if (g.nodeType.empty() && g.nodeTemplate.empty() && (g.nodes.size() != 1 || g.nodes[0] != 0))
        root["nodes"].fail("node counts need a nodeType (a pool) or a nodeTemplate");

    for (const auto& item : root["profiles"].items()) {
        const std::string name = item.str();
        if (!engine::findProfile(name))
            item.fail("unknown profile '" + name + "' (" + engine::profileNames() + ")");
        if (std::find(g.profiles.begin(), g.profiles.end(), name) != g.profiles.end())
            item.fail("profile '" + name + "' is listed twice");
        g.profiles.push_back(name);
    }
    if (g.profiles.empty()) g.profiles.push_back("volcano");

    std::set<std::string> variantNames;
    for (const auto& item : root["policies"].items()) {
        item.checkKeys("policy", {"name", "schedulerConf", "profile", "set"});
        plan::PolicyVariant v;
        v.name = item["name"].str();
        if (v.name.empty()) item.fail("a policy variant needs a name");
        if (!variantNames.insert(v.name).second) item["name"].fail("policy '" + v.name + "' is listed twice");
        if (item["schedulerConf"].present()) v.schedulerConf = resolved(folder, item["schedulerConf"].str());
        v.profile = item["profile"].str();
        if (!v.profile.empty() &&
            std::find(g.profiles.begin(), g.profiles.end(), v.profile) == g.profiles.end())
            item["profile"].fail("profile '" + v.profile + "' is not among the grid's profiles");
        for (const auto& [key, value] : item["set"].entries()) {
            if (!value.isScalar()) value.fail("expected the field's value as a scalar");
            if (std::string why = policySettingProblem(key, value.str()); !why.empty()) value.fail(why);
            v.settings.push_back({key, value.str(), value.where()});
        }
        v.source = item.where();
        g.policies.push_back(std::move(v));
    }
    if (g.policies.empty()) g.policies.push_back({"default", "", {}, "", g.source});

    const Y seeds = root["seeds"];
    if (seeds.isSeq()) {
        std::set<uint64_t> seen;
        for (const auto& item : seeds.items()) {
            const uint64_t s = item.u64();
            if (!seen.insert(s).second) item.fail("seed " + std::to_string(s) + " is listed twice");
            g.seeds.push_back(s);
        }
        if (g.seeds.empty()) seeds.fail("list at least one seed");
    } else {
        out.seedCount = seeds.i32(1);
        if (out.seedCount < 1 || out.seedCount > 1000) seeds.fail("seeds must be 1 to 1000 (or a list)");
    }
    if (root["horizon"].present()) g.horizonSeconds = root["horizon"].durationSeconds();
    if (root["cycle"].present()) {
        g.cycleSeconds = root["cycle"].durationSeconds();
        if (*g.cycleSeconds <= 0) root["cycle"].fail("the cycle must be positive");
    }
    for (const auto& item : root["slo"].items()) {
        const std::string expr = item.str();
        auto parsed = plan::parseSlo(expr);
        if (auto* e = std::get_if<plan::SloError>(&parsed))
            item.fail("'" + expr + "', column " + std::to_string(e->column) + ": " + e->message);
        g.slos.push_back(expr);
    }
    const size_t variants = g.policies.size() * g.profiles.size();
    const size_t perVariant = g.nodes.size() * (g.seeds.empty() ? size_t(out.seedCount) : g.seeds.size());
    if (variants * perVariant > kMaxPoints)
        root.fail("the grid has more than " + std::to_string(kMaxPoints) + " points");
    return out;
}

SweepGridFile readSweepGridFile(const std::string& path) {
    return readSweepGrid(readTextFile(path), path);
}

void resolveSeeds(SweepGridFile& file, uint64_t baseSeed) {
    if (file.seedCount == 0) return;
    file.grid.seeds.clear();
    for (int k = 0; k < file.seedCount; ++k) file.grid.seeds.push_back(baseSeed + uint64_t(k));
}

} // namespace gantry
