// Volcano's rules outside the CRD schemas: the Queue webhook and ValidatingAdmissionPolicy
// (quantities, guarantee <= deserved <= capability, the queue tree and its sums), the Job webhook
// and admission policy (pkg/webhooks/admission/jobs/validate: tasks, lifecycle policies, task
// dependencies, volumes, partitions, plugins, the target queue), and HyperNode members. Messages
// follow upstream's where it has one.
#include "model/kubernetes_names.h"
#include "validation/manifest_set.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace gantry {

namespace {

constexpr int kMaxQueueDepth = 5; // volcano webhook-manager --max-queue-depth default

bool isKind(const ManifestObject& o, const char* group, const char* kind) {
    return o.content == ManifestObject::Content::Object && o.group == group && o.kind == kind;
}

std::string amountText(const std::string& resource, int64_t amount) {
    return formatAmount(resource, amount);
}

std::string listText(const ResourceList& r) {
    std::string out;
    for (const auto& [name, amount] : r)
        out += (out.empty() ? "" : ", ") + name + "=" + amountText(name, amount);
    return out.empty() ? "none" : out;
}

struct VolcanoQueue {
    const ManifestObject* object;
    std::string parent; // "" for top level ("root" is the same)
    ResourceList capability, deserved, guarantee;
    std::vector<const VolcanoQueue*> children;
};

void checkQueueQuantities(const ManifestObject& q, ProblemSink& sink) {
    const FieldPath spec = FieldPath().field("spec");
    auto nonNegative = [&](const Json* map, const FieldPath& at) {
        if (!map || !map->is_object()) return;
        for (const auto& [name, value] : map->items())
            if (auto amount = quantityAmount(name, value); amount && *amount < 0)
                sink.error(q, at.key(name), "must be greater than or equal to 0");
    };
    const Json* capJson = q.at({"spec", "capability"});
    const Json* desJson = q.at({"spec", "deserved"});
    const Json* guaJson = q.at({"spec", "guarantee", "resource"});
    nonNegative(capJson, spec.field("capability"));
    nonNegative(desJson, spec.field("deserved"));
    nonNegative(guaJson, spec.field("guarantee").field("resource"));
    ResourceList cap = quantityMap(capJson), des = quantityMap(desJson), gua = quantityMap(guaJson);
    for (const auto& [name, g] : gua) {
        if (!des.has(name)) {
            sink.error(q, spec.field("deserved").key(name),
                       "deserved[" + name + "] must be >= guarantee[" + name + "]=" + amountText(name, g) +
                           " (deserved is not set for " + name + ")");
        } else if (des.get(name) < g) {
            sink.error(q, spec.field("deserved").key(name),
                       "deserved[" + name + "]=" + amountText(name, des.get(name)) +
                           " must be >= guarantee[" + name + "]=" + amountText(name, g));
        }
    }
    // DRA quota keys (deviceclass/<class>, <dim>.deviceclass/<class>): the capacity plugin enforces
    // them in capability only (capacity.go checkDRAAllocatable); it parses deserved and guarantee
    // but never checks them, and as ordinary resources there they compare with allocations that
    // never hold them (checkGuaranteeConstraint: the queue then never yields reclaim victims).
    auto isDraKey = [](const std::string& name) {
        return name.rfind("deviceclass/", 0) == 0 || name.find(".deviceclass/") != std::string::npos;
    };
    for (const auto& [name, d] : des)
        if (isDraKey(name))
            sink.warning(
                q, spec.field("deserved").key(name),
                "Volcano's capacity plugin enforces DRA quota (" + name +
                    ") only in capability: deserved is read but never checked, and the queue's share "
                    "ignores it");
    for (const auto& [name, g] : gua)
        if (isDraKey(name) && g > 0)
            sink.warning(
                q, spec.field("guarantee").field("resource").key(name),
                "Volcano's capacity plugin enforces DRA quota (" + name +
                    ") only in capability: a DRA guarantee is never met by the queue's allocation, so "
                    "capacity never reclaims from this queue");
    for (const auto& [name, d] : des)
        if (cap.has(name) && d > cap.get(name))
            sink.error(q, spec.field("deserved").key(name),
                       "deserved[" + name + "]=" + amountText(name, d) + " must be <= capability[" + name +
                           "]=" + amountText(name, cap.get(name)));
    if (const Json* state = q.at({"status", "state"}); state && state->is_string()) {
        std::string s = state->get<std::string>();
        if (!s.empty() && s != "Open" && s != "Closed")
            sink.error(q, FieldPath().field("status").field("state"),
                       "queue state must be in [Open, Closed]");
    }
    // Hierarchical DRF annotations: same number of parts, positive weights.
    const Json* annotations = q.at({"metadata", "annotations"});
    if (annotations && annotations->is_object()) {
        auto get = [&](const char* key) {
            auto it = annotations->find(key);
            return it != annotations->end() && it->is_string() ? it->get<std::string>() : std::string();
        };
        std::string path = get("volcano.sh/hierarchy"), weights = get("volcano.sh/hierarchy-weights");
        auto split = [](const std::string& s) {
            std::vector<std::string> parts;
            size_t start = 0;
            while (true) {
                size_t slash = s.find('/', start);
                parts.push_back(s.substr(start, slash == std::string::npos ? slash : slash - start));
                if (slash == std::string::npos) break;
                start = slash + 1;
            }
            return parts;
        };
        FieldPath at = FieldPath().field("metadata").field("annotations");
        if (!path.empty() || !weights.empty()) {
            if (path.empty() || weights.empty() || split(path).size() != split(weights).size())
                sink.error(
                    q, at.key("volcano.sh/hierarchy-weights"),
                    "volcano.sh/hierarchy must have the same length with volcano.sh/hierarchy-weights");
            for (const auto& w : weights.empty() ? std::vector<std::string>{} : split(weights)) {
                char* end = nullptr;
                double v = std::strtod(w.c_str(), &end);
                bool digits = !w.empty() && w.find_first_not_of("0123456789.") == std::string::npos;
                if (!digits || end != w.c_str() + w.size() || !(v > 0)) {
                    sink.error(q, at.key("volcano.sh/hierarchy-weights"),
                               "weights in volcano.sh/hierarchy-weights must be larger than 0 (\"" + w +
                                   "\")");
                    break;
                }
            }
        }
    }
}

void checkQueueTree(const std::vector<const ManifestObject*>& queues, const ResourceList& clusterCapacity,
                    ProblemSink& sink) {
    std::map<std::string, VolcanoQueue> byName;
    std::map<std::string, size_t> order; // apply order in the files
    for (const ManifestObject* q : queues) {
        if (q->name.empty()) continue;
        if (byName.count(q->name)) {
            sink.error(*q, FieldPath().field("metadata").field("name"),
                       "queue \"" + q->name + "\" is defined more than once");
            continue;
        }
        VolcanoQueue v;
        v.object = q;
        if (const Json* p = q->at({"spec", "parent"}); p && p->is_string()) v.parent = p->get<std::string>();
        if (v.parent == "root") v.parent.clear();
        v.capability = quantityMap(q->at({"spec", "capability"}));
        v.deserved = quantityMap(q->at({"spec", "deserved"}));
        v.guarantee = quantityMap(q->at({"spec", "guarantee", "resource"}));
        order[q->name] = order.size();
        byName.emplace(q->name, std::move(v));
    }
    const FieldPath parentPath = FieldPath().field("spec").field("parent");
    for (auto& [name, q] : byName) {
        if (q.parent.empty()) continue;
        if (q.parent == name) {
            sink.error(*q.object, parentPath, "queue " + name + " cannot use itself as parent");
            q.parent.clear();
            continue;
        }
        auto p = byName.find(q.parent);
        if (p == byName.end()) {
            sink.warning(
                *q.object, parentPath,
                "parent queue \"" + q.parent +
                    "\" is not in these files; it must exist in the cluster before this queue is applied");
            continue;
        }
        p->second.children.push_back(&q);
    }
    // Cycles and depth: walk up from each queue.
    std::set<std::string> inCycle;
    for (auto& [name, q] : byName) {
        std::vector<std::string> chain{name};
        std::string cur = q.parent;
        bool cycle = false;
        while (!cur.empty() && byName.count(cur)) {
            if (std::find(chain.begin(), chain.end(), cur) != chain.end()) {
                cycle = true;
                break;
            }
            chain.push_back(cur);
            cur = byName[cur].parent;
        }
        if (cycle) {
            if (!inCycle.count(name)) {
                std::string text;
                for (const auto& c : chain) {
                    text += c + " -> ";
                    inCycle.insert(c);
                }
                sink.error(*q.object, parentPath, "cycle in the queue tree: " + text + cur);
            }
            continue;
        }
        int depth = int(chain.size()) + (cur.empty() ? 0 : 1); // a missing ancestor counts as one level
        if (depth > kMaxQueueDepth)
            sink.error(*q.object, parentPath,
                       "queue " + name + " exceeds the maximum allowed depth of " +
                           std::to_string(kMaxQueueDepth) + " (Volcano's default --max-queue-depth)");
    }
    for (auto& [name, q] : byName)
        if (!q.parent.empty() && byName.count(q.parent) && !inCycle.count(name) &&
            order[q.parent] > order[name])
            sink.warning(*q.object, parentPath,
                         "comes before its parent \"" + q.parent +
                             "\"; kubectl apply in this order is rejected by Volcano's webhook until the "
                             "parent exists");
    // Capability within the cluster's and the nearest ancestor's, and the children's sums within the
    // parent. The scheduler checks the tree only when a session opens, and a violation there stops
    // scheduling for every queue (volcano#4818, #4819), so each is an error here.
    for (auto& [name, q] : byName) {
        if (inCycle.count(name)) continue;
        for (const auto& [res, cap] : q.capability) {
            int64_t cluster = clusterCapacity.get(res);
            if (cluster > 0 && cap > cluster)
                sink.error(*q.object, FieldPath().field("spec").field("capability").key(res),
                           "queue " + name + " capability[" + res + "]=" + amountText(res, cap) +
                               " exceeds the cluster's " + amountText(res, cluster) +
                               " (the root queue's capability); Volcano's scheduler then fails every "
                               "scheduling cycle (volcano#4819)");
        }
        for (const auto& [res, cap] : q.capability) {
            for (std::string up = q.parent; !up.empty() && byName.count(up); up = byName[up].parent) {
                const auto& a = byName[up];
                if (a.capability.get(res) > 0) {
                    if (cap > a.capability.get(res))
                        sink.error(*q.object, FieldPath().field("spec").field("capability").key(res),
                                   "queue " + name + " capability[" + res + "]=" + amountText(res, cap) +
                                       " exceeds its ancestor " + up +
                                       "'s capability=" + amountText(res, a.capability.get(res)));
                    break;
                }
            }
        }
        if (q.children.empty()) continue;
        ResourceList sumG, sumD;
        std::string names;
        for (const auto* c : q.children) {
            sumG += c->guarantee;
            sumD += c->deserved;
            names += (names.empty() ? "" : ", ") + c->object->name;
        }
        auto exceeds = [](const ResourceList& parent, const ResourceList& sum, std::string& first) {
            for (const auto& [res, amount] : sum)
                if (amount > parent.get(res)) return first = res, true;
            return false;
        };
        // Volcano's webhook counts a resource the parent does not set as 0 (volcano#5634).
        auto unset = [](const ResourceList& parent, const std::string& r, const char* field) {
            return parent.has(r) ? std::string()
                                 : "; the parent sets no " + std::string(field) + " for " + r +
                                       ", which Volcano counts as 0 (volcano#5634)";
        };
        std::string res;
        if (exceeds(q.guarantee, sumG, res))
            sink.error(*q.object, FieldPath().field("spec").field("guarantee").field("resource").key(res),
                       "sum of children's guarantee (" + listText(sumG) + ") exceeds parent's guarantee (" +
                           listText(q.guarantee) + "); children: " + names +
                           unset(q.guarantee, res, "guarantee"));
        if (exceeds(q.deserved, sumD, res))
            sink.error(*q.object, FieldPath().field("spec").field("deserved").key(res),
                       "sum of children's deserved (" + listText(sumD) + ") exceeds parent's deserved (" +
                           listText(q.deserved) + "); children: " + names +
                           unset(q.deserved, res, "deserved"));
    }
}

// validatePolicies (pkg/webhooks/admission/jobs/validate/util.go), on spec.policies and on each
// task's: an event policy (event and events, duplicates within one policy merged) names only events
// and actions the webhook lets users name, and no event twice across the list; an exitCode policy
// names a non-zero code, no code twice; never both kinds in one policy, never neither; '*' alone.
void checkPolicies(const ManifestObject& job, const Json* policies, const FieldPath& at, ProblemSink& sink) {
    if (!policies || !policies->is_array()) return;
    static const std::set<std::string> userEvents{"*",       "PodFailed",     "PodEvicted", "PodPending",
                                                  "Unknown", "TaskCompleted", "TaskFailed", "JobUpdated"};
    static const std::set<std::string> userActions{"AbortJob",    "RestartJob",       "RestartTask",
                                                   "RestartPod",  "RestartPartition", "TerminateJob",
                                                   "CompleteJob", "ResumeJob"};
    const std::string valid =
        "; valid events are *, PodFailed, PodEvicted, PodPending, Unknown, TaskCompleted, "
        "TaskFailed, JobUpdated; valid actions are AbortJob, RestartJob, RestartTask, "
        "RestartPod, RestartPartition, TerminateJob, CompleteJob, ResumeJob";
    std::map<std::string, FieldPath> events; // first place each event is named
    std::set<int64_t> exitCodes;
    for (size_t i = 0; i < policies->size(); ++i) {
        const Json& p = (*policies)[i];
        if (!p.is_object()) continue;
        const FieldPath pp = at.index(i);
        // The events of the policy with where each is written, duplicates within it merged.
        std::vector<std::pair<std::string, FieldPath>> named;
        auto name = [&](const std::string& e, const FieldPath& where) {
            for (const auto& [n, w] : named)
                if (n == e) return;
            named.emplace_back(e, where);
        };
        if (p.contains("events") && p["events"].is_array())
            for (size_t k = 0; k < p["events"].size(); ++k)
                if (p["events"][k].is_string())
                    name(p["events"][k].get<std::string>(), pp.field("events").index(k));
        if (const std::string e = stringAt(p, "event"); !e.empty()) name(e, pp.field("event"));
        const bool hasExitCode = p.contains("exitCode") && !p["exitCode"].is_null();
        if (!named.empty() && hasExitCode) {
            sink.error(job, pp.field("exitCode"), "must not specify event and exitCode simultaneously");
            continue;
        }
        if (named.empty() && !hasExitCode) {
            sink.error(job, pp, "either event and exitCode should be specified");
            continue;
        }
        if (hasExitCode) {
            if (!p["exitCode"].is_number_integer()) continue; // the schema reports it
            const int64_t code = p["exitCode"].get<int64_t>();
            if (code == 0)
                sink.error(job, pp.field("exitCode"), "0 is not a valid error code");
            else if (!exitCodes.insert(code).second)
                sink.error(job, pp.field("exitCode"), "duplicate exitCode " + std::to_string(code));
            continue;
        }
        const std::string action = stringAt(p, "action");
        if (!userActions.count(action))
            sink.error(job, p.contains("action") ? pp.field("action") : pp,
                       "Invalid value: \"" + action + "\": invalid policy action" + valid);
        for (const auto& [e, where] : named) {
            if (!userEvents.count(e)) {
                sink.error(job, where, "Invalid value: \"" + e + "\": invalid policy event" + valid);
                continue;
            }
            if (!events.emplace(e, where).second)
                sink.error(job, where, "duplicate event " + e + " across different policy");
        }
    }
    if (auto any = events.find("*"); any != events.end() && events.size() > 1)
        sink.error(job, any->second, "if there's * here, no other policy should be here");
}

// topoSort over spec.tasks[].dependsOn: every name must be a task of the job, and no task may wait,
// through others, for itself.
void checkTaskDependencies(const ManifestObject& job, const Json& tasks, const FieldPath& at,
                           ProblemSink& sink) {
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < tasks.size(); ++i)
        if (tasks[i].is_object()) index.emplace(stringAt(tasks[i], "name"), i);
    std::vector<std::vector<size_t>> next(tasks.size());
    std::vector<int> waiting(tasks.size(), 0);
    bool any = false;
    const std::string dag =
        "job has dependencies between tasks, but doesn't form a directed acyclic graph(DAG)";
    for (size_t i = 0; i < tasks.size(); ++i) {
        if (!tasks[i].is_object() || !tasks[i].contains("dependsOn")) continue;
        const Json& d = tasks[i]["dependsOn"];
        if (!d.is_object() || !d.contains("name") || !d["name"].is_array()) continue;
        any = true;
        for (size_t k = 0; k < d["name"].size(); ++k) {
            const std::string name = d["name"][k].is_string() ? d["name"][k].get<std::string>() : "";
            auto it = index.find(name);
            if (it == index.end()) {
                sink.error(job, at.index(i).field("dependsOn").field("name").index(k),
                           dag + ": \"" + name + "\" is not a task of this job");
                ++waiting[i]; // it never runs
                continue;
            }
            next[it->second].push_back(i);
            ++waiting[i];
        }
    }
    if (!any) return;
    std::vector<int> left = waiting;
    std::vector<size_t> ready;
    for (size_t i = 0; i < tasks.size(); ++i)
        if (left[i] == 0) ready.push_back(i);
    while (!ready.empty()) {
        const size_t t = ready.back();
        ready.pop_back();
        for (size_t n : next[t])
            if (--left[n] == 0) ready.push_back(n);
    }
    for (size_t i = 0; i < tasks.size(); ++i) {
        if (left[i] == 0) continue;
        // Tasks behind a missing name were reported there; the others wait in a cycle.
        bool missing = false;
        for (const auto& n : tasks[i]["dependsOn"]["name"])
            missing = missing || !n.is_string() || !index.count(n.get<std::string>());
        if (!missing)
            sink.error(job, at.index(i).field("dependsOn"),
                       dag + ": task \"" + stringAt(tasks[i], "name") +
                           "\" waits, through others, for itself");
    }
}

