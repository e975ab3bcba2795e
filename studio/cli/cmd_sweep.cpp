// gantry sweep: a grid of what-ifs (profiles x policy variants x node counts x seeds), run on this
// machine's cores, or as an Indexed Kubernetes Job whose pod i runs point i; `sweep merge` turns the
// points' files into the report a local run writes (docs/planning.md).
#include "atomic_file.h"
#include "command.h"
#include "diagnostics_printer.h"
#include "gantry/api_version.h"
#include "input_error.h"
#include "manifest/document.h"
#include "options.h"
#include "plan/parallel.h"
#include "plan/planner.h"
#include "sweep_grid_reader.h"
#include "sweep_report.h"
#include "validation/manifest_validator.h"
#include "value_grammar.h"
#include "whatif_setup.h"
#include "yaml/yaml_source.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>

namespace gantry::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage = "--grid FILE (--out DIR | --emit-job --image IMAGE) | point ... | merge DIR";

// FNV-1a, 64 bits: enough to tell two grids' points apart in a results folder.
struct Fingerprint {
    uint64_t h = 1469598103934665603ull;
    void add(std::string_view s) {
        for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
        h = (h ^ 0xff) * 1099511628211ull; // field separator
    }
    std::string hex() const {
        char buf[20];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
        return buf;
    }
};

// The grid's content and the contents of its files, not their paths: the Job's pods read the same
// files from another folder and must agree with a local run.
std::string fingerprintOf(const plan::SweepGrid& g) {
    Fingerprint f;
    f.add(g.name);
    for (const auto& i : g.inputs) f.add(readTextFile(i));
    f.add(g.nodeType);
    f.add(g.nodeTemplate.empty() ? "" : readTextFile(g.nodeTemplate));
    for (auto n : g.nodes) f.add(std::to_string(n));
    for (const auto& p : g.profiles) f.add(p);
    for (const auto& v : g.policies) {
        f.add(v.name);
        f.add(v.profile);
        f.add(v.schedulerConf.empty() ? "" : readTextFile(v.schedulerConf));
        for (const auto& setting : v.settings) { // nothing for a variant without (fingerprints stay)
            f.add(setting.key);
            f.add(setting.value);
        }
    }
    for (auto s : g.seeds) f.add(std::to_string(s));
    f.add(g.horizonSeconds ? std::to_string(*g.horizonSeconds) : "-");
    f.add(g.cycleSeconds ? std::to_string(*g.cycleSeconds) : "-");
    for (const auto& s : g.slos) f.add(s);
    return f.hex();
}

// The what-ifs of a grid, loaded once per profile and policy variant.
class SweepRunner {
  public:
    explicit SweepRunner(SweepGridFile file) : file_(std::move(file)) {
        for (const auto& s : file_.grid.slos) slos_.push_back(std::get<plan::Slo>(plan::parseSlo(s)));
        if (!file_.grid.nodeTemplate.empty())
            type_ = plan::NodeType::fromTemplate(readNodeTemplate(file_.grid.nodeTemplate));
        else if (!file_.grid.nodeType.empty())
            type_ = plan::NodeType::pool(file_.grid.nodeType);
        // `seeds: K` counts from the project's seed.
        if (file_.grid.seeds.empty()) resolveSeeds(file_, setup(file_.grid.profiles.front(), 0).projectSeed);
        points_ = plan::sweepPoints(file_.grid);
        header_ = {file_.grid.name, fingerprintOf(file_.grid), points_.size(), file_.grid.slos};
    }

    const SweepGridFile& file() const { return file_; }
    const std::vector<plan::SweepPoint>& points() const { return points_; }
    const SweepHeader& header() const { return header_; }

    // Loads what the points need before they run on several threads.
    void prepare(const std::vector<size_t>& indices) {
        for (size_t i : indices) setup(points_[i].profile, points_[i].policy);
    }

