// fgd_table: replays the FGD paper's 1,020 runs (17 task lists x 6 policies x seeds 42-51) and
// compares them with the authors' result tables.
//
//   fgd_table [--data DIR] [--policy NAME] [--workload NAME] [--quiet]
//
// DIR holds openb_node_list_gpu_node.csv, the openb_pod_list_*.csv files and fgd-expected-results/
// (default: resources/traces/alibaba-gpu-v2023 of the source tree). Prints, per task list and
// policy, the median over the seeds of GPU allocation % at 100 % and 130 % arrived demand next to
// the authors' median, every deviation beyond +-0.5 points, the worst deviation, and how many
// per-seed rows agree with the authors' rows column for column.
#include "fragmentation/fgd_experiment.h"
#include "trace/alibaba_trace.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace gantry;

namespace {

const std::vector<std::string> kWorkloads = {
    "openb_pod_list_default",    "openb_pod_list_cpu050",     "openb_pod_list_cpu100",
    "openb_pod_list_cpu200",     "openb_pod_list_cpu250",     "openb_pod_list_gpushare100",
    "openb_pod_list_gpushare40", "openb_pod_list_gpushare60", "openb_pod_list_gpushare80",
    "openb_pod_list_gpuspec10",  "openb_pod_list_gpuspec20",  "openb_pod_list_gpuspec25",
    "openb_pod_list_gpuspec33",  "openb_pod_list_multigpu20", "openb_pod_list_multigpu30",
    "openb_pod_list_multigpu40", "openb_pod_list_multigpu50"};

// The authors' directory names of the policies.
std::string policyDir(frag::Policy p) {
    switch (p) {
    case frag::Policy::Random:
        return "01-Random";
    case frag::Policy::DotProd:
        return "02-DotProd";
    case frag::Policy::GpuClustering:
        return "03-GpuClustering";
    case frag::Policy::GpuPacking:
        return "04-GpuPacking";
    case frag::Policy::BestFit:
        return "05-BestFit";
    case frag::Policy::Fgd:
        return "06-FGD";
    }
    return "";
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string f;
    while (std::getline(ss, f, ',')) out.push_back(f);
    if (!line.empty() && line.back() == ',') out.push_back("");
    return out;
}

using Row = std::vector<std::optional<double>>; // values at 0..130 %

// analysis_*_discrete.csv: key "workload/policy/seed" -> row.
std::map<std::string, Row> readDiscrete(const std::string& path) {
    std::map<std::string, Row> rows;
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line)) return rows;
    auto header = split(line);
    size_t zero = size_t(std::find(header.begin(), header.end(), "0") - header.begin());
    while (std::getline(in, line)) {
        auto f = split(line);
        if (f.size() < zero) continue;
        Row r;
        for (size_t i = zero; i < header.size(); ++i)
            r.push_back(i < f.size() && !f[i].empty() ? std::optional<double>(std::stod(f[i]))
                                                      : std::nullopt);
        rows[f[0] + "/" + f[1] + "/" + f[3]] = r;
    }
    return rows;
}

// summary_median_by_workload_policy.csv: key "metric/workload/policy/pct" -> median.
std::map<std::string, double> readSummary(const std::string& path) {
    std::map<std::string, double> out;
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line)) return out;
    auto header = split(line);
    while (std::getline(in, line)) {
        auto f = split(line);
        for (size_t i = 3; i < f.size() && i < header.size(); ++i)
            if (!f[i].empty()) out[f[0] + "/" + f[1] + "/" + f[2] + "/" + header[i]] = std::stod(f[i]);
    }
    return out;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct RowCompare {
    int exactRows = 0, rows = 0;
    double maxDiff = 0;
    void add(const Row& mine, const Row* theirs) {
        if (!theirs) return;
        ++rows;
        bool same = true;
        for (size_t p = 0; p < mine.size() && p < theirs->size(); ++p) {
            if (mine[p].has_value() != (*theirs)[p].has_value()) {
                same = false;
                continue;
            }
            if (!mine[p]) continue;
            double d = std::abs(*mine[p] - *(*theirs)[p]);
            maxDiff = std::max(maxDiff, d);
            if (d > 1e-9) same = false;
        }
        exactRows += same;
    }
};

} // namespace