// The mpi job plugin's --master (default master) must name a task (validateJobCreate).
void checkMpiMaster(const ManifestObject& job, const Json& tasks, ProblemSink& sink) {
    const Json* mpi = job.at({"spec", "plugins", "mpi"});
    if (!mpi || !mpi->is_array()) return;
    std::string master = "master";
    // Go's flag package: -master=x, --master=x, -master x; parsing stops at the first non-flag.
    for (size_t i = 0; i < mpi->size(); ++i) {
        if (!(*mpi)[i].is_string()) break;
        std::string arg = (*mpi)[i].get<std::string>();
        if (arg.empty() || arg[0] != '-' || arg == "-" || arg == "--") break;
        arg.erase(0, arg.rfind("--", 0) == 0 ? 2 : 1);
        const auto eq = arg.find('=');
        const std::string flag = arg.substr(0, eq);
        if (flag != "master" && flag != "worker" && flag != "port") break; // an unknown flag stops it
        std::string value;
        if (eq != std::string::npos)
            value = arg.substr(eq + 1);
        else if (i + 1 < mpi->size() && (*mpi)[i + 1].is_string())
            value = (*mpi)[++i].get<std::string>();
        if (flag == "master") master = value;
    }
    for (const auto& t : tasks)
        if (t.is_object() && stringAt(t, "name") == master) return;
    sink.error(job, FieldPath().field("spec").field("plugins").key("mpi"),
               "The specified mpi master task was not found (the mpi plugin's master task is \"" + master +
                   "\")");
}

