#include "fragmentation/fgd_experiment.h"

#include "fragmentation/frag_memo.h"
#include "fragmentation/trace_cluster.h"
#include "trace/go_rand.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>

namespace gantry::frag {

namespace {

// The order of arrivals: the name-sorted tasks shuffled, then inflated (or deflated) to the target.
std::vector<int32_t> arrivalOrder(const Trace& trace, const TraceCluster& cluster,
                                  const ExperimentConfig& cfg, GoRand& rng) {
    std::vector<int32_t> byName(trace.tasks.size());
    std::iota(byName.begin(), byName.end(), 0);
    std::stable_sort(byName.begin(), byName.end(),
                     [&](int32_t a, int32_t b) { return trace.tasks[a].name < trace.tasks[b].name; });

    std::vector<int32_t> order = byName;
    rng.shuffle(int64_t(order.size()), [&](int64_t i, int64_t j) { std::swap(order[i], order[j]); });

    int64_t requested = 0;
    for (int32_t t : order) requested += cluster.shapes[t].totalGpuMilli();
    const double target = cfg.inflation * double(cluster.totalGpuMilli);
    if (cfg.inflation <= 0 || double(requested) == target) return order;
    if (double(requested) > target) {
        while (double(requested) > target && !order.empty()) {
            auto idx = size_t(rng.intn(int64_t(order.size())));
            requested -= cluster.shapes[order[idx]].totalGpuMilli();
            order.erase(order.begin() + std::ptrdiff_t(idx));
        }
        return order;
    }
    // The authors' loop stops at the first drawn task whose per-device milli would pass the target.
    for (;;) {
        int32_t t = byName[size_t(rng.intn(int64_t(byName.size())))];
        const TaskShape& s = cluster.shapes[t];
        if (double(requested + s.gpuMilli) > target) break;
        requested += s.totalGpuMilli();
        order.push_back(t);
    }
    return order;
}

// Tie-break ranks: node i of the name-sorted list is renamed "%04d-<name>" with perm[i]; the
// lexicographically smallest name wins ties.
std::vector<int32_t> tieBreakRanks(const Trace& trace, const std::vector<int32_t>& byName, GoRand& rng) {
    std::vector<int> perm = rng.perm(int(byName.size()));
    std::vector<std::string> prefixed(trace.nodes.size());
    for (size_t i = 0; i < byName.size(); ++i) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%04d-", perm[i]);
        prefixed[byName[i]] = buf + trace.nodes[byName[i]].name;
    }
    std::vector<int32_t> sorted(trace.nodes.size());
    std::iota(sorted.begin(), sorted.end(), 0);
    std::sort(sorted.begin(), sorted.end(), [&](int32_t a, int32_t b) { return prefixed[a] < prefixed[b]; });
    std::vector<int32_t> rank(trace.nodes.size());
    for (size_t r = 0; r < sorted.size(); ++r) rank[sorted[r]] = int32_t(r);
    return rank;
}

struct ShapeKey {
    int64_t cpu;
    int32_t milli, count;
    std::string spec;
    auto operator<=>(const ShapeKey&) const = default;
};

} // namespace

