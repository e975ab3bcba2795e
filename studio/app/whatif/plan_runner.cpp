#include "whatif/plan_runner.h"

#include "model/policy_settings.h"
#include "plan/project_setup.h"
#include "plan/search.h"
#include "profile/registry.h"

#include <algorithm>
#include <numeric>
#include <optional>

namespace gantry::studio {

SloCheck parseSlos(const std::vector<std::string>& texts) {
    SloCheck out;
    for (size_t i = 0; i < texts.size(); ++i) {
        auto parsed = plan::parseSlo(texts[i]);
        if (auto* slo = std::get_if<plan::Slo>(&parsed)) {
            out.slos.push_back(std::move(*slo));
            continue;
        }
        out.bad = int(i);
        out.error = std::get<plan::SloError>(parsed);
        out.slos.clear();
        break;
    }
    return out;
}

bool profileReadsField(const std::string& profile, const std::string& field) {
    const std::string scheduler = field.substr(0, field.find('.'));
    if (scheduler == "volcano") return profile == "volcano";
    if (scheduler == "kueue") return profile == "kueue";
    if (scheduler == "kube") return profile == "kube-default" || profile == "kueue";
    return false;
}

std::vector<ProfilePlan> planColumns(const PlanSettings& settings) {
    std::vector<ProfilePlan> out;
    for (const auto& p : settings.profiles) {
        if (settings.varyField.empty() || !profileReadsField(p, settings.varyField)) {
            out.push_back(ProfilePlan{p, "", {}, {}});
            continue;
        }
        for (const auto& v : settings.varyValues)
            out.push_back(ProfilePlan{p, settings.varyField + "=" + v, {}, {}});
    }
    return out;
}

QString planTitle(const ProfilePlan& plan) {
    const engine::ProfileInfo* info = engine::findProfile(plan.profile);
    QString title = QString::fromStdString(info ? info->title : plan.profile);
    if (plan.setting.empty()) return title;
    // The field's last word says enough next to its value: "usageHalfLifeTime=6h".
    const size_t eq = plan.setting.find('=');
    const size_t dot = plan.setting.rfind('.', eq);
    return title + QStringLiteral(" · ") +
           QString::fromStdString(plan.setting.substr(dot == std::string::npos ? 0 : dot + 1));
}

PlanRunner::PlanRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<PlanRun>();
    qRegisterMetaType<plan::PlanPoint>();
    connect(&worker_, &WorkerRun::runningChanged, this, &PlanRunner::runningChanged);
}

void PlanRunner::clear() {
    last_ = {};
}