    PointRecord run(size_t index) {
        const plan::SweepPoint& p = points_.at(index);
        const LoadedWhatIf& loaded = setup(p.profile, p.policy);
        std::vector<plan::NodeType> types;
        std::vector<int64_t> counts;
        if (type_) {
            types.push_back(*type_);
            counts.push_back(p.nodes);
        }
        const auto run = plan::summarizeRun(plan::runWhatIf(loaded.setup, types, counts, p.seed), slos_);
        return {p.index, p.profile, file_.grid.policies[p.policy].name, p.nodes, p.seed, run.metrics};
    }

    Diagnostics warnings() const {
        Diagnostics out;
        for (const auto& [key, loaded] : setups_)
            out.insert(out.end(), loaded->warnings.begin(), loaded->warnings.end());
        return out;
    }

  private:
    const LoadedWhatIf& setup(const std::string& profile, size_t policy) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto& slot = setups_[{profile, policy}];
        if (!slot) {
            const auto& g = file_.grid;
            slot = std::make_unique<LoadedWhatIf>(
                loadWhatIf({g.inputs, profile, g.policies[policy].schedulerConf, g.cycleSeconds,
                            g.horizonSeconds, g.policies[policy].settings}));
            // The node type must exist at every count before anything runs.
            if (type_)
                for (int64_t n : g.nodes) {
                    Cluster copy = slot->setup.cluster;
                    plan::changeNodes(copy, *type_, n);
                }
        }
        return *slot;
    }

    SweepGridFile file_;
    std::vector<plan::Slo> slos_;
    std::optional<plan::NodeType> type_;
    std::vector<plan::SweepPoint> points_;
    SweepHeader header_;
    std::mutex mutex_;
    std::map<std::pair<std::string, size_t>, std::unique_ptr<LoadedWhatIf>> setups_;
};

void writePoint(const fs::path& out, const SweepHeader& header, const PointRecord& record) {
    fs::create_directories(out / "points");
    writeFileAtomically((out / "points" / pointFileName(record.index)).string(), pointJson(header, record));
}

// Reads every point file of DIR/points; all must be of one grid, and every index there once.
std::pair<SweepHeader, std::vector<PointRecord>> readPoints(const fs::path& dir) {
    const fs::path folder = dir / "points";
    if (!fs::is_directory(folder))
        throw InputError(SourceRef{folder.string(), 0, 0, 0},
                         "no points folder (run the sweep's points first)");
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(folder))
        if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) throw InputError(SourceRef{folder.string(), 0, 0, 0}, "no point files");
    std::optional<SweepHeader> header;
    std::map<size_t, PointRecord> byIndex;
    for (const auto& f : files) {
        auto [h, p] = readPointJson(readTextFile(f.string()), f.string());
        if (!header) header = h;
        if (!(h == *header))
            throw InputError(SourceRef{f.string(), 0, 0, 0},
                             "belongs to another grid (" + h.grid + " " + h.fingerprint + ") than " +
                                 files.front().string() + " (" + header->grid + " " + header->fingerprint +
                                 ")");
        if (p.index >= h.points)
            throw InputError(SourceRef{f.string(), 0, 0, 0}, "point " + std::to_string(p.index) +
                                                                 " of a grid of " + std::to_string(h.points));
        if (!byIndex.emplace(p.index, std::move(p)).second)
            throw InputError(SourceRef{f.string(), 0, 0, 0}, "a second file for the same point");
    }
    std::string missing;
    size_t count = 0;
    for (size_t i = 0; i < header->points; ++i)
        if (!byIndex.count(i) && count++ < 20)
            missing.append(missing.empty() ? "" : ", ").append(std::to_string(i));
    if (count > 0)
        throw InputError(SourceRef{folder.string(), 0, 0, 0},
                         std::to_string(count) + " of " + std::to_string(header->points) +
                             " points have no result yet: " + missing + (count > 20 ? ", ..." : ""));
    std::vector<PointRecord> points;
    for (auto& [i, p] : byIndex) points.push_back(std::move(p));
    return {*header, std::move(points)};
}

