#include "profiles/yunikorn/shim.h"

#include "model/go_text.h"
#include "model/yunikorn_names.h"

#include <nlohmann/json.hpp>
#include <regex>
#include <tuple>

namespace gantry::engine::yunikorn {

namespace {

const std::string* find(const Labels& m, const char* key) {
    auto it = m.find(key);
    return it == m.end() || it->second.empty() ? nullptr : &it->second;
}

void warn(Diagnostics* warnings, const SourceRef& where, std::string message) {
    if (warnings) warnings->push_back(Diagnostic{Severity::Warning, where, std::move(message)});
}

std::vector<TaskGroupSpec> readTaskGroups(const Pod& pod, const std::string& text, Diagnostics* warnings) {
    std::vector<TaskGroupSpec> out;
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const std::exception&) {
        warn(warnings, pod.source,
             "pod " + pod.key() +
                 ": yunikorn.apache.org/task-groups is not JSON; YuniKorn ignores its task groups");
        return out;
    }
    if (!j.is_array()) return out;
    for (const auto& g : j) {
        if (!g.is_object()) continue;
        TaskGroupSpec tg;
        tg.name = g.value("name", "");
        tg.minMember =
            g.contains("minMember") && g["minMember"].is_number_integer() ? g["minMember"].get<int32_t>() : 0;
        if (g.contains("minResource") && g["minResource"].is_object())
            for (const auto& [name, value] : g["minResource"].items()) {
                std::string q = value.is_string() ? value.get<std::string>() : value.dump();
                std::string error;
                auto amount = parseAmount(name, q, &error);
                if (!amount) {
                    warn(warnings, pod.source,
                         "pod " + pod.key() + ": task group " + tg.name + " minResource " + name + ": " +
                             error);
                    continue;
                }
                tg.minResource.set(name, *amount);
            }
        if (tg.name.empty() || tg.minMember < 0) continue;
        out.push_back(std::move(tg));
    }
    return out;
}

// A JSON object of Kubernetes quantities (common.GetResource): nullopt when it is not one, or when
// any value does not parse (the shim then drops it whole).
std::optional<ResourceList> readQuantities(const std::string& text, std::string* error) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const std::exception&) {
        *error = "not a JSON object";
        return std::nullopt;
    }
    if (!j.is_object()) {
        *error = "not a JSON object";
        return std::nullopt;
    }
    ResourceList out;
    for (const auto& [name, value] : j.items()) {
        if (!value.is_string()) {
            *error = name + ": not a string";
            return std::nullopt;
        }
        auto amount = parseAmount(name, value.get<std::string>(), error);
        if (!amount) {
            *error = name + ": " + *error;
            return std::nullopt;
        }
        out.set(name, *amount);
    }
    return out;
}

bool anyPositive(const ResourceList& list) {
    for (const auto& [name, amount] : list)
        if (amount != 0) return true;
    return false;
}

} // namespace

std::map<std::string, NamespaceTags> readNamespaceTags(const std::vector<Namespace>& namespaces,
                                                       Diagnostics* warnings) {
    std::map<std::string, NamespaceTags> out;
    for (const auto& ns : namespaces) {
        const Labels& a = ns.annotations;
        NamespaceTags tags;
        auto bad = [&](const char* key, const std::string& why) {
            warn(warnings, SourceRef{},
                 "namespace " + ns.name + ": annotation " + key + ": " + why + "; the shim ignores it");
        };
        std::string error;
        const std::string* quota = find(a, "yunikorn.apache.org/namespace.quota");
        const std::string* cpu = find(a, "yunikorn.apache.org/namespace.max.cpu");
        const std::string* memory = find(a, "yunikorn.apache.org/namespace.max.memory");
        if (quota) {
            if (auto list = readQuantities(*quota, &error))
                tags.quota = *list;
            else
                bad("yunikorn.apache.org/namespace.quota", error);
        } else if (cpu || memory) {
            // The deprecated pair (common.ParseResource): both must parse.
            bool ok = true;
            for (const auto& [key, name, value] :
                 {std::tuple{"yunikorn.apache.org/namespace.max.cpu", "cpu", cpu},
                  std::tuple{"yunikorn.apache.org/namespace.max.memory", "memory", memory}}) {
                if (!value) continue;
                auto amount = parseAmount(name, *value, &error);
                if (amount)
                    tags.quota.set(name, *amount);
                else {
                    bad(key, error);
                    ok = false;
                }
            }
            if (!ok) tags.quota = {};
        }
        if (auto g = find(a, "yunikorn.apache.org/namespace.guaranteed")) {
            if (auto list = readQuantities(*g, &error))
                tags.guaranteed = *list;
            else
                bad("yunikorn.apache.org/namespace.guaranteed", error);
        }
        if (auto n = find(a, "yunikorn.apache.org/namespace.maxApps")) {
            auto v = parseGoInt(*n);
            if (v && *v >= 0)
                tags.maxApps = uint64_t(*v);
            else
                bad("yunikorn.apache.org/namespace.maxApps", "not a number of applications");
        }
        if (auto p = find(a, "yunikorn.apache.org/parentqueue")) tags.parentQueue = *p;
        // An all-zero quota or guarantee is not sent (common.IsZero).
        if (!anyPositive(tags.quota)) tags.quota = {};
        if (!anyPositive(tags.guaranteed)) tags.guaranteed = {};
        if (!tags.quota.empty() || !tags.guaranteed.empty() || tags.maxApps > 0 || !tags.parentQueue.empty())
            out.emplace(ns.name, std::move(tags));
    }
    return out;
}