ExperimentRun runFgdExperiment(const Trace& trace, const ExperimentConfig& cfg) {
    TraceCluster cluster = buildTraceCluster(trace);
    if (cluster.totalGpus == 0) throw std::invalid_argument("the trace has no node with a GPU");
    if (trace.tasks.empty()) throw std::invalid_argument("the trace has no task");
    for (auto& n : cluster.nodes)
        n.podsLeft = cfg.maxPodsPerNode > 0 ? cfg.maxPodsPerNode : std::numeric_limits<int32_t>::max();

    ExperimentRun run;
    run.config = cfg;
    run.workload = targetWorkload(cluster.shapes, cfg.targetCoverage);
    run.totalGpus = cluster.totalGpus;
    run.totalGpuMilli = cluster.totalGpuMilli;

    GoRand rng(cfg.seed);
    rng.int63(); // the authors log one rand.Int() right after seeding
    run.taskOfRecord = arrivalOrder(trace, cluster, cfg, rng);
    for (int i = 0; i < cfg.informerDraws; ++i) rng.int63();

    std::vector<int32_t> nodesByName(trace.nodes.size());
    std::iota(nodesByName.begin(), nodesByName.end(), 0);
    std::stable_sort(nodesByName.begin(), nodesByName.end(),
                     [&](int32_t a, int32_t b) { return trace.nodes[a].name < trace.nodes[b].name; });
    const std::vector<int32_t> rank = tieBreakRanks(trace, nodesByName, rng);

    // Shape ids, for the per-node cache of FGD scores.
    std::map<ShapeKey, int32_t> shapeIds;
    std::vector<int32_t> shapeOfTask(trace.tasks.size());
    for (size_t t = 0; t < trace.tasks.size(); ++t) {
        const TaskShape& s = cluster.shapes[t];
        auto [it, _] = shapeIds.emplace(ShapeKey{s.cpuMilli, s.gpuMilli, s.gpuCount, s.gpuSpec},
                                        int32_t(shapeIds.size()));
        shapeOfTask[t] = it->second;
    }
    struct CachedScore {
        uint32_t version = 0;
        FgdChoice choice;
    };
    std::vector<std::vector<CachedScore>> fgdCache(shapeIds.size());
    std::vector<uint32_t> version(cluster.nodes.size(), 1);

    FragMemo memo(run.workload);
    std::vector<FragValue> nodeFrag(cluster.nodes.size());
    long double clusterFrag = 0, clusterIdle = 0;
    for (size_t n = 0; n < cluster.nodes.size(); ++n) {
        nodeFrag[n] = memo.get(cluster.nodes[n]);
        clusterFrag += nodeFrag[n].fragmented;
        clusterIdle += nodeFrag[n].idle;
    }

    auto fgdFor = [&](int32_t node, int32_t task) -> FgdChoice {
        auto& cache = fgdCache[size_t(shapeOfTask[task])];
        if (cache.empty()) cache.resize(cluster.nodes.size());
        CachedScore& c = cache[size_t(node)];
        if (c.version != version[node]) {
            c.choice = fgdScore(cluster.nodes[node], cluster.shapes[task], memo);
            c.version = version[node];
        }
        return c.choice;
    };

    std::vector<int32_t> feasible;
    feasible.reserve(cluster.nodes.size());
    std::vector<int64_t> scores;
    scores.reserve(cluster.nodes.size());
    int64_t arrived = 0, allocated = 0;
    run.records.reserve(run.taskOfRecord.size());

    for (int32_t task : run.taskOfRecord) {
        const TaskShape& shape = cluster.shapes[task];
        const int64_t memory = cluster.memoryMiB[task];
        arrived += shape.totalGpuMilli();

        feasible.clear();
        for (int32_t n : nodesByName)
            if (fits(cluster.nodes[n], shape, memory)) feasible.push_back(n);

        int32_t chosen = -1;
        if (feasible.size() == 1) {
            chosen = feasible[0];
        } else if (feasible.size() > 1) {
            if (cfg.policy == Policy::Random) {
                chosen = feasible[size_t(rng.intn(int64_t(feasible.size())))];
            } else {
                scores.clear();
                for (int32_t n : feasible) {
                    const NodeState& node = cluster.nodes[n];
                    switch (cfg.policy) {
                    case Policy::DotProd:
                        scores.push_back(dotProdScore(node, shape));
                        break;
                    case Policy::GpuClustering:
                        scores.push_back(gpuClusteringScore(node, shape));
                        break;
                    case Policy::GpuPacking:
                        scores.push_back(gpuPackingScore(node, shape));
                        break;
                    case Policy::BestFit:
                        scores.push_back(bestFitRawScore(node, shape));
                        break;
                    case Policy::Fgd:
                        scores.push_back(fgdFor(n, task).score);
                        break;
                    case Policy::Random:
                        break;
                    }
                }
                if (cfg.policy == Policy::BestFit) normaliseScores(scores);
                size_t best = 0;
                for (size_t i = 1; i < feasible.size(); ++i) {
                    if (scores[i] > scores[best] ||
                        (scores[i] == scores[best] && rank[feasible[i]] < rank[feasible[best]]))
                        best = i;
                }
                chosen = feasible[best];
            }
        }

        if (chosen >= 0) {
            NodeState& node = cluster.nodes[chosen];
            GpuSet gpus = 0;
            switch (cfg.policy) {
            case Policy::Random:
                gpus = pickRandomGpus(node, shape, rng);
                break;
            case Policy::Fgd:
                gpus = fgdFor(chosen, task).gpus;
                break;
            default:
                gpus = pickTightestGpus(node, shape);
                break;
            }
            place(node, shape, memory, gpus);
            ++version[chosen];
            allocated += shape.totalGpuMilli();
            FragValue now = memo.get(node);
            clusterFrag += static_cast<long double>(now.fragmented) - nodeFrag[chosen].fragmented;
            clusterIdle += static_cast<long double>(now.idle) - nodeFrag[chosen].idle;
            nodeFrag[chosen] = now;
            ++run.scheduled;
        } else {
            ++run.unscheduled;
        }
        run.records.push_back(
            TaskRecord{arrived, allocated, double(clusterFrag), double(clusterIdle), chosen});
    }
    run.finalNodes = std::move(cluster.nodes);
    return run;
}

