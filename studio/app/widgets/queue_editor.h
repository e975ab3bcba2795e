#pragma once
// The selected queue's settings and quotas in the target scheduler's terms: Volcano guarantee /
// deserved / capability per resource, Kueue nominal / borrowing / lending per flavor and resource,
// YuniKorn guaranteed / max. Messages appear next to a field while it is typed; a change is
// committed (as one undoable step) when the field is left.
#include "core/quota_terms.h"

#include <QWidget>
#include <map>
#include <optional>

class QLabel;
class QLineEdit;
class QSpinBox;
class QComboBox;
class QCheckBox;
class QGridLayout;
class QGroupBox;

namespace gantry::studio {

class ProjectDocument;
class QuotaBars;

class QueueEditor : public QWidget {
    Q_OBJECT
  public:
    explicit QueueEditor(ProjectDocument* doc, QWidget* parent = nullptr);
    void setQueue(const std::string& name); // "" = nothing selected
    const std::string& queueName() const { return name_; }

    // For tests: the field of a quota cell and the message shown next to its row.
    QLineEdit* quotaField(const std::string& resource, QuotaField field,
                          const std::string& flavor = {}) const;
    QString messageFor(const std::string& resource, const std::string& flavor = {}) const;

  signals:
    void statusMessage(const QString& text);

  private:
    struct Cell {
        std::string resource, flavor;
        QuotaField field;
        QLineEdit* edit = nullptr;
    };
    struct Row {
        std::string resource, flavor;
        QLabel* message = nullptr;
    };
    void reload();
    void rebuildQuotaGrid();
    std::vector<std::pair<std::string, std::string>> gridKeys() const;
    void loadFields();
    // The stored queue with every quota field's current text applied; parse errors per cell index.
    Queue candidate(std::map<size_t, QString>* parseErrors) const;
    void validateLive();
    void commit(const QString& what);
    void commitGeneral(const std::function<void(Queue&)>& change, const QString& text);
    const Queue* stored() const;

    ProjectDocument* doc_;
    std::string name_;
    bool loading_ = false;
    QLabel* title_;
    QLabel* path_;
    QLabel* empty_;
    QWidget* body_;
    QLineEdit* nameEdit_;
    QComboBox* parentBox_;
    QLabel* kindLabel_;
    QSpinBox* weight_;
    QSpinBox* priority_;
    QComboBox* state_;
    QCheckBox* reclaimable_;
    QSpinBox* maxApps_;
    QLabel* generalMessage_;
    QGroupBox* quotaBox_;
    QGridLayout* grid_;
    QLabel* quotaHelp_;
    std::vector<Cell> cells_;
    std::vector<Row> rows_;
    std::vector<std::pair<std::string, std::string>> gridKeys_;
    TargetScheduler gridTarget_ = TargetScheduler::Volcano;
    QuotaBars* bars_;
    QLabel* barsTitle_;
};

} // namespace gantry::studio
