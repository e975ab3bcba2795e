#pragma once
// A headline figure with its caption ("8,192 GPUs" over "62 % allocated"), used in summary strips.
#include <QFrame>

class QLabel;

namespace gantry::studio {

class StatCard : public QFrame {
    Q_OBJECT
  public:
    explicit StatCard(const QString& caption, QWidget* parent = nullptr);
    void setValue(const QString& value, const QString& detail = {});
    void setAccent(const QColor& color); // a thin bar on the left; invalid = none
    QString value() const;

  protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    void elideDetail();
    QString detailText_; // whole; the label shows it cut with an ellipsis when it does not fit
    QLabel* caption_;
    QLabel* value_;
    QLabel* detail_;
    QColor accent_;
};

// Formats 8192 as "8,192" in the user's locale.
QString formatCount(qint64 n);
QString formatGpus(double gpus);

} // namespace gantry::studio
