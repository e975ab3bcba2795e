#pragma once
// User and group limits (yunikorn-core pkg/scheduler/ugm): per queue path, the resources and
// applications a user or a group may use. A user's limit at a path is the one named for them, else
// the wildcard user's; an application is tracked against the first group of its user that a limit
// names, looking from its leaf queue up to the root, else the wildcard group where one is set.
// Headroom is the smallest room left at any level of the application's queue path.
#include "model/queue.h"
#include "profiles/yunikorn/resource.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace gantry::engine::yunikorn {

struct UserGroup {
    std::string user;
    std::vector<std::string> groups;
};

struct LimitConfig {
    Res maxResources; // nil or zero = no resource limit
    uint64_t maxApplications = 0;
};

class UserGroupManager {
  public:
    // A limit configured on the queue at `path`, its resources already in the partition's types.
    void addLimit(const std::string& path, const QueueLimit& limit, Res maxResources);

    // Whether any limit is configured: without one every application runs and headroom is unlimited.
    bool limited() const { return limited_; }
    Res headroom(const std::string& queuePath, uint32_t app, const UserGroup& user);
    bool canRunApp(const std::string& queuePath, uint32_t app, const UserGroup& user);
    void increase(const std::string& queuePath, uint32_t app, const Res& usage, const UserGroup& user);
    void decrease(const std::string& queuePath, uint32_t app, const Res& usage, const UserGroup& user,
                  bool removeApp);
    // Usage of a user at a queue path (for reports). Tracked only when a limit is configured.
    Res userUsage(const std::string& user, const std::string& path) const;

  private:
    struct Level {
        Res usage;
        std::set<uint32_t> running;
    };
    struct Tracker {
        std::map<std::string, Level> levels; // by queue path
    };
    const LimitConfig* userLimit(const std::string& user, const std::string& path) const;
    const LimitConfig* groupLimit(const std::string& group, const std::string& path) const;
    const std::string& groupOf(const std::string& queuePath, uint32_t app, const UserGroup& user);
    static std::vector<std::string> hierarchy(const std::string& queuePath);

    std::map<std::string, std::map<std::string, LimitConfig>> userLimits_, groupLimits_; // path -> name
    std::map<std::string, LimitConfig> userWildcard_;
    std::map<std::string, std::vector<std::string>> configuredGroups_; // path -> groups (not "*")
    std::set<std::string> groupWildcard_;
    std::map<std::string, Tracker> users_, groups_;
    std::map<uint32_t, std::string> appGroup_; // app -> group it is tracked against ("" = none)
    bool limited_ = false;
};

} // namespace gantry::engine::yunikorn
