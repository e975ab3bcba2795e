#include "model/yunikorn_mapping.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>

namespace gantry::yunikorn {

std::string yunikornQueueName(const std::string& name) {
    std::string out;
    for (unsigned char c : name)
        out += (std::isalnum(c) || std::string_view("_:#/@-").find(char(c)) != std::string_view::npos)
                   ? char(c)
                   : '_';
    if (out.empty()) out = "queue";
    if (out.size() > 64) out.resize(64);
    return out;
}

std::string Mapping::pathOf(const std::string& queueName) const {
    for (size_t i = 0; i < tree.nodes.size(); ++i)
        if (tree.nodes[i].queue->name == queueName) return paths[i];
    return {};
}

std::vector<std::pair<std::string, std::string>>
namespaceQueues(const Cluster& cluster, const std::vector<WorkloadTemplate>& workloads) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& lq : cluster.localQueues) out.emplace_back(lq.ns, lq.clusterQueue);
    for (const auto& w : workloads)
        if (!w.queue.empty()) out.emplace_back(w.ns, w.queue);
    return out;
}

namespace {

// An amount as queues.yaml can hold it: vcore in millicores, byte sizes and counts exact, every
// other resource in whole units (rounded up, which is a loss).
int64_t whole(const std::string& yunikornName, int64_t amount, const std::string& owner, LossLog& log,
              const std::string& field) {
    if (yunikornName == "vcore" || unitOf(yunikornName) != ResourceUnit::Milli) return amount;
    const int64_t units = (amount + 999) / 1000;
    if (amount % 1000 != 0)
        log.add("queue", owner, field + "[" + yunikornName + "]",
                formatAmount(yunikornName, amount) +
                    " is not a whole number and YuniKorn quantities have no fractions; rounded up to " +
                    std::to_string(units));
    return units * 1000;
}

// Neutral quota (Kubernetes names) -> YuniKorn names, in whole units.
ResourceList yunikornResources(const ResourceList& r, const std::string& owner, LossLog& log,
                               const std::string& field) {
    ResourceList out;
    for (const auto& [name, amount] : r) {
        std::string yk = toYuniKornResource(name);
        out.set(yk, whole(yk, amount, owner, log, field));
    }
    return out;
}

QueueLimit wholeLimit(QueueLimit l, const std::string& owner, LossLog& log) {
    ResourceList r;
    for (const auto& [name, amount] : l.maxResources)
        r.set(name, whole(name, amount, owner, log, "limits.maxresources"));
    l.maxResources = std::move(r);
    return l;
}

void foreignQueueLosses(const Queue& q, const NeutralQuota& nq, LossLog& losses) {
    if (q.kind == Queue::Kind::Queue && !q.resourceGroups.empty())
        losses.queue(q, "flavors",
                     "the Kueue quotas per flavor designed for this queue are not used by YuniKorn (its own "
                     "quotas are)");
    if (q.kind == Queue::Kind::Queue) {
        if (!nq.reserved.empty())
            losses.queue(
                q, "spec.guarantee",
                "YuniKorn has no never-lent reservation; the queue's guaranteed is its deserved share, "
                "which other queues may use while it is idle");
        if (q.weight != 1)
            losses.queue(q, "spec.weight",
                         "YuniKorn queues have no weight (fair sorting uses guaranteed); dropped");
        if (q.priority > 0)
            losses.queue(q, "spec.priority", "Volcano's queue priority has no YuniKorn counterpart; dropped");
        if (!q.reclaimable)
            losses.queue(q, "spec.reclaimable",
                         "YuniKorn preempts any queue above its guaranteed; cannot be kept from reclaim");
        if (q.state == QueueState::Closed || q.state == QueueState::Closing)
            losses.queue(q, "status.state", "YuniKorn queues cannot be closed in queues.yaml; exported open");
        if (q.dequeueStrategy == "traverse")
            losses.queue(q, "spec.dequeueStrategy",
                         "YuniKorn has no traverse ordering (it sorts applications fifo or fair); dropped");
    }
    if (!q.labels.empty() || !q.annotations.empty())
        losses.queue(q, "metadata.labels/annotations", "queues.yaml has no labels or annotations; dropped");
    if (q.kind == Queue::Kind::KueueClusterQueue || q.kind == Queue::Kind::KueueCohort) {
        if (!nq.reserved.empty())
            losses.queue(q, "spec.resourceGroups.lendingLimit",
                         "YuniKorn has no limit on lending; the part kept back (" + nq.reserved.str() +
                             ") is lost");
        if (q.preemption.withinClusterQueue != "Never" || q.preemption.reclaimWithinCohort != "Never" ||
            q.preemption.borrowWithinCohort != "Never")
            losses.queue(q, "spec.preemption",
                         "YuniKorn's preemption is per partition and per queue policy; Kueue's policies are "
                         "not carried over");
        if (q.fairSharingWeight && *q.fairSharingWeight != 1)
            losses.queue(q, "spec.fairSharing.weight", "YuniKorn queues have no weight; dropped");
        if (q.stopPolicy == "Hold" || q.stopPolicy == "HoldAndDrain")
            losses.queue(q, "spec.stopPolicy",
                         "YuniKorn queues cannot be held in queues.yaml; exported open");
    }
}

struct Mapper {
    const Cluster& cluster;
    Mapping& m;
    std::vector<NeutralQuota> quota;

