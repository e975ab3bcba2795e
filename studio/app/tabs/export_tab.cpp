#include "tabs/export_tab.h"

#include "workspace.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gantry::studio {

ExportTab::ExportTab(Workspace* workspace, QWidget* parent) : QWidget(parent), ws_(workspace) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(10, 10, 10, 6);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("<b>Export for</b>"), this));
    target_ = new QButtonGroup(this);
    for (auto [t, label] : {std::pair{TargetScheduler::Volcano, tr("Volcano")},
                            std::pair{TargetScheduler::YuniKorn, tr("Apache YuniKorn")},
                            std::pair{TargetScheduler::Kueue, tr("Kueue")}}) {
        auto* b = new QRadioButton(label, this);
        target_->addButton(b, int(t));
        top->addWidget(b);
    }
    singleFile_ = new QCheckBox(tr("One multi-document file"), this);
    top->addSpacing(20);
    top->addWidget(singleFile_);
    top->addStretch(1);
    outer->addLayout(top);

    verdict_ = new QLabel(this);
    verdict_->setWordWrap(true);
    verdict_->setTextFormat(Qt::RichText);
    verdict_->setMargin(8);
    verdict_->setAutoFillBackground(true);
    outer->addWidget(verdict_);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    issues_ = new QTableWidget(0, 4, split);
    issues_->setHorizontalHeaderLabels({tr("Kind"), tr("Object"), tr("Field"), tr("What it means")});
    issues_->horizontalHeader()->setStretchLastSection(true);
    issues_->verticalHeader()->setVisible(false);
    issues_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    issues_->setAlternatingRowColors(true);
    issues_->setWordWrap(true);
    auto* filesSplit = new QSplitter(Qt::Horizontal, split);
    files_ = new QListWidget(filesSplit);
    preview_ = new QPlainTextEdit(filesSplit);
    preview_->setReadOnly(true);
    preview_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    preview_->setLineWrapMode(QPlainTextEdit::NoWrap);
    filesSplit->setStretchFactor(0, 1);
    filesSplit->setStretchFactor(1, 4);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    outer->addWidget(split, 1);

    auto* bottom = new QHBoxLayout;
    folder_ = new QLineEdit(this);
    folder_->setPlaceholderText(tr("Output folder"));
    auto* browse = new QPushButton(tr("Choose…"), this);
    write_ = new QPushButton(tr("Write files"), this);
    write_->setDefault(true);
    bottom->addWidget(new QLabel(tr("Write to"), this));
    bottom->addWidget(folder_, 1);
    bottom->addWidget(browse);
    bottom->addWidget(write_);
    outer->addLayout(bottom);

    QSettings settings;
    folder_->setText(
        settings
            .value("export/folder", QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                                        .filePath("gantry-export"))
            .toString());

    connect(target_, &QButtonGroup::idClicked, this, [this] { refresh(); });
    connect(singleFile_, &QCheckBox::toggled, this, [this] { refresh(); });
    connect(files_, &QListWidget::currentRowChanged, this, &ExportTab::showFile);
    connect(browse, &QPushButton::clicked, this, [this] {
        QString d = QFileDialog::getExistingDirectory(this, tr("Output folder"), folder_->text());
        if (!d.isEmpty()) setOutputFolder(d);
    });
    connect(write_, &QPushButton::clicked, this, [this] {
        QString message;
        writeFiles(&message);
        emit statusMessage(message, 8000);
    });
    auto* doc = ws_->document();
    connect(doc, &ProjectDocument::changed, this, [this] {
        dirty_ = true;
        if (isVisible()) refresh();
    });
    connect(doc, &ProjectDocument::projectReplaced, this,
            [this] { setTarget(ws_->document()->project().target); });
    setTarget(doc->project().target);
}

void ExportTab::setTarget(TargetScheduler target) {
    target_->button(int(target))->setChecked(true);
    refresh();
}

void ExportTab::setOutputFolder(const QString& dir) {
    folder_->setText(dir);
    QSettings().setValue("export/folder", dir);
}

