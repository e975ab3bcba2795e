#include "widgets/history_dialog.h"

#include "core/qt_text.h"
#include "history/history_import.h"
#include "history/time_text.h"
#include "input_error.h"
#include "live/live_error.h"
#include "snapshot/snapshot_importer.h"
#include "widgets/stat_card.h"

#include <QButtonGroup>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QUrl>
#include <QVBoxLayout>
#include <cmath>
#include <ctime>

namespace gantry::studio {
namespace {

// A file field with its Browse button.
QHBoxLayout* fileRow(QLineEdit* edit, QWidget* parent, const QString& title) {
    auto* row = new QHBoxLayout;
    auto* browse = new QPushButton(QObject::tr("Browse…"), parent);
    row->addWidget(edit, 1);
    row->addWidget(browse);
    QObject::connect(browse, &QPushButton::clicked, parent, [edit, parent, title] {
        QString f = QFileDialog::getOpenFileName(parent, title, edit->text());
        if (!f.isEmpty()) edit->setText(f);
    });
    return row;
}

} // namespace

HistoryDialog::HistoryDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Import history from Prometheus"));
    setMinimumWidth(620);
    auto* layout = new QVBoxLayout(this);
    auto* intro =
        new QLabel(tr("Gantry reads what the cluster ran in a window of the past from Prometheus "
                      "(the kube-state-metrics series): its nodes, and every job created in the window "
                      "with its pods, requests, queue, arrival and duration. The what-if then replays "
                      "those jobs. Nothing is changed in Prometheus or the cluster."),
                   this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* form = new QFormLayout;
    url_ = new QLineEdit(this);
    url_->setPlaceholderText(tr("https://prometheus.example:9090"));
    form->addRow(tr("Prometheus URL"), url_);

    auto* windowBox = new QVBoxLayout;
    auto* lastRow = new QHBoxLayout;
    lastRadio_ = new QRadioButton(tr("The last"), this);
    since_ = new QLineEdit(QStringLiteral("7d"), this);
    since_->setPlaceholderText(tr("e.g. 6h, 7d, 30d"));
    since_->setMaximumWidth(120);
    lastRow->addWidget(lastRadio_);
    lastRow->addWidget(since_);
    lastRow->addStretch(1);
    auto* rangeRow = new QHBoxLayout;
    rangeRadio_ = new QRadioButton(tr("From"), this);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    start_ = new QDateTimeEdit(now.addDays(-7), this);
    end_ = new QDateTimeEdit(now, this);
    for (auto* edit : {start_, end_}) {
        edit->setTimeSpec(Qt::UTC);
        edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
        edit->setCalendarPopup(true);
    }
    rangeRow->addWidget(rangeRadio_);
    rangeRow->addWidget(start_);
    rangeRow->addWidget(new QLabel(tr("to"), this));
    rangeRow->addWidget(end_);
    rangeRow->addStretch(1);
    windowBox->addLayout(lastRow);
    windowBox->addLayout(rangeRow);
    auto* group = new QButtonGroup(this);
    group->addButton(lastRadio_);
    group->addButton(rangeRadio_);
    lastRadio_->setChecked(true);
    form->addRow(tr("Window"), windowBox);
    step_ = new QLineEdit(QStringLiteral("1m"), this);
    step_->setMaximumWidth(120);
    step_->setToolTip(
        tr("How finely the end of each pod is found: at least kube-state-metrics' scrape interval"));
    form->addRow(tr("Step"), step_);
    token_ = new QLineEdit(this);
    token_->setPlaceholderText(tr("none; https only"));
    form->addRow(tr("Bearer token file"), fileRow(token_, this, tr("Bearer token file")));
    ca_ = new QLineEdit(this);
    ca_->setPlaceholderText(tr("the system's trusted authorities"));
    form->addRow(tr("CA file"), fileRow(ca_, this, tr("CA certificate (PEM)")));
    layout->addLayout(form);

    progress_ = new QProgressBar(this);
    progress_->setRange(0, 0);
    progress_->setVisible(false);
    // Room for the bar and two lines of status from the start: the fields never squeeze when a
    // read begins or a failure is told.
    QSizePolicy keep = progress_->sizePolicy();
    keep.setRetainSizeWhenHidden(true);
    progress_->setSizePolicy(keep);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    status_->setTextFormat(Qt::RichText);
    status_->setMinimumHeight(2 * status_->fontMetrics().lineSpacing());
    layout->addWidget(progress_);
    layout->addWidget(status_);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    import_ = buttons_->addButton(tr("Import"), QDialogButtonBox::AcceptRole);
    import_->setDefault(true);
    layout->addWidget(buttons_);

    connect(lastRadio_, &QRadioButton::toggled, this, &HistoryDialog::updateWindowFields);
    connect(import_, &QPushButton::clicked, this, &HistoryDialog::startImport);
    connect(buttons_, &QDialogButtonBox::rejected, this, &HistoryDialog::reject);
    updateWindowFields();
}

HistoryDialog::~HistoryDialog() {
    if (worker_) {
        cancel_->store(true);
        worker_->wait();
    }
}

void HistoryDialog::updateWindowFields() {
    const bool last = lastRadio_->isChecked();
    since_->setEnabled(last);
    start_->setEnabled(!last);
    end_->setEnabled(!last);
}

void HistoryDialog::setUrl(const QString& url) {
    url_->setText(url);
}
void HistoryDialog::setSince(const QString& span) {
    since_->setText(span);
    lastRadio_->setChecked(true);
}
void HistoryDialog::setWindow(const QDateTime& start, const QDateTime& end) {
    start_->setDateTime(start.toUTC());
    end_->setDateTime(end.toUTC());
    rangeRadio_->setChecked(true);
}
void HistoryDialog::setStep(const QString& span) {
    step_->setText(span);
}
void HistoryDialog::setTokenFile(const QString& path) {
    token_->setText(path);
}
void HistoryDialog::setCaFile(const QString& path) {
    ca_->setText(path);
}

QString HistoryDialog::serverName() const {
    const QString host = QUrl(url_->text().trimmed()).host();
    return host.isEmpty() ? tr("Prometheus") : host;
}

void HistoryDialog::startImport() {
    if (worker_) return;
    auto fail = [this](const QString& message) {
        status_->setText(
            QStringLiteral("<span style='color:#d32f2f'>%1</span>").arg(message.toHtmlEscaped()));
    };
    history::HistoryRequest request;
    request.endpoint = {url_->text().trimmed().toStdString(), token_->text().trimmed().toStdString(),
                        ca_->text().trimmed().toStdString()};
    const double now = std::floor(double(std::time(nullptr)));
    if (lastRadio_->isChecked()) {
        auto span = history::parseSpan(since_->text().toStdString());
        if (!span || *span < 1)
            return fail(tr("The window '%1' is not a duration (e.g. 6h, 7d, 30d).").arg(since_->text()));
        request.end = now;
        request.start = std::floor(now - *span);
    } else {
        request.start = double(start_->dateTime().toSecsSinceEpoch());
        request.end = std::min(now, double(end_->dateTime().toSecsSinceEpoch()));
        if (request.end <= request.start)
            return fail(tr("The window must end after it starts (and before now)."));
    }
    auto step = history::parseSpan(step_->text().toStdString());
    if (!step || *step < 1)
        return fail(tr("The step '%1' is not a duration of a second or more.").arg(step_->text()));
    request.step = *step;
    if (request.step > request.end - request.start) return fail(tr("The step is longer than the window."));
    try {
        history::connectionFor(request.endpoint); // URL and files, before the worker starts
    } catch (const std::exception& e) {
        return fail(qs(live::failureMessage(e)));
    }

    cancel_ = std::make_shared<std::atomic<bool>>(false);
    auto cancel = cancel_;
    progress_->setRange(0, 0);
    progress_->setVisible(true);
    import_->setEnabled(false);
    status_->setText(tr("Connecting to %1…").arg(url_->text().trimmed().toHtmlEscaped()));
    worker_ = QThread::create([this, request, cancel] {
        QString error, summary;
        std::string text;
        LoadedFile loaded;
        try {
            history::ImportOptions options;
            options.cancel = cancel.get();
            options.progress = [this](const history::ReadProgress& p) {
                QString from = qs(history::formatRfc3339(p.chunkStart)).left(16).replace('T', ' ');
                QString line =
                    p.done ? tr("Read %1 chunks · %2 pods, %3 nodes · %4 queries; making the jobs…")
                                 .arg(p.chunks)
                                 .arg(formatCount(qint64(p.pods)), formatCount(qint64(p.nodes)))
                                 .arg(p.queries)
                           : tr("Reading from %1 UTC · chunk %2 of %3 · %4 pods, %5 nodes · %6 queries")
                                 .arg(from)
                                 .arg(p.chunk + 1)
                                 .arg(p.chunks)
                                 .arg(formatCount(qint64(p.pods)), formatCount(qint64(p.nodes)))
                                 .arg(p.queries);
                const int done = p.chunk, all = p.chunks;
                QMetaObject::invokeMethod(
                    this,
                    [this, line, done, all] {
                        progress_->setRange(0, all);
                        progress_->setValue(done);
                        status_->setText(line.toHtmlEscaped());
                    },
                    Qt::QueuedConnection);
            };
            live::StringOutput out;
            history::HistorySummary s = history::importHistory(request, out, options);
            text = out.text();
            SnapshotImporter importer;
            importer.addText(text, "history of " + s.server);
            Diagnostics diagnostics;
            loaded.project.cluster = importer.finish(diagnostics);
            throwIfErrors(diagnostics);
            loaded.kind = FileKind::Snapshot;
            loaded.project.name = "history";
            compareWithKubeScheduler(loaded.project);
            for (auto& d : diagnostics)
                if (d.severity == Severity::Warning) loaded.warnings.push_back(d);
            for (const auto& w : s.warnings) {
                Diagnostic d;
                d.severity = Severity::Warning;
                d.message = w;
                loaded.warnings.push_back(d);
            }
            summary = tr("%1 jobs (%2 pods) on %3 nodes from %4 · %5 queries")
                          .arg(formatCount(qint64(s.jobs)), formatCount(qint64(s.pods)),
                               formatCount(qint64(s.nodes)), qs(s.server))
                          .arg(s.queries);
            for (const auto& n : s.notes) summary += QStringLiteral("\n") + qs(n);
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

void HistoryDialog::finished(bool ok, const QString& message) {
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
            .arg(message.toHtmlEscaped(),
                 tr("Check the URL and the credentials (<tt>curl %1/api/v1/status/buildinfo</tt>), "
                    "then try again.")
                     .arg(url_->text().trimmed().toHtmlEscaped())));
}

void HistoryDialog::reject() {
    if (worker_) {
        cancel_->store(true);
        status_->setText(tr("Cancelling…"));
        return; // closes once the worker stops
    }
    QDialog::reject();
}

} // namespace gantry::studio