int merge(const fs::path& dir, bool json) {
    std::pair<SweepHeader, std::vector<PointRecord>> merged;
    try {
        merged = readPoints(dir);
    } catch (const InputError& e) {
        printDiagnostics(e.all());
        return BadInput;
    }
    const std::string report = reportJson(merged.first, merged.second);
    try {
        writeFileAtomically((dir / "report.json").string(), report);
    } catch (const std::exception& e) {
        std::cerr << "gantry sweep: " << e.what() << '\n';
        return RuntimeFailure;
    }
    if (json)
        std::cout << report;
    else
        printReport(std::cout, merged.first, merged.second);
    return Ok;
}

int runMerge(const Args& args) {
    std::vector<std::string> dirs;
    bool json = false;
    const OptionTable table{
        .command = "sweep merge",
        .synopsis = "DIR [--json]",
        .about = "Merges the point files of DIR/points (from a local run or the pods of the emitted Job)\n"
                 "into DIR/report.json, the report a local run writes.",
        .options = {
            {.metavar = "DIR", .value = Texts{&dirs}, .help = "the sweep's results folder", .required = true},
            {.names = {"--json"}, .value = Switch{&json}, .help = "print the report instead of a table"}}};
    if (auto exit = parseCommandLine(table, args)) return *exit;
    if (dirs.size() != 1) return usageError("sweep merge", "give one results folder");
    return merge(dirs[0], json);
}

int runPoint(const Args& args) {
    std::string gridPath, outDir;
    std::optional<uint64_t> index;
    const OptionTable table{
        .command = "sweep point",
        .synopsis = "--grid FILE --out DIR [--index N]",
        .about = "Runs one point of a grid and writes DIR/points/point-NNNNNN.json: what pod N of the\n"
                 "Job from --emit-job runs. The index comes from JOB_COMPLETION_INDEX (set by Kubernetes\n"
                 "in an Indexed Job) unless --index gives it.",
        .options = {
            {.names = {"--grid"},
             .metavar = "FILE",
             .value = Text{&gridPath},
             .help = "the grid",
             .required = true},
            {.names = {"--out"},
             .metavar = "DIR",
             .value = Text{&outDir},
             .help = "the results folder",
             .required = true},
            {.names = {"--index"}, .metavar = "N", .value = Uint{&index}, .help = "the point to run"}}};
    if (auto exit = parseCommandLine(table, args)) return *exit;
    if (!index) {
        const char* env = std::getenv("JOB_COMPLETION_INDEX");
        auto parsed = env ? parseWholeNumber(env) : std::nullopt;
        if (!parsed || *parsed < 0)
            return usageError("sweep point", "no --index and no JOB_COMPLETION_INDEX in the environment");
        index = uint64_t(*parsed);
    }
    try {
        SweepRunner runner(readSweepGridFile(gridPath));
        if (*index >= runner.points().size())
            return usageError("sweep point", "index " + std::to_string(*index) + " is past the grid's " +
                                                 std::to_string(runner.points().size()) + " points");
        PointRecord record = runner.run(size_t(*index));
        printDiagnostics(runner.warnings(), {.errorsOnly = true});
        writePoint(outDir, runner.header(), record);
    } catch (const InputError& e) {
        printDiagnostics(e.all());
        return BadInput;
    } catch (const std::invalid_argument& e) {
        std::cerr << "gantry sweep point: " << e.what() << '\n';
        return BadInput;
    } catch (const std::exception& e) {
        std::cerr << "gantry sweep point: " << e.what() << '\n';
        return RuntimeFailure;
    }
    return Ok;
}

