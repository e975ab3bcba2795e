#include "profiles/yunikorn/placement_rules.h"

#include "model/yunikorn_names.h"

#include <algorithm>
#include <cctype>

namespace gantry::engine::yunikorn {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        size_t at = s.find(sep, start);
        out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) return out;
        start = at + 1;
    }
}

bool startsWith(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

std::string replaceDots(const std::string& name) {
    std::string out;
    for (char c : name) out += c == '.' ? std::string("_dot_") : std::string(1, c);
    return out;
}

} // namespace

Acl::Acl(const std::string& text) {
    if (text.empty()) return;
    auto fields = split(text, ' ');
    if (fields.size() > 2) return; // the validator refuses it
    all_ = trim(text) == "*";
    auto users = split(fields[0], ',');
    if (users.size() == 1 && users[0] == "*") {
        all_ = true;
    } else {
        for (const auto& u : users)
            if (!u.empty() && std::regex_match(u, namePattern(NamePattern::AclUser))) users_.insert(u);
    }
    if (fields.size() == 2 && !all_) {
        auto groups = split(fields[1], ',');
        if (groups.size() == 1 && groups[0] == "*") {
            users_.clear();
            all_ = true;
        } else {
            for (const auto& g : groups)
                if (!g.empty() && std::regex_match(g, namePattern(NamePattern::AclGroup))) groups_.insert(g);
        }
    }
}

bool Acl::allows(const UserGroup& ug) const {
    if (all_ || users_.count(ug.user)) return true;
    for (const auto& g : ug.groups)
        if (groups_.count(g)) return true;
    return false;
}

bool PlacementManager::Filter::allows(const UserGroup& ug) const {
    if (empty) return allow;
    auto matchUser = [&](const std::string& u) {
        return userExp ? std::regex_search(u, *userExp) : users.count(u) > 0;
    };
    auto matchGroup = [&](const std::string& g) {
        return groupExp ? std::regex_search(g, *groupExp) : groups.count(g) > 0;
    };
    if (matchUser(ug.user)) return allow;
    for (const auto& g : ug.groups)
        if (matchGroup(g)) return allow;
    return !allow;
}

PlacementManager::Rule PlacementManager::build(const PlacementRule& conf) {
    Rule r;
    r.name = lower(conf.name);
    r.create = conf.create;
    r.value = r.name == "fixed" || r.name == "tag" ? lower(conf.value) : conf.value;
    Filter& f = r.filter;
    f.allow = conf.filterType != "deny";
    auto list = [&](const std::vector<std::string>& names, const std::regex& valid,
                    std::set<std::string>& out, std::optional<std::regex>& exp) {
        if (names.size() == 1) {
            const std::string& n = names[0];
            if (std::regex_search(n, namePattern(NamePattern::RegexSpecial))) {
                try {
                    exp = std::regex(n);
                } catch (const std::regex_error&) {
                }
            } else if (std::regex_match(n, valid)) {
                out.insert(n);
            }
            f.empty = false;
        } else if (names.size() >= 2) {
            for (const auto& n : names)
                if (std::regex_match(n, valid)) out.insert(n);
            f.empty = false;
        }
    };
    list(conf.filterUsers, namePattern(NamePattern::ConfigUser), f.users, f.userExp);
    list(conf.filterGroups, namePattern(NamePattern::ConfigGroup), f.groups, f.groupExp);
    for (const auto& p : conf.parent) r.parent.push_back(build(p));
    return r;
}

PlacementManager::PlacementManager(const std::vector<PlacementRule>& rules) {
    if (rules.empty()) {
        PlacementRule provided;
        provided.name = "provided";
        rules_.push_back(build(provided));
        return;
    }
    for (const auto& r : rules) rules_.push_back(build(r));
}

