#include "core/project_commands.h"

namespace gantry::studio {

AddWorkloadCommand::AddWorkloadCommand(ProjectDocument* doc, WorkloadTemplate workload, int position)
    : doc_(doc), workload_(std::move(workload)), position_(position) {
    setText(QObject::tr("Add workload %1").arg(QString::fromStdString(workload_.name)));
}

void AddWorkloadCommand::redo() {
    auto& ws = doc_->edit().workloads;
    if (position_ < 0 || size_t(position_) > ws.size()) position_ = int(ws.size());
    doc_->beginWorkloadsReset();
    ws.insert(ws.begin() + position_, workload_);
    doc_->endWorkloadsReset();
}

void AddWorkloadCommand::undo() {
    auto& ws = doc_->edit().workloads;
    if (size_t(position_) >= ws.size()) return;
    doc_->beginWorkloadsReset();
    ws.erase(ws.begin() + position_);
    doc_->endWorkloadsReset();
}

RemoveWorkloadCommand::RemoveWorkloadCommand(ProjectDocument* doc, int index) : doc_(doc), index_(index) {
    const auto& ws = doc_->project().workloads;
    if (index_ >= 0 && size_t(index_) < ws.size()) removed_ = ws[size_t(index_)];
    setText(QObject::tr("Remove workload %1").arg(QString::fromStdString(removed_.name)));
}

void RemoveWorkloadCommand::redo() {
    auto& ws = doc_->edit().workloads;
    if (index_ < 0 || size_t(index_) >= ws.size()) return;
    doc_->beginWorkloadsReset();
    ws.erase(ws.begin() + index_);
    doc_->endWorkloadsReset();
}

void RemoveWorkloadCommand::undo() {
    auto& ws = doc_->edit().workloads;
    if (index_ < 0 || size_t(index_) > ws.size()) return;
    doc_->beginWorkloadsReset();
    ws.insert(ws.begin() + index_, removed_);
    doc_->endWorkloadsReset();
}

EditWorkloadCommand::EditWorkloadCommand(ProjectDocument* doc, int index, WorkloadTemplate after,
                                         const QString& text)
    : doc_(doc), index_(index), after_(std::move(after)) {
    const auto& ws = doc_->project().workloads;
    if (index_ >= 0 && size_t(index_) < ws.size()) before_ = ws[size_t(index_)];
    setText(text);
}

void EditWorkloadCommand::redo() {
    auto& ws = doc_->edit().workloads;
    if (index_ < 0 || size_t(index_) >= ws.size()) return;
    ws[size_t(index_)] = after_;
    doc_->announceWorkloadChanged(index_);
}

void EditWorkloadCommand::undo() {
    auto& ws = doc_->edit().workloads;
    if (index_ < 0 || size_t(index_) >= ws.size()) return;
    ws[size_t(index_)] = before_;
    doc_->announceWorkloadChanged(index_);
}

Policy policyOf(const Project& project) {
    return Policy{project.target, project.volcano, project.contrast, project.kueue, project.cluster.yunikorn};
}

SetPolicyCommand::SetPolicyCommand(ProjectDocument* doc, Policy after, const QString& text)
    : doc_(doc), before_(policyOf(doc->project())), after_(std::move(after)) {
    setText(text);
}

void SetPolicyCommand::apply(const Policy& p) {
    auto& project = doc_->edit();
    project.target = p.target;
    project.volcano = p.volcano;
    project.contrast = p.contrast;
    project.kueue = p.kueue;
    project.cluster.yunikorn = p.yunikorn;
    doc_->announcePolicyChanged();
}

void SetPolicyCommand::redo() {
    apply(after_);
}
void SetPolicyCommand::undo() {
    apply(before_);
}

SetSimulationSettingsCommand::SetSimulationSettingsCommand(ProjectDocument* doc, SimulationSettings after)
    : doc_(doc), before_(doc->project().simulation), after_(after) {
    setText(QObject::tr("Change simulation settings"));
}

void SetSimulationSettingsCommand::redo() {
    doc_->edit().simulation = after_;
    doc_->announceSettingsChanged();
}

void SetSimulationSettingsCommand::undo() {
    doc_->edit().simulation = before_;
    doc_->announceSettingsChanged();
}

} // namespace gantry::studio
