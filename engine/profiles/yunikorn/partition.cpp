// The partition's objects and their bookkeeping: queues (properties, quotas, usage, priorities,
// running applications), applications (state machine, asks, allocations, reservations) and the
// shim's events. The scheduling cycle itself is in cycle.cpp.
#include "profiles/yunikorn/partition.h"

#include "model/go_text.h"

#include <algorithm>
#include <cctype>

namespace gantry::engine::yunikorn {

const char* toString(AppState s) {
    switch (s) {
    case AppState::New:
        return "New";
    case AppState::Accepted:
        return "Accepted";
    case AppState::Running:
        return "Running";
    case AppState::Rejected:
        return "Rejected";
    case AppState::Completing:
        return "Completing";
    case AppState::Completed:
        return "Completed";
    case AppState::Failing:
        return "Failing";
    case AppState::Failed:
        return "Failed";
    case AppState::Resuming:
        return "Resuming";
    }
    return "";
}

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

Res toRes(const ResourceList& list, Dims& dims) {
    Res r = Res::empty();
    for (const auto& [name, amount] : list) {
        int d = dims.intern(name);
        if (d >= 0) r.set(d, amount);
    }
    return r;
}

// A positive duration (Go's time.ParseDuration), else the default.
double delayOf(const std::string& value, double def) {
    auto d = parseGoDuration(value);
    return d && *d > 0 ? *d : def;
}

} // namespace

Partition::Partition(const PartitionConfig& config, Dims d, CoreTimings t)
    : dims(std::move(d)), timings(t), placement(config.placementRules) {
    preemptionEnabled = !config.preemptionEnabled || *config.preemptionEnabled;
    QueueConfig root = config.root;
    root.name = "root";
    root.parent = true;
    if (root.limits.empty()) root.limits = config.limits;
    buildQueue(root, -1, {});
    // User and group limits of every queue, by path.
    std::function<void(const QueueConfig&, const std::string&)> limits = [&](const QueueConfig& q,
                                                                             const std::string& path) {
        for (const auto& l : q.limits) {
            Res max = l.maxResources.empty() ? Res() : toRes(l.maxResources, dims);
            ugm.addLimit(path, l, max);
        }
        for (const auto& c : q.queues) limits(c, path + "." + lower(c.name));
    };
    limits(root, "root");
    std::vector<std::pair<int, double>> weights;
    if (config.nodeSortWeights.empty()) {
        weights = {{dims.intern("vcore"), 1.0}, {dims.intern("memory"), 1.0}};
    } else {
        for (const auto& [name, w] : config.nodeSortWeights)
            if (int dim = dims.intern(name); dim >= 0) weights.emplace_back(dim, w);
    }
    nodes.setPolicy(config.nodeSortPolicy == "binpacking", std::move(weights));
}

void Partition::buildQueue(const QueueConfig& c, int32_t parent,
                           const std::map<std::string, std::string>& inherited) {
    const uint32_t index = uint32_t(queues.size());
    queues.emplace_back();
    {
        Queue& q = queues.back();
        q.name = lower(c.name);
        q.path = parent < 0 ? q.name : queues[size_t(parent)].path + "." + q.name;
        q.parent = parent;
        q.leaf = !c.parent && c.queues.empty();
        q.managed = true;
        q.maxRunningApps = c.maxApplications;
        q.submitAcl = Acl(c.submitAcl);
        q.adminAcl = Acl(c.adminAcl);
        q.source = c.source;
        if (parent >= 0) {
            Res max = toRes(c.max, dims), guaranteed = toRes(c.guaranteed, dims);
            if (strictlyGreaterThanZero(max)) q.max = max;
            if (strictlyGreaterThanZero(guaranteed)) q.guaranteed = guaranteed;
        }
        // The parent's properties, filtered (mergeProperties), under this queue's own.
        q.properties = inherited;
        for (auto& [key, value] : q.properties) {
            if (key == "priority.policy")
                value = "default";
            else if (key == "priority.offset")
                value = "0";
            else if (key == "preemption.policy" && lower(value) != "disabled")
                value = "default";
        }
        for (const auto& [key, value] : c.properties) q.properties[key] = value;
        applyProperties(q);
        // A parent's own template, else the one its parent passes on (Queue.addChildQueue).
        if (!q.leaf) {
            q.childTemplate = parent >= 0 ? queues[size_t(parent)].childTemplate : -1;
            if (int32_t own = templateOf(c.childTemplate); own >= 0) queues.back().childTemplate = own;
        }
    }
    if (parent >= 0) queues[size_t(parent)].children.push_back(index);
    const auto props = queues[index].properties;
    for (const auto& child : c.queues) buildQueue(child, int32_t(index), props);
}

