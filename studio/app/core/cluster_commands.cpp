#include "core/cluster_commands.h"

#include "plan/node_change.h"

#include <algorithm>

namespace gantry::studio {
namespace {

std::optional<std::string> labelOf(const Node& node, const std::string& key) {
    auto it = node.labels.find(key);
    if (it == node.labels.end()) return std::nullopt;
    return it->second;
}

void setLabel(Node& node, const std::string& key, const std::optional<std::string>& value) {
    if (value)
        node.labels[key] = *value;
    else
        node.labels.erase(key);
}

std::vector<int> uniqueSorted(std::vector<int> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

} // namespace

SetNodeLabelCommand::SetNodeLabelCommand(ProjectDocument* doc, std::vector<int> nodes, std::string key,
                                         std::optional<std::string> value)
    : doc_(doc), nodes_(std::move(nodes)), key_(std::move(key)), value_(std::move(value)) {
    const auto& all = doc_->project().cluster.nodes;
    for (int n : nodes_)
        before_.push_back(n >= 0 && size_t(n) < all.size() ? labelOf(all[size_t(n)], key_) : std::nullopt);
    auto count = QString::number(nodes_.size());
    setText(value_ ? QObject::tr("Label %1 node(s) %2=%3")
                         .arg(count, QString::fromStdString(key_), QString::fromStdString(*value_))
                   : QObject::tr("Remove label %2 from %1 node(s)").arg(count, QString::fromStdString(key_)));
}

void SetNodeLabelCommand::redo() {
    auto& all = doc_->edit().cluster.nodes;
    for (int n : nodes_)
        if (n >= 0 && size_t(n) < all.size()) setLabel(all[size_t(n)], key_, value_);
    doc_->announceNodesChanged(uniqueSorted(nodes_));
}

void SetNodeLabelCommand::undo() {
    auto& all = doc_->edit().cluster.nodes;
    for (size_t i = 0; i < nodes_.size(); ++i)
        if (nodes_[i] >= 0 && size_t(nodes_[i]) < all.size())
            setLabel(all[size_t(nodes_[i])], key_, before_[i]);
    doc_->announceNodesChanged(uniqueSorted(nodes_));
}

SetNodeLabelsCommand::SetNodeLabelsCommand(ProjectDocument* doc, std::vector<Change> changes,
                                           const QString& text)
    : doc_(doc), changes_(std::move(changes)) {
    const auto& all = doc_->project().cluster.nodes;
    for (const auto& c : changes_)
        before_.push_back(c.node >= 0 && size_t(c.node) < all.size() ? labelOf(all[size_t(c.node)], c.key)
                                                                     : std::nullopt);
    setText(text);
}

void SetNodeLabelsCommand::apply(bool forward) {
    auto& all = doc_->edit().cluster.nodes;
    std::vector<int> touched;
    // Undo walks backwards so a node written twice ends with its first "before" value.
    for (size_t k = 0; k < changes_.size(); ++k) {
        size_t i = forward ? k : changes_.size() - 1 - k;
        const auto& c = changes_[i];
        if (c.node < 0 || size_t(c.node) >= all.size()) continue;
        setLabel(all[size_t(c.node)], c.key, forward ? c.value : before_[i]);
        touched.push_back(c.node);
    }
    doc_->announceNodesChanged(uniqueSorted(std::move(touched)));
}

void SetNodeLabelsCommand::redo() {
    apply(true);
}
void SetNodeLabelsCommand::undo() {
    apply(false);
}

SetTopologyLevelsCommand::SetTopologyLevelsCommand(ProjectDocument* doc, std::vector<TopologyLevel> levels)
    : doc_(doc), before_(doc->project().cluster.topologyLevels), after_(std::move(levels)) {
    setText(QObject::tr("Change topology levels"));
}

void SetTopologyLevelsCommand::redo() {
    doc_->edit().cluster.topologyLevels = after_;
    doc_->announceTopologyChanged();
}

void SetTopologyLevelsCommand::undo() {
    doc_->edit().cluster.topologyLevels = before_;
    doc_->announceTopologyChanged();
}

ChangePoolCommand::ChangePoolCommand(ProjectDocument* doc, const std::string& pool, int64_t delta)
    : doc_(doc), before_(doc->project().cluster), after_(before_) {
    plan::changeNodes(after_, plan::NodeType::pool(pool), delta);
    const QString name = QString::fromStdString(pool);
    setText(delta >= 0 ? QObject::tr("Add %n %1 node(s)", "", int(delta)).arg(name)
                       : QObject::tr("Remove %n %1 node(s)", "", int(-delta)).arg(name));
}

void ChangePoolCommand::redo() {
    doc_->edit().cluster = after_;
    doc_->announceNodesReset();
}

void ChangePoolCommand::undo() {
    doc_->edit().cluster = before_;
    doc_->announceNodesReset();
}

} // namespace gantry::studio