void ExportTab::refresh() {
    dirty_ = false;
    plan_ = planExport(ws_->document()->project(), TargetScheduler(target_->checkedId()),
                       singleFile_->isChecked(), ws_->document()->inputWarnings());
    int errors = 0, warnings = 0, lossy = 0;
    issues_->setRowCount(int(plan_.issues.size()));
    for (size_t i = 0; i < plan_.issues.size(); ++i) {
        const auto& issue = plan_.issues[i];
        QString kind;
        QColor color;
        switch (issue.kind) {
        case ExportIssue::Kind::Error:
            kind = tr("Error");
            color = QColor(0xd3, 0x2f, 0x2f);
            ++errors;
            break;
        case ExportIssue::Kind::Warning:
            kind = tr("Warning");
            color = QColor(0xb2, 0x6a, 0x00);
            ++warnings;
            break;
        case ExportIssue::Kind::Lossy:
            kind = tr("Lossy");
            color = QColor(0x6a, 0x4c, 0x9c);
            ++lossy;
            break;
        case ExportIssue::Kind::Note:
            kind = tr("Note");
            color = palette().color(QPalette::PlaceholderText);
            break;
        }
        auto* k = new QTableWidgetItem(kind);
        k->setForeground(color);
        issues_->setItem(int(i), 0, k);
        issues_->setItem(int(i), 1, new QTableWidgetItem(issue.object));
        issues_->setItem(int(i), 2, new QTableWidgetItem(issue.field));
        auto* message = new QTableWidgetItem(issue.message);
        if (!issue.where.isEmpty()) message->setToolTip(issue.where);
        issues_->setItem(int(i), 3, message);
    }
    issues_->resizeColumnsToContents();
    issues_->horizontalHeader()->setStretchLastSection(true);
    files_->clear();
    for (const auto& f : plan_.files) files_->addItem(f.name);
    if (!plan_.files.empty())
        files_->setCurrentRow(0);
    else
        preview_->clear();

    QColor background;
    QString text;
    if (!plan_.unavailable.isEmpty()) {
        text = plan_.unavailable.toHtmlEscaped();
        background = QColor(0xfd, 0xec, 0xc8);
    } else if (errors > 0) {
        text = tr("<b>%n error(s) block the export.</b> ", "", errors) +
               tr("Fix them in the Queues, Topology or Policy tab; %1 warning(s) and %2 lossy note(s) do not "
                  "block.")
                   .arg(warnings)
                   .arg(lossy);
        background = QColor(0xfb, 0xd5, 0xd5);
    } else {
        text =
            tr("<b>Valid:</b> %n file(s) pass the %1 schemas and cross-object rules.", "",
               int(plan_.files.size()))
                .arg(target_->checkedButton()->text()) +
            (warnings + lossy ? tr(" %1 warning(s) and %2 lossy note(s) below — read them before applying.")
                                    .arg(warnings)
                                    .arg(lossy)
                              : QString());
        background = QColor(0xd8, 0xf0, 0xda);
    }
    if (palette().color(QPalette::Window).lightness() < 128) background = background.darker(330);
    QPalette p = verdict_->palette();
    p.setColor(QPalette::Window, background);
    verdict_->setPalette(p);
    verdict_->setText(text);
    write_->setEnabled(!plan_.hasErrors());
}

void ExportTab::showFile(int row) {
    if (row < 0 || size_t(row) >= plan_.files.size()) {
        preview_->clear();
        return;
    }
    preview_->setPlainText(QString::fromStdString(plan_.files[size_t(row)].contents));
}

bool ExportTab::writeFiles(QString* message) {
    if (dirty_) refresh();
    QString dir = folder_->text().trimmed();
    auto fail = [&](const QString& m) {
        if (message) *message = m;
        return false;
    };
    if (dir.isEmpty()) return fail(tr("Choose an output folder first."));
    if (plan_.hasErrors())
        return fail(plan_.unavailable.isEmpty() ? tr("Not written: the export has errors (listed above).")
                                                : plan_.unavailable);
    QStringList written;
    try {
        written = writeExportPlan(plan_, dir);
    } catch (const std::exception& e) {
        return fail(tr("Not written: %1").arg(QString::fromUtf8(e.what())));
    }
    QSettings().setValue("export/folder", dir);
    if (message)
        *message = tr("Wrote %n file(s) to %1 (export-report.txt lists them)", "", int(written.size()))
                       .arg(QDir::toNativeSeparators(dir));
    return true;
}

} // namespace gantry::studio