bool PlanRunner::start(const Project& project, uint64_t revision, const PlanSettings& settings) {
    auto refuse = [this](const QString& why) {
        emit failed(why);
        return false;
    };
    if (worker_.isRunning()) return refuse(tr("A plan is already running."));
    if (settings.nodeType.empty()) return refuse(tr("Choose the node type to plan."));
    if (settings.profiles.empty()) return refuse(tr("Choose at least one scheduler profile."));
    for (const auto& p : settings.profiles)
        if (!engine::findProfile(p))
            return refuse(tr("Unknown scheduler profile '%1'.").arg(QString::fromStdString(p)));
    if (settings.min > settings.max)
        return refuse(tr("The minimum (%1) is above the maximum (%2).").arg(settings.min).arg(settings.max));
    if (settings.seeds < 1) return refuse(tr("Give at least one seed."));
    SloCheck check = parseSlos(settings.slos);
    if (check.bad >= 0)
        return refuse(tr("SLO '%1', column %2: %3")
                          .arg(QString::fromStdString(settings.slos[size_t(check.bad)]))
                          .arg(check.error.column)
                          .arg(QString::fromStdString(check.error.message)));
    if (check.slos.empty()) return refuse(tr("Give at least one SLO."));
    // The searches, side by side: a profile that reads the varied field once per value.
    if (!settings.varyField.empty()) {
        if (settings.varyValues.empty())
            return refuse(
                tr("Give the values of %1 to try.").arg(QString::fromStdString(settings.varyField)));
        for (const auto& v : settings.varyValues)
            if (auto why = policySettingProblem(settings.varyField, v); !why.empty())
                return refuse(QString::fromStdString(why));
        if (std::none_of(settings.profiles.begin(), settings.profiles.end(),
                         [&](const std::string& p) { return profileReadsField(p, settings.varyField); }))
            return refuse(tr("No profile chosen reads %1.").arg(QString::fromStdString(settings.varyField)));
    }
    const std::vector<ProfilePlan> columns = planColumns(settings);

    plan::PlanRequest request;
    request.types = {plan::NodeType::pool(settings.nodeType)};
    request.ranges = {{settings.min, settings.max, 1}};
    request.slos = std::move(check.slos);
    for (int k = 0; k < settings.seeds; ++k) request.seeds.push_back(project.simulation.seed + uint64_t(k));
    request.threads = settings.threads;

    // The worker owns its copy of the project, so edits made meanwhile do not race with it.
    worker_.start([this, project, request, columns,
                   revision](const std::atomic<bool>& cancelFlag) -> std::function<void()> {
        PlanRun run;
        run.request = request;
        run.pool = plan::summaryOf(project.cluster, request.types[0]);
        run.cluster = std::make_shared<const Cluster>(project.cluster);
        run.projectRevision = revision;
        const size_t n = columns.size();
        // Per profile: points measured, and the most it may take (exact once it has finished).
        std::vector<size_t> done(n, 0), estimate(n, plan::mostPoints(request.ranges[0], {}, {}));
        QString error;
        for (size_t i = 0; i < n && !cancelFlag.load() && error.isEmpty(); ++i) {
            ProfilePlan outcome = columns[i];
            const QString title = planTitle(outcome);
            try {
                plan::WhatIfSetup setup;
                setup.cluster = project.cluster;
                setup.workloads = project.workloads;
                setup.options = plan::projectOptions(project, outcome.profile);
                if (!outcome.setting.empty()) {
                    const size_t eq = outcome.setting.find('=');
                    const std::string why =
                        applyPolicySetting(setup.options.policies, outcome.setting.substr(0, eq),
                                           outcome.setting.substr(eq + 1));
                    if (!why.empty()) throw std::runtime_error(why);
                }
                Cluster drawn;
                Diagnostics warnings;
                if (plan::fitToWorkload(setup, drawn, SourceRef{project.name, 0, 0, 0}, &outcome.notes,
                                        &warnings)
                        .jobs.empty())
                    throw std::runtime_error("the project has no jobs to simulate: add workload templates in "
                                             "the Workloads tab");
                std::optional<int64_t> failing, passing;
                plan::PlanControl control;
                control.cancel = &cancelFlag;
                // Called by the planner's threads one at a time.
                control.progress = [&](int runsDone, int roundRuns, int round, const plan::PlanPoint* point) {
                    if (point) {
                        const int64_t count = point->counts[0];
                        if (point->pass)
                            passing = std::min(passing.value_or(count), count);
                        else
                            failing = std::max(failing.value_or(count), count);
                        ++done[i];
                        estimate[i] =
                            std::max(done[i], plan::mostPoints(request.ranges[0], failing, passing));
                        QMetaObject::invokeMethod(
                            this, [this, i, p = *point] { emit pointFinished(int(i), p); },
                            Qt::QueuedConnection);
                    }
                    const int all = int(std::accumulate(done.begin(), done.end(), size_t(0)));
                    const int most = int(std::accumulate(estimate.begin(), estimate.end(), size_t(0)));
                    const QString stage = tr("%1: round %2, %3 of %4 simulations")
                                              .arg(title)
                                              .arg(round + 1)
                                              .arg(runsDone)
                                              .arg(roundRuns);
                    QMetaObject::invokeMethod(
                        this, [this, all, most, stage] { emit progress(all, most, stage); },
                        Qt::QueuedConnection);
                };
                outcome.result = plan::plan(setup, request, control);
                estimate[i] = done[i];
            } catch (const std::exception& e) {
                error = QStringLiteral("%1: %2").arg(title, QString::fromStdString(e.what()));
            }
            run.profiles.push_back(std::move(outcome));
        }
        const bool wasCancelled = cancelFlag.load();
        return [this, run = std::move(run), error, wasCancelled] {
            if (!error.isEmpty())
                emit failed(error);
            else if (wasCancelled)
                emit cancelled();
            else {
                last_ = run;
                emit finished(run);
            }
        };
    });
    emit started();
    return true;
}

void PlanRunner::cancel() {
    if (worker_.cancel()) emit cancelled();
}

bool PlanRunner::waitForFinished(int timeoutMs) {
    return worker_.waitForFinished(timeoutMs);
}

bool PlanRunner::waitForWorkers(int timeoutMs) {
    return worker_.waitForWorkers(timeoutMs);
}

} // namespace gantry::studio