// The ConfigMap's files: the grid (its paths made the keys) and every file it names, by name.
std::vector<std::pair<std::string, std::string>> jobFiles(const SweepRunner& runner) {
    const plan::SweepGrid& g = runner.file().grid;
    std::vector<std::pair<std::string, std::string>> files;
    std::set<std::string> keys{"grid.yaml"};
    auto add = [&](const std::string& path) {
        std::string base = fs::path(path).filename().string(), key = base;
        for (int n = 2; keys.count(key); ++n) key = std::to_string(n) + "-" + base;
        keys.insert(key);
        files.emplace_back(key, readTextFile(path));
        return key;
    };
    Json grid = {{"apiVersion", kGantryApiVersion}, {"kind", kSweepGridKind}, {"name", g.name}};
    Json inputs = Json::array();
    for (const auto& i : g.inputs) inputs.push_back(add(i));
    grid["inputs"] = inputs;
    if (!g.nodeType.empty()) grid["nodeType"] = g.nodeType;
    if (!g.nodeTemplate.empty()) grid["nodeTemplate"] = add(g.nodeTemplate);
    grid["nodes"] = g.nodes;
    grid["profiles"] = g.profiles;
    Json policies = Json::array();
    for (const auto& v : g.policies) {
        Json p = {{"name", v.name}};
        if (!v.schedulerConf.empty()) p["schedulerConf"] = add(v.schedulerConf);
        if (!v.profile.empty()) p["profile"] = v.profile;
        if (!v.settings.empty()) {
            Json set = Json::object();
            for (const auto& setting : v.settings) set[setting.key] = setting.value;
            p["set"] = set;
        }
        policies.push_back(p);
    }
    grid["policies"] = policies;
    grid["seeds"] = g.seeds;
    if (g.horizonSeconds) grid["horizon"] = *g.horizonSeconds;
    if (g.cycleSeconds) grid["cycle"] = *g.cycleSeconds;
    if (!g.slos.empty()) grid["slo"] = g.slos;
    files.insert(files.begin(),
                 {"grid.yaml", "# gantry sweep grid, written by gantry sweep --emit-job\n" + toYaml(grid)});
    return files;
}