    std::string path(int k) const {
        std::string p;
        for (int i = k; i >= 0; i = m.tree.nodes[size_t(i)].parent)
            p = "." + m.tree.nodes[size_t(i)].name + p;
        return "root" + p;
    }

    // A child's max must fit in its ancestors' (component-wise minimum).
    void clampMax(int k, const ResourceList& parentMax) {
        auto& cap = quota[size_t(k)].cap;
        for (auto [res, amount] : cap.entries())
            if (parentMax.has(res) && amount > parentMax.get(res)) {
                m.log.queue(*m.tree.nodes[size_t(k)].queue, "max[" + res + "]",
                            formatAmount(res, amount) + " is more than an ancestor allows; lowered to " +
                                formatAmount(res, parentMax.get(res)));
                cap.set(res, parentMax.get(res));
            }
        ResourceList effective = parentMax;
        for (const auto& [res, amount] : cap)
            effective.set(res, parentMax.has(res) ? std::min(amount, parentMax.get(res)) : amount);
        for (int c : m.tree.nodes[size_t(k)].children) clampMax(c, effective);
    }

    QueueConfig queue(int k) {
        const QueueNode& n = m.tree.nodes[size_t(k)];
        const Queue& q = *n.queue;
        const NeutralQuota& nq = quota[size_t(k)];
        foreignQueueLosses(q, nq, m.log);
        QueueConfig c;
        c.name = n.name;
        c.source = q.source;
        c.parent = q.kind == Queue::Kind::YuniKornQueue && q.parentFlag;
        if (!nq.entitled.empty()) c.guaranteed = yunikornResources(nq.entitled, n.name, m.log, "guaranteed");
        if (!nq.cap.empty()) c.max = yunikornResources(nq.cap, n.name, m.log, "max");
        if (q.kind == Queue::Kind::YuniKornQueue) {
            c.maxApplications = q.maxApplications;
            c.properties = q.properties;
            c.adminAcl = q.adminAcl;
            c.submitAcl = q.submitAcl;
            c.childTemplate = q.childTemplate;
        } else if (q.dequeueStrategy == "fifo" || q.queueingStrategy == "StrictFIFO") {
            if (n.leaf())
                c.properties["application.sort.policy"] = "fifo";
            else
                m.log.queue(q, q.dequeueStrategy == "fifo" ? "spec.dequeueStrategy" : "spec.queueingStrategy",
                            "fifo ordering applies to applications, which YuniKorn runs in leaf queues only; "
                            "dropped on this parent");
        }
        for (int child : n.children) c.queues.push_back(queue(child));
        if (q.kind == Queue::Kind::YuniKornQueue)
            for (const auto& l : q.limits) c.limits.push_back(wholeLimit(l, n.name, m.log));
        return c;
    }

    // Placement: the queue named on the pod first, then namespaces to the queue of the same name.
    std::vector<PlacementRule>
    placementRules(const std::vector<std::pair<std::string, std::string>>& nsQueues) {
        // A project with YuniKorn settings of its own keeps its rules, none included (YuniKorn then
        // applies its own default); only a project without any gets rules derived from its queues.
        const auto& yk = cluster.yunikorn;
        if (yk) return yk->placementRules;
        m.config.placementGenerated = true;
        std::vector<PlacementRule> rules;
        PlacementRule provided;
        provided.name = "provided";
        rules.push_back(provided);
        std::map<std::string, std::string> nsToQueue; // namespace -> queue name in the source
        for (const auto& [ns, queue] : nsQueues) nsToQueue.emplace(ns, queue);
        std::set<int> tagParents; // -1 = root
        for (const auto& [ns, queueName] : nsToQueue) {
            int k = -1;
            for (size_t i = 0; i < m.tree.nodes.size(); ++i)
                if (m.tree.nodes[i].queue->name == queueName) k = int(i);
            if (k < 0) continue;
            if (m.tree.nodes[size_t(k)].name == ns && m.tree.nodes[size_t(k)].leaf()) {
                tagParents.insert(m.tree.nodes[size_t(k)].parent);
            } else {
                m.log.add(
                    "namespace", ns, "placement",
                    "maps to queue " + path(k) +
                        ", but YuniKorn's placement rules match a namespace only to a queue of the same "
                        "name; its pods must carry the label yunikorn.apache.org/queue=" +
                        path(k) + " (the exported job templates do)");
            }
        }
        for (int parent : tagParents) {
            PlacementRule r;
            r.name = "tag";
            r.value = "namespace";
            if (parent >= 0) {
                PlacementRule fixed;
                fixed.name = "fixed";
                fixed.value = path(parent);
                r.parent.push_back(fixed);
            }
            rules.push_back(r);
        }
        return rules;
    }

