#include "volcano/scheduler_conf_reader.h"

#include <algorithm>
#include <array>

namespace gantry {

namespace {

constexpr std::array<std::string_view, 25> kSwitches{
    "enableJobOrder",          "enableHierarchy",     "enableJobReady",         "enableJobPipelined",
    "enableTaskOrder",         "enablePreemptable",   "enableReclaimable",      "enablePreemptive",
    "enableQueueOrder",        "enabledClusterOrder", "enablePredicate",        "enableBestNode",
    "enableNodeOrder",         "enableTargetJob",     "enableReservedNodes",    "enableJobEnqueued",
    "enabledVictim",           "enableJobStarving",   "enabledOverused",        "enabledAllocatable",
    "enabledHyperNodeOrder",   "enabledSubJobReady",  "enabledSubJobPipelined", "enabledSubJobOrder",
    "enabledHyperNodeGradient"};

// Volcano hands arguments to plugins as a map of interface{}; Gantry keeps text, with nested maps
// flattened by dots and list items by index ("resources.nvidia.com/gpu.weight", "zones.0").
void flatten(const Y& value, const std::string& key, std::map<std::string, std::string>& out) {
    if (!value.present()) {
        out[key] = "";
    } else if (value.isMap()) {
        for (const auto& [k, v] : value.entries()) flatten(v, key + "." + k, out);
    } else if (value.isSeq()) {
        size_t i = 0;
        for (const auto& item : value.items()) flatten(item, key + "." + std::to_string(i++), out);
    } else {
        out[key] = value.str();
    }
}

std::map<std::string, std::string> arguments(const Y& node) {
    std::map<std::string, std::string> out;
    for (const auto& [k, v] : node.entries()) flatten(v, k, out);
    return out;
}

std::string trim(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t')) --e;
    return std::string(s.substr(b, e - b));
}

void readActions(const Y& node, SchedulerConf& conf) {
    if (!node.present()) return;
    std::string text = node.str();
    SourceRef base = node.where();
    // Column of each name is only exact for a one-line scalar; otherwise point at the scalar.
    bool exact = text.find('\n') == std::string::npos && base.line > 0 && !node.context().origin.pinned;
    int shift = node.quoted() ? 1 : 0;
    size_t start = 0;
    while (true) {
        size_t comma = text.find(',', start);
        std::string_view piece(text.data() + start,
                               (comma == std::string::npos ? text.size() : comma) - start);
        std::string name = trim(piece);
        SourceRef where = base;
        if (exact) {
            size_t lead = piece.find_first_not_of(" \t");
            where.column = base.column + shift + int(start + (lead == std::string_view::npos ? 0 : lead));
        }
        if (name.empty()) {
            if (!text.empty() || comma != std::string::npos)
                throw InputError(where, "actions: empty action name in \"" + text + "\"");
        } else {
            conf.actions.push_back(name);
            conf.actionSources.push_back(where);
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
}

PluginOption readPlugin(const Y& node) {
    if (!node.isMap())
        node.fail("expected a plugin mapping (name, switches, arguments), got " +
                  std::string(node.isSeq() ? "a list" : "a scalar"));
    PluginOption p;
    auto name = node["name"];
    if (!name.present()) node.fail("plugin has no name");
    p.name = name.str();
    if (p.name.empty()) name.fail("empty plugin name");
    p.source = name.where();
    for (const auto& [key, value] : node.entries()) {
        if (key == "name") continue;
        if (key == "arguments") {
            p.arguments = arguments(value);
            continue;
        }
        bool known = std::find(kSwitches.begin(), kSwitches.end(), key) != kSwitches.end();
        if (known || key.rfind("enable", 0) == 0) {
            p.switches[key] = value.boolean();
            if (!known)
                value.warn("plugin '" + p.name + "': '" + key +
                           "' is not a switch Volcano knows; kept, but no plugin reads it");
            continue;
        }
        value.warn("plugin '" + p.name + "': unknown option '" + key + "' ignored (Volcano ignores it too)");
    }
    return p;
}

} // namespace

bool isKnownPluginSwitch(std::string_view name) {
    return std::find(kSwitches.begin(), kSwitches.end(), name) != kSwitches.end();
}

SchedulerConf readSchedulerConf(const Y& root) {
    SchedulerConf conf;
    conf.source = root.where();
    if (!root.present()) root.fail("the scheduler configuration is empty");
    if (!root.isMap())
        root.fail("expected the scheduler configuration (actions, tiers), got a " +
                  std::string(root.isSeq() ? "list" : "scalar"));
    for (const auto& [key, value] : root.entries()) {
        if (key == "actions") {
            readActions(value, conf);
        } else if (key == "tiers") {
            for (const auto& tierNode : value.items()) {
                if (!tierNode.isMap()) tierNode.fail("expected a tier (a mapping with 'plugins')");
                Tier tier;
                for (const auto& [tk, tv] : tierNode.entries()) {
                    if (tk == "plugins") {
                        for (const auto& p : tv.items()) tier.plugins.push_back(readPlugin(p));
                    } else {
                        tv.warn("unknown tier key '" + tk + "' ignored");
                    }
                }
                conf.tiers.push_back(std::move(tier));
            }
        } else if (key == "configurations") {
            for (const auto& c : value.items()) {
                if (!c.isMap()) c.fail("expected an action configuration (name, arguments)");
                ActionConfiguration ac;
                auto name = c["name"];
                if (!name.present()) c.fail("action configuration has no name");
                ac.name = name.str();
                ac.source = name.where();
                for (const auto& [ck, cv] : c.entries()) {
                    if (ck == "arguments")
                        ac.arguments = arguments(cv);
                    else if (ck != "name")
                        cv.warn("unknown key '" + ck + "' in action configuration ignored");
                }
                conf.configurations.push_back(std::move(ac));
            }
        } else if (key == "metrics") {
            for (const auto& [mk, mv] : value.entries()) conf.metrics[mk] = mv.str();
        } else {
            value.warn("unknown key '" + key +
                       "' ignored (Volcano reads actions, tiers, configurations, metrics)");
        }
    }
    return conf;
}

SchedulerConf parseSchedulerConf(const std::string& text, const TextOrigin& origin, Diagnostics* warnings) {
    auto root = readerFor(loadSingleDocument(text, origin, "the scheduler configuration"), warnings, nullptr);
    return readSchedulerConf(root);
}

SchedulerConf readSchedulerConfFile(const std::string& path, Diagnostics* warnings) {
    std::string text = readTextFile(path);
    auto docs = loadDocuments(text, path);
    if (docs.empty()) throw InputError(SourceRef{path, 0, 0, 0}, "the file is empty");
    for (const auto& doc : docs) {
        auto root = readerFor(doc, warnings, nullptr);
        if (!root.isMap() || root["kind"].str() != "ConfigMap") continue;
        auto value = root["data"][kVolcanoConfKey];
        if (!value.present()) continue;
        if (!value.isScalar()) value.fail("expected the configuration as a string");
        return parseSchedulerConf(value.str(), embeddedOrigin(value.node(), text, doc.origin, doc.index),
                                  warnings);
    }
    if (docs.size() > 1)
        throw InputError(SourceRef{path, 0, 0, 0}, std::string("no ConfigMap with key '") + kVolcanoConfKey +
                                                       "' in this multi-document file");
    auto root = readerFor(docs[0], warnings, nullptr);
    if (root.isMap() && root["kind"].present())
        root["kind"].fail(
            "a " + root["kind"].str() +
            " is not a scheduler configuration (expected the conf itself or a ConfigMap with key '" +
            kVolcanoConfKey + "')");
    return readSchedulerConf(root);
}

} // namespace gantry
