#include "yunikorn_config.h"

#include "input_error.h"
#include "model/yunikorn_names.h"
#include "model/yunikorn_quantity.h"
#include "yaml/plain_scalar.h"
#include "yaml/yaml_source.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <set>

namespace gantry {

namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The queue names of a partition's tree, for saying what a left-out partition held.
void queueNames(const Y& queues, std::vector<std::string>& out) {
    for (const auto& q : queues.items()) {
        out.push_back(q["name"].str());
        queueNames(q["queues"], out);
    }
}

// YuniKorn accepts a list or a single string for users and groups.
std::vector<std::string> listOrString(const Y& node) {
    if (node.isScalar()) return {node.str()};
    return node.strings();
}

// Resources in YuniKorn's own quantity syntax (model/yunikorn_quantity.h): what YuniKorn would
// refuse is refused here too, at its key, so gantry validate and the profile agree.
ResourceList yunikornResources(const Y& node) {
    ResourceList out;
    for (const auto& [name, value] : node.entries()) {
        if (name.empty()) value.fail("empty resource name");
        if (!value.isScalar()) value.fail("expected a quantity for " + name);
        std::string why;
        auto amount = parseYuniKornAmount(name, value.str(), &why);
        if (!amount) value.fail("'" + value.str() + "' is not a YuniKorn quantity for " + name + ": " + why);
        out.set(name, *amount);
    }
    return out;
}

QueueLimit readLimit(const Y& node) {
    node.checkKeys("limit", {"limit", "users", "groups", "maxresources", "maxapplications"});
    QueueLimit l;
    l.description = node["limit"].str();
    l.users = listOrString(node["users"]);
    l.groups = listOrString(node["groups"]);
    if (l.users.empty() && l.groups.empty()) node.fail("a limit needs at least one user or group");
    l.maxResources = yunikornResources(node["maxresources"]);
    l.maxApplications = node["maxapplications"].u64(0);
    if (l.maxApplications == 0 && l.maxResources.empty())
        node.fail("a limit needs maxapplications or maxresources");
    return l;
}

PlacementRule readRule(const Y& node) {
    node.checkKeys("placement rule", {"name", "create", "filter", "parent", "value"});
    PlacementRule r;
    r.name = lower(node["name"].str());
    static const std::set<std::string> known{"provided", "user", "fixed", "tag"};
    if (!known.count(r.name))
        node["name"].fail("unknown placement rule '" + node["name"].str() +
                          "' (expected provided, user, fixed or tag)");
    r.create = node["create"].boolean(false);
    r.value = node["value"].str();
    if ((r.name == "fixed" || r.name == "tag") && r.value.empty())
        node.fail("rule '" + r.name + "' needs a value");
    auto filter = node["filter"];
    filter.checkKeys("placement rule filter", {"type", "users", "groups"});
    r.filterType = filter["type"].str();
    if (!r.filterType.empty() && r.filterType != "allow" && r.filterType != "deny")
        filter["type"].fail("expected allow or deny, got '" + r.filterType + "'");
    r.filterUsers = listOrString(filter["users"]);
    r.filterGroups = listOrString(filter["groups"]);
    if (node["parent"].present()) r.parent.push_back(readRule(node["parent"]));
    return r;
}

void readQueue(const Y& node, const std::string& parent, std::vector<Queue>& out,
               std::set<std::string>& siblings) {
    node.checkKeys("queue", {"name", "parent", "resources", "maxapplications", "properties", "adminacl",
                             "submitacl", "queues", "limits", "childtemplate"});
    Queue q;
    q.kind = Queue::Kind::YuniKornQueue;
    q.name = node["name"].str();
    q.parent = parent;
    q.source = node["name"].present() ? node["name"].where() : node.where();
    if (q.name.empty()) node.fail("queue has no name");
    if (q.name.find('.') != std::string::npos)
        node["name"].fail("queue name '" + q.name +
                          "' must not contain a dot (dots separate levels of a queue path)");
    if (!yunikorn::validQueueName(q.name))
        node["name"].fail("invalid queue name " + q.name + ": YuniKorn queue names are " +
                          yunikorn::kQueueNameRule);
    if (!siblings.insert(lower(q.name)).second)
        node["name"].fail("queue '" + q.name + "' appears twice under the same parent");
    q.parentFlag = node["parent"].boolean(false);
    auto res = node["resources"];
    res.checkKeys("queue resources", {"guaranteed", "max"});
    q.guaranteed = yunikornResources(res["guaranteed"]);
    q.max = yunikornResources(res["max"]);
    for (const auto& [name, amount] : q.guaranteed)
        if (q.max.has(name) && amount > q.max.get(name))
            res["guaranteed"][name].fail("guaranteed " + name + " exceeds max");
    q.maxApplications = node["maxapplications"].u64(0);
    q.properties = node["properties"].stringMap();
    q.adminAcl = node["adminacl"].str();
    q.submitAcl = node["submitacl"].str();
    for (const auto& l : node["limits"].items()) q.limits.push_back(readLimit(l));
    auto tmpl = node["childtemplate"];
    tmpl.checkKeys("childtemplate", {"maxapplications", "properties", "resources"});
    q.childTemplate.maxApplications = tmpl["maxapplications"].u64(0);
    q.childTemplate.properties = tmpl["properties"].stringMap();
    auto tres = tmpl["resources"];
    tres.checkKeys("childtemplate resources", {"guaranteed", "max"});
    q.childTemplate.guaranteed = yunikornResources(tres["guaranteed"]);
    q.childTemplate.max = yunikornResources(tres["max"]);
    std::string name = q.name;
    out.push_back(std::move(q));
    std::set<std::string> children;
    for (const auto& child : node["queues"].items()) readQueue(child, name, out, children);
}

} // namespace

