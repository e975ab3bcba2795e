#pragma once
// Undo commands over nodes and topology: bulk label assignment, the topology levels, and growing or
// shrinking a pool.
#include "core/project_document.h"

#include <QUndoCommand>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gantry::studio {

// Sets (value) or removes (nullopt) one label on many nodes at once.
class SetNodeLabelCommand : public QUndoCommand {
  public:
    SetNodeLabelCommand(ProjectDocument* doc, std::vector<int> nodes, std::string key,
                        std::optional<std::string> value);
    void redo() override;
    void undo() override;

  private:
    ProjectDocument* doc_;
    std::vector<int> nodes_;
    std::string key_;
    std::optional<std::string> value_;
    std::vector<std::optional<std::string>> before_; // per node
};

// Several label writes as one step (e.g. "rack-{n/8}" over a name pattern gives each node its own value).
class SetNodeLabelsCommand : public QUndoCommand {
  public:
    struct Change {
        int node = -1;
        std::string key;
        std::optional<std::string> value;
    };
    SetNodeLabelsCommand(ProjectDocument* doc, std::vector<Change> changes, const QString& text);
    void redo() override;
    void undo() override;

  private:
    void apply(bool forward);
    ProjectDocument* doc_;
    std::vector<Change> changes_;
    std::vector<std::optional<std::string>> before_;
};

// Adds `delta` nodes to a pool (delta > 0) or removes -delta of them, the way the planner does
// (plan/node_change.h), as one step. The constructor makes the change on a copy and throws
// std::invalid_argument when it cannot be made (no such pool, too few nodes without pods).
class ChangePoolCommand : public QUndoCommand {
  public:
    ChangePoolCommand(ProjectDocument* doc, const std::string& pool, int64_t delta);
    void redo() override;
    void undo() override;

  private:
    ProjectDocument* doc_;
    Cluster before_, after_;
};

class SetTopologyLevelsCommand : public QUndoCommand {
  public:
    SetTopologyLevelsCommand(ProjectDocument* doc, std::vector<TopologyLevel> levels);
    void redo() override;
    void undo() override;

  private:
    ProjectDocument* doc_;
    std::vector<TopologyLevel> before_, after_;
};

} // namespace gantry::studio