    // YuniKorn's own node sorting and preemption: the partition's settings, else YuniKorn's defaults
    // (fair; preemption on). Another scheduler's policy says nothing about them.
    void nodeSortPolicy() {
        const auto& yk = cluster.yunikorn;
        auto& c = m.config;
        if (yk && !yk->nodeSortPolicy.empty()) {
            c.nodeSortPolicy = yk->nodeSortPolicy;
            c.nodeSortWeights.assign(yk->nodeSortWeights.begin(), yk->nodeSortWeights.end());
            return;
        }
        m.log.note("node sort policy: none set, YuniKorn's default (fair)");
    }

    void preemption() {
        const auto& yk = cluster.yunikorn;
        auto& c = m.config;
        if (yk) {
            c.preemptionEnabled = yk->preemptionEnabled;
            c.quotaPreemptionEnabled = yk->quotaPreemptionEnabled;
        }
        if (!c.preemptionEnabled) m.log.note("preemption: not set, YuniKorn's default (enabled)");
    }
};

} // namespace

Mapping mapToYuniKorn(const Cluster& cluster,
                      const std::vector<std::pair<std::string, std::string>>& nsQueues) {
    Mapping m;
    m.tree = buildQueueTree(cluster);
    gantry::nameQueues(m.tree, yunikornQueueName, "YuniKorn queue name", m.log);
    Mapper mapper{cluster, m, gantry::neutralQuotas(m.tree, cluster, "YuniKorn", m.log)};
    for (int k : m.tree.topLevel) mapper.clampMax(k, {});
    m.paths.resize(m.tree.nodes.size());
    for (size_t k = 0; k < m.tree.nodes.size(); ++k) m.paths[k] = mapper.path(int(k));

    QueueConfig& root = m.config.root;
    root.name = "root";
    const Queue* r = m.tree.root;
    if (r && r->kind == Queue::Kind::YuniKornQueue) {
        root.submitAcl = r->submitAcl;
        root.adminAcl = r->adminAcl;
        root.properties = r->properties;
        root.maxApplications = r->maxApplications;
        root.childTemplate = r->childTemplate;
        root.source = r->source;
    } else {
        root.submitAcl = "*";
        m.log.note("root queue: submitacl '*' (everyone may submit), as YuniKorn's built-in configuration");
    }
    if (r && (!r->capability.empty() || !r->deserved.empty()))
        m.log.queue(*r, "quotas",
                    "YuniKorn's root must not set resources (its size is the cluster's); dropped");
    for (int k : m.tree.topLevel) root.queues.push_back(mapper.queue(k));
    if (r && r->kind == Queue::Kind::YuniKornQueue)
        for (const auto& l : r->limits) root.limits.push_back(wholeLimit(l, "root", m.log));

    m.config.placementRules = mapper.placementRules(nsQueues);
    if (cluster.yunikorn && !cluster.yunikorn->name.empty()) m.config.name = cluster.yunikorn->name;
    if (m.config.name != "default")
        m.log.add("partition", m.config.name, "name",
                  "kept, but YuniKorn's Kubernetes shim schedules only in the partition 'default' "
                  "(YUNIKORN-22): its pods would find no queue");
    if (cluster.yunikorn && root.limits.empty())
        for (const auto& l : cluster.yunikorn->limits)
            m.config.limits.push_back(wholeLimit(l, "partition " + m.config.name, m.log));
    mapper.preemption();
    mapper.nodeSortPolicy();
    if (cluster.yunikorn) {
        m.config.settings = cluster.yunikorn->settings;
        m.config.unmodelled = cluster.yunikorn->unmodelled;
    }
    return m;
}

} // namespace gantry::yunikorn
