// ConfigMaps that configure a scheduler: Volcano's volcano-scheduler.conf, Kueue's
// controller_manager_config.yaml (kueue-manager-config) and YuniKorn's yunikorn-configs /
// yunikorn-defaults; and those holding the state Volcano's fairshare plugin
// persists (key state.json). Other ConfigMaps are skipped like unknown kinds.
#include "import_state.h"
#include "kueue_config_reader.h"
#include "volcano/scheduler_conf_reader.h"
#include "yunikorn_config.h"

namespace gantry::snapshot {

namespace {

constexpr const char* kFairshareStateKey = "state.json";

// Parses a string held in a ConfigMap, with locations mapped into the file that holds it.
std::vector<SourceDocument> loadEmbedded(State& s, const Y& value) {
    const auto& ctx = value.context();
    const std::string& text = s.texts[ctx.origin.file];
    TextOrigin origin = embeddedOrigin(value.node(), text, ctx.origin, ctx.document);
    return loadDocuments(value.str(), origin);
}

} // namespace

void readConfigMap(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("ConfigMap", {"apiVersion", "kind", "metadata", "data"}, {"binaryData", "immutable"});
    auto data = r["data"];
    auto conf = data[kVolcanoConfKey];
    if (conf.present()) {
        if (!conf.isScalar()) conf.fail("expected the configuration as a string");
        if (s.cluster.volcanoConf)
            conf.fail("a second Volcano scheduler configuration (the first is at " +
                      s.cluster.volcanoConf->source.str() + ")");
        auto docs = loadEmbedded(s, conf);
        if (docs.empty()) conf.fail("the scheduler configuration is empty");
        auto root = readerFor(docs[0], &s.warnings, nullptr);
        s.cluster.volcanoConf = readSchedulerConf(root);
        return;
    }
    if (auto kueue = data[kKueueConfigKey]; kueue.present()) {
        if (!kueue.isScalar()) kueue.fail("expected the configuration as a string");
        if (s.cluster.kueueConf)
            kueue.fail("a second Kueue configuration (the first is at " + s.cluster.kueueConf->source.str() +
                       ")");
        auto docs = loadEmbedded(s, kueue);
        if (docs.empty()) kueue.fail("the Kueue configuration is empty");
        s.cluster.kueueConf = readKueueConfig(readerFor(docs[0], &s.warnings, nullptr));
        return;
    }
    if (o.name == "yunikorn-configs" || o.name == "yunikorn-defaults") {
        s.yunikornMaps.emplace_back(o.name == "yunikorn-defaults", data);
        return;
    }
    // Any name: the plugin's arguments say which one it reads (fairshare.stateConfigMap).
    if (auto state = data[kFairshareStateKey]; state.present()) {
        if (!state.isScalar()) state.fail("expected the fairshare state as a string (JSON)");
        s.cluster.fairshareStates.push_back({o.name, o.ns, state.str(), o.source});
        return;
    }
    s.skip("ConfigMap (not a scheduler configuration)", o.source);
}

bool readBareYuniKornConfig(State& s, const Y& root) {
    if (root["queues.yaml"].present()) {
        s.yunikornMaps.emplace_back(false, root);
        return true;
    }
    if (!root["partitions"].present()) return false;
    if (s.cluster.yunikorn) root.fail("a second YuniKorn configuration; give one queues.yaml");
    auto cfg = readYuniKornQueues(root);
    s.cluster.yunikorn = std::move(cfg.partition);
    for (auto& q : cfg.queues) s.cluster.queues.push_back(std::move(q));
    return true;
}

void finishYuniKorn(State& s) {
    if (s.yunikornMaps.empty()) return;
    if (s.cluster.yunikorn)
        s.yunikornMaps.front().second.fail("a second YuniKorn configuration; give one queues.yaml");
    // yunikorn-configs is laid over yunikorn-defaults: its keys win.
    std::stable_sort(s.yunikornMaps.begin(), s.yunikornMaps.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::map<std::string, Y> merged;
    for (const auto& [defaults, data] : s.yunikornMaps)
        for (const auto& [k, v] : data.entries()) merged.insert_or_assign(k, v);
    std::string policyGroup = "queues";
    if (auto it = merged.find("service.policyGroup"); it != merged.end()) policyGroup = it->second.str();
    YuniKornPartition partition;
    std::map<std::string, std::string> settings;
    bool haveQueues = false;
    for (const auto& [k, v] : merged) {
        if (k == policyGroup + ".yaml") {
            if (!v.isScalar()) v.fail("expected queues.yaml as a string");
            auto docs = loadEmbedded(s, v);
            if (docs.empty()) v.fail("queues.yaml is empty");
            auto cfg = readYuniKornQueues(readerFor(docs[0], &s.warnings, nullptr));
            partition = std::move(cfg.partition);
            for (auto& q : cfg.queues) s.cluster.queues.push_back(std::move(q));
            haveQueues = true;
        } else if (k.size() > 5 && k.compare(k.size() - 5, 5, ".yaml") == 0) {
            v.warn("'" + k + "' is not the active policy group (" + policyGroup + ".yaml); ignored");
        } else {
            settings[k] = v.str();
        }
    }
    partition.settings = std::move(settings);
    if (!haveQueues)
        s.yunikornMaps.front().second.warn("no " + policyGroup +
                                           ".yaml in the YuniKorn ConfigMaps; only settings were read");
    s.cluster.yunikorn = std::move(partition);
}

} // namespace gantry::snapshot
