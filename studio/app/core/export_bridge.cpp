#include "core/export_bridge.h"

#include <QDir>
#include <QObject>
#include <algorithm>
#include <stdexcept>

#include "atomic_file.h"

namespace gantry::studio {

bool ExportPlan::hasErrors() const {
    return !unavailable.isEmpty() ||
           std::any_of(issues.begin(), issues.end(), [](const ExportIssue& i) { return i.kind == ExportIssue::Kind::Error; });
}

ExportPlan planExport(const Project&, TargetScheduler target, bool) {
    ExportPlan plan;
    plan.target = target;
    plan.unavailable = QObject::tr("This build of Gantry does not include the exporters yet, so manifests cannot be "
                                   "generated. The project itself can still be edited and saved.");
    return plan;
}

void writeExport(const ExportPlan& plan, const QString& dir) {
    if (plan.hasErrors())
        throw std::runtime_error(QObject::tr("The export has errors; fix them before writing.").toStdString());
    if (!QDir().mkpath(dir)) throw std::runtime_error(QObject::tr("%1: cannot create the folder.").arg(dir).toStdString());
    for (const auto& f : plan.files) writeFileAtomically(QDir(dir).filePath(f.name).toStdString(), f.contents);
}

} // namespace gantry::studio