// validateIO: every volume has a mount path, unique, and either a claim to create or an existing
// claim's name (a valid PersistentVolume name), not both.
void checkVolumes(const ManifestObject& job, ProblemSink& sink) {
    const Json* volumes = job.at({"spec", "volumes"});
    if (!volumes || !volumes->is_array()) return;
    std::set<std::string> paths;
    for (size_t i = 0; i < volumes->size(); ++i) {
        const Json& v = (*volumes)[i];
        if (!v.is_object()) continue;
        const FieldPath at = FieldPath().field("spec").field("volumes").index(i);
        const std::string path = stringAt(v, "mountPath");
        if (path.empty()) {
            sink.error(job, at, "mountPath is required");
            continue;
        }
        if (!paths.insert(path).second)
            sink.error(job, at.field("mountPath"), "duplicated mountPath: " + path);
        const bool claim = v.contains("volumeClaim") && !v["volumeClaim"].is_null();
        const std::string claimName = stringAt(v, "volumeClaimName");
        if (!claim && claimName.empty())
            sink.error(job, at, "either VolumeClaim or VolumeClaimName must be specified");
        if (!claimName.empty()) {
            if (claim)
                sink.error(
                    job, at.field("volumeClaimName"),
                    "conflict: If you want to use an existing PVC, just specify VolumeClaimName.If you "
                    "want to create a new PVC, you do not need to specify VolumeClaimName");
            else if (auto why = checkDns1123Subdomain(claimName); !why.empty())
                sink.error(job, at.field("volumeClaimName"),
                           "invalid VolumeClaimName " + claimName + " : " + why);
        }
    }
}

