#include "profiles/yunikorn/validate.h"

#include "model/yunikorn_names.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <regex>
#include <set>

namespace gantry::engine::yunikorn {

namespace {

using Amounts = std::map<std::string, int64_t>; // a configuration's resource, by YuniKorn name

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

Amounts amounts(const ResourceList& r) {
    Amounts out;
    for (const auto& [k, v] : r) out[k] = v;
    return out;
}

std::string show(const Amounts& r) {
    std::string out;
    for (const auto& [k, v] : r) out += (out.empty() ? "" : " ") + k + ":" + formatAmount(k, v);
    return "map[" + out + "]";
}

// FitInMaxUndef: types the larger one does not name are unlimited.
bool fits(const Amounts& max, const Amounts& smaller) {
    for (const auto& [k, v] : smaller) {
        auto it = max.find(k);
        if (it != max.end() && v > std::max<int64_t>(0, it->second)) return false;
    }
    return true;
}

Amounts componentMin(const Amounts& a, const Amounts& b) {
    Amounts out = a;
    for (const auto& [k, v] : b) out[k] = out.count(k) ? std::min(out[k], v) : v;
    return out;
}

bool zero(const Amounts& r) {
    return std::all_of(r.begin(), r.end(), [](const auto& e) { return e.second == 0; });
}

struct Validator {
    const PartitionConfig& config;
    Diagnostics out;

    void error(const SourceRef& where, const std::string& message) {
        out.push_back(Diagnostic{Severity::Error, where, "YuniKorn refuses this configuration: " + message});
    }

    void acl(const QueueConfig& q, const std::string& acl) {
        size_t fields = 0;
        bool inField = false;
        for (char c : acl) {
            const bool space = std::isspace(static_cast<unsigned char>(c));
            if (!space && !inField) ++fields;
            inField = !space;
        }
        if (fields > 2) error(q.source, "multiple spaces found in ACL: '" + acl + "'");
    }

    void limits(const std::vector<QueueLimit>& list, const QueueConfig& q, bool root) {
        std::set<std::string> users, groups;
        for (const auto& l : list) {
            if (l.users.empty() && l.groups.empty())
                error(q.source, "empty user and group lists defined in limit '" + l.description + "'");
            for (const auto& u : l.users) {
                if (u != "*" && !std::regex_match(u, gantry::yunikorn::namePattern(
                                                         gantry::yunikorn::NamePattern::ConfigUser)))
                    error(q.source, "invalid limit user name '" + u + "' in limit definition");
                if (!users.insert(u).second)
                    error(q.source, "duplicated user name '" + u + "', already exists");
                else if (users.count("*") && u != "*")
                    error(q.source, "should not set no wildcard user " + u + " after wildcard user limit");
            }
            for (const auto& g : l.groups) {
                if (g != "*" && !std::regex_match(g, gantry::yunikorn::namePattern(
                                                         gantry::yunikorn::NamePattern::ConfigGroup)))
                    error(q.source, "invalid limit group name '" + g + "' in limit definition");
                if (!groups.insert(g).second)
                    error(q.source, "duplicated group name '" + g + "'");
                else if (groups.count("*") && g != "*")
                    error(q.source, "should not set no wildcard group " + g + " after wildcard group limit");
            }
            if (groups.count("*") && groups.size() == 1)
                error(q.source,
                      "should not specify only one group limit that is using the wildcard. There must be "
                      "at least one limit with a group name defined");
            const Amounts res = amounts(l.maxResources);
            if (!res.empty()) {
                bool positive = false, negative = false;
                for (const auto& [k, v] : res) {
                    positive |= v > 0;
                    negative |= v < 0;
                }
                if (!positive || negative)
                    error(q.source,
                          "MaxResources should be greater than zero in '" + l.description + "' limit");
            }
            if (l.maxApplications == 0 && res.empty())
                error(q.source, "invalid resource combination for limit " + l.description +
                                    " all resource limits are null");
            if (q.maxApplications != 0 && q.maxApplications < l.maxApplications)
                error(q.source, "invalid MaxApplications settings for limit " + l.description +
                                    " exceed current the queue MaxApplications");
            if (!root && !fits(amounts(q.max), res))
                error(q.source, "invalid MaxResources settings for limit " + l.description +
                                    " exeecd current the queue MaxResources");
        }
    }

