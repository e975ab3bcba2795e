#pragma once
// What `gantry sweep` writes: one JSON file per point (points/point-NNNNNN.json, by a local run or
// by pod NNNNNN of the emitted Job), and the report merged from them (report.json), which is the
// same bytes whichever way the points ran. Also the Kubernetes objects of --emit-job.
#include "manifest/document.h"
#include "plan/slo.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace gantry::cli {

// What every point file repeats so a merge needs nothing else: which grid, how many points.
struct SweepHeader {
    std::string grid;
    std::string fingerprint; // of the grid's content and its files' contents, not their paths
    size_t points = 0;
    std::vector<std::string> slos;
    bool operator==(const SweepHeader&) const = default;
};

struct PointRecord {
    size_t index = 0;
    std::string profile, policy;
    int64_t nodes = 0;
    uint64_t seed = 0;
    std::vector<std::pair<std::string, double>> metrics;
};

std::string pointFileName(size_t index); // "point-000042.json"
std::string pointJson(const SweepHeader& header, const PointRecord& point);
// Throws InputError (at the file) for a file that is not a point of a sweep.
std::pair<SweepHeader, PointRecord> readPointJson(const std::string& text, const std::string& path);

// The report: every point in index order and, per profile, policy and node count, the mean of each
// metric over the seeds and (with SLOs) whether every seed met them.
std::string reportJson(const SweepHeader& header, const std::vector<PointRecord>& points);
void printReport(std::ostream& out, const SweepHeader& header, const std::vector<PointRecord>& points);

// The Job's pod reads its grid and files from a ConfigMap and writes its point to a volume.
struct JobSpec {
    std::string name; // object names: gantry-sweep-<name>
    std::string ns;   // empty: the namespace kubectl applies to
    std::string image;
    int parallelism = 4;
    std::string resultsClaim; // PersistentVolumeClaim (ReadWriteMany) the pods write to
    std::string cpu = "1", memory = "2Gi";
    size_t completions = 0;
    std::vector<std::pair<std::string, std::string>> files; // ConfigMap keys -> contents; "grid.yaml" first
};
inline constexpr const char* kJobGridDir = "/etc/gantry-sweep";
inline constexpr const char* kJobResultsDir = "/var/lib/gantry-sweep";
std::vector<Json> sweepJobObjects(const JobSpec& spec);

} // namespace gantry::cli
