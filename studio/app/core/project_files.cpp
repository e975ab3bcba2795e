#include "core/project_files.h"

#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <algorithm>
#include <stdexcept>

#include "input_error.h"
#include "snapshot/snapshot_importer.h"

namespace gantry::studio {

QString toDisplayString(FileKind kind) {
    switch (kind) {
    case FileKind::Project: return QObject::tr("Gantry project");
    case FileKind::Snapshot: return QObject::tr("Kubernetes snapshot");
    case FileKind::Inventory: return QObject::tr("cluster inventory");
    case FileKind::Trace: return QObject::tr("GPU trace");
    case FileKind::Unknown: return QObject::tr("unknown file");
    }
    return {};
}

FileKind detectFileKind(const QString& path) {
    QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    if (suffix == "gantry") return FileKind::Project;
    if (suffix == "csv") return FileKind::Trace;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return FileKind::Unknown;
    const QByteArray head = file.read(64 * 1024);
    for (const QByteArray& raw : head.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty() || line.startsWith('#') || line == "---") continue;
        if (line.startsWith("gantry:") || line.startsWith("gantryProject:")) return FileKind::Project;
        if (line.startsWith("pools:") || line.startsWith("inventory:") || line.startsWith("nodePools:"))
            return FileKind::Inventory;
        if (line.startsWith("apiVersion:") || line.startsWith("kind:") || line.startsWith("{") ||
            line.startsWith("\"apiVersion\"") || line.startsWith("\"kind\""))
            return FileKind::Snapshot;
    }
    if (suffix == "yaml" || suffix == "yml" || suffix == "json") return FileKind::Snapshot;
    return FileKind::Unknown;
}

namespace {
[[noreturn]] void needsImporter(const QString& path, FileKind kind) {
    throw std::runtime_error(
        QObject::tr("%1: reading a %2 needs the importers, which this build of Gantry does not include yet.")
            .arg(path, toDisplayString(kind))
            .toStdString());
}
} // namespace

namespace {

FileKind checkedKind(const QString& path) {
    QFileInfo info(path);
    if (!info.exists()) throw std::runtime_error(QObject::tr("%1: no such file.").arg(path).toStdString());
    if (!info.isReadable())
        throw std::runtime_error(QObject::tr("%1: the file cannot be read (permission denied).").arg(path).toStdString());
    FileKind kind = detectFileKind(path);
    if (kind == FileKind::Unknown)
        throw std::runtime_error(QObject::tr("%1: not a project, Kubernetes snapshot, inventory or trace. "
                                             "Gantry opens .gantry projects, YAML/JSON snapshots and inventories, "
                                             "and Alibaba-format trace CSVs.")
                                     .arg(path)
                                     .toStdString());
    return kind;
}

// A snapshot brings the cluster; the project around it starts from Gantry's defaults, with the
// Volcano configuration the snapshot carried (if any) as the policy.
LoadedFile fromSnapshot(const QStringList& paths) {
    LoadedFile out;
    out.kind = FileKind::Snapshot;
    SnapshotImporter importer;
    for (const auto& p : paths) importer.addFile(p.toStdString());
    Diagnostics diagnostics;
    out.project.cluster = importer.finish(diagnostics);
    throwIfErrors(diagnostics);
    for (auto& d : diagnostics)
        if (d.severity == Severity::Warning) out.warnings.push_back(std::move(d));
    out.project.name = QFileInfo(paths.front()).completeBaseName().toStdString();
    if (out.project.cluster.volcanoConf) out.project.volcano = *out.project.cluster.volcanoConf;
    return out;
}

} // namespace

LoadedFile loadFile(const QString& path) { return loadFiles({path}); }

LoadedFile loadFiles(const QStringList& paths) {
    if (paths.isEmpty()) throw std::runtime_error("no file given");
    std::vector<FileKind> kinds;
    for (const auto& p : paths) kinds.push_back(checkedKind(p));
    bool allSnapshots = std::all_of(kinds.begin(), kinds.end(), [](FileKind k) { return k == FileKind::Snapshot; });
    if (allSnapshots) return fromSnapshot(paths);
    if (paths.size() > 1)
        throw std::runtime_error(QObject::tr("Several files open together only when all are Kubernetes snapshots; "
                                             "open a project, inventory or trace on its own.")
                                     .toStdString());
    needsImporter(paths.front(), kinds.front());
}

void saveProject(const Project&, const QString& path) {
    throw std::runtime_error(
        QObject::tr("%1: saving projects needs the project writer, which this build of Gantry does not include yet.")
            .arg(path)
            .toStdString());
}

QString openFilter() {
    return QObject::tr("Everything Gantry opens (*.gantry *.yaml *.yml *.json *.csv);;Gantry projects (*.gantry);;"
                       "Kubernetes snapshots and inventories (*.yaml *.yml *.json);;GPU traces (*.csv);;All files (*)");
}

QString projectFilter() { return QObject::tr("Gantry projects (*.gantry)"); }

} // namespace gantry::studio