    void queues(const QueueConfig& q, bool root) {
        acl(q, q.adminAcl);
        acl(q, q.submitAcl);
        limits(q.limits, q, root);
        std::set<std::string> seen;
        for (const auto& c : q.queues) {
            if (!gantry::yunikorn::validQueueName(c.name)) error(c.source, "invalid queue name " + c.name);
            if (!seen.insert(lower(c.name)).second)
                error(c.source,
                      "duplicate child name found with name '" + c.name + "' under queue " + q.name);
        }
        for (const auto& c : q.queues) queues(c, false);
    }

    // checkQueueResource: returns the guaranteed the queue passes up.
    Amounts resources(const QueueConfig& q, const Amounts* parentMax) {
        Amounts g = amounts(q.guaranteed), m = amounts(q.max);
        if (!fits(m, g))
            error(q.source, "guaranteed resource " + show(g) + " is larger than maximum resource " + show(m) +
                                " for queue " + q.name);
        if (parentMax && !fits(*parentMax, m))
            error(q.source, "max resource of parent " + show(*parentMax) +
                                " is smaller than maximum resource " + show(m) + " for queue " + q.name);
        Amounts effective = parentMax ? componentMin(m, *parentMax) : m;
        Amounts sum;
        for (const auto& c : q.queues)
            for (const auto& [k, v] : resources(c, &effective)) sum[k] += v;
        if (!fits(g, sum))
            error(q.source, "guaranteed resource of parent " + show(g) +
                                " is smaller than sum of guaranteed resources " + show(sum) +
                                " of the children for queue " + q.name);
        if (!fits(effective, sum))
            error(q.source, "max resource " + show(effective) +
                                " is smaller than sum of guaranteed resources " + show(sum) +
                                " of the children for queue " + q.name);
        return zero(g) ? sum : g;
    }

    void maxApplications(const QueueConfig& q) {
        for (const auto& c : q.queues) {
            if (q.maxApplications != 0 && q.maxApplications < c.maxApplications)
                error(c.source, "parent maxApplications must be larger than child maxApplications (queue " +
                                    c.name + ")");
            if (q.maxApplications != 0 && c.maxApplications == 0)
                error(c.source,
                      "maxApplications is either undefined or zero, which is not allowed when parent queue's "
                      "maxApplications is defined (queue " +
                          c.name + ")");
            maxApplications(c);
        }
    }

