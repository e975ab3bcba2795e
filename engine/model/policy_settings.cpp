#include "model/policy_settings.h"

#include "model/go_text.h"

namespace gantry {

namespace {

using engine::parseGoBool;
using engine::parseGoDuration;
using engine::parseGoInt;

constexpr const char* kKeys = "volcano.<plugin>.<argument or switch>, "
                              "kueue.admissionFairSharing.usageHalfLifeTime, "
                              "kueue.admissionFairSharing.usageSamplingInterval, kueue.fairSharing, "
                              "kube.percentageOfNodesToScore";

bool startsWith(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

// "volcano.fairshare.fairshare.halfLifeMinutes" -> plugin "fairshare", key "fairshare.halfLifeMinutes".
bool splitVolcano(const std::string& key, std::string* plugin, std::string* rest) {
    const size_t dot = key.find('.', 8);
    if (dot == std::string::npos || dot == 8 || dot + 1 >= key.size()) return false;
    *plugin = key.substr(8, dot - 8);
    *rest = key.substr(dot + 1);
    return true;
}

bool isSwitch(const std::string& name) {
    return startsWith(name, "enable");
}

std::string durationProblem(const std::string& value) {
    auto d = parseGoDuration(engine::trim(value));
    if (!d || *d < 0) return "'" + value + "' is not a duration (e.g. 90m, 6h, 168h)";
    return {};
}

} // namespace

std::string policySettingProblem(const std::string& key, const std::string& value) {
    if (startsWith(key, "volcano.")) {
        std::string plugin, rest;
        if (!splitVolcano(key, &plugin, &rest))
            return "write volcano.<plugin>.<argument>, e.g. volcano.fairshare.fairshare.halfLifeMinutes";
        if (isSwitch(rest) && !parseGoBool(engine::trim(value)))
            return "'" + value + "' is not true or false (the plugin switch " + rest + ")";
        return {};
    }
    if (key == "kueue.admissionFairSharing.usageHalfLifeTime" ||
        key == "kueue.admissionFairSharing.usageSamplingInterval")
        return durationProblem(value);
    if (key == "kueue.fairSharing")
        return parseGoBool(engine::trim(value)) ? std::string() : "'" + value + "' is not true or false";
    if (key == "kube.percentageOfNodesToScore") {
        auto v = parseGoInt(engine::trim(value));
        if (!v || *v < 0 || *v > 100) return "'" + value + "' is not a whole number from 0 to 100";
        return {};
    }
    return "unknown policy field '" + key + "' (" + kKeys + ")";
}

std::string applyPolicySetting(SchedulerPolicies& policies, const std::string& key,
                               const std::string& value) {
    if (std::string why = policySettingProblem(key, value); !why.empty()) return why;
    const std::string v = engine::trim(value);
    if (startsWith(key, "volcano.")) {
        std::string plugin, rest;
        splitVolcano(key, &plugin, &rest);
        bool found = false;
        for (auto& tier : policies.volcano.tiers)
            for (auto& p : tier.plugins) {
                if (p.name != plugin) continue;
                found = true;
                if (isSwitch(rest))
                    p.switches[rest] = *parseGoBool(v);
                else
                    p.arguments[rest] = v;
            }
        if (!found) return "the Volcano configuration lists no plugin '" + plugin + "'";
        return {};
    }
    if (startsWith(key, "kueue.admissionFairSharing.")) {
        auto& afs = policies.kueue.admissionFairSharing;
        if (!afs) afs.emplace(); // setting a field of the section turns it on, as writing it would
        const double seconds = *parseGoDuration(v);
        if (key.ends_with("usageHalfLifeTime"))
            afs->usageHalfLifeSeconds = seconds;
        else
            afs->usageSamplingIntervalSeconds = seconds;
        return {};
    }
    if (key == "kueue.fairSharing") {
        policies.kueue.fairSharing = *parseGoBool(v);
        return {};
    }
    if (key == "kube.percentageOfNodesToScore") {
        policies.kube.percentageOfNodesToScore = int32_t(*parseGoInt(v));
        return {};
    }
    return "unknown policy field '" + key + "'";
}

} // namespace gantry
