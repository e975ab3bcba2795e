#pragma once
// Undo commands over the queue tree. Queues are addressed by name (unique in a cluster), never by
// index, so a command stays valid whatever else happened on the stack in between.
#include "core/project_document.h"

#include <QString>
#include <QUndoCommand>
#include <utility>
#include <vector>

namespace gantry::studio {

int queueIndex(const Project& project, const std::string& name);
// Names of the queue and every queue below it, the queue itself first.
std::vector<std::string> queueSubtree(const Project& project, const std::string& name);
// Whether `name` may move under `newParent` ("" = top level); *why says what forbids it.
bool canReparent(const Project& project, const std::string& name, const std::string& newParent, QString* why);
// A name not used by any queue, built from `base` ("team-a", "team-a-2", ...).
std::string uniqueQueueName(const Project& project, const std::string& base);

class AddQueueCommand : public QUndoCommand {
  public:
    AddQueueCommand(ProjectDocument* doc, Queue queue);
    void redo() override;
    void undo() override;

  private:
    ProjectDocument* doc_;
    Queue queue_;
};

// Removes the queue and its whole subtree; undo puts every queue back at its old position.
class RemoveQueueCommand : public QUndoCommand {
  public:
    RemoveQueueCommand(ProjectDocument* doc, const std::string& name);
    void redo() override;
    void undo() override;

  private:
    ProjectDocument* doc_;
    std::string name_;
    std::vector<std::pair<int, Queue>> removed_; // original index, queue; ascending index
};

// Renames a queue and every reference to it: children's parent, workloads, PodGroups, LocalQueues.
class RenameQueueCommand : public QUndoCommand {
  public:
    RenameQueueCommand(ProjectDocument* doc, std::string from, std::string to);
    void redo() override;
    void undo() override;

  private:
    void apply(const std::string& from, const std::string& to);
    ProjectDocument* doc_;
    std::string from_, to_;
};

class ReparentQueueCommand : public QUndoCommand {
  public:
    ReparentQueueCommand(ProjectDocument* doc, std::string name, std::string newParent);
    void redo() override;
    void undo() override;

  private:
    void apply(const std::string& parent);
    ProjectDocument* doc_;
    std::string name_, oldParent_, newParent_;
};

// Replaces the fields of one queue (quotas, weight, priority, state ...); name and parent are kept.
class EditQueueCommand : public QUndoCommand {
  public:
    EditQueueCommand(ProjectDocument* doc, const Queue& after, const QString& text);
    void redo() override;
    void undo() override;

  private:
    void apply(const Queue& value);
    ProjectDocument* doc_;
    Queue before_, after_;
};

} // namespace gantry::studio
