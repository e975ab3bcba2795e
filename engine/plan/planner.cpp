#include "plan/planner.h"

#include "plan/parallel.h"
#include "plan/run_ahead.h"
#include "sim/whatif.h"

#include <algorithm>
#include <stdexcept>

namespace gantry::plan {

SeedRun summarizeRun(const sim::SimResult& r, const std::vector<Slo>& slos) {
    SeedRun run;
    run.seed = r.seed;
    run.metrics = sim::runMetrics(r);
    for (const auto& slo : slos) {
        auto value = sim::metricValue(r, slo.metric);
        run.sloValues.push_back(value);
        const std::string name = slo.metric.name();
        if (value && std::none_of(run.metrics.begin(), run.metrics.end(),
                                  [&](const auto& m) { return m.first == name; }))
            run.metrics.emplace_back(name, *value);
    }
    return run;
}

namespace {

void judge(PlanPoint& p, const std::vector<Slo>& slos) {
    p.pass = true;
    for (size_t k = 0; k < slos.size(); ++k) {
        bool holds = true;
        std::optional<double> worst;
        for (const auto& s : p.seeds) {
            const auto& v = s.sloValues[k];
            if (!v) {
                holds = false;
                continue;
            }
            holds = holds && slos[k].holds(*v);
            worst = worst ? slos[k].worst(*worst, *v) : *v;
        }
        p.sloPass.push_back(holds);
        p.worst.push_back(worst);
        p.pass = p.pass && holds;
    }
}

bool holdsAll(const SeedRun& run, const std::vector<Slo>& slos) {
    for (size_t k = 0; k < slos.size(); ++k)
        if (!run.sloValues[k] || !slos[k].holds(*run.sloValues[k])) return false;
    return true;
}

void checkRequest(const WhatIfSetup& setup, const PlanRequest& request) {
    if (request.types.empty() || request.types.size() > 2)
        throw std::invalid_argument("plan one node type, or two with costs");
    if (request.ranges.size() != request.types.size())
        throw std::invalid_argument("give one range per node type");
    if (request.seeds.empty()) throw std::invalid_argument("give at least one seed");
    if (request.slos.empty()) throw std::invalid_argument("give at least one service level (--slo)");
    for (size_t i = 0; i < request.types.size(); ++i) {
        const NodeType& t = request.types[i];
        const Range& r = request.ranges[i];
        if (r.min > r.max)
            throw std::invalid_argument("node type '" + t.name + "': the minimum " + std::to_string(r.min) +
                                        " is above the maximum " + std::to_string(r.max));
        // Both ends once on a copy, so a pool that does not exist or cannot shrink that far is said
        // before any simulation.
        for (int64_t end : {r.min, r.max}) {
            Cluster copy = setup.cluster;
            changeNodes(copy, t, end);
        }
    }
    for (const auto& slo : request.slos)
        if (slo.metric.info().scope == sim::MetricScope::Queue &&
            !setup.cluster.findQueue(slo.metric.group)) {
            std::string names;
            for (const auto& q : setup.cluster.queues) names.append(names.empty() ? "" : ", ").append(q.name);
            throw std::invalid_argument("'" + slo.text + "': the cluster has no queue '" + slo.metric.group +
                                        "'" + (names.empty() ? "" : " (queues: " + names + ")"));
        }
}

} // namespace

sim::SimResult runWhatIf(const WhatIfSetup& setup, const std::vector<NodeType>& types,
                         const std::vector<int64_t>& counts, uint64_t seed) {
    Cluster cluster = setup.cluster;
    for (size_t i = 0; i < types.size() && i < counts.size(); ++i) changeNodes(cluster, types[i], counts[i]);
    sim::SimWorkload workload = sim::projectWorkload(setup.workloads, cluster, setup.timing, seed);
    sim::SimOptions options = setup.options;
    options.seed = seed;
    return sim::simulate(cluster, workload, options);
}

int64_t PlanPoint::total() const {
    int64_t t = 0;
    for (int64_t c : counts) t += c;
    return t;
}

double PlanPoint::cost(const std::vector<Range>& ranges) const {
    double c = 0;
    for (size_t i = 0; i < counts.size() && i < ranges.size(); ++i) c += double(counts[i]) * ranges[i].cost;
    return c;
}

const PlanPoint* PlanResult::answerPoint() const {
    if (!met) return nullptr;
    for (const auto& p : points)
        if (p.counts == answer) return &p;
    return nullptr;
}

PlanResult plan(const WhatIfSetup& setup, const PlanRequest& request, const PlanControl& control) {
    checkRequest(setup, request);
    const size_t seedCount = request.seeds.size();
    auto search = [&](const PointOracle& oracle) {
        return request.types.size() == 1 ? searchSmallest(request.ranges[0], oracle)
                                         : searchCheapest(request.ranges[0], request.ranges[1], oracle);
    };
    RunAhead runs(
        search,
        [&](const std::vector<int64_t>& counts, size_t seed) {
            return summarizeRun(runWhatIf(setup, request.types, counts, request.seeds[seed]), request.slos);
        },
        [&](const SeedRun& run) { return holdsAll(run, request.slos); }, seedCount,
        threadCount(request.threads), control.cancel);

    std::vector<PlanPoint> measured;
    const SearchResult found = search([&](const std::vector<int64_t>& counts) -> std::optional<bool> {
        const int round = int(measured.size());
        auto seeds = runs.await(counts, [&](size_t known) {
            if (control.progress) control.progress(int(known), int(seedCount), round, nullptr);
        });
        if (!seeds) return std::nullopt;
        PlanPoint& point = measured.emplace_back();
        point.counts = counts;
        point.round = round;
        point.seeds = std::move(*seeds);
        judge(point, request.slos);
        if (control.progress) control.progress(int(point.seeds.size()), int(seedCount), round, &point);
        return point.pass;
    });
    PlanResult out;
    out.met = found.met;
    out.cancelled = found.cancelled;
    out.answer = found.answer;
    out.violations = found.violations;
    out.points = std::move(measured);
    std::sort(out.points.begin(), out.points.end(), [](const PlanPoint& a, const PlanPoint& b) {
        return std::pair(a.total(), a.counts) < std::pair(b.total(), b.counts);
    });
    return out;
}

} // namespace gantry::plan