// template.FromConf: an empty template is none; resources count only when strictly above zero,
// properties only with a key and a value. Returns its index in `templates`, -1 for none.
int32_t Partition::templateOf(const ChildTemplate& conf) {
    QueueTemplate t;
    t.maxApplications = conf.maxApplications;
    for (const auto& [key, value] : conf.properties)
        if (!key.empty() && !value.empty()) t.properties[key] = value;
    Res max = toRes(conf.max, dims), guaranteed = toRes(conf.guaranteed, dims);
    if (t.maxApplications == 0 && t.properties.empty() && conf.max.empty() && conf.guaranteed.empty())
        return -1;
    if (strictlyGreaterThanZero(max)) t.max = max;
    if (strictlyGreaterThanZero(guaranteed)) t.guaranteed = guaranteed;
    templates.push_back(std::move(t));
    return int32_t(templates.size()) - 1;
}

// UpdateQueueProperties: defaults, then every known property; bad values keep the default.
void Partition::applyProperties(Queue& q) {
    q.sortType = q.leaf ? SortPolicy::Fifo : SortPolicy::Fair;
    q.prioritySortEnabled = true;
    q.priorityOffset = 0;
    q.priorityPolicy = PriorityPolicy::Default;
    q.preemptionPolicy = PreemptionPolicy::Default;
    q.preemptionDelay = 30;
    q.unschedAskBackoff = 0;
    q.askBackoffDelay = 30;
    if (q.path == kRecoveryQueue) return;
    for (const auto& [key, value] : q.properties) {
        const std::string v = lower(value);
        if (key == "application.sort.policy") {
            if (q.leaf) q.sortType = value == "fair" ? SortPolicy::Fair : SortPolicy::Fifo;
        } else if (key == "application.sort.priority") {
            q.prioritySortEnabled = v != "disabled";
        } else if (key == "priority.offset") {
            if (auto n = parseGoInt(value); n && *n >= INT32_MIN && *n <= INT32_MAX)
                q.priorityOffset = int32_t(*n);
        } else if (key == "priority.policy") {
            q.priorityPolicy = v == "fence" ? PriorityPolicy::Fence : PriorityPolicy::Default;
        } else if (key == "preemption.policy") {
            q.preemptionPolicy = v == "fence"      ? PreemptionPolicy::Fence
                                 : v == "disabled" ? PreemptionPolicy::Disabled
                                                   : PreemptionPolicy::Default;
        } else if (key == "preemption.delay") {
            if (q.leaf) q.preemptionDelay = delayOf(value, 30);
        } else if (key == "application.unschedasks.backoff") {
            if (auto n = parseGoInt(value); n && *n >= 0) q.unschedAskBackoff = uint64_t(*n);
        } else if (key == "application.unschedasks.backoff.delay") {
            q.askBackoffDelay = delayOf(value, 30);
        }
    }
}

