#include "widgets/queue_editor.h"

#include "core/project_document.h"
#include "core/qt_text.h"
#include "core/queue_commands.h"
#include "core/quota_validation.h"
#include "widgets/quota_bars.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>

namespace gantry::studio {
namespace {

void setInvalid(QLineEdit* e, bool invalid) {
    if (e->property("invalid").toBool() == invalid) return;
    e->setProperty("invalid", invalid);
    e->setStyleSheet(invalid ? QStringLiteral("QLineEdit { border: 1px solid #d32f2f; border-radius: 2px; }")
                             : QString());
}

} // namespace

QueueEditor::QueueEditor(ProjectDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(12, 4, 4, 4);
    title_ = new QLabel(this);
    QFont tf = title_->font();
    tf.setPointSizeF(tf.pointSizeF() * 1.4);
    tf.setWeight(QFont::DemiBold);
    title_->setFont(tf);
    path_ = new QLabel(this);
    path_->setForegroundRole(QPalette::PlaceholderText);
    empty_ = new QLabel(tr("Select a queue to edit its settings and quotas."), this);
    empty_->setForegroundRole(QPalette::PlaceholderText);
    outer->addWidget(title_);
    outer->addWidget(path_);
    outer->addWidget(empty_);

    body_ = new QWidget(this);
    auto* body = new QVBoxLayout(body_);
    body->setContentsMargins(0, 6, 0, 0);
    outer->addWidget(body_, 1);

    auto* general = new QGroupBox(tr("Queue"), body_);
    auto* form = new QFormLayout(general);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    nameEdit_ = new QLineEdit(general);
    parentBox_ = new QComboBox(general);
    kindLabel_ = new QLabel(general);
    weight_ = new QSpinBox(general);
    weight_->setRange(1, 65535);
    weight_->setToolTip(
        tr("Share of the parent's capacity relative to siblings (proportion plugin, DRF, fair sharing)."));
    priority_ = new QSpinBox(general);
    priority_->setRange(0, 1000000000);
    priority_->setToolTip(tr("Higher-priority queues are scheduled first and reclaimed last."));
    state_ = new QComboBox(general);
    state_->addItem(tr("Open"), int(QueueState::Open));
    state_->addItem(tr("Closed"), int(QueueState::Closed));
    reclaimable_ = new QCheckBox(tr("Others may reclaim what this queue borrowed"), general);
    maxApps_ = new QSpinBox(general);
    maxApps_->setRange(0, 1000000);
    maxApps_->setSpecialValueText(tr("unlimited"));
    generalMessage_ = new QLabel(general);
    generalMessage_->setWordWrap(true);
    generalMessage_->setStyleSheet(QStringLiteral("color: #d32f2f;"));
    form->addRow(tr("Name"), nameEdit_);
    form->addRow(tr("Parent"), parentBox_);
    form->addRow(tr("Kind"), kindLabel_);
    form->addRow(tr("Weight"), weight_);
    form->addRow(tr("Priority"), priority_);
    form->addRow(tr("State"), state_);
    form->addRow(tr("Reclaim"), reclaimable_);
    form->addRow(tr("Max applications"), maxApps_);
    form->addRow(generalMessage_);
    body->addWidget(general);

    quotaBox_ = new QGroupBox(tr("Quota"), body_);
    auto* quotaLayout = new QVBoxLayout(quotaBox_);
    quotaHelp_ = new QLabel(quotaBox_);
    quotaHelp_->setWordWrap(true);
    quotaHelp_->setForegroundRole(QPalette::PlaceholderText);
    quotaLayout->addWidget(quotaHelp_);
    grid_ = new QGridLayout;
    grid_->setHorizontalSpacing(10);
    grid_->setVerticalSpacing(2);
    quotaLayout->addLayout(grid_);
    body->addWidget(quotaBox_);

    auto* barsBox = new QGroupBox(tr("Against the parent"), body_);
    auto* barsLayout = new QVBoxLayout(barsBox);
    barsTitle_ = new QLabel(barsBox);
    barsTitle_->setForegroundRole(QPalette::PlaceholderText);
    barsTitle_->setWordWrap(true);
    bars_ = new QuotaBars(barsBox);
    barsLayout->addWidget(barsTitle_);
    barsLayout->addWidget(bars_);
    body->addWidget(barsBox);
    body->addStretch(1);

    connect(nameEdit_, &QLineEdit::editingFinished, this, [this] {
        const Queue* q = stored();
        std::string to = nameEdit_->text().trimmed().toStdString();
        if (!q || loading_ || to == q->name) return;
        if (to.empty() || queueIndex(doc_->project(), to) >= 0) {
            generalMessage_->setText(to.empty() ? tr("A queue needs a name.")
                                                : tr("There is already a queue named '%1'.").arg(qs(to)));
            nameEdit_->setText(qs(q->name));
            return;
        }
        std::string from = q->name;
        name_ = to;
        doc_->undoStack()->push(new RenameQueueCommand(doc_, from, to));
    });
    connect(parentBox_, &QComboBox::activated, this, [this] {
        const Queue* q = stored();
        if (!q || loading_) return;
        std::string newParent = parentBox_->currentData().toString().toStdString();
        QString why;
        if (newParent == q->parent) return;
        if (!canReparent(doc_->project(), q->name, newParent, &why)) {
            generalMessage_->setText(why);
            loadFields();
            return;
        }
        doc_->undoStack()->push(new ReparentQueueCommand(doc_, q->name, newParent));
    });
    connect(weight_, &QSpinBox::editingFinished, this, [this] {
        commitGeneral([this](Queue& q) { q.weight = weight_->value(); },
                      tr("Set weight of %1").arg(qs(name_)));
    });
    connect(priority_, &QSpinBox::editingFinished, this, [this] {
        commitGeneral([this](Queue& q) { q.priority = priority_->value(); },
                      tr("Set priority of %1").arg(qs(name_)));
    });
    connect(maxApps_, &QSpinBox::editingFinished, this, [this] {
        commitGeneral([this](Queue& q) { q.maxApplications = uint64_t(maxApps_->value()); },
                      tr("Set max applications of %1").arg(qs(name_)));
    });
    connect(state_, &QComboBox::activated, this, [this] {
        commitGeneral([this](Queue& q) { q.state = QueueState(state_->currentData().toInt()); },
                      tr("Set state of %1").arg(qs(name_)));
    });
    connect(reclaimable_, &QCheckBox::toggled, this, [this](bool on) {
        commitGeneral([on](Queue& q) { q.reclaimable = on; }, tr("Set reclaimable of %1").arg(qs(name_)));
    });

    connect(doc_, &ProjectDocument::queueChanged, this, [this](int) { reload(); });
    connect(doc_, &ProjectDocument::queuesReset, this, [this] {
        if (queueIndex(doc_->project(), name_) < 0) name_.clear();
        reload();
    });
    connect(doc_, &ProjectDocument::policyChanged, this, [this] { reload(); });
    connect(doc_, &ProjectDocument::projectReplaced, this, [this] {
        name_.clear();
        reload();
    });
    reload();
}

const Queue* QueueEditor::stored() const {
    int i = queueIndex(doc_->project(), name_);
    return i < 0 ? nullptr : &doc_->project().cluster.queues[size_t(i)];
}

void QueueEditor::setQueue(const std::string& name) {
    if (name == name_) return;
    name_ = name;
    reload();
}

void QueueEditor::reload() {
    const Queue* q = stored();
    empty_->setVisible(!q);
    body_->setVisible(q != nullptr);
    title_->setVisible(q != nullptr);
    path_->setVisible(q != nullptr);
    if (!q) {
        bars_->setQueue(nullptr, nullptr);
        return;
    }
    if (gridKeys() != gridKeys_ || doc_->project().target != gridTarget_ || cells_.empty())
        rebuildQuotaGrid();
    loadFields();
}

std::vector<std::pair<std::string, std::string>> QueueEditor::gridKeys() const {
    // (flavor, resource) pairs: Kueue lists each flavor's resources; the others list resources.
    const auto& project = doc_->project();
    const Queue* q = stored();
    std::vector<std::pair<std::string, std::string>> keys;
    if (!q) return keys;
    if (project.target == TargetScheduler::Kueue) {
        for (const auto& g : q->resourceGroups)
            for (const auto& f : g.flavors)
                for (const auto& rq : f.resources) keys.emplace_back(f.flavor, rq.resource);
        for (const auto& r : quotaResources(project)) {
            bool present = false;
            for (const auto& k : keys) present = present || k.second == r;
            if (!present && (isGpuResource(r) || r == "cpu" || r == "memory")) keys.emplace_back("", r);
        }
    } else {
        for (const auto& r : quotaResources(project)) keys.emplace_back("", r);
    }
    return keys;
}

void QueueEditor::rebuildQuotaGrid() {
    const auto target = doc_->project().target;
    // deleteLater: the rebuild can be triggered from a signal of one of these fields.
    while (QLayoutItem* item = grid_->takeAt(0)) {
        if (item->widget()) {
            item->widget()->hide();
            item->widget()->deleteLater();
        }
        delete item;
    }
    cells_.clear();
    rows_.clear();
    QuotaTerms terms = quotaTerms(target);
    std::vector<QuotaField> fields;
    if (target == TargetScheduler::Volcano) fields = {QuotaField::Low, QuotaField::Share, QuotaField::High};
    if (target == TargetScheduler::Kueue) fields = {QuotaField::Share, QuotaField::High, QuotaField::Low};
    if (target == TargetScheduler::YuniKorn) fields = {QuotaField::Share, QuotaField::High};
    auto fieldName = [&](QuotaField f) {
        return f == QuotaField::Low ? terms.low : f == QuotaField::Share ? terms.share : terms.high;
    };

    int row = 0;
    auto* corner =
        new QLabel(target == TargetScheduler::Kueue ? tr("Flavor · resource") : tr("Resource"), quotaBox_);
    corner->setForegroundRole(QPalette::PlaceholderText);
    grid_->addWidget(corner, row, 0);
    for (size_t c = 0; c < fields.size(); ++c) {
        auto* h = new QLabel(QStringLiteral("<b>%1</b>").arg(fieldName(fields[c])), quotaBox_);
        grid_->addWidget(h, row, int(c) + 1);
    }
    ++row;

    const auto keys = gridKeys();
    gridTarget_ = target;
    gridKeys_ = keys;
    for (const auto& [flavor, resource] : keys) {
        QString label = flavor.empty() ? qs(resource) : qs(flavor) + QStringLiteral(" · ") + qs(resource);
        if (target == TargetScheduler::Kueue && flavor.empty()) label = tr("%1 (new)").arg(qs(resource));
        grid_->addWidget(new QLabel(label, quotaBox_), row, 0);
        for (size_t c = 0; c < fields.size(); ++c) {
            auto* e = new QLineEdit(quotaBox_);
            bool unlimited = fields[c] != QuotaField::Share || target != TargetScheduler::Kueue;
            e->setPlaceholderText(fields[c] == QuotaField::High ||
                                          (target == TargetScheduler::Kueue && fields[c] == QuotaField::Low)
                                      ? tr("unlimited")
                                  : unlimited ? tr("not set")
                                              : QStringLiteral("0"));
            e->setToolTip(tr("%1 of %2, as a Kubernetes quantity (e.g. 8, 500m, 64Gi). Empty = %3.")
                              .arg(fieldName(fields[c]), qs(resource), e->placeholderText()));
            e->setMinimumWidth(90);
            grid_->addWidget(e, row, int(c) + 1);
            size_t index = cells_.size();
            cells_.push_back(Cell{resource, flavor, fields[c], e});
            connect(e, &QLineEdit::textEdited, this, [this] { validateLive(); });
            connect(e, &QLineEdit::editingFinished, this, [this, index] {
                if (loading_) return;
                const Cell& cell = cells_[index];
                commit(tr("Set %1 %2")
                           .arg(QString::fromStdString(cell.resource),
                                cell.field == QuotaField::Low     ? quotaTerms(doc_->project().target).low
                                : cell.field == QuotaField::Share ? quotaTerms(doc_->project().target).share
                                                                  : quotaTerms(doc_->project().target).high));
            });
        }
        ++row;
        auto* message = new QLabel(quotaBox_);
        message->setWordWrap(true);
        message->setVisible(false);
        grid_->addWidget(message, row, 1, 1, int(fields.size()));
        rows_.push_back(Row{resource, flavor, message});
        ++row;
    }
    grid_->setColumnStretch(0, 0);
    for (size_t c = 0; c < fields.size(); ++c) grid_->setColumnStretch(int(c) + 1, 1);

    switch (target) {
    case TargetScheduler::Volcano:
        quotaHelp_->setText(tr(
            "Volcano: <b>guarantee</b> is never lent, <b>deserved</b> is the fair share the capacity plugin "
            "reclaims towards, <b>capability</b> is the hard cap. guarantee ≤ deserved ≤ capability; "
            "children's deserved and guarantee fit in the parent's."));
        break;
    case TargetScheduler::Kueue:
        quotaHelp_->setText(
            tr("Kueue: <b>nominal</b> quota per flavor; within a cohort a queue may borrow up to the "
               "<b>borrowing limit</b> above nominal and lend up to the <b>lending limit</b> of it. "
               "Limits need a cohort (a parent)."));
        break;
    case TargetScheduler::YuniKorn:
        quotaHelp_->setText(
            tr("YuniKorn: <b>guaranteed</b> is what the queue is promised, <b>max</b> the hard limit "
               "(inherited from ancestors). Children's guaranteed fit in the parent's."));
        break;
    }
}

void QueueEditor::loadFields() {
    const Queue* q = stored();
    if (!q) return;
    loading_ = true;
    const auto& project = doc_->project();
    const auto target = project.target;
    title_->setText(qs(q->name));
    QStringList path;
    std::string p = q->parent;
    for (int guard = 0; !p.empty() && p != "root" && guard < 64; ++guard) {
        path.prepend(qs(p));
        int i = queueIndex(project, p);
        if (i < 0) break;
        p = project.cluster.queues[size_t(i)].parent;
    }
    path.prepend(QStringLiteral("root"));
    path << qs(q->name);
    path_->setText(path.join(QStringLiteral("  ›  ")));

    nameEdit_->setText(qs(q->name));
    parentBox_->clear();
    parentBox_->addItem(tr("(top level)"), QString());
    auto subtree = queueSubtree(project, q->name);
    for (const auto& other : project.cluster.queues) {
        if (std::find(subtree.begin(), subtree.end(), other.name) != subtree.end()) continue;
        if (other.kind == Queue::Kind::KueueClusterQueue) continue;
        parentBox_->addItem(qs(other.name), qs(other.name));
    }
    int pi = parentBox_->findData(qs(q->parent == "root" ? std::string() : q->parent));
    parentBox_->setCurrentIndex(pi < 0 ? 0 : pi);
    kindLabel_->setText(qs(toString(q->kind)));
    weight_->setValue(q->weight);
    priority_->setValue(q->priority);
    state_->setCurrentIndex(q->state == QueueState::Closed ? 1 : 0);
    reclaimable_->setChecked(q->reclaimable);
    maxApps_->setValue(int(std::min<uint64_t>(q->maxApplications, 1000000)));
    const bool volcano = target == TargetScheduler::Volcano, yunikorn = target == TargetScheduler::YuniKorn;
    auto showRow = [](QWidget* w, bool on) {
        w->setVisible(on);
        if (auto* form = qobject_cast<QFormLayout*>(w->parentWidget()->layout()))
            if (auto* label = form->labelForField(w)) label->setVisible(on);
    };
    showRow(priority_, volcano);
    showRow(reclaimable_, volcano);
    showRow(state_, volcano);
    showRow(maxApps_, yunikorn);
    generalMessage_->clear();

    for (auto& c : cells_) {
        std::optional<int64_t> v;
        if (target == TargetScheduler::Kueue && !c.flavor.empty()) {
            for (const auto& g : q->resourceGroups)
                for (const auto& f : g.flavors)
                    if (f.flavor == c.flavor)
                        for (const auto& rq : f.resources)
                            if (rq.resource == c.resource)
                                v = c.field == QuotaField::Share  ? std::optional<int64_t>(rq.nominal)
                                    : c.field == QuotaField::High ? rq.borrowingLimit
                                                                  : rq.lendingLimit;
        } else if (target != TargetScheduler::Kueue) {
            v = quotaValue(*q, target, c.field, c.resource);
        }
        c.edit->setText(v ? qs(formatAmount(c.resource, *v)) : QString());
    }
    loading_ = false;
    validateLive();
}

Queue QueueEditor::candidate(std::map<size_t, QString>* parseErrors) const {
    const Queue* q = stored();
    Queue out = q ? *q : Queue{};
    const auto target = doc_->project().target;
    for (size_t i = 0; i < cells_.size(); ++i) {
        const Cell& c = cells_[i];
        QString text = c.edit->text().trimmed();
        std::optional<int64_t> value;
        if (!text.isEmpty()) {
            std::string error;
            value = parseAmount(c.resource, text.toStdString(), &error);
            if (!value || *value < 0) {
                if (parseErrors)
                    (*parseErrors)[i] = error.empty() ? tr("must not be negative")
                                                      : tr("'%1' is not a quantity: %2").arg(text, qs(error));
                continue;
            }
        }
        if (target == TargetScheduler::Kueue && !c.flavor.empty()) {
            for (auto& g : out.resourceGroups)
                for (auto& f : g.flavors)
                    if (f.flavor == c.flavor)
                        for (auto& rq : f.resources)
                            if (rq.resource == c.resource) {
                                if (c.field == QuotaField::Share) rq.nominal = value.value_or(0);
                                if (c.field == QuotaField::High) rq.borrowingLimit = value;
                                if (c.field == QuotaField::Low) rq.lendingLimit = value;
                            }
        } else {
            setQuotaValue(out, target, c.field, c.resource, value);
        }
    }
    return out;
}

void QueueEditor::validateLive() {
    if (loading_ || !stored()) return;
    std::map<size_t, QString> parseErrors;
    Queue cand = candidate(&parseErrors);
    auto issues = validateQueue(doc_->project(), cand, doc_->project().target);
    QuotaTerms terms = quotaTerms(doc_->project().target);
    for (size_t i = 0; i < cells_.size(); ++i) setInvalid(cells_[i].edit, parseErrors.count(i) > 0);
    for (auto& row : rows_) {
        QStringList errors, warnings;
        for (const auto& [i, text] : parseErrors)
            if (cells_[i].resource == row.resource && cells_[i].flavor == row.flavor) errors << text;
        for (const auto& issue : issues) {
            if (issue.resource != row.resource) continue;
            (issue.severity == Severity::Error ? errors : warnings) << issue.message;
            for (auto& c : cells_)
                if (c.resource == row.resource && c.flavor == row.flavor && c.field == issue.field &&
                    issue.severity == Severity::Error)
                    setInvalid(c.edit, true);
        }
        QString html;
        for (const auto& e : errors)
            html += QStringLiteral("<div style='color:#d32f2f'>✖ %1</div>").arg(e.toHtmlEscaped());
        for (const auto& w : warnings)
            html += QStringLiteral("<div style='color:#b26a00'>⚠ %1</div>").arg(w.toHtmlEscaped());
        row.message->setText(html);
        row.message->setVisible(!html.isEmpty());
    }
    QStringList general;
    for (const auto& issue : issues)
        if (issue.resource.empty()) general << issue.message;
    generalMessage_->setText(general.join('\n'));
    bars_->setQueue(&doc_->project(), &cand);
    barsTitle_->setText(
        cand.parent.empty() || cand.parent == "root"
            ? tr("Top-level queue: %1 against the cluster's capacity.").arg(terms.share.toLower())
            : tr("%1 against parent %2; the other bars are its siblings.").arg(terms.share, qs(cand.parent)));
}

void QueueEditor::commit(const QString& what) {
    const Queue* q = stored();
    if (!q) return;
    std::map<size_t, QString> parseErrors;
    Queue cand = candidate(&parseErrors);
    if (!parseErrors.empty()) {
        emit statusMessage(tr("Not saved: %1").arg(parseErrors.begin()->second));
        return;
    }
    if (cand == *q) return;
    doc_->undoStack()->push(new EditQueueCommand(doc_, cand, tr("%1 of %2").arg(what, qs(q->name))));
}

void QueueEditor::commitGeneral(const std::function<void(Queue&)>& change, const QString& text) {
    const Queue* q = stored();
    if (!q || loading_) return;
    Queue after = *q;
    change(after);
    if (after == *q) return;
    doc_->undoStack()->push(new EditQueueCommand(doc_, after, text));
}

QLineEdit* QueueEditor::quotaField(const std::string& resource, QuotaField field,
                                   const std::string& flavor) const {
    for (const auto& c : cells_)
        if (c.resource == resource && c.field == field && c.flavor == flavor) return c.edit;
    return nullptr;
}

QString QueueEditor::messageFor(const std::string& resource, const std::string& flavor) const {
    for (const auto& r : rows_)
        if (r.resource == resource && r.flavor == flavor) return r.message->text();
    return {};
}

} // namespace gantry::studio
