#pragma once
// Placement rules (yunikorn-core pkg/scheduler/placement) and queue ACLs: which queue an
// application runs in. Rules are tried in order (provided, user, fixed, tag, each with an optional
// parent rule, a create flag and a user/group filter); a queue that exists must be a leaf the user
// may submit to; when no rule matches, root.default takes the application if it exists; an
// application whose pods already run (forced) goes to root.@recovery@; anything else is rejected.
#include "model/cluster.h"
#include "model/yunikorn_names.h"
#include "profiles/yunikorn/ugm.h"

#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace gantry::engine::yunikorn {

// A queue's submit or admin ACL: "user1,user2 group1,group2", "*" for everyone, "" for nobody.
class Acl {
  public:
    Acl() = default;
    explicit Acl(const std::string& text);
    bool allows(const UserGroup& ug) const;

  private:
    std::set<std::string> users_, groups_;
    bool all_ = false;
};

// What a rule sees of a queue.
struct QueueView {
    bool exists = false;
    bool leaf = false;
    bool submitAllowed = false; // for the application's user, through the queue or an ancestor
};
using QueueLookup = std::function<QueueView(const std::string& path)>;

struct PlacementRequest {
    std::string queue; // as the pod names it ("" = none)
    UserGroup user;
    std::map<std::string, std::string> tags; // "namespace" -> ...
    bool forced = false;
};

class PlacementManager {
  public:
    PlacementManager() = default;
    explicit PlacementManager(const std::vector<PlacementRule>& rules);
    // The fully qualified queue, or "" with *rejection set (an error or no rule matching).
    std::string place(const PlacementRequest& r, const QueueLookup& lookup, std::string* rejection) const;

  private:
    struct Filter {
        bool allow = true, empty = true;
        std::set<std::string> users, groups;
        std::optional<std::regex> userExp, groupExp;
        bool allows(const UserGroup& ug) const;
    };
    struct Rule {
        std::string name;
        bool create = false;
        std::string value;
        Filter filter;
        std::vector<Rule> parent; // zero or one
    };
    static Rule build(const PlacementRule& conf);
    // "" = no match; an error text in *error.
    std::string apply(const Rule& r, const PlacementRequest& req, const QueueLookup& lookup,
                      std::string* error) const;
    std::string parentOf(const Rule& r, const PlacementRequest& req, const QueueLookup& lookup,
                         std::string* error, bool* matched) const;
    std::string childQueue(const Rule& r, const PlacementRequest& req, const QueueLookup& lookup,
                           std::string* error, const std::string& child) const;
    std::vector<Rule> rules_;
};

inline constexpr const char* kDefaultQueue = "root.default";
inline constexpr const char* kRecoveryQueue = "root.@recovery@";

// The name rules are the model's (model/yunikorn_names.h), shared with the reader and the validator.
using gantry::yunikorn::NamePattern;
using gantry::yunikorn::namePattern;
using gantry::yunikorn::validQueueName;

} // namespace gantry::engine::yunikorn