    void limitHierarchy(const QueueConfig& q, std::map<std::string, Amounts> userRes,
                        std::map<std::string, Amounts> groupRes, std::map<std::string, uint64_t> userApps,
                        std::map<std::string, uint64_t> groupApps) {
        const auto pUserRes = userRes, pGroupRes = groupRes;
        const auto pUserApps = userApps, pGroupApps = groupApps;
        for (const auto& l : q.limits) {
            const Amounts res = amounts(l.maxResources);
            auto apply = [&](const std::vector<std::string>& names, const char* what,
                             const std::map<std::string, Amounts>& parentRes,
                             std::map<std::string, Amounts>& curRes,
                             const std::map<std::string, uint64_t>& parentApps,
                             std::map<std::string, uint64_t>& curApps) {
                for (const auto& who : names) {
                    auto exact = parentRes.find(who);
                    auto wild = who != "*" ? parentRes.find("*") : parentRes.end();
                    if (exact != parentRes.end()) {
                        if (!fits(exact->second, res))
                            error(q.source,
                                  std::string(what) + " " + who + " max resource " + show(res) +
                                      " of queue " + q.name +
                                      " is greater than immediate or ancestor parent maximum resource " +
                                      show(exact->second));
                        curRes[who] = componentMin(res, exact->second);
                    } else if (wild != parentRes.end()) {
                        if (!fits(wild->second, res))
                            error(q.source,
                                  std::string(what) + " " + who + " max resource " + show(res) +
                                      " of queue " + q.name + " is greater than wildcard maximum resource " +
                                      show(wild->second) + " of immediate or ancestor parent queue");
                        curRes[who] = res;
                    } else {
                        curRes[who] = res;
                    }
                    const uint64_t apps = l.maxApplications;
                    auto over = [&](uint64_t limit) { return limit != 0 && (limit < apps || apps == 0); };
                    auto exactApps = parentApps.find(who);
                    auto wildApps = who != "*" ? parentApps.find("*") : parentApps.end();
                    if (exactApps != parentApps.end()) {
                        if (over(exactApps->second))
                            error(q.source,
                                  std::string(what) + " " + who + " max applications " +
                                      std::to_string(apps) + " of queue " + q.name +
                                      " is greater than immediate or ancestor parent max applications " +
                                      std::to_string(exactApps->second));
                    } else if (wildApps != parentApps.end() && over(wildApps->second)) {
                        error(q.source, std::string(what) + " " + who + " max applications " +
                                            std::to_string(apps) + " of queue " + q.name +
                                            " is greater than wildcard max applications " +
                                            std::to_string(wildApps->second) +
                                            " of immediate or ancestor parent queue");
                    }
                    curApps[who] = apps;
                }
            };
            apply(l.users, "user", pUserRes, userRes, pUserApps, userApps);
            apply(l.groups, "group", pGroupRes, groupRes, pGroupApps, groupApps);
        }
        for (const auto& c : q.queues) limitHierarchy(c, userRes, groupRes, userApps, groupApps);
    }

    static const QueueConfig* child(const QueueConfig& q, const std::string& name) {
        for (const auto& c : q.queues)
            if (c.name == name) return &c;
        return nullptr;
    }
    static bool isParent(const QueueConfig& q) { return q.parent || !q.queues.empty(); }

    void placementRule(const PlacementRule& r) {
        static const std::regex ruleName(R"(^[_a-zA-Z][a-zA-Z0-9_]*$)");
        static const std::regex special(R"([\^$*+?()\[{}|])");
        if (!std::regex_match(r.name, ruleName))
            error(config.root.source, "invalid rule name " + r.name + ", a name must be a valid identifier");
        for (const auto& p : r.parent) placementRule(p);
        if (!r.filterType.empty() && lower(r.filterType) != "allow" && lower(r.filterType) != "deny")
            error(config.root.source, "invalid rule filter type " + r.filterType +
                                          ", filter type  must be either '', allow or deny");
        auto single = [&](const std::vector<std::string>& list, const std::regex& valid, const char* what) {
            if (list.size() != 1 || std::regex_match(list[0], valid)) return;
            bool compiles = true;
            try {
                std::regex probe(list[0]);
            } catch (const std::regex_error&) {
                compiles = false;
            }
            if (!compiles || !std::regex_search(list[0], special))
                error(config.root.source, std::string("invalid rule filter ") + what +
                                              " list is not a proper list or regexp: [" + list[0] + "]");
        };
        single(r.filterUsers, gantry::yunikorn::namePattern(gantry::yunikorn::NamePattern::ConfigUser),
               "user");
        single(r.filterGroups, gantry::yunikorn::namePattern(gantry::yunikorn::NamePattern::ConfigGroup),
               "group");
    }

