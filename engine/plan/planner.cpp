#include "plan/planner.h"

#include "plan/parallel.h"
#include "sim/whatif.h"

#include <algorithm>
#include <map>
#include <mutex>
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
    const int threads = threadCount(request.threads);
    const size_t seedCount = request.seeds.size();
    std::map<std::vector<int64_t>, PlanPoint> measured;
    int round = 0;
    std::mutex progressMutex;

    // A point fails at its first failing seed (in seed order): its later seeds are not run when that
    // is known in time, and not kept when it is not, so what a point holds never depends on timing.
    // The runs go seed by seed (every point's first seed, then every point's second ...) so that a
    // point's failure is usually known before its later seeds start.
    RoundOracle oracle =
        [&](const std::vector<std::vector<int64_t>>& points) -> std::optional<std::vector<bool>> {
        const size_t pointCount = points.size();
        std::vector<PlanPoint> batch(pointCount);
        std::vector<std::vector<std::optional<SeedRun>>> runs(pointCount,
                                                              std::vector<std::optional<SeedRun>>(seedCount));
        std::vector<size_t> firstFailing(pointCount, seedCount);
        std::vector<size_t> settled(pointCount, 0);
        int runsDone = 0;
        const int runsTotal = int(pointCount * seedCount);
        const bool finished = runParallel(
            pointCount * seedCount, threads,
            [&](size_t i) {
                const size_t p = i % pointCount, s = i / pointCount;
                bool skip = false;
                {
                    std::lock_guard<std::mutex> lock(progressMutex);
                    skip = firstFailing[p] < s;
                }
                std::optional<SeedRun> run;
                if (!skip)
                    run = summarizeRun(runWhatIf(setup, request.types, points[p], request.seeds[s]),
                                       request.slos);
                std::lock_guard<std::mutex> lock(progressMutex);
                if (run && !holdsAll(*run, request.slos)) firstFailing[p] = std::min(firstFailing[p], s);
                runs[p][s] = std::move(run);
                ++runsDone;
                const PlanPoint* done = nullptr;
                if (++settled[p] == seedCount) {
                    PlanPoint& point = batch[p];
                    point.counts = points[p];
                    point.round = round;
                    for (size_t k = 0; k < seedCount && k <= firstFailing[p]; ++k)
                        point.seeds.push_back(std::move(*runs[p][k]));
                    judge(point, request.slos);
                    done = &point;
                }
                if (control.progress) control.progress(runsDone, runsTotal, round, done);
            },
            control.cancel);
        if (!finished) return std::nullopt;
        std::vector<bool> passed;
        for (auto& point : batch) {
            passed.push_back(point.pass);
            measured.emplace(point.counts, std::move(point));
        }
        ++round;
        return passed;
    };

    const SearchResult found = request.types.size() == 1
                                   ? searchSmallest(request.ranges[0], oracle)
                                   : searchCheapest(request.ranges[0], request.ranges[1], oracle);
    PlanResult out;
    out.met = found.met;
    out.cancelled = found.cancelled;
    out.answer = found.answer;
    out.violations = found.violations;
    for (auto& [counts, point] : measured) out.points.push_back(std::move(point));
    std::stable_sort(out.points.begin(), out.points.end(),
                     [](const PlanPoint& a, const PlanPoint& b) { return a.total() < b.total(); });
    return out;
}

} // namespace gantry::plan
