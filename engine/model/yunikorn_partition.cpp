#include "model/yunikorn_partition.h"

namespace gantry::yunikorn {

namespace {

QueueConfig queueConfigOf(const Queue& q) {
    QueueConfig c;
    c.name = q.name;
    c.parent = q.parentFlag;
    c.guaranteed = q.guaranteed;
    c.max = q.max;
    c.maxApplications = q.maxApplications;
    c.properties = q.properties;
    c.submitAcl = q.submitAcl;
    c.adminAcl = q.adminAcl;
    c.limits = q.limits;
    c.childTemplate = q.childTemplate;
    c.source = q.source;
    return c;
}

} // namespace

PartitionConfig partitionConfigOf(const YuniKornPartition& partition, const std::vector<Queue>& queues) {
    PartitionConfig p;
    p.name = partition.name;
    p.placementRules = partition.placementRules;
    p.limits = partition.limits;
    p.preemptionEnabled = partition.preemptionEnabled;
    p.quotaPreemptionEnabled = partition.quotaPreemptionEnabled;
    p.nodeSortPolicy = partition.nodeSortPolicy;
    p.nodeSortWeights.assign(partition.nodeSortWeights.begin(), partition.nodeSortWeights.end());
    p.settings = partition.settings;
    p.unmodelled = partition.unmodelled;
    p.root.name = "root";
    // Depth-first order: a queue's parent is on the path from the root to the previous queue.
    std::vector<QueueConfig*> path;
    for (const auto& q : queues) {
        if (q.kind != Queue::Kind::YuniKornQueue) continue;
        if (q.parent.empty()) {
            p.root = queueConfigOf(q);
            p.root.queues.clear();
            path.assign(1, &p.root);
            continue;
        }
        while (!path.empty() && path.back()->name != q.parent) path.pop_back();
        QueueConfig* parent = path.empty() ? &p.root : path.back();
        if (path.empty()) path.push_back(&p.root);
        parent->queues.push_back(queueConfigOf(q));
        path.push_back(&parent->queues.back());
    }
    return p;
}

PartitionConfig builtInPartitionConfig() {
    // Built from strings, not literals assigned one by one: GCC 12 warns wrongly (-Wrestrict) on
    // the latter here.
    static const std::string kRoot = "root", kAll = "*", kTag = "tag", kNamespace = "namespace";
    PartitionConfig p;
    p.root.name = kRoot;
    p.root.submitAcl = kAll;
    PlacementRule tag;
    tag.name = kTag;
    tag.value = kNamespace;
    tag.create = true;
    p.placementRules.push_back(std::move(tag));
    return p;
}

std::optional<PartitionConfig> yunikornConfigOf(const Cluster& cluster) {
    bool any = false;
    for (const auto& q : cluster.queues) any |= q.kind == Queue::Kind::YuniKornQueue;
    if (!any) return std::nullopt;
    return partitionConfigOf(cluster.yunikorn.value_or(YuniKornPartition{}), cluster.queues);
}

} // namespace gantry::yunikorn
