#include "profiles/yunikorn/ugm.h"

namespace gantry::engine::yunikorn {

std::vector<std::string> UserGroupManager::hierarchy(const std::string& queuePath) {
    std::vector<std::string> out;
    std::string prefix;
    for (char c : queuePath) {
        if (c == '.') out.push_back(prefix);
        prefix.push_back(c);
    }
    out.push_back(prefix);
    return out;
}

void UserGroupManager::addLimit(const std::string& path, const QueueLimit& limit, Res maxResources) {
    LimitConfig c{std::move(maxResources), limit.maxApplications};
    limited_ = true;
    for (const auto& u : limit.users) {
        if (u.empty()) continue;
        if (u == "*")
            userWildcard_[path] = c;
        else
            userLimits_[path][u] = c;
    }
    for (const auto& g : limit.groups) {
        if (g.empty()) continue;
        groupLimits_[path][g] = c;
        if (g == "*")
            groupWildcard_.insert(path);
        else
            configuredGroups_[path].push_back(g);
    }
}

const LimitConfig* UserGroupManager::userLimit(const std::string& user, const std::string& path) const {
    if (auto p = userLimits_.find(path); p != userLimits_.end())
        if (auto u = p->second.find(user); u != p->second.end()) return &u->second;
    if (auto w = userWildcard_.find(path); w != userWildcard_.end()) return &w->second;
    return nullptr;
}

const LimitConfig* UserGroupManager::groupLimit(const std::string& group, const std::string& path) const {
    if (auto p = groupLimits_.find(path); p != groupLimits_.end())
        if (auto g = p->second.find(group); g != p->second.end()) return &g->second;
    return nullptr;
}

// ensureGroupInternal: leaf to root, the first configured group the user belongs to, else the
// wildcard group of that level.
const std::string& UserGroupManager::groupOf(const std::string& queuePath, uint32_t app,
                                             const UserGroup& user) {
    auto it = appGroup_.find(app);
    if (it != appGroup_.end()) return it->second;
    std::string found;
    if (!user.groups.empty()) {
        auto levels = hierarchy(queuePath);
        for (auto l = levels.rbegin(); l != levels.rend() && found.empty(); ++l) {
            if (auto c = configuredGroups_.find(*l); c != configuredGroups_.end())
                for (const auto& g : c->second) {
                    for (const auto& mine : user.groups)
                        if (g == mine) {
                            found = g;
                            break;
                        }
                    if (!found.empty()) break;
                }
            if (found.empty() && groupWildcard_.count(*l)) found.assign(1, '*');
        }
    }
    return appGroup_.emplace(app, found).first->second;
}

namespace {

// QueueTracker.headroom: the least room over the levels that set a resource limit.
Res levelHeadroom(const LimitConfig* limit, const Res& usage) {
    if (!limit || isZero(limit->maxResources)) return Res();
    return subOnlyExisting(limit->maxResources, usage);
}

} // namespace

Res UserGroupManager::headroom(const std::string& queuePath, uint32_t app, const UserGroup& user) {
    if (!limited_) return Res();
    const auto levels = hierarchy(queuePath);
    Tracker& ut = users_[user.user];
    Res userRoom;
    for (auto l = levels.rbegin(); l != levels.rend(); ++l) {
        Res own = levelHeadroom(userLimit(user.user, *l), ut.levels[*l].usage);
        if (!own.isNil()) userRoom = componentWiseMin(own, userRoom);
    }
    const std::string& group = groupOf(queuePath, app, user);
    if (group.empty()) return userRoom;
    Tracker& gt = groups_[group];
    Res groupRoom;
    for (auto l = levels.rbegin(); l != levels.rend(); ++l) {
        Res own = levelHeadroom(groupLimit(group, *l), gt.levels[*l].usage);
        if (!own.isNil()) groupRoom = componentWiseMin(own, groupRoom);
    }
    return componentWiseMin(userRoom, groupRoom);
}

bool UserGroupManager::canRunApp(const std::string& queuePath, uint32_t app, const UserGroup& user) {
    if (!limited_) return true;
    const auto levels = hierarchy(queuePath);
    auto fits = [&](Tracker& t, auto limitOf) {
        for (const auto& l : levels) {
            Level& level = t.levels[l];
            if (level.running.count(app)) continue;
            const LimitConfig* limit = limitOf(l);
            if (limit && limit->maxApplications != 0 && level.running.size() + 1 > limit->maxApplications)
                return false;
        }
        return true;
    };
    bool ok = fits(users_[user.user], [&](const std::string& l) { return userLimit(user.user, l); });
    const std::string& group = groupOf(queuePath, app, user);
    if (group.empty()) return ok;
    return ok && fits(groups_[group], [&](const std::string& l) { return groupLimit(group, l); });
}

void UserGroupManager::increase(const std::string& queuePath, uint32_t app, const Res& usage,
                                const UserGroup& user) {
    // Without a limit nothing reads the trackers (headroom and canRunApp return first).
    if (!limited_) return;
    const auto levels = hierarchy(queuePath);
    auto add = [&](Tracker& t) {
        for (const auto& l : levels) {
            Level& level = t.levels[l];
            if (level.usage.isNil()) level.usage = Res::empty();
            level.usage.addTo(usage);
            level.usage.prune();
            level.running.insert(app);
        }
    };
    add(users_[user.user]);
    const std::string& group = groupOf(queuePath, app, user);
    if (!group.empty()) add(groups_[group]);
}

void UserGroupManager::decrease(const std::string& queuePath, uint32_t app, const Res& usage,
                                const UserGroup& user, bool removeApp) {
    if (!limited_) return;
    const auto levels = hierarchy(queuePath);
    auto sub = [&](Tracker& t) {
        for (const auto& l : levels) {
            Level& level = t.levels[l];
            level.usage.subFrom(usage);
            level.usage.prune();
            if (removeApp) level.running.erase(app);
        }
    };
    sub(users_[user.user]);
    const std::string& group = groupOf(queuePath, app, user);
    if (!group.empty()) sub(groups_[group]);
    if (removeApp) appGroup_.erase(app);
}

Res UserGroupManager::userUsage(const std::string& user, const std::string& path) const {
    auto u = users_.find(user);
    if (u == users_.end()) return Res();
    auto l = u->second.levels.find(path);
    return l == u->second.levels.end() ? Res() : l->second.usage;
}

} // namespace gantry::engine::yunikorn
