#pragma once
// Undo commands over the what-if workloads, the policy and the simulation settings.
#include "core/project_document.h"

#include <QUndoCommand>
#include <optional>

namespace gantry::studio {

class AddWorkloadCommand : public QUndoCommand {
  public:
    AddWorkloadCommand(ProjectDocument* doc, WorkloadTemplate workload, int position = -1);
    void redo() override;
    void undo() override;

  private:
    ProjectDocument* doc_;
    WorkloadTemplate workload_;
    int position_;
};

class RemoveWorkloadCommand : public QUndoCommand {
  public:
    RemoveWorkloadCommand(ProjectDocument* doc, int index);
    void redo() override;
    void undo() override;

  private:
    ProjectDocument* doc_;
    int index_;
    WorkloadTemplate removed_;
};

class EditWorkloadCommand : public QUndoCommand {
  public:
    EditWorkloadCommand(ProjectDocument* doc, int index, WorkloadTemplate after, const QString& text);
    void redo() override;
    void undo() override;

  private:
    ProjectDocument* doc_;
    int index_;
    WorkloadTemplate before_, after_;
};

// The scheduling policy as one value: what the Policy tab edits.
struct Policy {
    TargetScheduler target = TargetScheduler::Volcano;
    SchedulerConf volcano;
    std::optional<KubeSchedulerProfile> contrast;
    std::optional<KueueConfig> kueue;          // Project::kueue
    std::optional<YuniKornPartition> yunikorn; // the cluster's YuniKorn partition settings
    bool operator==(const Policy&) const = default;
};
Policy policyOf(const Project& project);

class SetPolicyCommand : public QUndoCommand {
  public:
    SetPolicyCommand(ProjectDocument* doc, Policy after, const QString& text);
    void redo() override;
    void undo() override;

  private:
    void apply(const Policy& p);
    ProjectDocument* doc_;
    Policy before_, after_;
};

class SetSimulationSettingsCommand : public QUndoCommand {
  public:
    SetSimulationSettingsCommand(ProjectDocument* doc, SimulationSettings after);
    void redo() override;
    void undo() override;

  private:
    ProjectDocument* doc_;
    SimulationSettings before_, after_;
};

} // namespace gantry::studio