// validatePartitionPolicy and validateTaskTopoPolicy, for one task.
void checkTaskPolicies(const ManifestObject& job, const Json& t, size_t index, const FieldPath& at,
                       ProblemSink& sink) {
    const std::string name = stringAt(t, "name");
    auto integer = [](const Json& o, const char* key) -> std::optional<int64_t> {
        return o.contains(key) && o[key].is_number_integer() ? std::optional<int64_t>(o[key].get<int64_t>())
                                                             : std::nullopt;
    };
    const std::string where = " in task: " + name + ", job: " + job.name;
    if (t.contains("partitionPolicy") && t["partitionPolicy"].is_object()) {
        const Json& p = t["partitionPolicy"];
        const FieldPath pp = at.field("partitionPolicy");
        const int64_t total = integer(p, "totalPartitions").value_or(0);
        const int64_t size = integer(p, "partitionSize").value_or(0);
        const int64_t minPartitions = integer(p, "minPartitions").value_or(0);
        if (total <= 0)
            sink.error(job, pp.field("totalPartitions"), "'TotalPartitions' must be greater than 0" + where);
        else if (size <= 0)
            sink.error(job, pp.field("partitionSize"), "'PartitionSize' must be greater than 0" + where);
        else if (integer(t, "replicas").value_or(0) != total * size)
            sink.error(job, at.field("replicas"),
                       "'Replicas' are not equal to TotalPartitions*PartitionSize" + where);
        else if (auto m = integer(t, "minAvailable"); m && minPartitions > 0 && minPartitions * size != *m)
            sink.error(job, at.field("minAvailable"),
                       "'MinAvailable' is not equal to MinPartitions*PartitionSize" + where);
        if (p.contains("networkTopology") && p["networkTopology"].is_object() &&
            p["networkTopology"].contains("highestTierAllowed") &&
            p["networkTopology"].contains("highestTierName"))
            sink.error(job, pp.field("networkTopology"),
                       "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology "
                       "simultaneously");
    }
    // A topology policy other than none needs whole CPUs in every container (requests, else limits).
    const std::string topologyPolicy = stringAt(t, "topologyPolicy");
    if (topologyPolicy.empty() || topologyPolicy == "none") return;
    const Json* spec = t.contains("template") && t["template"].is_object() && t["template"].contains("spec")
                           ? &t["template"]["spec"]
                           : nullptr;
    if (!spec || !spec->is_object()) return;
    size_t id = 0;
    for (const char* list : {"containers", "initContainers"}) {
        if (!spec->contains(list) || !(*spec)[list].is_array()) continue;
        for (size_t c = 0; c < (*spec)[list].size(); ++c, ++id) {
            const Json& container = (*spec)[list][c];
            const Json* res =
                container.is_object() && container.contains("resources") ? &container["resources"] : nullptr;
            const Json* requests = res && res->contains("requests") && (*res)["requests"].is_object() &&
                                           !(*res)["requests"].empty()
                                       ? &(*res)["requests"]
                                   : res && res->contains("limits") ? &(*res)["limits"]
                                                                    : nullptr;
            std::optional<int64_t> cpu;
            if (requests && requests->is_object() && requests->contains("cpu"))
                cpu = quantityAmount("cpu", (*requests)["cpu"]);
            if (!cpu || *cpu == 0 || *cpu % 1000 != 0) {
                sink.error(job, at.field("template").field("spec").field(list).index(c),
                           "the cpu request isn't an integer in spec.task[" + std::to_string(index) +
                               "] container[" + std::to_string(id) + "] (topologyPolicy " + topologyPolicy +
                               " needs whole CPUs)");
                return;
            }
        }
    }
}