namespace {

// Python's round(x, 2): correctly rounded, ties to even on the exact binary value (as printf does).
double pythonRound2(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return std::strtod(buf, nullptr);
}

// numpy's round(x, 2): scale, round half to even, unscale.
double numpyRound2(double x) {
    return std::nearbyint(x * 100.0) / 100.0;
}

// numpy's pairwise summation of a contiguous float64 array (what pandas' mean sums with).
double pairwiseSum(const double* a, size_t n) {
    if (n < 8) {
        double s = 0;
        for (size_t i = 0; i < n; ++i) s += a[i];
        return s;
    }
    if (n <= 128) {
        double r[8];
        for (int j = 0; j < 8; ++j) r[j] = a[j];
        size_t i = 8;
        for (; i < n - n % 8; i += 8)
            for (int j = 0; j < 8; ++j) r[j] += a[i + size_t(j)];
        double s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i) s += a[i];
        return s;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwiseSum(a, n2) + pairwiseSum(a + n2, n - n2);
}

// pandas' mean with NaN skipped: NaN counts as 0 in the sum and not in the count.
std::optional<double> pandasMean(std::vector<double> values) {
    size_t count = 0;
    for (auto& v : values) {
        if (std::isnan(v))
            v = 0;
        else
            ++count;
    }
    if (count == 0) return std::nullopt;
    return pairwiseSum(values.data(), values.size()) / double(count);
}

// What the authors' log prints with %.2f and their scripts parse back.
double printed2(double x) {
    if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
    return pythonRound2(x);
}

} // namespace

PercentSeries discretize(const ExperimentRun& run) {
    return discretize(run, int(std::lround(run.config.inflation * 100)));
}

PercentSeries discretize(const ExperimentRun& run, int maxPct) {
    PercentSeries out;
    out.maxPct = maxPct;
    const double totalGpus = double(run.totalGpus);
    const size_t n = run.records.size();
    std::vector<int64_t> pct(n);
    std::vector<double> alloc(n), fragMilli(n), fragRatio(n);
    for (size_t i = 0; i < n; ++i) {
        const TaskRecord& r = run.records[i];
        pct[i] = int64_t(std::nearbyint(double(r.arrivedMilli) / totalGpus / 10));
        alloc[i] = pythonRound2(double(r.allocatedMilli) / totalGpus / 10);
        fragMilli[i] = printed2(r.fragMilli);
        fragRatio[i] = printed2(100 * r.fragMilli / r.idleMilli);
    }
    // Rows of one percent; the authors fall back to the neighbours within one point when none.
    std::vector<std::vector<size_t>> exact(size_t(maxPct) + 2);
    for (size_t i = 0; i < n; ++i)
        if (pct[i] >= 0 && pct[i] <= maxPct + 1) exact[size_t(pct[i])].push_back(i);
    for (int p = 0; p <= maxPct; ++p) {
        std::vector<size_t> rows = exact[size_t(p)];
        if (rows.empty()) {
            for (size_t i = 0; i < n; ++i)
                if (pct[i] >= p - 1 && pct[i] <= p + 1) rows.push_back(i);
        }
        if (rows.empty()) {
            out.gpuAllocPct.push_back(std::nullopt);
            out.fragOverTotalPct.push_back(std::nullopt);
            out.fragOverIdlePct.push_back(std::nullopt);
            continue;
        }
        std::vector<double> a, f, q;
        for (size_t i : rows) {
            a.push_back(alloc[i]);
            f.push_back(fragMilli[i]);
            q.push_back(fragRatio[i]);
        }
        auto am = pandasMean(a);
        auto fm = pandasMean(f);
        out.gpuAllocPct.push_back(am ? std::optional<double>(numpyRound2(*am)) : std::nullopt);
        out.fragOverTotalPct.push_back(fm ? std::optional<double>(numpyRound2(100 * *fm / 1000 / totalGpus))
                                          : std::nullopt);
        out.fragOverIdlePct.push_back(pandasMean(q));
    }
    return out;
}

} // namespace gantry::frag