// The parent rule's queue, qualified; *matched = false when it did not match.
std::string PlacementManager::parentOf(const Rule& r, const PlacementRequest& req, const QueueLookup& lookup,
                                       std::string* error, bool* matched) const {
    *matched = true;
    if (r.parent.empty()) return "root";
    std::string parent = apply(r.parent.front(), req, lookup, error);
    if (!error->empty()) return {};
    if (parent.empty()) {
        *matched = false;
        return {};
    }
    if (!startsWith(parent, "root.")) parent = "root." + parent;
    QueueView v = lookup(parent);
    if (v.exists && v.leaf) {
        *error = "parent rule returned a leaf queue: " + parent;
        return {};
    }
    return parent;
}

// The queue `child` under the rule's parent; empty when the name is invalid (*error) or no parent
// matched.
std::string PlacementManager::childQueue(const Rule& r, const PlacementRequest& req,
                                         const QueueLookup& lookup, std::string* error,
                                         const std::string& child) const {
    if (!validQueueName(child)) {
        *error = "invalid queue name";
        return {};
    }
    bool matched = false;
    std::string parent = parentOf(r, req, lookup, error, &matched);
    if (!error->empty() || !matched) return {};
    return parent + "." + child;
}

std::string PlacementManager::apply(const Rule& r, const PlacementRequest& req, const QueueLookup& lookup,
                                    std::string* error) const {
    std::string queue;
    if (r.name == "provided" || r.name == "tag") {
        std::string given;
        if (r.name == "provided") {
            given = req.queue;
            if (given.empty()) return {};
            if (!r.filter.allows(req.user)) return {};
        } else {
            auto it = req.tags.find(r.value);
            given = it == req.tags.end() ? std::string() : it->second;
            if (given.empty()) return {};
            if (!r.filter.allows(req.user)) return {};
        }
        if (startsWith(given, "root.")) {
            for (const auto& part : split(given, '.'))
                if (!validQueueName(part)) {
                    *error = "invalid queue name";
                    return {};
                }
            queue = given;
        } else {
            queue = childQueue(r, req, lookup, error, replaceDots(given));
            if (queue.empty()) return {};
        }
    } else if (r.name == "user") {
        if (!r.filter.allows(req.user)) return {};
        queue = childQueue(r, req, lookup, error, replaceDots(req.user.user));
        if (queue.empty()) return {};
    } else if (r.name == "fixed") {
        if (!r.filter.allows(req.user)) return {};
        if (startsWith(r.value, "root")) {
            queue = r.value;
        } else {
            bool matched = false;
            std::string parent = parentOf(r, req, lookup, error, &matched);
            if (!error->empty() || !matched) return {};
            queue = parent + "." + r.value;
        }
    } else {
        return {};
    }
    if (!r.create && !lookup(queue).exists) return {};
    return queue;
}

std::string PlacementManager::place(const PlacementRequest& req, const QueueLookup& lookup,
                                    std::string* rejection) const {
    // The configured rules, then the recovery rule.
    const size_t total = rules_.size() + 1;
    std::string queue;
    for (size_t i = 0; i < total; ++i) {
        std::string error;
        if (i < rules_.size()) {
            queue = apply(rules_[i], req, lookup, &error);
            if (!error.empty()) {
                *rejection = "failed to place application: " + error;
                return {};
            }
        } else {
            queue = req.forced ? kRecoveryQueue : "";
        }
        if (i + 1 == total && queue.empty() && lookup(kDefaultQueue).exists) queue = kDefaultQueue;
        if (queue.empty()) continue;
        if (queue == kRecoveryQueue && req.forced) break;
        QueueView v = lookup(queue);
        if (!v.exists) {
            // The nearest existing ancestor decides whether the user may create it.
            std::string current = queue;
            QueueView ancestor;
            while (!ancestor.exists && current.find('.') != std::string::npos) {
                current = current.substr(0, current.rfind('.'));
                ancestor = lookup(current);
            }
            if (!ancestor.submitAllowed) {
                queue.clear();
                continue;
            }
        } else if (!v.leaf || !v.submitAllowed) {
            queue.clear();
            continue;
        }
        break;
    }
    if (queue.empty()) {
        *rejection = "application rejected: no placement rule matched";
        return {};
    }
    return lower(queue);
}

} // namespace gantry::engine::yunikorn