void checkJob(const ManifestObject& job, const std::map<std::string, const ManifestObject*>& queues,
              const std::set<std::string>& parents, ProblemSink& sink) {
    const FieldPath spec = FieldPath().field("spec");
    const Json* tasks = job.at({"spec", "tasks"});
    int64_t totalReplicas = 0;
    if (!tasks || !tasks->is_array() || tasks->empty()) {
        sink.error(job, spec.field("tasks"), "No task specified in job spec");
    } else {
        std::set<std::string> names;
        for (size_t i = 0; i < tasks->size(); ++i) {
            const Json& t = (*tasks)[i];
            FieldPath at = spec.field("tasks").index(i);
            if (!t.is_object()) continue;
            std::string name = stringAt(t, "name");
            if (!names.insert(name).second) sink.error(job, at.field("name"), "duplicated task name found");
            if (name.size() > 63) // the CRD's pattern checks the characters
                sink.error(job, at.field("name"),
                           "task name \"" + name + "\" must be no more than 63 characters");
            else if (!job.name.empty())
                // MakePodName: <job>-<task>-<task index>, which must be a qualified name.
                if (const std::string pod = job.name + "-" + name + "-" + std::to_string(i);
                    !checkQualifiedName(pod).empty())
                    sink.error(job, at.field("name"),
                               "create pod with name " + pod + " validate failed [" +
                                   checkQualifiedName(pod) + "]");
            checkPolicies(job, t.contains("policies") ? &t["policies"] : nullptr, at.field("policies"), sink);
            checkTaskPolicies(job, t, i, at, sink);
            int64_t replicas = t.contains("replicas") && t["replicas"].is_number_integer()
                                   ? t["replicas"].get<int64_t>()
                                   : 0;
            if (replicas < 0) sink.error(job, at.field("replicas"), "'replicas' < 0 in task: " + name);
            totalReplicas += std::max<int64_t>(replicas, 0);
            if (t.contains("minAvailable") && t["minAvailable"].is_number_integer()) {
                int64_t minAvailable = t["minAvailable"].get<int64_t>();
                if (minAvailable < 0)
                    sink.error(job, at.field("minAvailable"), "'minAvailable' < 0 in task: " + name);
                if (minAvailable > replicas)
                    sink.error(job, at.field("minAvailable"),
                               "'minAvailable' is greater than 'replicas' in task: " + name);
            }
        }
    }
    if (tasks && tasks->is_array()) {
        checkTaskDependencies(job, *tasks, spec.field("tasks"), sink);
        checkMpiMaster(job, *tasks, sink);
    }
    checkPolicies(job, job.at({"spec", "policies"}), spec.field("policies"), sink);
    checkVolumes(job, sink);
    if (!job.name.empty())
        if (auto why = checkQualifiedName(job.name); !why.empty())
            sink.error(job, FieldPath().field("metadata").field("name"),
                       "create job with name " + job.name + " validate failed [" + why + "]");
    auto integer = [&](const char* key) -> std::optional<int64_t> {
        const Json* v = job.at({"spec", key});
        return v && v->is_number_integer() ? std::optional<int64_t>(v->get<int64_t>()) : std::nullopt;
    };
    if (auto m = integer("minAvailable")) {
        if (*m < 0)
            sink.error(job, spec.field("minAvailable"), "job 'minAvailable' must be >= 0");
        else if (tasks && tasks->is_array() && *m > totalReplicas)
            sink.error(job, spec.field("minAvailable"),
                       "job 'minAvailable' should not be greater than total replicas in tasks (" +
                           std::to_string(*m) + " > " + std::to_string(totalReplicas) + ")");
    }
    if (auto m = integer("maxRetry"); m && *m < 0)
        sink.error(job, spec.field("maxRetry"), "'maxRetry' cannot be less than zero");
    if (auto m = integer("minSuccess"); m && *m < 1)
        sink.error(job, spec.field("minSuccess"), "'minSuccess' must be >= 1");
    if (auto m = integer("ttlSecondsAfterFinished"); m && *m < 0)
        sink.error(job, spec.field("ttlSecondsAfterFinished"),
                   "'ttlSecondsAfterFinished' cannot be less than zero");
    if (const Json* p = job.at({"spec", "plugins"}); p && p->is_object()) {
        static const std::set<std::string> known{"ssh", "env",     "svc",      "tensorflow",
                                                 "mpi", "pytorch", "hcclrank", "ray"};
        for (const auto& [name, value] : p->items())
            if (!known.count(name))
                sink.error(job, spec.field("plugins").key(name),
                           "unable to find job plugin: " + name +
                               " (known: ssh, env, svc, tensorflow, mpi, pytorch, hcclrank, ray)");
    }
    if (const Json* nt = job.at({"spec", "networkTopology"});
        nt && nt->is_object() && nt->contains("highestTierAllowed") && nt->contains("highestTierName"))
        sink.error(job, spec.field("networkTopology"),
                   "highestTierAllowed and highestTierName are mutually exclusive");
    std::string queue = "default";
    if (const Json* q = job.at({"spec", "queue"}); q && q->is_string() && !q->get<std::string>().empty())
        queue = q->get<std::string>();
    if (queue == "root") {
        sink.error(job, spec.field("queue"), "can not submit job to root queue");
    } else if (parents.count(queue)) {
        sink.error(job, spec.field("queue"),
                   "can only submit job to leaf queue; \"" + queue + "\" has child queues");
    } else if (auto it = queues.find(queue); it != queues.end()) {
        const Json* state = it->second->at({"status", "state"});
        if (state && state->is_string() && state->get<std::string>() == "Closed")
            sink.error(job, spec.field("queue"),
                       "can only submit job to queue with state `Open`; \"" + queue + "\" is Closed");
    } else if (!queues.empty() && queue != "default") {
        sink.warning(job, spec.field("queue"),
                     "queue \"" + queue + "\" is not in these files; it must exist in the cluster");
    }
}