int main(int argc, char** argv) {
    std::string dir = "resources/traces/alibaba-gpu-v2023";
    std::optional<frag::Policy> onlyPolicy;
    std::string onlyWorkload;
    bool quiet = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--data" && i + 1 < argc)
            dir = argv[++i];
        else if (a == "--policy" && i + 1 < argc)
            onlyPolicy = frag::policyFromString(argv[++i]);
        else if (a == "--workload" && i + 1 < argc)
            onlyWorkload = argv[++i];
        else if (a == "--quiet")
            quiet = true;
        else {
            std::fprintf(stderr,
                         "usage: fgd_table [--data DIR] [--policy NAME] [--workload NAME] [--quiet]\n");
            return 1;
        }
    }
    const std::string expected = dir + "/fgd-expected-results/";
    auto allo = readDiscrete(expected + "analysis_allo_discrete.csv");
    auto fragTotal = readDiscrete(expected + "analysis_frag_discrete.csv");
    auto fragIdle = readDiscrete(expected + "analysis_frag_ratio_discrete.csv");
    auto summary = readSummary(expected + "summary_median_by_workload_policy.csv");
    if (summary.empty()) {
        std::fprintf(stderr, "fgd_table: no %ssummary_median_by_workload_policy.csv\n", expected.c_str());
        return 1;
    }

    Diagnostics warnings;
    std::vector<TraceNode> nodes;
    try {
        nodes = readTraceNodes(dir + "/openb_node_list_gpu_node.csv", warnings);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fgd_table: %s\n", e.what());
        return 1;
    }

    std::map<std::string, RowCompare> cmpAllo, cmpFrag, cmpIdle; // per policy
    int runs = 0, outside = 0, compared = 0;
    double worst = 0;
    std::string worstWhat;
    auto t0 = std::chrono::steady_clock::now();
    std::printf("%-27s %-16s %8s %8s %6s   %8s %8s %6s\n", "task list", "policy", "ours@100", "paper", "diff",
                "ours@130", "paper", "diff");
    for (const auto& w : kWorkloads) {
        if (!onlyWorkload.empty() && w != onlyWorkload) continue;
        Trace trace;
        trace.nodes = nodes;
        try {
            trace.tasks = readTraceTasks(dir + "/" + w + ".csv", warnings);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "fgd_table: %s\n", e.what());
            return 1;
        }
        for (frag::Policy p : frag::allPolicies()) {
            if (onlyPolicy && p != *onlyPolicy) continue;
            std::map<int, std::vector<double>> alloc, fragT, fragI;
            for (int seed = 42; seed <= 51; ++seed) {
                frag::ExperimentConfig cfg;
                cfg.policy = p;
                cfg.seed = seed;
                auto run = frag::runFgdExperiment(trace, cfg);
                auto s = frag::discretize(run);
                ++runs;
                const std::string key = w + "/" + policyDir(p) + "/" + std::to_string(seed);
                auto find = [&](const std::map<std::string, Row>& m) {
                    auto it = m.find(key);
                    return it == m.end() ? nullptr : &it->second;
                };
                cmpAllo[frag::toString(p)].add(s.gpuAllocPct, find(allo));
                cmpFrag[frag::toString(p)].add(s.fragOverTotalPct, find(fragTotal));
                cmpIdle[frag::toString(p)].add(s.fragOverIdlePct, find(fragIdle));
                for (int pct : {100, 130}) {
                    if (s.gpuAllocPct[pct]) alloc[pct].push_back(*s.gpuAllocPct[pct]);
                    if (s.fragOverTotalPct[pct]) fragT[pct].push_back(*s.fragOverTotalPct[pct]);
                    if (s.fragOverIdlePct[pct]) fragI[pct].push_back(*s.fragOverIdlePct[pct]);
                }
            }
            double ours[2], paper[2], diff[2];
            for (int k = 0; k < 2; ++k) {
                int pct = k == 0 ? 100 : 130;
                ours[k] = median(alloc[pct]);
                paper[k] = summary["gpu_alloc_pct/" + w + "/" + policyDir(p) + "/" + std::to_string(pct)];
                diff[k] = ours[k] - paper[k];
                ++compared;
                if (std::abs(diff[k]) > 0.5) ++outside;
                if (std::abs(diff[k]) > std::abs(worst)) {
                    worst = diff[k];
                    worstWhat = w + " " + frag::toString(p) + " @" + std::to_string(pct) + "%";
                }
            }
            if (!quiet || std::abs(diff[0]) > 0.5 || std::abs(diff[1]) > 0.5)
                std::printf("%-27s %-16s %8.3f %8.3f %+6.3f   %8.3f %8.3f %+6.3f%s\n", w.c_str() + 15,
                            policyDir(p).c_str(), ours[0], paper[0], diff[0], ours[1], paper[1], diff[1],
                            std::abs(diff[0]) > 0.5 || std::abs(diff[1]) > 0.5 ? "  OUTSIDE +-0.5" : "");
        }
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("\n%d runs in %.1f s (%.3f s per run)\n", runs, seconds, runs ? seconds / runs : 0);
    std::printf(
        "medians of GPU allocation %% at 100 %% and 130 %% arrived: %d compared, %d outside +-0.5 points; "
        "worst %+.3f (%s)\n",
        compared, outside, worst, worstWhat.c_str());
    std::printf(
        "per-seed rows equal to the authors' in every column (0..130 %%), and the largest difference:\n");
    std::printf("  %-14s %-22s %-22s %-22s\n", "policy", "GPU allocation %", "frag / total GPUs %",
                "frag / idle GPUs %");
    for (frag::Policy p : frag::allPolicies()) {
        const char* name = frag::toString(p);
        if (!cmpAllo.count(name)) continue;
        auto cell = [](RowCompare& c) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%4d/%-4d (%.3f)", c.exactRows, c.rows, c.maxDiff);
            return std::string(buf);
        };
        std::printf("  %-14s %-22s %-22s %-22s\n", name, cell(cmpAllo[name]).c_str(),
                    cell(cmpFrag[name]).c_str(), cell(cmpIdle[name]).c_str());
    }
    return outside == 0 ? 0 : 2;
}
