#include "models/workload_model.h"

#include "core/project_commands.h"
#include "core/queue_commands.h"
#include "core/quota_terms.h"

#include <QColor>
#include <cmath>

namespace gantry::studio {

QString formatSeconds(double s) {
    if (s <= 0) return QStringLiteral("0 s");
    if (s < 120) return QStringLiteral("%1 s").arg(s, 0, 'g', 3);
    if (s < 7200) return QStringLiteral("%1 min").arg(s / 60, 0, 'g', 3);
    if (s < 172800) return QStringLiteral("%1 h").arg(s / 3600, 0, 'g', 3);
    return QStringLiteral("%1 d").arg(s / 86400, 0, 'g', 3);
}

QString describeArrival(const ArrivalProcess& a, int jobs) {
    QString start =
        a.startSeconds > 0 ? QObject::tr(" from %1").arg(formatSeconds(a.startSeconds)) : QString();
    switch (a.kind) {
    case ArrivalProcess::Kind::Fixed:
        if (!a.times.empty()) return QObject::tr("at %n fixed time(s)", "", int(a.times.size()));
        if (a.intervalSeconds > 0)
            return QObject::tr("every %1%2").arg(formatSeconds(a.intervalSeconds), start);
        return jobs > 1 ? QObject::tr("all at once%1").arg(start) : QObject::tr("once%1").arg(start);
    case ArrivalProcess::Kind::Poisson:
        return QObject::tr("Poisson %1/h%2").arg(a.ratePerHour, 0, 'g', 3).arg(start);
    case ArrivalProcess::Kind::Burst:
        return QObject::tr("bursts of %1 every %2%3")
            .arg(a.burstSize)
            .arg(formatSeconds(a.intervalSeconds), start);
    }
    return {};
}

QString describeDuration(const DurationDistribution& d) {
    switch (d.kind) {
    case DurationDistribution::Kind::Fixed:
        return formatSeconds(d.meanSeconds);
    case DurationDistribution::Kind::Exponential:
        return QObject::tr("exp., mean %1").arg(formatSeconds(d.meanSeconds));
    case DurationDistribution::Kind::Uniform:
        return QObject::tr("%1 – %2").arg(formatSeconds(d.minSeconds), formatSeconds(d.maxSeconds));
    case DurationDistribution::Kind::LogNormal:
        return QObject::tr("log-normal, median %1").arg(formatSeconds(d.meanSeconds));
    }
    return {};
}

QString gpuPerPodText(const WorkloadTemplate& w) {
    if (w.gpu.count > 0) {
        if (w.gpu.milliPerGpu >= 1000) return QString::number(w.gpu.count);
        QString share = QString::number(w.gpu.milliPerGpu / 1000.0, 'g', 3);
        return w.gpu.count == 1 ? share : QStringLiteral("%1 × %2").arg(w.gpu.count).arg(share);
    }
    int64_t milli = 0;
    for (const auto& [name, amount] : w.podRequests)
        if (isGpuResource(name)) milli += amount;
    if (milli == 0) return QStringLiteral("0");
    return QString::number(milli / 1000.0, 'g', 4);
}

bool setGpuPerPod(WorkloadTemplate& w, const std::string& gpuResource, const QString& text, QString* error) {
    bool ok = false;
    double v = text.trimmed().isEmpty() ? 0 : text.trimmed().toDouble(&ok);
    if (!text.trimmed().isEmpty() && (!ok || v < 0 || v > 64)) {
        if (error)
            *error = QObject::tr(
                "GPUs per pod: a whole number of devices (e.g. 8) or a share of one device (e.g. 0.5).");
        return false;
    }
    if (v >= 1 && std::abs(v - std::round(v)) > 1e-9) {
        if (error)
            *error = QObject::tr(
                "GPUs per pod above 1 must be whole devices; shares (0.1 – 0.9) are of one device.");
        return false;
    }
    std::vector<std::string> gpuNames;
    for (const auto& [name, amount] : w.podRequests)
        if (isGpuResource(name)) gpuNames.push_back(name);
    for (const auto& name : gpuNames) w.podRequests.erase(name);
    if (v <= 0) {
        w.gpu = GpuRequest{0, 1000, w.gpu.models};
    } else if (v < 1) {
        w.gpu = GpuRequest{1, int32_t(std::lround(v * 1000)), w.gpu.models};
    } else {
        w.gpu = GpuRequest{int32_t(std::lround(v)), 1000, w.gpu.models};
        w.podRequests.set(gpuResource, int64_t(std::lround(v)) * 1000);
    }
    return true;
}

WorkloadModel::WorkloadModel(ProjectDocument* doc, QObject* parent) : QAbstractTableModel(parent), doc_(doc) {
    connect(doc_, &ProjectDocument::workloadsAboutToBeReset, this, [this] { beginResetModel(); });
    connect(doc_, &ProjectDocument::workloadsReset, this, [this] { endResetModel(); });
    connect(doc_, &ProjectDocument::workloadChanged, this,
            [this](int row) { emit dataChanged(index(row, 0), index(row, ColumnCount - 1)); });
}

int WorkloadModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(doc_->project().workloads.size());
}

int WorkloadModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant WorkloadModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= doc_->project().workloads.size()) return {};
    const auto& w = doc_->project().workloads[size_t(index.row())];
    const int c = index.column();
    if (role == Qt::TextAlignmentRole)
        return c >= Jobs && c <= MemoryPerPod ? int(Qt::AlignRight | Qt::AlignVCenter)
                                              : int(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && c == Queue && !w.queue.empty() && queueIndex(doc_->project(), w.queue) < 0)
        return tr("There is no queue named '%1'.").arg(QString::fromStdString(w.queue));
    if (role == Qt::ForegroundRole && c == Queue && !w.queue.empty() &&
        queueIndex(doc_->project(), w.queue) < 0)
        return QColor(0xd3, 0x2f, 0x2f);
    if (role != Qt::DisplayRole && role != Qt::EditRole && role != SortRole) return {};
    const bool sort = role == SortRole;
    switch (c) {
    case Name:
        return QString::fromStdString(w.name);
    case Queue:
        return QString::fromStdString(w.queue);
    case Jobs:
        return w.jobs;
    case Replicas:
        return w.replicas;
    case Gang:
        if (role == Qt::EditRole || sort) return w.minMember;
        return w.minMember == 0 ? tr("all %1").arg(w.replicas) : QString::number(w.minMember);
    case GpuPerPod:
        return sort ? QVariant(double(w.gpu.totalMilli())) : QVariant(gpuPerPodText(w));
    case CpuPerPod: {
        int64_t v = w.podRequests.get(res::Cpu);
        return sort ? QVariant(qlonglong(v))
                    : QVariant(v ? QString::fromStdString(formatAmount("cpu", v)) : QString());
    }
    case MemoryPerPod: {
        int64_t v = w.podRequests.get(res::Memory);
        return sort ? QVariant(qlonglong(v))
                    : QVariant(v ? QString::fromStdString(formatAmount("memory", v)) : QString());
    }
    case Priority:
        return QString::fromStdString(w.priorityClass);
    case Arrival:
        return describeArrival(w.arrival, w.jobs);
    case Duration:
        return describeDuration(w.duration);
    }
    return {};
}

QVariant WorkloadModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Name:
        return tr("Workload");
    case Queue:
        return tr("Queue");
    case Jobs:
        return tr("Jobs");
    case Replicas:
        return tr("Pods/job");
    case Gang:
        return tr("Gang min");
    case GpuPerPod:
        return tr("GPU/pod");
    case CpuPerPod:
        return tr("CPU/pod");
    case MemoryPerPod:
        return tr("Memory/pod");
    case Priority:
        return tr("Priority class");
    case Arrival:
        return tr("Arrival");
    case Duration:
        return tr("Duration");
    }
    return {};
}

Qt::ItemFlags WorkloadModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() != Arrival && index.column() != Duration) f |= Qt::ItemIsEditable;
    return f;
}

bool WorkloadModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid()) return false;
    const auto& ws = doc_->project().workloads;
    if (size_t(index.row()) >= ws.size()) return false;
    WorkloadTemplate w = ws[size_t(index.row())];
    const QString text = value.toString().trimmed();
    QString error;
    auto number = [&](int min, int max, int* out) {
        bool ok = false;
        int v = text.toInt(&ok);
        if (!ok || v < min || v > max) {
            error = tr("%1 must be a whole number from %2 to %3.")
                        .arg(headerData(index.column(), Qt::Horizontal).toString())
                        .arg(min)
                        .arg(max);
            return false;
        }
        *out = v;
        return true;
    };
    auto amount = [&](const char* resource) {
        if (text.isEmpty()) {
            w.podRequests.erase(resource);
            return true;
        }
        std::string e;
        auto v = parseAmount(resource, text.toStdString(), &e);
        if (!v || *v < 0) {
            error = tr("'%1' is not a valid %2 quantity%3")
                        .arg(text, resource,
                             e.empty() ? QString() : QStringLiteral(": ") + QString::fromStdString(e));
            return false;
        }
        w.podRequests.set(resource, *v);
        return true;
    };
    bool ok = true;
    switch (index.column()) {
    case Name:
        if (text.isEmpty()) {
            error = tr("A workload needs a name.");
            ok = false;
        }
        w.name = text.toStdString();
        break;
    case Queue:
        w.queue = text.toStdString();
        break;
    case Jobs:
        ok = number(0, 1000000, &w.jobs);
        break;
    case Replicas:
        ok = number(1, 100000, &w.replicas);
        break;
    case Gang:
        ok = number(0, w.replicas, &w.minMember);
        if (!ok) error = tr("Gang min is 0 (all pods) up to the pods per job (%1).").arg(w.replicas);
        break;
    case GpuPerPod:
        ok = setGpuPerPod(w, primaryGpuResource(doc_->project().cluster), text, &error);
        break;
    case CpuPerPod:
        ok = amount("cpu");
        break;
    case MemoryPerPod:
        ok = amount("memory");
        break;
    case Priority:
        w.priorityClass = text.toStdString();
        break;
    default:
        return false;
    }
    if (!ok) {
        emit refused(error);
        return false;
    }
    if (w == ws[size_t(index.row())]) return false;
    doc_->undoStack()->push(new EditWorkloadCommand(
        doc_, index.row(), w,
        tr("Set %1 of %2")
            .arg(headerData(index.column(), Qt::Horizontal).toString(), QString::fromStdString(w.name))));
    return true;
}

} // namespace gantry::studio