void checkHyperNode(const ManifestObject& hn, const std::map<std::string, const ManifestObject*>& hyperNodes,
                    ProblemSink& sink) {
    const Json* members = hn.at({"spec", "members"});
    const FieldPath at = FieldPath().field("spec").field("members");
    if (!members || !members->is_array()) {
        sink.error(hn, at, "member must have at least one member");
        return;
    }
    int64_t tier = 0;
    if (const Json* t = hn.at({"spec", "tier"}); t && t->is_number_integer()) tier = t->get<int64_t>();
    for (size_t i = 0; i < members->size(); ++i) {
        const Json& m = (*members)[i];
        if (!m.is_object()) continue;
        FieldPath mp = at.index(i);
        std::string type = stringAt(m, "type");
        const Json* sel = m.contains("selector") ? &m["selector"] : nullptr;
        if (!sel || !sel->is_object()) continue; // the schema reported it
        if (sel->contains("exactMatch") && (*sel)["exactMatch"].is_object()) {
            std::string name = stringAt((*sel)["exactMatch"], "name");
            if (name.empty())
                sink.error(hn, mp.field("selector").field("exactMatch").field("name"),
                           "member exactMatch name is required");
            else if (auto why = checkQualifiedName(name); !why.empty())
                sink.error(hn, mp.field("selector").field("exactMatch").field("name"),
                           "member exactMatch validate failed [" + why + "]");
            else if (type == "HyperNode" && !hyperNodes.empty()) {
                auto it = hyperNodes.find(name);
                if (it == hyperNodes.end()) {
                    sink.warning(hn, mp.field("selector").field("exactMatch").field("name"),
                                 "HyperNode \"" + name + "\" is not in these files");
                } else if (const Json* ct = it->second->at({"spec", "tier"});
                           ct && ct->is_number_integer() && ct->get<int64_t>() >= tier) {
                    sink.error(hn, mp.field("selector").field("exactMatch").field("name"),
                               "member HyperNode \"" + name + "\" has tier " +
                                   std::to_string(ct->get<int64_t>()) +
                                   ", which is not below this HyperNode's tier " + std::to_string(tier));
                }
            }
        }
        if (sel->contains("regexMatch") && (*sel)["regexMatch"].is_object()) {
            std::string pattern = stringAt((*sel)["regexMatch"], "pattern");
            FieldPath pp = mp.field("selector").field("regexMatch").field("pattern");
            auto count = [&](char c) { return std::count(pattern.begin(), pattern.end(), c); };
            if (pattern.empty())
                sink.error(hn, pp, "member regexMatch pattern is required");
            else if (count('(') != count(')'))
                sink.error(hn, pp, "member regexMatch pattern is invalid: unmatched parentheses");
            else if (count('[') != count(']'))
                sink.error(hn, pp, "member regexMatch pattern is invalid: unmatched square brackets");
            else if (count('{') != count('}'))
                sink.error(hn, pp, "member regexMatch pattern is invalid: unmatched curly braces");
        }
        if (sel->contains("labelMatch") && type == "HyperNode")
            sink.error(hn, mp.field("selector").field("labelMatch"),
                       "labelMatch is only valid for members of type Node");
    }
}

} // namespace