int runSweep(const Args& args) {
    if (!args.empty() && args[0] == "merge") return runMerge(Args(args.begin() + 1, args.end()));
    if (!args.empty() && args[0] == "point") return runPoint(Args(args.begin() + 1, args.end()));
    std::string gridPath, outDir, image, ns, claim = "gantry-sweep-results", cpu = "1", memory = "2Gi";
    std::optional<uint64_t> jobs, parallelism;
    bool emitJob = false, json = false;
    const OptionTable table{
        .command = "sweep",
        .synopsis = kUsage,
        .about = "Runs a grid of what-ifs (profiles x policy variants x node counts x seeds, see\n"
                 "docs/planning.md) on this machine's cores, writing one file per point and the report\n"
                 "to DIR; or writes the Kubernetes Job that runs the same points on a cluster.\n"
                 "  gantry sweep point --grid FILE --out DIR   one point (what the Job's pods run)\n"
                 "  gantry sweep merge DIR                     the report from the points' files",
        .options = {
            {.names = {"--grid"},
             .metavar = "FILE",
             .value = Text{&gridPath},
             .help = "the grid (kind: SweepGrid)",
             .required = true},
            {.section = "Run here:",
             .names = {"--out"},
             .metavar = "DIR",
             .value = Text{&outDir},
             .help = "results folder: points/point-NNNNNN.json and report.json"},
            {.names = {"--jobs"},
             .metavar = "N",
             .value = Uint{&jobs},
             .help = "simulations at once (default: one per core)",
             .sign = Sign::Positive,
             .max = 1024},
            {.names = {"--json"}, .value = Switch{&json}, .help = "print the report instead of a table"},
            {.section = "Run on a Kubernetes cluster:",
             .names = {"--emit-job"},
             .value = Switch{&emitJob},
             .help = "print a ConfigMap (the grid and its files) and a batch/v1 Job in Indexed\n"
                     "completion mode whose pod i runs point i, validated first"},
            {.names = {"--image"},
             .metavar = "IMAGE",
             .value = Text{&image},
             .help = "a container image with gantry on its PATH"},
            {.names = {"--parallelism"},
             .metavar = "N",
             .value = Uint{&parallelism},
             .help = "pods at once (default 4)",
             .sign = Sign::Positive,
             .max = 100000},
            {.names = {"--results-claim"},
             .metavar = "NAME",
             .value = Text{&claim},
             .help = "PersistentVolumeClaim (ReadWriteMany) the pods write their points to\n"
                     "(default gantry-sweep-results); merge its points folder afterwards"},
            {.names = {"--namespace"},
             .metavar = "NS",
             .value = Text{&ns},
             .help = "namespace of the objects"},
            {.names = {"--pod-cpu"},
             .metavar = "Q",
             .value = Text{&cpu},
             .help = "each pod's CPU request (default 1)"},
            {.names = {"--pod-memory"},
             .metavar = "Q",
             .value = Text{&memory},
             .help = "each pod's memory request (default 2Gi)"},
        }};
    if (auto exit = parseCommandLine(table, args)) return *exit;
    if (emitJob == !outDir.empty())
        return usageError("sweep", "give --out DIR (run here) or --emit-job (not both)");
    if (emitJob && image.empty()) return usageError("sweep", "--emit-job needs --image IMAGE");

    std::unique_ptr<SweepRunner> runner;
    try {
        runner = std::make_unique<SweepRunner>(readSweepGridFile(gridPath));
        if (emitJob) {
            JobSpec spec;
            spec.name = runner->file().grid.name;
            spec.ns = ns;
            spec.image = image;
            spec.parallelism = int(parallelism.value_or(4));
            spec.resultsClaim = claim;
            spec.cpu = cpu;
            spec.memory = memory;
            spec.completions = runner->points().size();
            spec.files = jobFiles(*runner);
            const std::vector<Json> objects = sweepJobObjects(spec);
            ManifestValidator validator;
            for (size_t i = 0; i < objects.size(); ++i)
                validator.addDocument(objects[i], "sweep-job.yaml", int(i + 1));
            const Diagnostics problems = validator.run();
            printDiagnostics(problems);
            if (hasErrors(problems)) {
                std::cerr << "gantry sweep: the Job did not validate; nothing written\n";
                return RuntimeFailure;
            }
            std::cout << toYamlStream(objects);
            return Ok;
        }
        std::vector<size_t> all(runner->points().size());
        for (size_t i = 0; i < all.size(); ++i) all[i] = i;
        runner->prepare(all);
    } catch (const InputError& e) {
        printDiagnostics(e.all());
        return BadInput;
    } catch (const std::invalid_argument& e) {
        std::cerr << "gantry sweep: " << e.what() << '\n';
        return BadInput;
    }
    printDiagnostics(runner->warnings());
    try {
        // The folder's points are this run's: older point files would mix into the merge.
        if (fs::is_directory(fs::path(outDir) / "points"))
            for (const auto& e : fs::directory_iterator(fs::path(outDir) / "points"))
                if (e.path().filename().string().rfind("point-", 0) == 0 && e.path().extension() == ".json")
                    fs::remove(e.path());
        plan::runParallel(runner->points().size(), plan::threadCount(int(jobs.value_or(0))),
                          [&](size_t i) { writePoint(outDir, runner->header(), runner->run(i)); });
    } catch (const std::exception& e) {
        std::cerr << "gantry sweep: " << e.what() << '\n';
        return RuntimeFailure;
    }
    return merge(outDir, json);
}

const CommandRegistration reg{
    {"sweep", kUsage, "run a grid of what-ifs here or as a Kubernetes Job", runSweep}};

} // namespace

} // namespace gantry::cli
