#include "main_window.h"

#include "input_error.h"
#include "report/cluster_summary.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFontDatabase>
#include <QListWidget>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QStatusBar>

namespace gantry::studio {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle("Gantry Studio");
    auto* splitter = new QSplitter(Qt::Vertical, this);
    summary_ = new QPlainTextEdit(splitter);
    summary_->setReadOnly(true);
    summary_->setLineWrapMode(QPlainTextEdit::NoWrap);
    summary_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    summary_->setPlainText(
        "No project open. File > Open... reads a .gantry project, an inventory or Kubernetes snapshots.");
    messages_ = new QListWidget(splitter);
    messages_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 1);
    setCentralWidget(splitter);

    auto* file = menuBar()->addMenu("&File");
    auto* openAction = file->addAction("&Open...", this, &MainWindow::openDialog);
    openAction->setShortcut(QKeySequence::Open);
    auto* quit = file->addAction("&Quit", qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);
    statusBar()->showMessage("Ready");
}

void MainWindow::openDialog() {
    QStringList files = QFileDialog::getOpenFileNames(
        this, "Open", QString(),
        "Gantry projects, inventories and snapshots (*.gantry *.yaml *.yml *.json);;All files (*)");
    if (!files.isEmpty()) open(files);
}

bool MainWindow::open(const QStringList& files) {
    std::vector<std::string> paths;
    for (const auto& f : files) paths.push_back(f.toStdString());
    try {
        loaded_ = loadInputs(paths);
    } catch (const InputError& e) {
        // Keep what was open; list every located error.
        messages_->clear();
        for (const auto& d : e.all()) {
            auto* item = new QListWidgetItem(QString::fromStdString(d.str()), messages_);
            item->setForeground(Qt::darkRed);
        }
        statusBar()->showMessage(
            QString("Could not open %1: %2 error(s)").arg(files.join(", ")).arg(e.all().size()));
        return false;
    }
    showLoaded();
    return true;
}

void MainWindow::showLoaded() {
    const auto& in = *loaded_;
    std::string origin = std::string(toString(in.kind)) + ":";
    for (const auto& f : in.files) origin += " " + f;
    summary_->setPlainText(QString::fromStdString(formatSummary(in.project, summarize(in.project), origin)));
    messages_->clear();
    for (const auto& w : in.warnings) {
        auto* item = new QListWidgetItem(QString::fromStdString(w.str()), messages_);
        item->setForeground(QColor(0x8a, 0x5a, 0x00));
    }
    QString name = QString::fromStdString(in.project.name.empty() ? in.files.front() : in.project.name);
    setWindowTitle(name + " - Gantry Studio");
    statusBar()->showMessage(QString("%1 nodes, %2 queues, %3 warning(s)")
                                 .arg(in.project.cluster.nodes.size())
                                 .arg(in.project.cluster.queues.size())
                                 .arg(in.warnings.size()));
}

QString MainWindow::summaryText() const {
    return summary_->toPlainText();
}

QStringList MainWindow::messages() const {
    QStringList out;
    for (int i = 0; i < messages_->count(); ++i) out << messages_->item(i)->text();
    return out;
}

} // namespace gantry::studio
