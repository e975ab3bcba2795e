// YuniKorn's queues.yaml rules (yunikorn-core configvalidator.go and the placement rules), checked
// on the configuration documents, bare or inside a yunikorn-configs ConfigMap.
#include "model/yunikorn_names.h"
#include "model/yunikorn_quantity.h"
#include "validation/manifest_set.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

namespace gantry {

namespace {

using YkResource = std::map<std::string, int64_t>;

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

std::string text(const Json& obj, const char* key) {
    if (!obj.is_object()) return {};
    auto it = obj.find(key);
    if (it == obj.end()) return {};
    if (it->is_string()) return it->get<std::string>();
    if (it->is_number_integer()) return std::to_string(it->get<int64_t>());
    return {};
}

uint64_t unsignedValue(const Json& obj, const char* key) {
    if (!obj.is_object()) return 0;
    auto it = obj.find(key);
    return it != obj.end() && it->is_number_integer() && it->get<int64_t>() > 0 ? uint64_t(it->get<int64_t>())
                                                                                : 0;
}

const Json* child(const Json& obj, const char* key) {
    if (!obj.is_object()) return nullptr;
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

std::string show(const YkResource& r) {
    std::string out;
    for (const auto& [k, v] : r) out += (out.empty() ? "" : ", ") + k + "=" + std::to_string(v);
    return "{" + out + "}";
}

// FitInMaxUndef: every resource of `smaller` fits in `max`; resources max does not define are unlimited.
bool fits(const YkResource& max, const YkResource& smaller, std::string* first = nullptr) {
    for (const auto& [k, v] : smaller) {
        auto it = max.find(k);
        if (it != max.end() && v > std::max<int64_t>(0, it->second)) {
            if (first) *first = k;
            return false;
        }
    }
    return true;
}

YkResource componentMin(const YkResource& a, const YkResource& b) {
    YkResource out = a;
    for (const auto& [k, v] : b) out[k] = out.count(k) ? std::min(out[k], v) : v;
    return out;
}

struct Checker {
    const ManifestObject& config;
    ProblemSink& sink;

    void error(const FieldPath& p, const std::string& m) { sink.error(config, p, m); }
    void warning(const FieldPath& p, const std::string& m) { sink.warning(config, p, m); }

    // Parses a resource map with YuniKorn's quantity rules; reports the bad entries.
    YkResource resources(const Json* map, const FieldPath& at) {
        YkResource out;
        if (!map || !map->is_object()) return out;
        for (const auto& [name, value] : map->items()) {
            if (!value.is_string() && !value.is_number_integer()) continue; // the schema reported it
            std::string raw =
                value.is_string() ? value.get<std::string>() : std::to_string(value.get<int64_t>());
            std::string why;
            auto amount = parseYuniKornQuantity(name, raw, &why);
            if (!amount) {
                error(at.key(name), "invalid quantity \"" + raw + "\" for " + name + ": " + why);
                continue;
            }
            out[name] = *amount;
        }
        return out;
    }

    void cpuKeyWarning(const Json* map, const FieldPath& at) {
        if (map && map->is_object() && map->contains("cpu"))
            warning(at.key("cpu"),
                    "YuniKorn names CPU \"vcore\"; \"cpu\" here is an unrelated custom resource");
    }

    // Resources of one queue: guaranteed <= max, within the parent's effective max; returns the
    // guaranteed this queue passes up (its own, or its children's sum when it sets none).
    YkResource queueResources(const Json& q, const FieldPath& at, const YkResource* parentMax) {
        const Json* res = child(q, "resources");
        const Json* g = res ? child(*res, "guaranteed") : nullptr;
        const Json* m = res ? child(*res, "max") : nullptr;
        FieldPath gp = at.field("resources").field("guaranteed"), mp = at.field("resources").field("max");
        cpuKeyWarning(g, gp);
        cpuKeyWarning(m, mp);
        YkResource curG = resources(g, gp), curM = resources(m, mp);
        std::string name = text(q, "name"), first;
        if (!fits(curM, curG, &first))
            error(gp.key(first), "guaranteed resource " + show(curG) + " is larger than maximum resource " +
                                     show(curM) + " for queue " + name);
        if (parentMax && !fits(*parentMax, curM, &first))
            error(mp.key(first), "max resource of parent " + show(*parentMax) +
                                     " is smaller than maximum resource " + show(curM) + " for queue " +
                                     name);
        YkResource effectiveMax = parentMax ? componentMin(curM, *parentMax) : curM;
        YkResource sumG;
        if (const Json* children = child(q, "queues"); children && children->is_array())
            for (size_t i = 0; i < children->size(); ++i)
                for (const auto& [k, v] :
                     queueResources((*children)[i], at.field("queues").index(i), &effectiveMax))
                    sumG[k] += v;
        if (!fits(curG, sumG, &first))
            error(gp.key(first), "guaranteed resource of parent " + show(curG) +
                                     " is smaller than sum of guaranteed resources " + show(sumG) +
                                     " of the children for queue " + name);
        if (!fits(effectiveMax, sumG, &first))
            error(mp.key(first), "max resource " + show(effectiveMax) +
                                     " is smaller than sum of guaranteed resources " + show(sumG) +
                                     " of the children for queue " + name);
        bool zero = std::all_of(curG.begin(), curG.end(), [](const auto& e) { return e.second == 0; });
        return zero ? sumG : curG;
    }

    void acl(const Json& q, const char* key, const FieldPath& at) {
        std::string a = text(q, key);
        size_t fields = 0;
        bool inField = false;
        for (char c : a) {
            bool space = c == ' ' || c == '\t' || c == '\n';
            if (!space && !inField) ++fields;
            inField = !space;
        }
        if (fields > 2) error(at.field(key), "multiple spaces found in ACL: '" + a + "'");
    }

    void limits(const Json* list, const Json& queue, bool isRoot, const FieldPath& at) {
        if (!list || !list->is_array()) return;
        const std::regex& userRe = yunikorn::namePattern(yunikorn::NamePattern::ConfigUser);
        const std::regex& groupRe = yunikorn::namePattern(yunikorn::NamePattern::ConfigGroup);
        std::set<std::string> users, groups;
        uint64_t queueMaxApps = unsignedValue(queue, "maxapplications");
        const Json* res = child(queue, "resources");
        YkResource queueMax;
        if (!isRoot && res) {
            ProblemSink scratch; // the queue's own max is reported where it is checked
            Checker quiet{config, scratch};
            queueMax = quiet.resources(child(*res, "max"), FieldPath());
        }
        for (size_t i = 0; i < list->size(); ++i) {
            const Json& l = (*list)[i];
            FieldPath lp = at.index(i);
            std::string name = text(l, "limit");
            auto names = [&](const char* key) {
                std::vector<std::string> out;
                if (const Json* v = child(l, key); v && v->is_array())
                    for (const auto& n : *v)
                        if (n.is_string()) out.push_back(n.get<std::string>());
                return out;
            };
            auto u = names("users"), g = names("groups");
            if (u.empty() && g.empty())
                error(lp, "empty user and group lists defined in limit '" + name + "'");
            for (size_t k = 0; k < u.size(); ++k) {
                FieldPath np = lp.field("users").index(k);
                if (u[k] != "*" && !std::regex_match(u[k], userRe))
                    error(np, "invalid limit user name '" + u[k] + "' in limit definition");
                if (!users.insert(u[k]).second)
                    error(np, "duplicated user name '" + u[k] + "', already exists");
                else if (users.count("*") && u[k] != "*")
                    error(np, "should not set no wildcard user " + u[k] + " after wildcard user limit");
            }
            for (size_t k = 0; k < g.size(); ++k) {
                FieldPath np = lp.field("groups").index(k);
                if (g[k] != "*" && !std::regex_match(g[k], groupRe))
                    error(np, "invalid limit group name '" + g[k] + "' in limit definition");
                if (!groups.insert(g[k]).second)
                    error(np, "duplicated group name '" + g[k] + "'");
                else if (groups.count("*") && g[k] != "*")
                    error(np, "should not set no wildcard group " + g[k] + " after wildcard group limit");
            }
            if (groups.count("*") && groups.size() == 1)
                error(lp.field("groups"),
                      "should not specify only one group limit that is using the wildcard; there "
                      "must be at least one limit with a group name defined");
            const Json* maxRes = child(l, "maxresources");
            YkResource limitRes = resources(maxRes, lp.field("maxresources"));
            bool hasRes = maxRes && maxRes->is_object() && !maxRes->empty();
            if (hasRes) {
                bool positive =
                    !limitRes.empty() &&
                    std::any_of(limitRes.begin(), limitRes.end(), [](auto& e) { return e.second > 0; }) &&
                    std::none_of(limitRes.begin(), limitRes.end(), [](auto& e) { return e.second < 0; });
                if (!positive)
                    error(lp.field("maxresources"),
                          "MaxResources should be greater than zero in '" + name + "' limit");
            }
            uint64_t apps = unsignedValue(l, "maxapplications");
            if (apps == 0 && !hasRes)
                error(lp, "invalid resource combination for limit " + name + " all resource limits are null");
            if (queueMaxApps != 0 && queueMaxApps < apps)
                error(lp.field("maxapplications"), "invalid MaxApplications settings for limit " + name +
                                                       " exceed current the queue MaxApplications");
            std::string first;
            if (!isRoot && !fits(queueMax, limitRes, &first))
                error(lp.field("maxresources").key(first), "invalid MaxResources settings for limit " + name +
                                                               " exceed current the queue MaxResources");
        }
    }

    void properties(const Json& q, const FieldPath& at) {
        const Json* props = child(q, "properties");
        if (!props || !props->is_object()) return;
        static const std::regex duration(R"(^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$)");
        for (const auto& item : props->items()) {
            // Named: clang before 16 cannot capture a structured binding in the lambda below.
            const std::string key = item.key();
            const Json& value = item.value();
            std::string v = value.is_string() ? value.get<std::string>()
                                              : value.dump(-1, ' ', false, Json::error_handler_t::replace);
            std::string lv = lower(v);
            FieldPath p = at.field("properties").key(key);
            auto bad = [&](const std::string& allowed) {
                warning(p, "invalid value \"" + v + "\" for " + key + " (" + allowed +
                               "); YuniKorn logs it and uses the default");
            };
            if (key == "application.sort.policy") {
                if (lv != "fifo" && lv != "fair" && lv != "stateaware")
                    bad("fifo or fair");
                else if (lv == "stateaware")
                    warning(p, "stateaware is deprecated; it now behaves as fifo");
            } else if (key == "application.sort.priority") {
                if (lv != "enabled" && lv != "disabled") bad("enabled or disabled");
            } else if (key == "priority.policy") {
                if (lv != "default" && lv != "fence") bad("default or fence");
            } else if (key == "priority.offset") {
                char* end = nullptr;
                long long n = std::strtoll(v.c_str(), &end, 10);
                if (v.empty() || end != v.c_str() + v.size() || n < INT32_MIN || n > INT32_MAX)
                    bad("an int32");
            } else if (key == "preemption.policy") {
                if (lv != "default" && lv != "fence" && lv != "disabled") bad("default, fence or disabled");
            } else if (key == "preemption.delay" || key == "quota.preemption.delay" ||
                       key == "application.unschedasks.backoff.delay") {
                if (!std::regex_match(v, duration) || v.find_first_not_of("0.nsuµmh") == std::string::npos)
                    bad("a positive duration such as 30s");
            } else if (key == "application.unschedasks.backoff") {
                if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
                    bad("an unsigned integer");
            }
        }
    }

    // Names, siblings, ACLs, limits and properties, for one queue and its subtree.
    void queueTree(const Json& q, const FieldPath& at, bool isRoot, const std::string& path) {
        acl(q, "adminacl", at);
        acl(q, "submitacl", at);
        limits(child(q, "limits"), q, isRoot, at.field("limits"));
        properties(q, at);
        const Json* children = child(q, "queues");
        bool hasChildren = children && children->is_array() && !children->empty();
        if (!isRoot && !hasChildren && path.size() > 63)
            warning(at.field("name"), "queue path " + path +
                                          " is longer than 63 characters: pods cannot name it in the "
                                          "yunikorn.apache.org/queue label");
        if (!hasChildren) return;
        std::set<std::string> seen;
        for (size_t i = 0; i < children->size(); ++i) {
            const Json& c = (*children)[i];
            std::string name = text(c, "name");
            FieldPath cp = at.field("queues").index(i);
            if (!yunikorn::validQueueName(name))
                error(cp.field("name"),
                      "invalid queue name \"" + name +
                          "\": 1 to 64 characters of letters, digits and _ : # / @ - (no dots)");
            else if (!seen.insert(lower(name)).second)
                error(cp.field("name"), "duplicate child name found with name '" + name +
                                            "' (sibling names are compared case-insensitively)");
        }
        for (size_t i = 0; i < children->size(); ++i)
            queueTree((*children)[i], at.field("queues").index(i), false,
                      path + "." + text((*children)[i], "name"));
    }

    void maxApplications(const Json& q, const FieldPath& at) {
        const Json* children = child(q, "queues");
        if (!children || !children->is_array()) return;
        uint64_t mine = unsignedValue(q, "maxapplications");
        for (size_t i = 0; i < children->size(); ++i) {
            const Json& c = (*children)[i];
            FieldPath cp = at.field("queues").index(i);
            uint64_t theirs = unsignedValue(c, "maxapplications");
            if (mine != 0 && theirs == 0)
                error(cp.field("maxapplications"), "must be set (> 0) because the parent queue " +
                                                       text(q, "name") + " sets maxapplications " +
                                                       std::to_string(mine));
            else if (mine != 0 && mine < theirs)
                error(cp.field("maxapplications"),
                      "parent maxApplications must be larger than child maxApplications (" +
                          std::to_string(theirs) + " > " + std::to_string(mine) + ")");
            maxApplications(c, cp);
        }
    }

    // User and group limits on a queue must not exceed the same (or the wildcard) limit above it.
    void limitHierarchy(const Json& q, const FieldPath& at, std::map<std::string, YkResource> userRes,
                        std::map<std::string, YkResource> groupRes, std::map<std::string, uint64_t> userApps,
                        std::map<std::string, uint64_t> groupApps) {
        const auto parentUserRes = userRes, parentGroupRes = groupRes;
        const auto parentUserApps = userApps, parentGroupApps = groupApps;
        const Json* list = child(q, "limits");
        std::string name = text(q, "name");
        if (list && list->is_array()) {
            ProblemSink scratch;
            Checker quiet{config, scratch};
            for (size_t i = 0; i < list->size(); ++i) {
                const Json& l = (*list)[i];
                FieldPath lp = at.field("limits").index(i);
                YkResource res = quiet.resources(child(l, "maxresources"), FieldPath());
                uint64_t apps = unsignedValue(l, "maxapplications");
                auto apply = [&](const char* key, const char* what,
                                 const std::map<std::string, YkResource>& pRes,
                                 std::map<std::string, YkResource>& cRes,
                                 const std::map<std::string, uint64_t>& pApps,
                                 std::map<std::string, uint64_t>& cApps) {
                    const Json* names = child(l, key);
                    if (!names || !names->is_array()) return;
                    for (const auto& n : *names) {
                        if (!n.is_string()) continue;
                        std::string who = n.get<std::string>();
                        auto exact = pRes.find(who);
                        auto wildcard = who != "*" ? pRes.find("*") : pRes.end();
                        if (exact != pRes.end()) {
                            if (!fits(exact->second, res))
                                error(lp.field("maxresources"),
                                      std::string(what) + " " + who + " max resource " + show(res) +
                                          " of queue " + name +
                                          " is greater than immediate or ancestor parent maximum resource " +
                                          show(exact->second));
                            cRes[who] = componentMin(res, exact->second);
                        } else if (wildcard != pRes.end()) {
                            if (!fits(wildcard->second, res))
                                error(lp.field("maxresources"),
                                      std::string(what) + " " + who + " max resource " + show(res) +
                                          " of queue " + name +
                                          " is greater than wildcard maximum resource " +
                                          show(wildcard->second) + " of immediate or ancestor parent queue");
                            cRes[who] = res;
                        } else {
                            cRes[who] = res;
                        }
                        auto exactApps = pApps.find(who);
                        auto wildApps = who != "*" ? pApps.find("*") : pApps.end();
                        auto over = [&](uint64_t limit) { return limit != 0 && (limit < apps || apps == 0); };
                        if (exactApps != pApps.end()) {
                            if (over(exactApps->second))
                                error(lp.field("maxapplications"),
                                      std::string(what) + " " + who + " max applications " +
                                          std::to_string(apps) + " of queue " + name +
                                          " is greater than immediate or ancestor parent max applications " +
                                          std::to_string(exactApps->second));
                        } else if (wildApps != pApps.end() && over(wildApps->second)) {
                            error(lp.field("maxapplications"),
                                  std::string(what) + " " + who + " max applications " +
                                      std::to_string(apps) + " of queue " + name +
                                      " is greater than wildcard max applications " +
                                      std::to_string(wildApps->second) +
                                      " of immediate or ancestor parent queue");
                        }
                        cApps[who] = apps;
                    }
                };
                apply("users", "user", parentUserRes, userRes, parentUserApps, userApps);
                apply("groups", "group", parentGroupRes, groupRes, parentGroupApps, groupApps);
            }
        }
        if (const Json* children = child(q, "queues"); children && children->is_array())
            for (size_t i = 0; i < children->size(); ++i)
                limitHierarchy((*children)[i], at.field("queues").index(i), userRes, groupRes, userApps,
                               groupApps);
    }

    // Placement rules: names, values, filters, and the queues a fixed path names.
    void placementRule(const Json& rule, const FieldPath& at) {
        static const std::regex ruleName(R"(^[_a-zA-Z][a-zA-Z0-9_]*$)");
        const std::regex& userRe = yunikorn::namePattern(yunikorn::NamePattern::ConfigUser);
        const std::regex& groupRe = yunikorn::namePattern(yunikorn::NamePattern::ConfigGroup);
        const std::regex& special = yunikorn::namePattern(yunikorn::NamePattern::RegexSpecial);
        std::string name = text(rule, "name"), n = lower(name);
        if (!std::regex_match(name, ruleName))
            error(at.field("name"), "invalid rule name " + name + ", a name must be a valid identifier");
        else if (n == "recovery")
            error(at.field("name"), "recovery rule cannot be part of the config");
        else if (n != "provided" && n != "user" && n != "fixed" && n != "tag")
            error(at.field("name"),
                  "unknown rule name specified " + name + " (known: provided, user, fixed, tag)");
        if ((n == "fixed" || n == "tag") && text(rule, "value").empty())
            error(at.field("value"),
                  "a " + n + " rule needs a value" +
                      (n == "tag" ? " (the tag, e.g. namespace)" : " (a queue name or path)"));
        if (n == "fixed") {
            std::string v = text(rule, "value");
            size_t start = 0;
            while (!v.empty()) {
                size_t dot = v.find('.', start);
                std::string part = v.substr(start, dot == std::string::npos ? dot : dot - start);
                if (!yunikorn::validQueueName(part)) {
                    error(at.field("value"), "\"" + part + "\" in " + v + " is not a valid queue name");
                    break;
                }
                if (dot == std::string::npos) break;
                start = dot + 1;
            }
        }
        if (const Json* filter = child(rule, "filter"); filter && filter->is_object()) {
            std::string type = lower(text(*filter, "type"));
            if (!type.empty() && type != "allow" && type != "deny")
                error(at.field("filter").field("type"), "invalid rule filter type " + text(*filter, "type") +
                                                            ", filter type must be either '', allow or deny");
            auto single = [&](const char* key, const std::regex& valid, const char* what) {
                const Json* list = child(*filter, key);
                if (!list || !list->is_array() || list->size() != 1 || !(*list)[0].is_string()) return;
                std::string entry = (*list)[0].get<std::string>();
                if (std::regex_match(entry, valid)) return;
                bool compiles = true;
                try {
                    std::regex probe(entry);
                } catch (const std::regex_error&) {
                    compiles = false;
                }
                if (!compiles || !std::regex_search(entry, special))
                    error(at.field("filter").field(key),
                          std::string("invalid rule filter ") + what +
                              " list is not a proper list or regexp: " + entry);
            };
            single("users", userRe, "user");
            single("groups", groupRe, "group");
        }
        if (const Json* parent = child(rule, "parent"); parent && parent->is_object())
            placementRule(*parent, at.field("parent"));
    }

    static const Json* findChild(const Json* queues, const std::string& name) {
        if (!queues || !queues->is_array()) return nullptr;
        for (const auto& q : *queues)
            if (text(q, "name") == name) return &q;
        return nullptr;
    }

    void placementPaths(const Json& partition, const Json& rootQueues, const FieldPath& at) {
        const Json* rules = child(partition, "placementrules");
        if (!rules || !rules->is_array()) return;
        for (size_t i = 0; i < rules->size(); ++i) {
            // The chain from the outermost parent rule to this one.
            std::vector<const Json*> chain;
            for (const Json* r = &(*rules)[i]; r && r->is_object(); r = child(*r, "parent"))
                chain.insert(chain.begin(), r);
            std::string path, names;
            bool dynamic = false;
            bool create = (*rules)[i].is_object() && child((*rules)[i], "create") &&
                          (*child((*rules)[i], "create")) == true;
            for (const Json* r : chain) {
                names += (names.empty() ? "" : "->") + text(*r, "name");
                if (dynamic) continue;
                if (lower(text(*r, "name")) != "fixed") {
                    if (path.empty()) path = "<dynamic>";
                    dynamic = true;
                    continue;
                }
                std::string v = text(*r, "value");
                if (v.empty()) { // reported with the rule
                    path.clear();
                    break;
                }
                if (v.rfind("root", 0) == 0) {
                    if (!path.empty()) {
                        error(at.index(i), "illegal fully qualified 'fixed' rule with value " + v);
                        path.clear();
                        break;
                    }
                    path = v;
                    continue;
                }
                path = (path.empty() ? std::string("root") : path) + "." + v;
            }
            if (path.rfind("root", 0) != 0) continue;
            // Walk the configured tree along the path.
            std::vector<std::string> parts;
            std::string lp = lower(path);
            for (size_t s = 0, d;; s = d + 1) {
                d = lp.find('.', s);
                parts.push_back(lp.substr(s, d == std::string::npos ? d : d - s));
                if (d == std::string::npos) break;
            }
            const Json* level = &rootQueues;
            const Json* parentConf = nullptr;
            std::string problem;
            for (size_t k = 0; k < parts.size(); ++k) {
                bool levelEmpty = !level || !level->is_array() || level->empty();
                if (levelEmpty) {
                    bool parentFlag =
                        parentConf &&
                        ((child(*parentConf, "parent") && *child(*parentConf, "parent") == true) ||
                         (child(*parentConf, "queues") && !child(*parentConf, "queues")->empty()));
                    if (parentConf && !parentFlag)
                        problem = "references non-existing queues (" + path +
                                  ") which cannot be created because the last queue (" +
                                  text(*parentConf, "name") + ") in the hierarchy is a leaf";
                    else if (!create)
                        problem = "references non-existing queues (" + path + ") and create is 'false'";
                    break;
                }
                const Json* conf = findChild(level, parts[k]);
                if (!conf) {
                    if (!create)
                        problem = "references non-existing queues (" + path + ") and create is 'false'";
                    break;
                }
                if (k + 1 == parts.size()) {
                    bool isParent = (child(*conf, "parent") && *child(*conf, "parent") == true) ||
                                    (child(*conf, "queues") && child(*conf, "queues")->is_array() &&
                                     !child(*conf, "queues")->empty()) ||
                                    lower(text(*conf, "name")) == "root";
                    if (dynamic && !isParent)
                        problem = "references a queue (" + path + ") which is a leaf, but rules follow it";
                    if (!dynamic && isParent)
                        problem = "references a queue (" + path + ") which is not a leaf";
                    break;
                }
                parentConf = conf;
                level = child(*conf, "queues");
            }
            if (!problem.empty())
                error(at.index(i),
                      "placement rule no. #" + std::to_string(i) + " (" + names + ") " + problem);
        }
    }

    void partition(const Json& p, const FieldPath& at) {
        const Json* queues = child(p, "queues");
        if (!queues || !queues->is_array()) return; // the schema reported it
        // The root: a single top-level queue named root, or one inserted above the listed queues.
        Json implicitRoot;
        const Json* root = nullptr;
        FieldPath rootPath;
        if (queues->size() == 1 && lower(text((*queues)[0], "name")) == "root") {
            root = &(*queues)[0];
            rootPath = at.field("queues").index(0);
        } else {
            implicitRoot = Json{{"name", "root"}, {"queues", *queues}};
            root = &implicitRoot;
            rootPath = at; // children sit at <partition>.queues[i]
        }
        if (const Json* res = child(*root, "resources");
            res && res->is_object() && (res->contains("guaranteed") || res->contains("max")))
            error(rootPath.field("resources"), "root queue must not have resource limits set");
        // Partition limits apply to root; both set must be identical.
        const Json* pl = child(p, "limits");
        const Json* rl = child(*root, "limits");
        if (pl && rl && pl->is_array() && rl->is_array() && !pl->empty() && !rl->empty() && *pl != *rl)
            error(at.field("limits"), "partition limits and root queue limits are not equivalent");
        Json rootWithLimits = *root;
        bool partitionLimitsOnRoot =
            pl && pl->is_array() && !pl->empty() && (!rl || !rl->is_array() || rl->empty());
        if (partitionLimitsOnRoot) rootWithLimits["limits"] = *pl;
        queueTree(*root, rootPath, true, "root");
        if (partitionLimitsOnRoot) limits(pl, rootWithLimits, true, at.field("limits"));
        queueResources(*root, rootPath, nullptr);
        maxApplications(*root, rootPath);
        limitHierarchy(rootWithLimits, rootPath, {}, {}, {}, {});
        if (const Json* rules = child(p, "placementrules"); rules && rules->is_array())
            for (size_t i = 0; i < rules->size(); ++i)
                if ((*rules)[i].is_object()) placementRule((*rules)[i], at.field("placementrules").index(i));
        Json rootList = Json::array({*root});
        placementPaths(p, rootList, at.field("placementrules"));
    }
};

} // namespace

void checkYuniKornConfigs(const std::vector<ManifestObject>& objects, ProblemSink& sink) {
    for (const auto& o : objects) {
        if (o.content != ManifestObject::Content::YuniKornQueues) continue;
        Checker c{o, sink};
        const Json* partitions = o.at({"partitions"});
        if (!partitions || !partitions->is_array()) continue;
        std::set<std::string> names;
        for (size_t i = 0; i < partitions->size(); ++i) {
            const Json& p = (*partitions)[i];
            if (!p.is_object()) continue;
            FieldPath at = FieldPath().field("partitions").index(i);
            std::string name = lower(text(p, "name"));
            if (name.empty()) name = "default";
            if (!names.insert(name).second)
                c.error(at.field("name"), "duplicate partition name found with name " + name);
            c.partition(p, at);
        }
    }
}

} // namespace gantry
