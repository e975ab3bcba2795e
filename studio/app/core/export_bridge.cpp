#include "core/export_bridge.h"

#include <QDir>
#include <QObject>
#include <QRegularExpression>
#include <algorithm>
#include <set>
#include <stdexcept>

namespace gantry::studio {

namespace {
std::set<QString> exportErrors(const Project& project, TargetScheduler target) {
    std::set<QString> out;
    for (const auto& i : planExport(project, target, false).issues)
        if (i.kind == ExportIssue::Kind::Error)
            out.insert((i.object.isEmpty() ? QString() : i.object + QStringLiteral(", ")) +
                       (i.field.isEmpty() ? QString() : i.field + QStringLiteral(": ")) + i.message);
    return out;
}
} // namespace

QStringList exportErrorsAdded(const Project& before, const Project& after, TargetScheduler target) {
    const std::set<QString> was = exportErrors(before, target);
    QStringList added;
    for (const auto& e : exportErrors(after, target))
        if (!was.count(e)) added << e;
    return added;
}

bool ExportPlan::hasErrors() const {
    return !unavailable.isEmpty() || std::any_of(issues.begin(), issues.end(), [](const ExportIssue& i) {
        return i.kind == ExportIssue::Kind::Error;
    });
}

namespace {

// The exporters' messages name what they are about first: "document 2, ClusterQueue lender,
// spec.x: text" (validation) or "queue pretrain, spec.priority: text" (lossy steps).
ExportIssue toIssue(ExportIssue::Kind kind, const Diagnostic& d) {
    ExportIssue issue;
    issue.kind = kind;
    const QString text = QString::fromStdString(d.message);
    static const QRegularExpression validation(QStringLiteral("^document \\d+, ([^,]+), ([^:]+): (.*)$"));
    static const QRegularExpression lossy(QStringLiteral("^([^,:]+), ([^:]+): (.*)$"));
    QRegularExpressionMatch m = validation.match(text);
    if (!m.hasMatch()) m = lossy.match(text);
    if (m.hasMatch()) {
        issue.object = m.captured(1);
        issue.field = m.captured(2);
        issue.message = m.captured(3);
    } else {
        issue.message = text;
    }
    issue.where = QString::fromStdString(d.where.str());
    return issue;
}

} // namespace

ExportPlan planExport(const Project& project, TargetScheduler target, bool singleFile,
                      const Diagnostics& inputWarnings) {
    ExportPlan plan;
    plan.target = target;
    plan.layout = singleFile ? ExportLayout::SingleFile : ExportLayout::PerKind;
    ExportOptions options;
    options.target = target;
    options.layout = plan.layout;
    try {
        plan.bundle = exportProject(project, options);
        for (auto& [name, text] : renderExport(plan.bundle, plan.layout))
            plan.files.push_back(ExportFile{QString::fromStdString(name), std::move(text)});
        for (const auto& d : validateExport(plan.bundle, plan.layout))
            plan.issues.push_back(toIssue(
                d.severity == Severity::Error ? ExportIssue::Kind::Error : ExportIssue::Kind::Warning, d));
    } catch (const std::exception& e) {
        // The exporter refuses what it cannot map at all (say, a project it cannot read); show why.
        ExportIssue issue;
        issue.kind = ExportIssue::Kind::Error;
        issue.message = QString::fromUtf8(e.what());
        plan.issues.push_back(issue);
        return plan;
    }
    plan.bundle.inputWarnings = inputWarnings;
    for (const auto& d : inputWarnings) {
        ExportIssue issue = toIssue(ExportIssue::Kind::Lossy, d);
        issue.message = QObject::tr("Left out when reading the input: %1").arg(issue.message);
        plan.issues.push_back(issue);
    }
    for (const auto& d : plan.bundle.warnings) plan.issues.push_back(toIssue(ExportIssue::Kind::Lossy, d));
    for (const auto& n : plan.bundle.notes) {
        ExportIssue issue;
        issue.kind = ExportIssue::Kind::Note;
        issue.message = QString::fromStdString(n);
        plan.issues.push_back(issue);
    }
    // Errors first, then warnings, lossy steps and notes.
    std::stable_sort(plan.issues.begin(), plan.issues.end(),
                     [](const ExportIssue& a, const ExportIssue& b) { return a.kind < b.kind; });
    return plan;
}

QStringList writeExportPlan(const ExportPlan& plan, const QString& dir) {
    if (plan.hasErrors())
        throw std::runtime_error(
            QObject::tr("The export has errors; fix them before writing.").toStdString());
    ExportResult result = writeExport(plan.bundle, dir.toStdString(), plan.layout);
    if (!result.written) {
        std::string why;
        for (const auto& d : result.diagnostics)
            if (d.severity == Severity::Error) {
                if (!why.empty()) why += '\n';
                why += d.str();
            }
        throw std::runtime_error(why.empty() ? "nothing was written" : why);
    }
    QStringList files;
    for (const auto& f : result.files) files << QString::fromStdString(f);
    return files;
}

} // namespace gantry::studio
