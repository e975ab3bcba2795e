// gantry-history-fixture: makes up a cluster's history and loads it into a Prometheus TSDB with
// promtool, for bench/history_replay.sh and for trying `gantry import --prometheus` by hand.
//   gantry-history-fixture --tsdb DIR [--nodes 5000] [--days 30] [--pods 1000000] [--scrape 180]
//                          [--seed 1] [--end UNIX] [--slices FIRST:LAST]
//   gantry-history-fixture --tsdb DIR --scenario      (the tests' scenario history)
// The TSDB is written in 6-hour slices (one promtool run and one block each), so neither the
// OpenMetrics text nor promtool's memory grows with the window. Prints the window to import.
// --slices loads only slices FIRST to LAST - 1 (from 0), to resume a load that was stopped or to
// split it between two processes (same --end and --seed: the history is the same).
#include "history_fixture.h"
#include "prometheus_server.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

using namespace gantry::testing;

namespace {

std::string iso(double t) {
    std::time_t s = std::time_t(t);
    std::tm tm{};
    gmtime_r(&s, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer;
}

} // namespace

int main(int argc, char** argv) {
    std::string tsdb;
    int nodes = 5000;
    double days = 30, scrape = 180;
    int64_t pods = 1000000;
    uint64_t seed = 1;
    bool scenario = false;
    double end = 0;
    int firstSlice = 0, lastSlice = 1 << 30;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::cerr << "gantry-history-fixture: " << a << " needs a value\n";
                std::exit(1);
            }
            return argv[++i];
        };
        if (a == "--tsdb")
            tsdb = next();
        else if (a == "--nodes")
            nodes = std::atoi(next().c_str());
        else if (a == "--days")
            days = std::atof(next().c_str());
        else if (a == "--pods")
            pods = std::atoll(next().c_str());
        else if (a == "--scrape")
            scrape = std::atof(next().c_str());
        else if (a == "--seed")
            seed = std::strtoull(next().c_str(), nullptr, 10);
        else if (a == "--end")
            end = std::atof(next().c_str());
        else if (a == "--slices") {
            const std::string v = next();
            if (std::sscanf(v.c_str(), "%d:%d", &firstSlice, &lastSlice) != 2 || firstSlice < 0 ||
                lastSlice <= firstSlice) {
                std::cerr << "gantry-history-fixture: --slices " << v
                          << ": give FIRST:LAST, 0 <= FIRST < LAST\n";
                return 1;
            }
        } else if (a == "--scenario")
            scenario = true;
        else {
            std::cerr << "gantry-history-fixture: unknown argument " << a << "\n";
            return 1;
        }
    }
    if (tsdb.empty()) {
        std::cerr
            << "usage: gantry-history-fixture --tsdb DIR [--nodes N] [--days D] [--pods P] [--scrape S] "
               "[--seed N] [--end UNIX] [--slices FIRST:LAST] [--scenario]\n";
        return 1;
    }
    const std::string promtool = findProgram("promtool");
    if (promtool.empty()) {
        std::cerr << "gantry-history-fixture: promtool is not installed (Debian package prometheus)\n";
        return 1;
    }
    constexpr double kSlice = 6 * 3600;
    if (end == 0) end = std::floor(double(std::time(nullptr)) / kSlice) * kSlice - kSlice;
    const auto t0 = std::chrono::steady_clock::now();
    HistoryFixture f = scenario ? scenarioHistory(std::floor((end - 26 * 3600) / 3600) * 3600)
                                : largeHistory(end - days * 86400, nodes, days, pods, scrape, seed);
    const auto t1 = std::chrono::steady_clock::now();
    std::filesystem::create_directories(tsdb);
    char scratchName[48];
    std::snprintf(scratchName, sizeof scratchName, "/../slice-%d.om", firstSlice);
    const std::string scratch = tsdb + scratchName;
    const int64_t bytes = f.load(promtool, tsdb, scratch, kSlice, firstSlice, lastSlice);
    const auto t2 = std::chrono::steady_clock::now();
    int64_t podCount = int64_t(f.pods.size());
    std::printf("window %s %s\n", iso(f.start).c_str(), iso(f.end).c_str());
    std::printf("step %.0f\n", f.step);
    std::printf("nodes %zu pods %lld truth-jobs %zu\n", f.nodes.size(), static_cast<long long>(podCount),
                f.truth.size());
    std::printf(
        "openmetrics %.1f GiB, %lld samples; made up in %.1f s, written and loaded with promtool in %.0f s\n",
        double(bytes) / (1 << 30), static_cast<long long>(f.samples()),
        std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count());
    return 0;
}