YuniKornConfig readYuniKornQueues(const Y& root) {
    root.checkKeys("queues.yaml", {"partitions"}, {"checksum"});
    auto partitions = root["partitions"].items();
    if (partitions.empty())
        (root["partitions"].present() ? root["partitions"] : root)
            .fail("queues.yaml needs at least one partition");
    YuniKornConfig cfg;
    const Y* chosen = &partitions.front();
    for (const auto& p : partitions)
        if (lower(p["name"].str("default")) == "default") {
            chosen = &p;
            break;
        }
    for (const auto& p : partitions) {
        if (&p == chosen) continue;
        std::vector<std::string> names;
        queueNames(p["queues"], names);
        std::string list;
        for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
        p.warn("partition '" + p["name"].str() +
               "' ignored: Gantry models one partition (the Kubernetes shim uses only 'default'); its " +
               std::to_string(names.size()) + (names.size() == 1 ? " queue" : " queues") +
               (names.empty() ? "" : " (" + list + ")") + " and limits are not carried over");
    }
    const Y& p = *chosen;
    p.checkKeys("partition", {"name", "queues", "placementrules", "limits", "preemption", "nodesortpolicy"},
                {"usergroupresolver", "statedumpfilepath"});
    auto& part = cfg.partition;
    // What YuniKorn reads but Gantry does not model travels as it was written.
    nlohmann::ordered_json unmodelled = nlohmann::ordered_json::object();
    for (const char* key : {"usergroupresolver", "statedumpfilepath"})
        if (auto v = p[key]; v.present()) unmodelled[key] = yamlToJson(v.node());
    if (!unmodelled.empty()) part.unmodelled = unmodelled.dump();
    part.name = p["name"].str("default");
    if (part.name.empty()) part.name = "default";
    for (const auto& r : p["placementrules"].items()) part.placementRules.push_back(readRule(r));
    for (const auto& l : p["limits"].items()) part.limits.push_back(readLimit(l));
    auto pre = p["preemption"];
    pre.checkKeys("partition preemption", {"enabled", "quotapreemptionenabled"});
    part.preemptionEnabled = pre["enabled"].optBool();
    part.quotaPreemptionEnabled = pre["quotapreemptionenabled"].optBool();
    auto sort = p["nodesortpolicy"];
    if (sort.isScalar()) {
        part.nodeSortPolicy = sort.str();
    } else {
        sort.checkKeys("nodesortpolicy", {"type", "resourceweights"});
        part.nodeSortPolicy = sort["type"].str();
        for (const auto& [res, w] : sort["resourceweights"].entries()) {
            double v = w.num();
            if (v < 0) w.fail("resource weight must not be negative");
            part.nodeSortWeights[res] = v;
        }
    }
    if (!part.nodeSortPolicy.empty() && part.nodeSortPolicy != "fair" && part.nodeSortPolicy != "binpacking")
        (sort.isScalar() ? sort : sort["type"])
            .fail("expected fair or binpacking, got '" + part.nodeSortPolicy + "'");

    auto queues = p["queues"].items();
    if (queues.empty()) (p["queues"].present() ? p["queues"] : p).fail("a partition needs queues");
    std::set<std::string> top;
    if (queues.size() == 1 && lower(queues[0]["name"].str()) == "root") {
        readQueue(queues[0], "", cfg.queues, top);
    } else {
        // YuniKorn inserts a root above the listed queues.
        Queue implicitRoot;
        implicitRoot.kind = Queue::Kind::YuniKornQueue;
        implicitRoot.name = "root";
        implicitRoot.source = p["queues"].where();
        cfg.queues.push_back(implicitRoot);
        for (const auto& q : queues) readQueue(q, "root", cfg.queues, top);
    }
    // The core's validator in its own words (checkQueuesStructure, configvalidator.go).
    auto& rootQueue = cfg.queues.front();
    if (!rootQueue.guaranteed.empty() || !rootQueue.max.empty())
        (queues.size() == 1 ? queues[0]["resources"] : p)
            .fail("root queue must not have resource limits set");
    return cfg;
}

YuniKornConfig readYuniKornConfigFile(const std::string& path, Diagnostics* warnings) {
    const std::string text = readTextFile(path);
    auto docs = loadDocuments(text, path);
    if (docs.empty()) throw InputError(SourceRef{path, 0, 0, 0}, "the file is empty");
    for (const auto& doc : docs) {
        auto root = readerFor(doc, warnings, nullptr);
        if (!root.isMap() || root["kind"].str() != "ConfigMap") continue;
        auto value = root["data"]["queues.yaml"];
        if (!value.present()) continue;
        if (!value.isScalar()) value.fail("expected queues.yaml as a string");
        auto inner = loadDocuments(value.str(), embeddedOrigin(value.node(), text, doc.origin, doc.index));
        if (inner.empty()) value.fail("queues.yaml is empty");
        return readYuniKornQueues(readerFor(inner[0], warnings, nullptr));
    }
    if (docs.size() > 1)
        throw InputError(SourceRef{path, 0, 0, 0},
                         "no ConfigMap with key 'queues.yaml' in this multi-document file");
    auto root = readerFor(docs[0], warnings, nullptr);
    if (root.isMap() && root["kind"].present())
        root["kind"].fail(
            "a " + root["kind"].str() +
            " is not a YuniKorn configuration (expected queues.yaml itself or a ConfigMap with key "
            "'queues.yaml')");
    return readYuniKornQueues(root);
}

} // namespace gantry
