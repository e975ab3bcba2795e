#include "widgets/connect_dialog.h"

#include "core/qt_text.h"
#include "input_error.h"
#include "input_loader.h"
#include "live/kubeconfig.h"
#include "live/live_error.h"
#include "live/live_import.h"
#include "snapshot/snapshot_importer.h"
#include "widgets/stat_card.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace gantry::studio {
namespace {} // namespace

ConnectDialog::ConnectDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Connect to cluster"));
    setMinimumWidth(560);
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("Gantry reads nodes, pods, priority classes and the Volcano, Kueue and YuniKorn objects "
           "it finds, as kubectl would with the same kubeconfig. Nothing in the cluster is changed."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* form = new QFormLayout;
    auto* pathRow = new QHBoxLayout;
    kubeconfig_ = new QLineEdit(this);
    kubeconfig_->setPlaceholderText(tr("KUBECONFIG, else ~/.kube/config"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    pathRow->addWidget(kubeconfig_, 1);
    pathRow->addWidget(browse);
    context_ = new QComboBox(this);
    details_ = new QLabel(this);
    details_->setWordWrap(true);
    details_->setForegroundRole(QPalette::PlaceholderText);
    form->addRow(tr("Kubeconfig"), pathRow);
    form->addRow(tr("Context"), context_);
    form->addRow(QString(), details_);
    layout->addLayout(form);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 0);
    progress_->setVisible(false);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    layout->addWidget(progress_);
    layout->addWidget(status_);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    import_ = buttons_->addButton(tr("Import"), QDialogButtonBox::AcceptRole);
    import_->setDefault(true);
    layout->addWidget(buttons_);

    connect(browse, &QPushButton::clicked, this, [this] {
        QString f = QFileDialog::getOpenFileName(this, tr("Kubeconfig"), kubeconfig_->text());
        if (!f.isEmpty()) setKubeconfig(f);
    });
    connect(kubeconfig_, &QLineEdit::editingFinished, this, &ConnectDialog::loadContexts);
    connect(context_, &QComboBox::currentIndexChanged, this, &ConnectDialog::showContext);
    connect(import_, &QPushButton::clicked, this, &ConnectDialog::startImport);
    connect(buttons_, &QDialogButtonBox::rejected, this, &ConnectDialog::reject);
    loadContexts();
}

ConnectDialog::~ConnectDialog() {
    if (worker_) {
        cancel_->store(true);
        worker_->wait();
    }
}

void ConnectDialog::setKubeconfig(const QString& path) {
    kubeconfig_->setText(path);
    loadContexts();
}

QString ConnectDialog::contextName() const {
    return context_->currentData().toString();
}

void ConnectDialog::loadContexts() {
    context_->clear();
    status_->clear();
    try {
        auto env = live::Environment::fromProcess();
        auto files = live::kubeconfigFiles(kubeconfig_->text().trimmed().toStdString(), env);
        std::vector<live::KubeConfig> configs;
        for (const auto& f : files)
            if (QFileInfo::exists(qs(f))) configs.push_back(live::parseKubeConfigFile(f));
        if (configs.empty()) {
            details_->setText(tr("No kubeconfig found. Choose the file kubectl uses for the cluster."));
            import_->setEnabled(false);
            return;
        }
        auto merged = live::mergeKubeConfigs(configs);
        for (const auto& [name, ctx] : merged.contexts) {
            QString label = name == merged.currentContext ? tr("%1 (current)").arg(qs(name)) : qs(name);
            context_->addItem(label, qs(name));
        }
        int current = context_->findData(qs(merged.currentContext));
        if (current >= 0) context_->setCurrentIndex(current);
        import_->setEnabled(context_->count() > 0);
        if (context_->count() == 0) details_->setText(tr("The kubeconfig defines no contexts."));
    } catch (const std::exception& e) {
        details_->setText(QStringLiteral("<span style='color:#d32f2f'>%1</span><br>%2")
                              .arg(QString::fromUtf8(e.what()).toHtmlEscaped(),
                                   tr("Fix the kubeconfig at the place shown, or choose another file.")));
        import_->setEnabled(false);
    }
}

void ConnectDialog::showContext() {
    try {
        auto env = live::Environment::fromProcess();
        live::ConnectRequest request{kubeconfig_->text().trimmed().toStdString(),
                                     contextName().toStdString()};
        auto c = live::resolveConnection(request, env);
        details_->setText(tr("Server %1 · %2").arg(qs(c.server), qs(c.describeUser())));
    } catch (const std::exception& e) {
        details_->setText(QString::fromUtf8(e.what()));
    }
}

void ConnectDialog::startImport() {
    if (worker_) return;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    auto cancel = cancel_;
    live::ConnectRequest request{kubeconfig_->text().trimmed().toStdString(), contextName().toStdString()};
    progress_->setVisible(true);
    import_->setEnabled(false);
    status_->setText(tr("Connecting…"));
    worker_ = QThread::create([this, request, cancel] {
        QString error;
        std::string text;
        LoadedFile loaded;
        QString summary;
        try {
            auto env = live::Environment::fromProcess();
            live::Connection connection = live::resolveConnection(request, env);
            live::ImportOptions options;
            options.cancel = cancel.get();
            options.progress = [this](const live::ImportProgress& p) {
                QString line = p.listExpected ? tr("Read %1 objects · %2: %3 of %4")
                                                    .arg(formatCount(qint64(p.totalRead)), qs(p.list),
                                                         formatCount(qint64(p.listRead)),
                                                         formatCount(qint64(*p.listExpected)))
                                              : tr("Read %1 objects · %2: %3")
                                                    .arg(formatCount(qint64(p.totalRead)), qs(p.list),
                                                         formatCount(qint64(p.listRead)));
                QMetaObject::invokeMethod(
                    this, [this, line] { status_->setText(line); }, Qt::QueuedConnection);
            };
            live::StringOutput out;
            auto s = live::importCluster(connection, out, options);
            text = out.text();
            SnapshotImporter importer;
            std::string name = "cluster " + (s.context.empty() ? s.server : s.context);
            importer.addText(text, name);
            Diagnostics diagnostics;
            loaded.project.cluster = importer.finish(diagnostics);
            throwIfErrors(diagnostics);
            loaded.kind = FileKind::Snapshot;
            loaded.project.name = s.context.empty() ? "cluster" : s.context;
            adoptClusterPolicies(loaded.project);
            compareWithKubeScheduler(loaded.project);
            for (auto& d : diagnostics)
                if (d.severity == Severity::Warning) loaded.warnings.push_back(d);
            for (const auto& w : s.warnings) {
                Diagnostic d;
                d.severity = Severity::Warning;
                d.message = w;
                loaded.warnings.push_back(d);
            }
            summary = tr("%1 objects from %2 (Kubernetes %3)")
                          .arg(formatCount(qint64(s.objects)), qs(s.server), qs(s.serverVersion));
            for (const auto& n : s.notes) summary += QStringLiteral("\n") + qs(n);
            for (const auto& m : s.missing) summary += QStringLiteral("\n") + tr("Missing: %1").arg(qs(m));
        } catch (const live::LiveError& e) {
            // \x01 marks a cancel: not an error to show.
            error = e.kind() == live::FailureKind::Cancelled ? QStringLiteral("\x01")
                                                             : qs(live::failureMessage(e));
        } catch (const std::exception& e) {
            error = qs(live::failureMessage(e));
        }
        QMetaObject::invokeMethod(
            this,
            [this, error, text, loaded, summary] {
                worker_->wait();
                worker_->deleteLater();
                worker_ = nullptr;
                if (error.isEmpty()) {
                    result_ = loaded;
                    snapshot_ = QString::fromStdString(text);
                    summary_ = summary;
                }
                finished(error.isEmpty(), error);
            },
            Qt::QueuedConnection);
    });
    worker_->start();
}

void ConnectDialog::finished(bool ok, const QString& message) {
    progress_->setVisible(false);
    import_->setEnabled(true);
    if (ok) {
        accept();
        return;
    }
    if (message == QStringLiteral("\x01")) {
        status_->setText(tr("Import cancelled; nothing was changed."));
        return;
    }
    status_->setText(
        QStringLiteral("<span style='color:#d32f2f'>%1</span><br>%2")
            .arg(message.toHtmlEscaped(), tr("Check the context and that the server is reachable with "
                                             "<tt>kubectl get nodes</tt>, then try again.")));
}

void ConnectDialog::reject() {
    if (worker_) {
        cancel_->store(true);
        status_->setText(tr("Cancelling…"));
        return; // closes once the worker stops
    }
    QDialog::reject();
}

} // namespace gantry::studio