void checkVolcanoObjects(const std::vector<ManifestObject>& objects, const ResourceList& clusterCapacity,
                         ProblemSink& sink) {
    std::vector<const ManifestObject*> queues;
    std::map<std::string, const ManifestObject*> queueByName, hyperNodes;
    for (const auto& o : objects) {
        if (isKind(o, "scheduling.volcano.sh", "Queue")) {
            checkQueueQuantities(o, sink);
            queues.push_back(&o);
            queueByName.emplace(o.name, &o);
        }
        if (isKind(o, "topology.volcano.sh", "HyperNode")) hyperNodes.emplace(o.name, &o);
    }
    checkQueueTree(queues, clusterCapacity, sink);
    std::set<std::string> parents;
    for (const auto* q : queues)
        if (const Json* p = q->at({"spec", "parent"}); p && p->is_string() && !p->get<std::string>().empty())
            parents.insert(p->get<std::string>());
    for (const auto& o : objects) {
        if (isKind(o, "batch.volcano.sh", "Job")) checkJob(o, queueByName, parents, sink);
        if (isKind(o, "topology.volcano.sh", "HyperNode")) checkHyperNode(o, hyperNodes, sink);
        if (isKind(o, "scheduling.volcano.sh", "PodGroup") && !queueByName.empty()) {
            const Json* q = o.at({"spec", "queue"});
            std::string queue = q && q->is_string() ? q->get<std::string>() : "default";
            if (queue != "default" && !queueByName.count(queue))
                sink.warning(o, FieldPath().field("spec").field("queue"),
                             "queue \"" + queue + "\" is not in these files; it must exist in the cluster");
        }
    }
}

} // namespace gantry
