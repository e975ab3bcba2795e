#include "core/queue_commands.h"

#include <algorithm>
#include <set>

namespace gantry::studio {

int queueIndex(const Project& project, const std::string& name) {
    const auto& qs = project.cluster.queues;
    for (size_t i = 0; i < qs.size(); ++i)
        if (qs[i].name == name) return int(i);
    return -1;
}

std::vector<std::string> queueSubtree(const Project& project, const std::string& name) {
    std::vector<std::string> out{name};
    // Breadth-first over parent links; the tree is small (hundreds of queues at most).
    for (size_t i = 0; i < out.size(); ++i)
        for (const auto& q : project.cluster.queues)
            if (q.parent == out[i] && q.name != out[i]) out.push_back(q.name);
    return out;
}

bool canReparent(const Project& project, const std::string& name, const std::string& newParent,
                 QString* why) {
    auto fail = [&](const QString& text) {
        if (why) *why = text;
        return false;
    };
    int self = queueIndex(project, name);
    if (self < 0) return fail(QObject::tr("There is no queue named '%1'.").arg(QString::fromStdString(name)));
    if (newParent.empty() || newParent == "root") return true;
    int parent = queueIndex(project, newParent);
    if (parent < 0)
        return fail(QObject::tr("There is no queue named '%1'.").arg(QString::fromStdString(newParent)));
    auto subtree = queueSubtree(project, name);
    if (std::find(subtree.begin(), subtree.end(), newParent) != subtree.end())
        return fail(QObject::tr("'%1' cannot move under itself or one of its own children.")
                        .arg(QString::fromStdString(name)));
    if (project.cluster.queues[size_t(parent)].kind == Queue::Kind::KueueClusterQueue)
        return fail(
            QObject::tr("'%1' is a Kueue ClusterQueue, which cannot have children: drop onto a cohort.")
                .arg(QString::fromStdString(newParent)));
    return true;
}

std::string uniqueQueueName(const Project& project, const std::string& base) {
    if (queueIndex(project, base) < 0) return base;
    for (int n = 2;; ++n) {
        auto candidate = base + "-" + std::to_string(n);
        if (queueIndex(project, candidate) < 0) return candidate;
    }
}

AddQueueCommand::AddQueueCommand(ProjectDocument* doc, Queue queue) : doc_(doc), queue_(std::move(queue)) {
    setText(QObject::tr("Add queue %1").arg(QString::fromStdString(queue_.name)));
}

void AddQueueCommand::redo() {
    doc_->beginQueuesReset();
    doc_->edit().cluster.queues.push_back(queue_);
    doc_->endQueuesReset();
}

void AddQueueCommand::undo() {
    doc_->beginQueuesReset();
    auto& qs = doc_->edit().cluster.queues;
    qs.erase(std::remove_if(qs.begin(), qs.end(), [&](const Queue& q) { return q.name == queue_.name; }),
             qs.end());
    doc_->endQueuesReset();
}

RemoveQueueCommand::RemoveQueueCommand(ProjectDocument* doc, const std::string& name)
    : doc_(doc), name_(name) {
    setText(QObject::tr("Remove queue %1").arg(QString::fromStdString(name)));
}

void RemoveQueueCommand::redo() {
    auto names = queueSubtree(doc_->project(), name_);
    std::set<std::string> doomed(names.begin(), names.end());
    doc_->beginQueuesReset();
    auto& qs = doc_->edit().cluster.queues;
    removed_.clear();
    std::vector<Queue> kept;
    for (size_t i = 0; i < qs.size(); ++i) {
        if (doomed.count(qs[i].name))
            removed_.emplace_back(int(i), qs[i]);
        else
            kept.push_back(std::move(qs[i]));
    }
    qs = std::move(kept);
    doc_->endQueuesReset();
}

void RemoveQueueCommand::undo() {
    doc_->beginQueuesReset();
    auto& qs = doc_->edit().cluster.queues;
    for (auto& [index, queue] : removed_)
        qs.insert(qs.begin() + std::min<ptrdiff_t>(index, ptrdiff_t(qs.size())), queue);
    doc_->endQueuesReset();
}

RenameQueueCommand::RenameQueueCommand(ProjectDocument* doc, std::string from, std::string to)
    : doc_(doc), from_(std::move(from)), to_(std::move(to)) {
    setText(
        QObject::tr("Rename queue %1 to %2").arg(QString::fromStdString(from_), QString::fromStdString(to_)));
}

void RenameQueueCommand::apply(const std::string& from, const std::string& to) {
    doc_->beginQueuesReset();
    auto& p = doc_->edit();
    for (auto& q : p.cluster.queues) {
        if (q.name == from) q.name = to;
        if (q.parent == from) q.parent = to;
    }
    for (auto& w : p.workloads)
        if (w.queue == from) w.queue = to;
    for (auto& g : p.cluster.podGroups)
        if (g.queue == from) g.queue = to;
    for (auto& l : p.cluster.localQueues)
        if (l.clusterQueue == from) l.clusterQueue = to;
    doc_->endQueuesReset();
    doc_->beginWorkloadsReset();
    doc_->endWorkloadsReset();
}

void RenameQueueCommand::redo() {
    apply(from_, to_);
}
void RenameQueueCommand::undo() {
    apply(to_, from_);
}

ReparentQueueCommand::ReparentQueueCommand(ProjectDocument* doc, std::string name, std::string newParent)
    : doc_(doc), name_(std::move(name)), newParent_(std::move(newParent)) {
    int i = queueIndex(doc_->project(), name_);
    if (i >= 0) oldParent_ = doc_->project().cluster.queues[size_t(i)].parent;
    setText(newParent_.empty()
                ? QObject::tr("Move queue %1 to the top level").arg(QString::fromStdString(name_))
                : QObject::tr("Move queue %1 under %2")
                      .arg(QString::fromStdString(name_), QString::fromStdString(newParent_)));
}

void ReparentQueueCommand::apply(const std::string& parent) {
    int i = queueIndex(doc_->project(), name_);
    if (i < 0) return;
    doc_->beginQueuesReset();
    doc_->edit().cluster.queues[size_t(i)].parent = parent;
    doc_->endQueuesReset();
}

void ReparentQueueCommand::redo() {
    apply(newParent_);
}
void ReparentQueueCommand::undo() {
    apply(oldParent_);
}

EditQueueCommand::EditQueueCommand(ProjectDocument* doc, const Queue& after, const QString& text)
    : doc_(doc), after_(after) {
    int i = queueIndex(doc_->project(), after.name);
    if (i >= 0) before_ = doc_->project().cluster.queues[size_t(i)];
    after_.parent = before_.parent;
    setText(text);
}

void EditQueueCommand::apply(const Queue& value) {
    int i = queueIndex(doc_->project(), value.name);
    if (i < 0) return;
    doc_->edit().cluster.queues[size_t(i)] = value;
    doc_->announceQueueChanged(i);
}

void EditQueueCommand::redo() {
    apply(after_);
}
void EditQueueCommand::undo() {
    apply(before_);
}

} // namespace gantry::studio
