#include "core/job_import.h"

#include <set>

namespace gantry::studio {

JobImport jobsToImport(const Cluster& into, const Cluster& from) {
    JobImport out;
    std::set<std::string> have, queues;
    for (const auto& g : into.podGroups) have.insert(g.key());
    for (const auto& q : into.queues) queues.insert(q.name);
    std::set<std::string> taken, unknown;
    for (const auto& g : from.podGroups) {
        if (have.count(g.key())) {
            out.skipped << QString::fromStdString(g.key());
            continue;
        }
        taken.insert(g.key());
        PodGroup copy = g;
        copy.phase = PodGroupPhase::None; // arrives pending
        if (!g.queue.empty() && !queues.count(g.queue) && unknown.insert(g.queue).second)
            out.unknownQueues << QString::fromStdString(g.queue);
        out.groups.push_back(std::move(copy));
    }
    for (const auto& p : from.pods) {
        if (p.group.empty() || !taken.count(p.ns + '/' + p.group)) continue;
        Pod copy = p;
        if (!copy.nodeName.empty()) ++out.unbound;
        copy.nodeName.clear();
        copy.gpuIndices.clear();
        copy.phase = PodPhase::Pending;
        out.pods.push_back(std::move(copy));
    }
    return out;
}

ImportJobsCommand::ImportJobsCommand(ProjectDocument* doc, JobImport jobs, const QString& fileName)
    : doc_(doc), groups_(std::move(jobs.groups)), pods_(std::move(jobs.pods)) {
    setText(QObject::tr("Import %n job(s) from %1", "", int(groups_.size())).arg(fileName));
}

void ImportJobsCommand::redo() {
    auto& cluster = doc_->edit().cluster;
    cluster.podGroups.insert(cluster.podGroups.end(), groups_.begin(), groups_.end());
    cluster.pods.insert(cluster.pods.end(), pods_.begin(), pods_.end());
    doc_->announceJobsChanged();
}

void ImportJobsCommand::undo() {
    // Commands pushed later were undone first, so these jobs are the last ones.
    auto& cluster = doc_->edit().cluster;
    cluster.podGroups.resize(cluster.podGroups.size() - groups_.size());
    cluster.pods.resize(cluster.pods.size() - pods_.size());
    doc_->announceJobsChanged();
}

} // namespace gantry::studio