    // The fixed part of each rule chain must name queues that exist (or may be created).
    void placementPaths() {
        for (size_t i = 0; i < config.placementRules.size(); ++i) {
            const PlacementRule& rule = config.placementRules[i];
            std::vector<const PlacementRule*> chain;
            for (const PlacementRule* r = &rule; r; r = r->parent.empty() ? nullptr : &r->parent.front())
                chain.insert(chain.begin(), r);
            std::string path, names;
            bool dynamic = false, bad = false;
            for (const PlacementRule* r : chain) {
                names += (names.empty() ? "" : "->") + r->name;
                if (dynamic) continue;
                if (lower(r->name) != "fixed") {
                    if (path.empty()) path = "<dynamic>";
                    dynamic = true;
                    continue;
                }
                if (r->value.rfind("root", 0) == 0) {
                    if (!path.empty()) {
                        error(config.root.source,
                              "illegal fully qualified 'fixed' rule with value " + r->value);
                        bad = true;
                        break;
                    }
                    path = r->value;
                    continue;
                }
                path = (path.empty() ? std::string("root") : path) + "." + r->value;
            }
            if (bad || path.rfind("root", 0) != 0) continue;
            std::vector<std::string> parts;
            const std::string lp = lower(path);
            for (size_t s = 0, d;; s = d + 1) {
                d = lp.find('.', s);
                parts.push_back(lp.substr(s, d == std::string::npos ? d : d - s));
                if (d == std::string::npos) break;
            }
            // Walk from the partition's top level (the root).
            const std::string prefix = "placement rule no. #" + std::to_string(i) + " (" + names + ") ";
            QueueConfig top;
            top.queues.push_back(config.root);
            top.queues.back().name = "root";
            top.queues.back().parent = true;
            const QueueConfig* level = &top;
            const QueueConfig* parentConf = nullptr;
            for (size_t k = 0; k < parts.size(); ++k) {
                if (level->queues.empty()) {
                    if (parentConf && !parentConf->parent)
                        error(config.root.source, prefix + "references non-existing queues (" + path +
                                                      ") which cannot be created because the last queue (" +
                                                      parentConf->name + ") in the hierarchy is a leaf");
                    else if (!rule.create)
                        error(config.root.source,
                              prefix + "references non-existing queues (" + path + ") and create is 'false'");
                    break;
                }
                const QueueConfig* conf = child(*level, parts[k]);
                if (!conf) {
                    if (!rule.create)
                        error(config.root.source,
                              prefix + "references non-existing queues (" + path + ") and create is 'false'");
                    break;
                }
                if (k + 1 == parts.size()) {
                    if (dynamic && !conf->parent)
                        error(config.root.source,
                              prefix + "references a queue (" + path + ") which is not a leaf");
                    if (!dynamic && conf->parent)
                        error(config.root.source,
                              prefix + "references a queue (" + path + ") which is not a leaf");
                    break;
                }
                parentConf = conf;
                level = conf;
            }
        }
    }

    void run() {
        const QueueConfig& root = config.root;
        if (!root.guaranteed.empty() || !root.max.empty())
            error(root.source, "root queue must not have resource limits set");
        if (!config.limits.empty() && !root.limits.empty() && !(config.limits == root.limits))
            error(root.source, "partition limits and root queue limits are not equivalent");
        QueueConfig withLimits = root;
        if (withLimits.limits.empty()) withLimits.limits = config.limits;
        withLimits.parent = true;
        queues(withLimits, true);
        resources(withLimits, nullptr);
        for (const auto& r : config.placementRules) placementRule(r);
        placementPaths();
        const std::string& policy = config.nodeSortPolicy;
        if (!policy.empty() && policy != "fair" && policy != "binpacking")
            error(root.source, "undefined policy: " + policy);
        for (const auto& [res, w] : config.nodeSortWeights)
            if (w < 0) error(root.source, "negative resource weight for " + res + " is not allowed");
        maxApplications(withLimits);
        limitHierarchy(withLimits, {}, {}, {}, {});
    }
};

} // namespace

Diagnostics validateConfig(const PartitionConfig& config) {
    Validator v{config, {}};
    v.run();
    return v.out;
}

} // namespace gantry::engine::yunikorn
