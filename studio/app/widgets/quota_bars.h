#pragma once
// Bars of one queue's quota against its parent, one per resource: the parent's entitlement is the
// full width; the queue's part is solid, its siblings' parts follow, and anything past the parent's
// amount is drawn red. Top-level queues compare against the cluster's capacity.
#include "model/project.h"

#include <QWidget>

namespace gantry::studio {

class QuotaBars : public QWidget {
    Q_OBJECT
  public:
    explicit QuotaBars(QWidget* parent = nullptr);
    void setQueue(const Project* project, const Queue* queue); // queue may be a candidate copy
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

    struct Bar {
        QString resource;
        QString caption;     // "deserved 16 of parent's 32 GPU"
        double whole = 0;    // parent's amount (or cluster's)
        double mine = 0;     // this queue's
        double siblings = 0; // the other children's
        bool hasParent = false;
    };
    const std::vector<Bar>& bars() const { return bars_; }

  protected:
    void paintEvent(QPaintEvent*) override;

  private:
    std::vector<Bar> bars_;
    QString empty_;
};

} // namespace gantry::studio