std::string yunikornResourceName(const std::string& kubernetesName) {
    return kubernetesName == "cpu" ? "vcore" : kubernetesName;
}

PodMeta readPodMeta(const Pod& pod, Diagnostics* warnings) {
    PodMeta m;
    const Labels& l = pod.labels;
    const Labels& a = pod.annotations;
    m.yunikorn = pod.schedulerName == "yunikorn";
    if (auto v = find(l, "yunikorn.apache.org/app-id"))
        m.appId = *v;
    else if (auto v2 = find(a, "yunikorn.apache.org/app-id"))
        m.appId = *v2;
    else if (auto v3 = find(l, "applicationId"))
        m.appId = *v3;
    else if (auto v4 = find(l, "spark-app-selector"))
        m.appId = *v4;
    else
        m.appId = "yunikorn-" + pod.ns + "-autogen";
    if (auto v = find(l, "yunikorn.apache.org/queue"))
        m.queue = *v;
    else if (auto v2 = find(a, "yunikorn.apache.org/queue"))
        m.queue = *v2;
    else if (auto v3 = find(l, "queue"))
        m.queue = *v3;
    m.user.user = "nobody";
    if (auto info = find(a, "yunikorn.apache.org/user.info")) {
        try {
            auto j = nlohmann::json::parse(*info);
            std::string user = j.is_object() ? j.value("user", "") : "";
            if (!user.empty()) m.user.user = user;
            if (j.is_object() && j.contains("groups") && j["groups"].is_array())
                for (const auto& g : j["groups"])
                    if (g.is_string()) m.user.groups.push_back(g.get<std::string>());
        } catch (const std::exception&) {
            warn(warnings, pod.source,
                 "pod " + pod.key() +
                     ": yunikorn.apache.org/user.info is not JSON; the shim uses user nobody");
        }
    }
    // Without a group resolver a user without groups belongs to the group named after them.
    if (m.user.groups.empty()) m.user.groups.push_back(m.user.user);
    m.validUser = std::regex_match(m.user.user,
                                   gantry::yunikorn::namePattern(gantry::yunikorn::NamePattern::ConfigUser));
    if (auto v = find(a, "yunikorn.apache.org/task-group-name")) m.taskGroupName = *v;
    if (auto v = find(a, "yunikorn.apache.org/task-groups")) m.taskGroups = readTaskGroups(pod, *v, warnings);
    if (auto v = find(a, "internal.yunikorn.apache.org/placeholder"))
        m.placeholder = parseGoBool(*v).value_or(false);
    if (auto v = find(a, "yunikorn.apache.org/allow-preemption")) {
        if (*v == "true") m.allowPreemption = true;
        if (*v == "false") m.allowPreemption = false;
    }
    if (auto v = find(a, "yunikorn.apache.org/schedulingPolicyParameters")) {
        std::string text = *v;
        size_t start = 0;
        while (start <= text.size()) {
            size_t space = text.find(' ', start);
            std::string param =
                text.substr(start, space == std::string::npos ? std::string::npos : space - start);
            size_t eq = param.find('=');
            if (eq != std::string::npos && param.find('=', eq + 1) == std::string::npos) {
                std::string key = param.substr(0, eq), value = param.substr(eq + 1);
                if (key == "placeholderTimeoutInSeconds") {
                    if (auto n = parseGoInt(value)) m.placeholderTimeout = *n;
                } else if (key == "gangSchedulingStyle") {
                    m.hardGang = value == "Hard";
                }
            }
            if (space == std::string::npos) break;
            start = space + 1;
        }
    }
    if (pod.ownerKind == "DaemonSet" && pod.nodeAffinity && pod.nodeAffinity->required)
        for (const auto& term : *pod.nodeAffinity->required)
            for (const auto& f : term.matchFields)
                if (f.key == "metadata.name" && !f.values.empty()) m.requiredNode = f.values.front();
    return m;
}

} // namespace gantry::engine::yunikorn
