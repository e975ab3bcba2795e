#include "core/project_files.h"

#include <QFileInfo>
#include <QObject>
#include <algorithm>
#include <stdexcept>

#include "input_error.h"
#include "input_loader.h"
#include "project_writer.h"
#include "scheduler_conf_reader.h"

namespace gantry::studio {

QString toDisplayString(FileKind kind) {
    switch (kind) {
    case FileKind::Project: return QObject::tr("Gantry project");
    case FileKind::Snapshot: return QObject::tr("Kubernetes snapshot");
    case FileKind::Inventory: return QObject::tr("cluster inventory");
    case FileKind::SchedulerConf: return QObject::tr("volcano-scheduler.conf");
    case FileKind::Trace: return QObject::tr("GPU trace");
    case FileKind::Unknown: return QObject::tr("unknown file");
    }
    return {};
}

namespace {

FileKind fromInputKind(InputKind k) {
    switch (k) {
    case InputKind::Project: return FileKind::Project;
    case InputKind::Inventory: return FileKind::Inventory;
    case InputKind::SchedulerConf: return FileKind::SchedulerConf;
    case InputKind::Snapshot: return FileKind::Snapshot;
    }
    return FileKind::Unknown;
}

FileKind checkedKind(const QString& path) {
    QFileInfo info(path);
    if (!info.exists()) throw std::runtime_error(QObject::tr("%1: no such file.").arg(path).toStdString());
    if (!info.isFile()) throw std::runtime_error(QObject::tr("%1: not a file.").arg(path).toStdString());
    if (!info.isReadable())
        throw std::runtime_error(QObject::tr("%1: the file cannot be read (permission denied).").arg(path).toStdString());
    if (info.suffix().compare(QStringLiteral("csv"), Qt::CaseInsensitive) == 0) return FileKind::Trace;
    return fromInputKind(detectInputKind(path.toStdString()));
}

} // namespace

FileKind detectFileKind(const QString& path) {
    try {
        return checkedKind(path);
    } catch (const std::exception&) {
        return FileKind::Unknown;
    }
}

LoadedFile loadFile(const QString& path) { return loadFiles({path}); }

LoadedFile loadFiles(const QStringList& paths) {
    if (paths.isEmpty()) throw std::runtime_error("no file given");
    std::vector<FileKind> kinds;
    for (const auto& p : paths) kinds.push_back(checkedKind(p));
    LoadedFile out;
    out.kind = kinds.front();
    if (std::find(kinds.begin(), kinds.end(), FileKind::Trace) != kinds.end())
        throw std::runtime_error(QObject::tr("%1: GPU traces open through the simulator, which this build does not include yet.")
                                     .arg(paths.front())
                                     .toStdString());
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
    if (out.project.name.empty()) out.project.name = QFileInfo(paths.front()).completeBaseName().toStdString();
    return out;
}

void saveProject(const Project& project, const QString& path) { writeProjectFile(path.toStdString(), project); }

QString openFilter() {
    return QObject::tr("Everything Gantry opens (*.gantry *.yaml *.yml *.json *.conf);;Gantry projects (*.gantry);;"
                       "Kubernetes snapshots and inventories (*.yaml *.yml *.json);;Scheduler configurations (*.conf *.yaml);;"
                       "All files (*)");
}

QString projectFilter() { return QObject::tr("Gantry projects (*.gantry)"); }

} // namespace gantry::studio
