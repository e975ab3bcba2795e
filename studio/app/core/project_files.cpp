#include "core/project_files.h"

#include "input_error.h"
#include "input_loader.h"
#include "project/project_writer.h"
#include "sim/sources.h"
#include "trace/alibaba_trace.h"
#include "volcano/scheduler_conf_reader.h"

#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <algorithm>
#include <stdexcept>

namespace gantry::studio {

QString toDisplayString(FileKind kind) {
    switch (kind) {
    case FileKind::Project:
        return QObject::tr("Gantry project");
    case FileKind::Snapshot:
        return QObject::tr("Kubernetes snapshot");
    case FileKind::Inventory:
        return QObject::tr("cluster inventory");
    case FileKind::SchedulerConf:
        return QObject::tr("volcano-scheduler.conf");
    case FileKind::Trace:
        return QObject::tr("GPU trace");
    case FileKind::Unknown:
        return QObject::tr("unknown file");
    }
    return {};
}

namespace {

FileKind fromInputKind(InputKind k) {
    switch (k) {
    case InputKind::Project:
        return FileKind::Project;
    case InputKind::Inventory:
        return FileKind::Inventory;
    case InputKind::SchedulerConf:
        return FileKind::SchedulerConf;
    case InputKind::Snapshot:
        return FileKind::Snapshot;
    }
    return FileKind::Unknown;
}

FileKind checkedKind(const QString& path) {
    QFileInfo info(path);
    if (!info.exists()) throw std::runtime_error(QObject::tr("%1: no such file.").arg(path).toStdString());
    if (!info.isFile()) throw std::runtime_error(QObject::tr("%1: not a file.").arg(path).toStdString());
    if (!info.isReadable())
        throw std::runtime_error(
            QObject::tr("%1: the file cannot be read (permission denied).").arg(path).toStdString());
    if (info.suffix().compare(QStringLiteral("csv"), Qt::CaseInsensitive) == 0) return FileKind::Trace;
    return fromInputKind(detectInputKind(path.toStdString()));
}

// The first line of a CSV: a trace's node list names "sn", its pod list "num_gpu".
QString csvHeader(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readLine()).trimmed();
}

// A GPU trace (node list + pod list) as a project: the nodes become the cluster, every task a
// one-pod job waiting in the cluster with the arrival and duration the trace gives it, so the
// simulator takes them as the what-if jobs.
LoadedFile fromTrace(const QStringList& paths) {
    QString nodes, pods;
    for (const auto& p : paths) {
        const QStringList columns = csvHeader(p).split(',');
        if (columns.contains(QStringLiteral("num_gpu")))
            pods = p;
        else if (columns.contains(QStringLiteral("sn")))
            nodes = p;
    }
    if (paths.size() != 2 || nodes.isEmpty() || pods.isEmpty())
        throw std::runtime_error(
            QObject::tr("A GPU trace is two CSV files opened together: the node list (columns sn, cpu_milli, "
                        "memory_mib, gpu, model) and the pod list (name, cpu_milli, memory_mib, num_gpu, "
                        "gpu_milli ...). Select both in the Open dialog, or drop both on the window.")
                .toStdString());
    LoadedFile out;
    out.kind = FileKind::Trace;
    Trace trace = readTrace(nodes.toStdString(), pods.toStdString(), out.warnings);
    const uint64_t seed = out.project.simulation.seed;
    sim::TraceConversion converted = sim::fromTrace(trace, sim::TimingDefaults{}, seed);
    out.project.cluster = std::move(converted.cluster);
    const auto& workload = converted.workload;
    for (size_t j = 0; j < workload.jobs.size(); ++j) {
        out.project.cluster.podGroups.push_back(workload.jobGroup(j));
        for (auto& pod : workload.jobPods(j)) out.project.cluster.pods.push_back(std::move(pod));
    }
    sim::ensureDefaultQueue(out.project.cluster);
    out.warnings.insert(out.warnings.end(), workload.warnings.begin(), workload.warnings.end());
    out.project.name = QFileInfo(pods).completeBaseName().toStdString();
    // Trace tasks share GPUs: Volcano's default policy plus deviceshare places them.
    PluginOption deviceShare;
    deviceShare.name = "deviceshare";
    out.project.volcano.tiers.back().plugins.push_back(deviceShare);
    return out;
}

} // namespace

FileKind detectFileKind(const QString& path) {
    try {
        return checkedKind(path);
    } catch (const std::exception&) {
        return FileKind::Unknown;
    }
}

LoadedFile loadFile(const QString& path) {
    return loadFiles({path});
}

LoadedFile loadFiles(const QStringList& paths) {
    if (paths.isEmpty()) throw std::runtime_error("no file given");
    std::vector<FileKind> kinds;
    for (const auto& p : paths) kinds.push_back(checkedKind(p));
    LoadedFile out;
    out.kind = kinds.front();
    if (std::find(kinds.begin(), kinds.end(), FileKind::Trace) != kinds.end()) return fromTrace(paths);
    if (out.kind == FileKind::SchedulerConf && paths.size() == 1) {
        out.schedulerConf = readSchedulerConfFile(paths.front().toStdString(), &out.warnings);
        return out;
    }
    std::vector<std::string> files;
    for (const auto& p : paths) files.push_back(p.toStdString());
    LoadedInput in = loadInputs(files); // located InputError for bad content
    out.project = std::move(in.project);
    out.warnings = std::move(in.warnings);
    out.kind = fromInputKind(in.kind);
    if (out.project.name.empty())
        out.project.name = QFileInfo(paths.front()).completeBaseName().toStdString();
    if (out.kind != FileKind::Project) compareWithKubeScheduler(out.project);
    return out;
}

void compareWithKubeScheduler(Project& project) {
    if (!project.contrast) project.contrast = KubeSchedulerProfile{};
}

void saveProject(const Project& project, const QString& path) {
    writeProjectFile(path.toStdString(), project);
}

QString openFilter() {
    return QObject::tr(
        "Everything Gantry opens (*.gantry *.yaml *.yml *.json *.conf *.csv);;Gantry projects (*.gantry);;"
        "Kubernetes snapshots and inventories (*.yaml *.yml *.json);;Scheduler configurations (*.conf "
        "*.yaml);;"
        "GPU traces: node list and pod list (*.csv);;"
        "All files (*)");
}

QString projectFilter() {
    return QObject::tr("Gantry projects (*.gantry)");
}

} // namespace gantry::studio