int32_t Partition::findQueue(const std::string& path) const {
    const std::string p = lower(path);
    if (p != "root" && p.rfind("root.", 0) != 0) return -1;
    uint32_t q = 0;
    size_t start = 5;
    if (p == "root") return 0;
    while (start <= p.size()) {
        size_t dot = p.find('.', start);
        std::string part = p.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        int32_t next = -1;
        for (uint32_t c : queues[q].children)
            if (queues[c].name == part) next = int32_t(c);
        if (next < 0) return -1;
        q = uint32_t(next);
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    return int32_t(q);
}

bool Partition::checkSubmitAccess(uint32_t q, const UserGroup& user) const {
    for (int32_t at = int32_t(q); at >= 0; at = queues[size_t(at)].parent) {
        const Queue& queue = queues[size_t(at)];
        if (queue.path == kRecoveryQueue) return false;
        if (queue.submitAcl.allows(user) || queue.adminAcl.allows(user)) return true;
    }
    return false;
}

// createQueue: the missing part of the path below its nearest existing ancestor, a parent that
// the user may submit to; the last part becomes a leaf.
int32_t Partition::createDynamicQueue(const std::string& path, const UserGroup& user, std::string* why) {
    if (path.rfind("root", 0) != 0 || path.find('.') == std::string::npos) {
        *why = "illegal queue name passed in: " + path;
        return -1;
    }
    std::vector<std::string> toCreate;
    std::string current = path;
    int32_t q = findQueue(current);
    while (q < 0) {
        toCreate.push_back(current.substr(current.rfind('.') + 1));
        current = current.substr(0, current.rfind('.'));
        q = findQueue(current);
    }
    if (!checkSubmitAccess(uint32_t(q), user)) {
        *why = "submit access to queue " + current + " denied during create of: " + path;
        return -1;
    }
    if (queues[size_t(q)].leaf) {
        *why = "creation of queue " + path + " failed parent is already a leaf: " + current;
        return -1;
    }
    for (size_t i = toCreate.size(); i-- > 0;) {
        if (!validQueueName(toCreate[i]) || toCreate[i] == "@recovery@") {
            *why = "invalid queue name " + toCreate[i];
            return -1;
        }
        const uint32_t index = uint32_t(queues.size());
        Queue nq;
        nq.name = lower(toCreate[i]);
        nq.path = queues[size_t(q)].path + "." + nq.name;
        nq.parent = q;
        nq.leaf = i == 0;
        nq.managed = false;
        const int32_t tmpl = queues[size_t(q)].childTemplate;
        if (!nq.leaf) {
            nq.childTemplate = tmpl;
        } else if (tmpl >= 0) {
            // applyTemplate: the template's settings replace the new leaf's.
            const QueueTemplate& t = templates[size_t(tmpl)];
            nq.maxRunningApps = t.maxApplications;
            nq.properties = t.properties;
            nq.guaranteed = t.guaranteed;
            nq.max = t.max;
        }
        applyProperties(nq);
        queues.push_back(std::move(nq));
        queues[size_t(q)].children.push_back(index);
        q = int32_t(index);
    }
    return q;
}

// Queue.setResources: a resource strictly above zero replaces the queue's, anything else clears it.
void Partition::setResources(Queue& q, const Res& guaranteed, const Res& max) {
    q.max = strictlyGreaterThanZero(max) ? max : Res();
    q.guaranteed = strictlyGreaterThanZero(guaranteed) ? guaranteed : Res();
}

// ---------------------------------------------------------------- queue accounting

void Partition::incPending(uint32_t q, const Res& delta) {
    for (int32_t at = int32_t(q); at >= 0; at = queues[size_t(at)].parent)
        queues[size_t(at)].pending = add(queues[size_t(at)].pending, delta);
}

void Partition::decPending(uint32_t q, const Res& delta) {
    for (int32_t at = int32_t(q); at >= 0; at = queues[size_t(at)].parent) {
        Res& p = queues[size_t(at)].pending;
        p = subEliminateNegative(p, delta);
        p.prune();
    }
}

void Partition::incAllocated(uint32_t q, const Res& delta) {
    for (int32_t at = int32_t(q); at >= 0; at = queues[size_t(at)].parent)
        queues[size_t(at)].allocated = add(queues[size_t(at)].allocated, delta);
}

// TryIncAllocatedResource: every queue on the path must stay within its max (root: its types only).
bool Partition::tryIncAllocated(uint32_t q, const Res& delta) {
    for (int32_t at = int32_t(q); at >= 0; at = queues[size_t(at)].parent) {
        const Queue& queue = queues[size_t(at)];
        Res sum = addOnlyExisting(delta, queue.allocated);
        bool fits = queue.parent < 0 ? queue.max.fitIn(sum) : queue.max.fitInMaxUndef(sum);
        if (!queue.max.isNil() || queue.parent < 0) {
            if (!fits) return false;
        }
    }
    incAllocated(q, delta);
    return true;
}

void Partition::decAllocated(uint32_t q, const Res& delta) {
    for (int32_t at = int32_t(q); at >= 0; at = queues[size_t(at)].parent) {
        Res& a = queues[size_t(at)].allocated;
        a = sub(a, delta);
        a.prune();
    }
}

void Partition::incPreempting(uint32_t q, const Res& delta) {
    for (int32_t at = int32_t(q); at >= 0; at = queues[size_t(at)].parent)
        queues[size_t(at)].preempting = add(queues[size_t(at)].preempting, delta);
}

void Partition::decPreempting(uint32_t q, const Res& delta) {
    for (int32_t at = int32_t(q); at >= 0; at = queues[size_t(at)].parent) {
        Res& p = queues[size_t(at)].preempting;
        p = sub(p, delta);
        p.prune();
    }
}

// getHeadRoom: the room below each max on the path, the smallest of all.
Res Partition::headRoom(uint32_t q) const {
    std::vector<uint32_t> path;
    for (int32_t at = int32_t(q); at >= 0; at = queues[size_t(at)].parent) path.push_back(uint32_t(at));
    Res room;
    for (size_t i = path.size(); i-- > 0;) {
        const Queue& queue = queues[path[i]];
        if (queue.max.isNil()) continue;
        Res own = subOnlyExisting(queue.max, queue.allocated);
        room = room.isNil() ? own : componentWiseMin(own, room);
    }
    return room;
}

Res Partition::maxResource(uint32_t q) const {
    Res limit;
    std::vector<uint32_t> path;
    for (int32_t at = int32_t(q); at >= 0; at = queues[size_t(at)].parent) path.push_back(uint32_t(at));
    for (size_t i = path.size(); i-- > 0;) {
        const Res& max = queues[path[i]].max;
        if (limit.isNil())
            limit = max;
        else if (!max.isNil())
            limit = componentWiseMin(limit, max);
    }
    return limit;
}

// GetFairMaxResource: the root's max with each queue's own max overriding it on the way down.
Res Partition::fairMaxResource(uint32_t q) const {
    if (queues[q].parent < 0) return maxResource(q);
    Res out = fairMaxResource(uint32_t(queues[q].parent));
    const Res& max = queues[q].max;
    if (max.isEmpty() || out.isEmpty()) return out;
    for (int d = 0; d < kMaxResDims; ++d)
        if (max.has(d)) out.set(d, max.get(d));
    return out;
}

// GetMaxQueueSet: as maxResource without the root (the cluster size).
Res Partition::maxQueueSet(uint32_t q) const {
    if (queues[q].parent < 0) return Res();
    Res parent = maxQueueSet(uint32_t(queues[q].parent));
    const Res& max = queues[q].max;
    if (parent.isNil()) return max;
    if (max.isNil()) return parent;
    return componentWiseMin(parent, max);
}

bool Partition::canRunApp(uint32_t q, uint32_t app) {
    for (int32_t at = int32_t(q); at >= 0; at = queues[size_t(at)].parent) {
        const Queue& queue = queues[size_t(at)];
        if (queue.maxRunningApps == 0) continue;
        const auto& acc = queue.allocatingAccepted;
        if (std::find(acc.begin(), acc.end(), app) != acc.end()) continue;
        if (queue.runningApps + acc.size() + 1 > queue.maxRunningApps) return false;
    }
    return true;
}

void Partition::setAllocatingAccepted(uint32_t q, uint32_t app) {
    for (int32_t at = int32_t(q); at >= 0; at = queues[size_t(at)].parent) {
        auto& acc = queues[size_t(at)].allocatingAccepted;
        if (std::find(acc.begin(), acc.end(), app) == acc.end()) acc.push_back(app);
    }
}

void Partition::incRunningApps(uint32_t q, uint32_t app) {
    for (int32_t at = int32_t(q); at >= 0; at = queues[size_t(at)].parent) {
        Queue& queue = queues[size_t(at)];
        std::erase(queue.allocatingAccepted, app);
        ++queue.runningApps;
        if (queue.maxRunningApps > 0 && queue.runningApps > queue.maxRunningApps)
            queue.runningApps = queue.maxRunningApps;
    }
}

void Partition::decRunningApps(uint32_t q) {
    for (int32_t at = int32_t(q); at >= 0; at = queues[size_t(at)].parent)
        if (queues[size_t(at)].runningApps > 0) --queues[size_t(at)].runningApps;
}

// priorityValueByPolicy
int32_t Partition::currentPriority(const Queue& q) const {
    if (q.currentPriority == kMinPriority) return kMinPriority;
    if (q.priorityPolicy == PriorityPolicy::Fence) return q.priorityOffset;
    const int64_t v = int64_t(q.priorityOffset) + int64_t(q.currentPriority);
    return int32_t(std::clamp<int64_t>(v, kMinPriority, kMaxPriority));
}

int32_t Partition::recalculatePriority(Queue& q) {
    int32_t cur = kMinPriority;
    if (q.leaf) {
        // The largest of appPriorities' values (every value is at least kMinPriority).
        if (!q.appPriorityCount.empty()) cur = q.appPriorityCount.rbegin()->first;
    } else {
        for (const auto& [k, v] : q.childPriorities) cur = std::max(cur, v);
    }
    q.currentPriority = cur;
    return currentPriority(q);
}

void Partition::uncountAppPriority(Queue& q, int32_t value) {
    auto it = q.appPriorityCount.find(value);
    if (--it->second == 0) q.appPriorityCount.erase(it);
}

// One of the priorities the queue's is the largest of changed: the largest is looked for again only
// when the one that was it went down.
int32_t Partition::setPriority(Queue& q, std::map<uint32_t, int32_t>& priorities, uint32_t key,
                               int32_t value) {
    auto [at, added] = priorities.try_emplace(key, value);
    const int32_t old = at->second;
    at->second = value;
    if (&priorities == &q.appPriorities) {
        if (!added) uncountAppPriority(q, old);
        ++q.appPriorityCount[value];
    }
    if (value >= q.currentPriority) {
        q.currentPriority = value;
        return currentPriority(q);
    }
    if (!added && old == q.currentPriority) return recalculatePriority(q);
    return currentPriority(q);
}

void Partition::updateQueuePriority(uint32_t q, uint32_t child, int32_t value) {
    for (int32_t at = int32_t(q); at >= 0;) {
        Queue& queue = queues[size_t(at)];
        if (queue.leaf) return;
        value = setPriority(queue, queue.childPriorities, child, value);
        child = uint32_t(at);
        at = queue.parent;
    }
}

void Partition::updateAppPriority(uint32_t app) {
    const Application& a = apps[app];
    Queue& q = queues[a.queue];
    const int32_t value = setPriority(q, q.appPriorities, app, a.askMaxPriority);
    if (q.parent >= 0) updateQueuePriority(uint32_t(q.parent), a.queue, value);
}

void Partition::queueReserve(uint32_t q, uint32_t app) {
    auto& list = queues[q].reservedApps;
    for (auto& [a, n] : list)
        if (a == app) {
            ++n;
            return;
        }
    list.emplace_back(app, 1);
}

void Partition::queueUnReserve(uint32_t q, uint32_t app, int releases) {
    auto& list = queues[q].reservedApps;
    for (auto it = list.begin(); it != list.end(); ++it)
        if (it->first == app) {
            if (it->second <= releases)
                list.erase(it);
            else
                it->second -= releases;
            return;
        }
}

// ---------------------------------------------------------------- nodes

void Partition::setNodes(std::vector<Node> list) {
    Res total = Res::empty();
    for (const auto& n : list) total.addTo(n.total);
    nodes.init(std::move(list));
    // The root's max is the partition's size (updatePartitionResource).
    queues[0].max = strictlyGreaterThanZero(total) ? total : Res();
}

void Partition::addForeign(uint32_t node, const Res& res) {
    nodes[node].occupied = add(nodes[node].occupied, res);
    nodes.updated(node);
}

void Partition::removeForeign(uint32_t node, const Res& res) {
    nodes[node].occupied = sub(nodes[node].occupied, res);
    nodes[node].occupied.prune();
    nodes.updated(node);
}

// ---------------------------------------------------------------- applications

uint32_t Partition::appIndex(const std::string& id) const {
    for (uint32_t i = 0; i < apps.size(); ++i)
        if (apps[i].queue != kNone && apps[i].id == id) return i;
    return kNone;
}

bool Partition::addApplication(Application app, std::string* why, uint32_t* added) {
    PlacementRequest req;
    req.queue = app.queuePath;
    req.user = app.user;
    req.tags = app.tags;
    req.forced = app.forced;
    const UserGroup user = app.user;
    QueueLookup lookup = [&](const std::string& path) {
        QueueView v;
        int32_t q = findQueue(path);
        if (q < 0) return v;
        v.exists = true;
        v.leaf = queues[size_t(q)].leaf;
        v.submitAllowed = checkSubmitAccess(uint32_t(q), user);
        return v;
    };
    std::string rejection;
    std::string path = placement.place(req, lookup, &rejection);
    if (path.empty()) {
        *why = rejection;
        return false;
    }
    int32_t q = findQueue(path);
    if (q < 0) {
        if (path == kRecoveryQueue) {
            Queue rq;
            rq.name = "@recovery@";
            rq.path = kRecoveryQueue;
            rq.parent = 0;
            rq.leaf = true;
            rq.managed = false;
            applyProperties(rq);
            q = int32_t(queues.size());
            queues.push_back(std::move(rq));
            queues[0].children.push_back(uint32_t(q));
        } else {
            std::string err;
            q = createDynamicQueue(path, user, &err);
            if (q < 0) {
                *why =
                    "failed to create rule based queue " + path + " for application " + app.id + ": " + err;
                return false;
            }
        }
    }
    if (!queues[size_t(q)].leaf) {
        *why = "failed to find queue " + path + " for application " + app.id;
        return false;
    }
    // A queue the rules created takes its limits from the application's namespace tags (each
    // application sets them again); a configured one keeps its own.
    if (app.queueTags && path != kRecoveryQueue && !queues[size_t(q)].managed) {
        const Application::QueueTags& tags = *app.queueTags;
        Queue& queue = queues[size_t(q)];
        if (tags.maxApps != 0) queue.maxRunningApps = tags.maxApps;
        if (!tags.max.isNil() || !tags.guaranteed.isNil()) setResources(queue, tags.guaranteed, tags.max);
    }
    if (!isZero(app.placeholderAsk)) {
        if (queues[size_t(q)].sortType != SortPolicy::Fifo) {
            *why = "queue " + path + " cannot run application " + app.id +
                   " with task group request: unsupported sort type";
            return false;
        }
        Res maxQueue = maxQueueSet(uint32_t(q));
        if (!maxQueue.isNil() && !maxQueue.fitInMaxUndef(app.placeholderAsk)) {
            *why = "queue " + path + " cannot fit application " + app.id + ": task group request " +
                   app.placeholderAsk.str(dims.names) + " larger than max queue allocation " +
                   maxQueue.str(dims.names);
            return false;
        }
    }
    app.queue = uint32_t(q);
    app.queuePath = queues[size_t(q)].path;
    app.seq = nextAppSeq++;
    uint32_t index;
    if (!freeApps_.empty()) {
        index = freeApps_.back();
        freeApps_.pop_back();
        apps[index] = std::move(app);
    } else {
        index = uint32_t(apps.size());
        apps.push_back(std::move(app));
    }
    queues[size_t(q)].apps.push_back(index);
    ++queues[size_t(q)].appsRevision;
    *added = index;
    return true;
}

void Partition::insertSorted(Application& a, uint32_t ask) {
    // Highest priority first, then the oldest; equal asks keep the order they came in.
    auto before = [&](uint32_t x, uint32_t y) {
        const Ask& l = asks[x];
        const Ask& r = asks[y];
        if (l.priority != r.priority) return l.priority > r.priority;
        return l.createTime < r.createTime;
    };
    auto it = std::upper_bound(a.sortedRequests.begin(), a.sortedRequests.end(), ask, before);
    a.sortedRequests.insert(it, ask);
    revised(a);
}

void Partition::eraseSorted(Application& a, uint32_t ask) {
    std::erase(a.sortedRequests, ask);
    revised(a);
}

void Partition::transition(uint32_t app, AppState to) {
    Application& a = apps[app];
    const AppState from = a.state;
    if (from == to) return;
    if (from == AppState::Running) decRunningApps(a.queue);
    a.state = to;
    if (to == AppState::Running) incRunningApps(a.queue, app);
}

// The runApplication event: New/Resuming -> Accepted, Accepted/Running/Completing -> Running.
void Partition::runApplication(uint32_t app) {
    switch (apps[app].state) {
    case AppState::New:
    case AppState::Resuming:
        transition(app, AppState::Accepted);
        break;
    case AppState::Accepted:
    case AppState::Running:
    case AppState::Completing:
        transition(app, AppState::Running);
        break;
    default:
        break;
    }
}

void Partition::completeApplication(uint32_t app) {
    switch (apps[app].state) {
    case AppState::Accepted:
    case AppState::Running:
        transition(app, AppState::Completing);
        break;
    case AppState::Completing:
        transition(app, AppState::Completed);
        break;
    default:
        break;
    }
}

void Partition::failApplication(uint32_t app) {
    switch (apps[app].state) {
    case AppState::New:
    case AppState::Accepted:
    case AppState::Running:
        transition(app, AppState::Failing);
        break;
    case AppState::Failing:
        transition(app, AppState::Failed);
        break;
    default:
        break;
    }
}

uint32_t Partition::takeAskSlot(Ask ask) {
    ask.order = nextAskOrder++;
    if (freeAsks_.empty()) {
        asks.push_back(std::move(ask));
        return uint32_t(asks.size()) - 1;
    }
    const uint32_t index = freeAsks_.back();
    freeAsks_.pop_back();
    asks[index] = std::move(ask);
    return index;
}

uint32_t Partition::addAsk(uint32_t app, Ask ask) {
    ask.app = app;
    const uint32_t index = takeAskSlot(std::move(ask));
    Application& a = apps[app];
    const Ask& k = asks[index];
    if (k.createTime < a.submissionTime) a.submissionTime = k.createTime;
    if (a.state == AppState::New || a.state == AppState::Completing) runApplication(app);
    a.requests.push_back(index);
    if (k.priority > a.askMaxPriority) {
        a.askMaxPriority = k.priority;
        updateAppPriority(app);
    }
    if (k.placeholder && k.taskGroup >= 0) a.placeholderData[size_t(k.taskGroup)].count++;
    const Res& res = askRes[k.res];
    a.pending = add(a.pending, res);
    a.pending.prune();
    incPending(a.queue, res);
    insertSorted(a, index);
    watchClock(app);
    return index;
}

// UpdateAllocation of an allocation the shim found already placed: the queue and node count it
// whatever their limits.
uint32_t Partition::recoverAllocation(uint32_t app, Ask newAsk, uint32_t node, double now) {
    newAsk.app = app;
    const uint32_t ask = takeAskSlot(std::move(newAsk));
    Ask& k = asks[ask];
    Application& a = apps[k.app];
    const Res& res = askRes[k.res];
    incAllocated(a.queue, res);
    Node& n = nodes[node];
    n.allocated.addTo(res);
    nodes.updated(node);
    k.allocated = true;
    k.node = int32_t(node);
    k.bindTime = now;
    if (a.state == AppState::New) runApplication(k.app);
    a.requests.push_back(ask);
    if (k.placeholder && k.taskGroup >= 0) a.placeholderData[size_t(k.taskGroup)].count++;
    addAllocationToApp(k.app, ask, false);
    if (k.placeholder) ++placeholderAllocations;
    return ask;
}

void Partition::updateAskMaxPriority(uint32_t app) {
    Application& a = apps[app];
    int32_t value = kMinPriority;
    for (uint32_t r : a.requests)
        if (!asks[r].allocated) value = std::max(value, asks[r].priority);
    a.askMaxPriority = value;
    updateAppPriority(app);
}

Res Partition::allocateAsk(uint32_t ask) {
    Ask& k = asks[ask];
    Application& a = apps[k.app];
    k.allocated = true;
    revised(a);
    if (k.priority >= a.askMaxPriority) updateAskMaxPriority(k.app);
    const Res& res = askRes[k.res];
    a.pending = sub(a.pending, res);
    a.pending.prune();
    decPending(a.queue, res);
    return res;
}

void Partition::deallocateAsk(uint32_t ask) {
    Ask& k = asks[ask];
    Application& a = apps[k.app];
    k.allocated = false;
    revised(a);
    if (k.priority > a.askMaxPriority) {
        a.askMaxPriority = k.priority;
        updateAppPriority(k.app);
    }
    const Res& res = askRes[k.res];
    a.pending = add(a.pending, res);
    incPending(a.queue, res);
    watchClock(k.app);
}

// addAllocationInternal
void Partition::addAllocationToApp(uint32_t app, uint32_t ask, bool replaced) {
    Application& a = apps[app];
    revised(a);
    Ask& k = asks[ask];
    const Res& res = askRes[k.res];
    if (k.placeholder) {
        if (isZero(a.allocatedPlaceholder)) {
            a.hasPlaceholderAlloc = true;
            if (a.placeholderTimer == kNever && a.state == AppState::Accepted && a.execTimeout > 0) {
                a.placeholderTimer = k.bindTime + a.execTimeout;
                watchClock(app);
            }
        }
        ugm.increase(a.queuePath, app, res, a.user);
        a.allocatedPlaceholder = add(a.allocatedPlaceholder, res);
        if (equals(a.allocatedPlaceholder, a.placeholderAsk)) runApplication(app);
    } else {
        if (!replaced || !isZero(a.allocated) || a.state == AppState::Completing) runApplication(app);
        ugm.increase(a.queuePath, app, res, a.user);
        a.allocated = add(a.allocated, res);
    }
    if (k.createTime < a.submissionTime) a.submissionTime = k.createTime;
    a.allocations.push_back(ask);
}

bool Partition::canReplace(const Application& a, const Ask& ask) const {
    if (ask.placeholder || ask.taskGroup < 0) return false;
    if (size_t(ask.taskGroup) >= a.placeholderData.size()) return false;
    const auto& d = a.placeholderData[size_t(ask.taskGroup)];
    return d.count > d.replaced + d.timedOut;
}

// ---------------------------------------------------------------- reservations

int Partition::reservationIndex(const Application& a, uint32_t ask) const {
    for (size_t i = 0; i < a.reservations.size(); ++i)
        if (a.reservations[i].ask == ask) return int(i);
    return -1;
}

int Partition::unReserveInternal(uint32_t app, int index) {
    Application& a = apps[app];
    const Reservation r = a.reservations[size_t(index)];
    std::erase(nodes[r.node].reservations, r.ask);
    nodes.reservationsChanged(r.node);
    a.reservations.erase(a.reservations.begin() + index);
    revised(a);
    return 1;
}

bool Partition::reserveInternal(uint32_t app, uint32_t node, uint32_t ask, double now) {
    Application& a = apps[app];
    Ask& k = asks[ask];
    if (k.allocated || reservationIndex(a, ask) >= 0) return false;
    Node& n = nodes[node];
    const bool required = k.hasRequiredNode();
    if (!required && n.reserved()) return false;
    if (required)
        for (uint32_t other : n.reservations)
            if (!asks[other].hasRequiredNode()) return false;
    if (!n.total.fitIn(askRes[k.res])) return false;
    n.reservations.push_back(ask);
    nodes.reservationsChanged(node);
    a.reservations.push_back(Reservation{ask, node, now});
    revised(a);
    return true;
}

void Partition::reserve(uint32_t app, uint32_t node, uint32_t ask, double now) {
    Application& a = apps[app];
    int existing = reservationIndex(a, ask);
    if (existing >= 0) {
        if (a.reservations[size_t(existing)].node == node) return;
        unReserve(app, a.reservations[size_t(existing)].node, ask);
    }
    if (!reserveInternal(app, node, ask, now)) return;
    queueReserve(a.queue, app);
    ++reservationCount;
}

void Partition::unReserve(uint32_t app, uint32_t node, uint32_t ask) {
    (void)node;
    Application& a = apps[app];
    int index = reservationIndex(a, ask);
    int num = index >= 0 ? unReserveInternal(app, index) : 0;
    queueUnReserve(a.queue, app, num);
    reservationCount -= num;
}

// ---------------------------------------------------------------- the shim's releases

void Partition::removeAllocation(uint32_t ask, bool placeholderReplaced) {
    Ask& k = asks[ask];
    if (!k.allocated || k.node < 0) return;
    const uint32_t app = k.app;
    Application& a = apps[app];
    const Res& res = askRes[k.res];
    const uint32_t node = uint32_t(k.node);
    if (k.preempted) decPreempting(a.queue, res);
    decAllocated(a.queue, res);
    nodes[node].allocated.subFrom(res);
    nodes[node].allocated.prune();
    nodes.updated(node);
    std::erase(a.allocations, ask);
    bool removeApp = false;
    if (k.placeholder) {
        if (k.taskGroup >= 0) {
            auto& d = a.placeholderData[size_t(k.taskGroup)];
            if (placeholderReplaced)
                ++d.replaced;
            else
                ++d.timedOut;
        }
        --placeholderAllocations;
        a.allocatedPlaceholder = sub(a.allocatedPlaceholder, res);
        a.allocatedPlaceholder.prune();
        if (isZero(a.allocatedPlaceholder)) {
            a.placeholderTimer = kNever;
            a.hasPlaceholderAlloc = false;
            const bool zero = isZero(a.pending) && isZero(a.allocated);
            if ((a.state == AppState::Completing) || a.state == AppState::Failing ||
                a.state == AppState::Resuming || zero) {
                removeApp = a.state != AppState::Resuming;
                if (a.state == AppState::Failing)
                    failApplication(app);
                else if (a.state == AppState::Resuming)
                    runApplication(app);
                else
                    completeApplication(app);
            }
        }
        ugm.decrease(a.queuePath, app, res, a.user, removeApp);
        // The real allocation replacing it takes its place (on the placeholder's node, or already on
        // the node it was placed on).
        if (placeholderReplaced && k.release != kNone) {
            const uint32_t realAsk = k.release;
            Ask& real = asks[realAsk];
            real.release = kNone;
            addAllocationToApp(app, realAsk, true);
            incAllocated(a.queue, askRes[real.res]);
            if (real.node == int32_t(node)) {
                nodes[node].allocated.addTo(askRes[real.res]);
                nodes.updated(node);
            }
        }
    } else {
        a.allocated = sub(a.allocated, res);
        a.allocated.prune();
        if (isZero(a.pending) && isZero(a.allocated)) {
            removeApp = true;
            completeApplication(app);
        }
        ugm.decrease(a.queuePath, app, res, a.user, removeApp);
    }
    k.allocated = false;
    k.node = -1;
    k.removed = true;
    std::erase(a.requests, ask);
    eraseSorted(a, ask);
}

void Partition::removeAsk(uint32_t ask) {
    Ask& k = asks[ask];
    if (k.allocated || k.removed) return;
    Application& a = apps[k.app];
    int r = reservationIndex(a, ask);
    if (r >= 0) {
        int num = unReserveInternal(k.app, r);
        queueUnReserve(a.queue, k.app, num);
        reservationCount -= num;
    }
    const Res& res = askRes[k.res];
    a.pending = sub(a.pending, res);
    a.pending.prune();
    decPending(a.queue, res);
    k.removed = true;
    std::erase(a.requests, ask);
    eraseSorted(a, ask);
    if (k.priority >= a.askMaxPriority) updateAskMaxPriority(k.app);
    const bool placeholders = !a.allocatedPlaceholder.isEmpty() && !isZero(a.allocatedPlaceholder);
    if (isZero(a.pending) && isZero(a.allocated) && a.state != AppState::Failing &&
        a.state != AppState::Completing && !placeholders)
        completeApplication(k.app);
}

void Partition::removeAsksOfApp(uint32_t app) {
    Application& a = apps[app];
    std::vector<uint32_t> pending;
    for (uint32_t r : a.requests)
        if (!asks[r].allocated) pending.push_back(r);
    for (uint32_t r : pending) removeAsk(r);
}

void Partition::removeApplication(uint32_t app) {
    Application& a = apps[app];
    removeAsksOfApp(app);
    std::vector<uint32_t> allocs = a.allocations;
    for (uint32_t r : allocs) removeAllocation(r, false);
    std::erase(queues[a.queue].apps, app);
    ++queues[a.queue].appsRevision;
    a.quiet.reset();
    std::erase(queues[a.queue].allocatingAccepted, app);
    for (int32_t at = int32_t(a.queue); at >= 0; at = queues[size_t(at)].parent)
        std::erase(queues[size_t(at)].allocatingAccepted, app);
    if (auto it = queues[a.queue].appPriorities.find(app); it != queues[a.queue].appPriorities.end()) {
        uncountAppPriority(queues[a.queue], it->second);
        queues[a.queue].appPriorities.erase(it);
    }
    const int32_t value = recalculatePriority(queues[a.queue]);
    if (queues[a.queue].parent >= 0) updateQueuePriority(uint32_t(queues[a.queue].parent), a.queue, value);
    if (a.state == AppState::Running) decRunningApps(a.queue);
    a.state = AppState::Completed;
}

void Partition::releaseApplication(uint32_t app, const std::vector<uint32_t>& appAsks) {
    Application& a = apps[app];
    // The user trackers keep applications by index (their running sets and groups): with limits
    // the slot is not reused.
    if (ugm.limited() || !a.requests.empty() || !a.allocations.empty() || !a.reservations.empty()) return;
    const Queue& q = queues[a.queue];
    if (q.appPriorities.count(app)) return;
    for (const auto& [other, n] : q.reservedApps)
        if (other == app) return;
    for (uint32_t k : appAsks)
        if (asks[k].app != app) return;
#ifdef GANTRY_YK_VERIFY
    // Nothing else names the application or its asks any more.
    for (const Queue& queue : queues) {
        if (std::find(queue.apps.begin(), queue.apps.end(), app) != queue.apps.end() ||
            std::find(queue.allocatingAccepted.begin(), queue.allocatingAccepted.end(), app) !=
                queue.allocatingAccepted.end())
            std::abort();
        for (const auto& [other, n] : queue.reservedApps)
            if (other == app) std::abort();
    }
    for (uint32_t n = 0; n < nodes.size(); ++n)
        for (uint32_t r : nodes[n].reservations)
            if (asks[r].app == app) std::abort();
    for (uint32_t r : requiredNodeVictims)
        if (asks[r].app == app) std::abort();
#endif
    if (a.clockWatched) std::erase(clockApps_, app);
    for (uint32_t k : appAsks) {
        asks[k] = Ask{};
        freeAsks_.push_back(k);
    }
    a = Application{}; // queue kNone marks the slot free
    freeApps_.push_back(app);
}

} // namespace gantry::engine::yunikorn
