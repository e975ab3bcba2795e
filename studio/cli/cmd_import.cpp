// gantry import: read a running cluster through its API server into a snapshot file, or a window of
// its past from Prometheus (--prometheus) into a snapshot of what-if jobs.
#include "command.h"
#include "diagnostics_printer.h"
#include "history/history_import.h"
#include "history/time_text.h"
#include "input_error.h"
#include "live/live_error.h"
#include "live/live_import.h"
#include "live/live_snapshot_file.h"
#include "options.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <limits>
#include <unistd.h>

namespace gantry::cli {

namespace {

constexpr const char* kName = "import";

std::atomic<bool> interrupted{false};

extern "C" void onInterrupt(int) {
    interrupted.store(true);
    std::signal(SIGINT, SIG_DFL); // a second Ctrl-C ends the process at once
}

std::string withThousands(size_t n) {
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// Progress on stderr: one refreshed line on a terminal, a line per finished list (and every 10,000
// objects of a long one) in a log.
class ProgressPrinter {
  public:
    explicit ProgressPrinter(bool quiet) : quiet_(quiet), tty_(::isatty(2) == 1) {}

    void update(const live::ImportProgress& p) {
        if (quiet_) return;
        std::string line = p.list + ": " + withThousands(p.listRead);
        if (p.listExpected) line += " of " + withThousands(*p.listExpected);
        line += " (" + withThousands(p.totalRead) + " objects in all)";
        auto now = std::chrono::steady_clock::now();
        if (tty_) {
            if (now - last_ < std::chrono::milliseconds(100) && p.list == list_) return;
            std::string padded = "\rgantry import: " + line;
            if (padded.size() < width_) padded += std::string(width_ - padded.size(), ' ');
            width_ = padded.size();
            std::cerr << padded << std::flush;
        } else {
            if (p.list != list_) milestone_ = 0;
            if (p.listRead / 10000 > milestone_) {
                milestone_ = p.listRead / 10000;
                std::cerr << "gantry import: " << line << '\n';
            }
        }
        list_ = p.list;
        last_ = now;
    }
    void endLine() {
        if (!quiet_ && tty_ && width_ > 0) std::cerr << '\n';
        width_ = 0;
    }

  private:
    bool quiet_, tty_;
    std::string list_;
    size_t width_ = 0, milestone_ = 0;
    std::chrono::steady_clock::time_point last_{};
};

// Progress of a history import: one refreshed line on a terminal, a line per tenth of the chunks in
// a log.
class HistoryProgressPrinter {
  public:
    explicit HistoryProgressPrinter(bool quiet) : quiet_(quiet), tty_(::isatty(2) == 1) {}

    void update(const history::ReadProgress& p) {
        if (quiet_ || p.chunks == 0) return;
        std::string when = history::formatRfc3339(p.chunkStart).substr(0, 16);
        when[10] = ' ';
        const std::string counts = withThousands(p.pods) + " pods, " + withThousands(p.nodes) + " nodes, " +
                                   withThousands(size_t(p.queries)) + " queries";
        std::string line = p.done ? "read " + std::to_string(p.chunks) + " chunks: " + counts
                                  : "chunk " + std::to_string(p.chunk + 1) + " of " +
                                        std::to_string(p.chunks) + " (from " + when + "): " + counts;
        if (tty_) {
            std::string padded = "\rgantry import: " + line;
            if (padded.size() < width_) padded += std::string(width_ - padded.size(), ' ');
            width_ = padded.size();
            std::cerr << padded << std::flush;
        } else if (p.done || p.chunk == 0 || p.chunk * 10 / p.chunks > tenth_) {
            // A line at the start, at each tenth of the chunks and at the end.
            if (p.chunk == 0 && started_) return;
            tenth_ = p.chunk * 10 / p.chunks;
            started_ = true;
            std::cerr << "gantry import: " << line << '\n';
        }
    }
    void endLine() {
        if (!quiet_ && tty_ && width_ > 0) std::cerr << '\n';
        width_ = 0;
    }

  private:
    bool quiet_, tty_;
    size_t width_ = 0;
    int tenth_ = 0;
    bool started_ = false;
};

struct HistoryFlags {
    std::string url, since, start, end, step, tokenFile, caFile;
    bool any() const {
        return !since.empty() || !start.empty() || !end.empty() || !step.empty() || !tokenFile.empty() ||
               !caFile.empty();
    }
};

// The window and step of --since / --start --end / --step; false (after the message) when wrong.
bool historyWindow(const HistoryFlags& f, history::HistoryRequest& r, int* exit) {
    auto bad = [&](const std::string& message) {
        std::cerr << "gantry import: error: " << message << '\n';
        *exit = BadInput;
        return false;
    };
    const double now = std::floor(double(std::time(nullptr)));
    if (!f.since.empty() && (!f.start.empty() || !f.end.empty())) {
        *exit = usageError(kName, "give either --since or --start and --end, not both");
        return false;
    }
    if (f.start.empty() != f.end.empty()) {
        *exit = usageError(kName, "--start and --end go together (or use --since)");
        return false;
    }
    if (!f.start.empty()) {
        auto start = history::parseRfc3339(f.start);
        if (!start)
            return bad("--start '" + f.start + "' is not an RFC 3339 time (e.g. 2026-10-01T00:00:00Z)");
        auto end = history::parseRfc3339(f.end);
        if (!end) return bad("--end '" + f.end + "' is not an RFC 3339 time (e.g. 2026-10-31T00:00:00Z)");
        if (*end <= *start) return bad("--end " + f.end + " is not after --start " + f.start);
        if (*start >= now) return bad("--start " + f.start + " is in the future: there is no history yet");
        r.start = std::floor(*start);
        r.end = std::floor(std::min(*end, now));
    } else {
        const std::string since = f.since.empty() ? "24h" : f.since;
        auto span = history::parseSpan(since);
        if (!span || *span < 1)
            return bad("--since '" + since + "' is not a duration of a second or more (e.g. 6h, 7d, 30d)");
        r.end = now;
        r.start = std::floor(now - *span);
    }
    if (!f.step.empty()) {
        auto step = history::parseSpan(f.step);
        if (!step || *step < 1)
            return bad("--step '" + f.step + "' is not a duration of a second or more (e.g. 30s, 1m)");
        r.step = *step;
    }
    if (r.step > r.end - r.start)
        return bad("--step " + history::formatSpan(r.step) + " is longer than the window (" +
                   history::formatSpan(r.end - r.start) + ")");
    return true;
}

int runHistoryImport(const HistoryFlags& flags, const std::string& out, bool quiet,
                     std::optional<double> requestTimeout, std::optional<double> connectTimeout) {
    history::HistoryRequest request;
    request.endpoint = {flags.url, flags.tokenFile, flags.caFile};
    int exit = Ok;
    if (!historyWindow(flags, request, &exit)) return exit;
    history::ImportOptions options;
    if (requestTimeout) options.timeouts.requestSeconds = *requestTimeout;
    if (connectTimeout) options.timeouts.connectSeconds = *connectTimeout;
    try {
        history::connectionFor(request.endpoint); // the URL and files, before anything is started
    } catch (const live::LiveError& e) {
        std::cerr << "gantry import: error: " << live::failureMessage(e) << '\n';
        return BadInput;
    }
    if (!quiet)
        std::cerr << "gantry import: reading " << history::formatRfc3339(request.start) << " .. "
                  << history::formatRfc3339(request.end) << " ("
                  << history::formatSpan(request.end - request.start) << ", step "
                  << history::formatSpan(request.step) << ") from Prometheus at "
                  << history::connectionFor(request.endpoint).server << '\n';
    interrupted.store(false);
    auto previous = std::signal(SIGINT, onInterrupt);
    options.cancel = &interrupted;
    HistoryProgressPrinter printer(quiet);
    options.progress = [&](const history::ReadProgress& p) { printer.update(p); };
    auto started = std::chrono::steady_clock::now();
    try {
        LiveSnapshotFile file(out);
        history::HistorySummary s = history::importHistory(request, file, options);
        file.commit();
        std::signal(SIGINT, previous);
        printer.endLine();
        double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        for (const auto& note : s.notes) std::cerr << "gantry import: note: " << note << '\n';
        for (const auto& w : s.warnings) std::cerr << "gantry import: warning: " << w << '\n';
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.1f", elapsed);
        // Whole GPUs with thousands separators; shares of a GPU to a tenth.
        char share[32];
        std::snprintf(share, sizeof share, "%.1f", double(s.gpuMilli) / 1000);
        const std::string gpus =
            s.gpuMilli % 1000 == 0 ? history::withThousands(int64_t(s.gpuMilli / 1000)) : std::string(share);
        std::cerr << "gantry import: wrote " << out << ": " << withThousands(s.nodes) << " nodes, "
                  << withThousands(s.jobs) << " jobs (" << history::withThousands(s.pods) << " pods, " << gpus
                  << " GPUs requested)";
        if (s.runningPods)
            std::cerr << ", " << withThousands(s.runningPods) << " running pods of earlier jobs";
        std::cerr << " (" << s.queries << " queries in " << seconds << " s)\n";
        return Ok;
    } catch (const live::LiveError& e) {
        std::signal(SIGINT, previous);
        printer.endLine();
        if (e.kind() == live::FailureKind::Cancelled) {
            std::cerr << "gantry import: cancelled; " << out << " was not written\n";
            return RuntimeFailure;
        }
        std::cerr << "gantry import: error: " << live::failureMessage(e) << '\n';
        return e.kind() == live::FailureKind::Config ? BadInput : RuntimeFailure;
    } catch (const std::exception& e) {
        std::signal(SIGINT, previous);
        printer.endLine();
        std::cerr << "gantry import: error: " << live::failureMessage(e) << '\n';
        return RuntimeFailure;
    }
}

int runImport(const Args& args) {
    live::ConnectRequest request;
    std::string out;
    bool quiet = false;
    live::ImportOptions options;
    std::optional<double> requestTimeout, connectTimeout;
    std::optional<int64_t> pageSize;
    HistoryFlags history;
    const OptionTable table{
        .command = kName,
        .synopsis =
            "[--kubeconfig FILE] [--context NAME] --out FILE\n"
            "       gantry import --prometheus URL [--since DURATION | --start RFC3339 --end RFC3339]\n"
            "              [--step DURATION] [--bearer-token-file FILE] [--ca-file FILE] --out FILE",
        .about = "Reads a running cluster through its API server (as kubectl would: --kubeconfig, else\n"
                 "KUBECONFIG, else ~/.kube/config, else the pod's service account) and writes a snapshot:\n"
                 "nodes, pods that have not finished, namespaces, priority classes, and Volcano, Kueue and\n"
                 "YuniKorn objects when installed. No managedFields, Secrets or credentials are written.\n"
                 "\n"
                 "With --prometheus, reads a past window of the cluster from Prometheus instead (the\n"
                 "kube-state-metrics series) and writes the nodes and the jobs created in the window as\n"
                 "what-if jobs with their arrivals and durations: gantry simulate replays them.",
        .options = {
            {.section = "Kubernetes API server:",
             .names = {"--kubeconfig"},
             .metavar = "FILE",
             .value = Text{&request.kubeconfig},
             .help = "kubeconfig to use (only this file)"},
            {.names = {"--context"},
             .metavar = "NAME",
             .value = Text{&request.context},
             .help = "context to use instead of current-context"},
            {.names = {"--page-size"},
             .metavar = "N",
             .value = Int{&pageSize},
             .help = "objects per list page (default 500, as kubectl)",
             .sign = Sign::Positive,
             .max = std::numeric_limits<int>::max()},
            {.section = "Prometheus (the cluster's history):",
             .names = {"--prometheus"},
             .metavar = "URL",
             .value = Text{&history.url},
             .help = "Prometheus's address (https://host:9090[/prefix]): read history from it"},
            {.names = {"--since"},
             .metavar = "DURATION",
             .value = Text{&history.since},
             .help = "the window: the last DURATION (default 24h; 90m, 7d, 30d)"},
            {.names = {"--start"},
             .metavar = "RFC3339",
             .value = Text{&history.start},
             .help = "the window's start (2026-10-01T00:00:00Z), with --end"},
            {.names = {"--end"},
             .metavar = "RFC3339",
             .value = Text{&history.end},
             .help = "the window's end"},
            {.names = {"--step"},
             .metavar = "DURATION",
             .value = Text{&history.step},
             .help = "resolution of when pods were last seen (default 1m; at least the\n"
                     "scrape interval of kube-state-metrics)"},
            {.names = {"--bearer-token-file"},
             .metavar = "FILE",
             .value = Text{&history.tokenFile},
             .help = "send the token in FILE (https only), as kubectl's tokenFile"},
            {.names = {"--ca-file"},
             .metavar = "FILE",
             .value = Text{&history.caFile},
             .help = "trust only this CA (PEM) for Prometheus's certificate"},
            {.section = "Either way:",
             .names = {"--out", "-o"},
             .metavar = "FILE",
             .value = Text{&out},
             .help = "snapshot to write (multi-document YAML), atomically",
             .required = true},
            {.names = {"--request-timeout"},
             .metavar = "SECS",
             .value = Duration{&requestTimeout},
             .help = "give up on a request after this long (default 60; or a duration: 90s, 2m)",
             .sign = Sign::Positive},
            {.names = {"--connect-timeout"},
             .metavar = "SECS",
             .value = Duration{&connectTimeout},
             .help = "give up connecting after this long (default 10; or a duration: 30s, 1m)",
             .sign = Sign::Positive},
            {.names = {"--quiet", "-q"}, .value = Switch{&quiet}, .help = "no progress on stderr"},
        }};
    if (auto exit = parseCommandLine(table, args)) return *exit;
    if (!history.url.empty()) {
        if (!request.kubeconfig.empty() || !request.context.empty() || pageSize)
            return usageError(
                kName, "--kubeconfig, --context and --page-size are for the API server, not --prometheus");
        return runHistoryImport(history, out, quiet, requestTimeout, connectTimeout);
    }
    if (history.any())
        return usageError(
            kName,
            "--since, --start, --end, --step, --bearer-token-file and --ca-file need --prometheus URL");
    if (requestTimeout) options.timeouts.requestSeconds = options.timeouts.execSeconds = *requestTimeout;
    if (connectTimeout) options.timeouts.connectSeconds = *connectTimeout;
    if (pageSize) options.pageSize = int(*pageSize);

    live::Connection connection;
    try {
        connection = live::resolveConnection(request, live::Environment::fromProcess());
    } catch (const InputError& e) {
        printDiagnostics(e.all(), {.prefix = "gantry import: "});
        return BadInput;
    }
    for (const auto& w : connection.warnings) std::cerr << "gantry import: warning: " << w << '\n';
    if (!quiet)
        std::cerr << "gantry import: reading " << connection.server << " as " << connection.describeUser()
                  << '\n';

    interrupted.store(false);
    auto previous = std::signal(SIGINT, onInterrupt);
    options.cancel = &interrupted;
    ProgressPrinter printer(quiet);
    options.progress = [&](const live::ImportProgress& p) { printer.update(p); };
    auto started = std::chrono::steady_clock::now();
    try {
        LiveSnapshotFile file(out);
        live::ImportSummary summary = live::importCluster(connection, file, options);
        file.commit();
        std::signal(SIGINT, previous);
        printer.endLine();
        double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        for (const auto& note : summary.notes) std::cerr << "gantry import: note: " << note << '\n';
        for (const auto& m : summary.missing) std::cerr << "gantry import: warning: " << m << '\n';
        std::string counts;
        for (const auto& list : summary.lists) {
            if (list.objects == 0) continue;
            if (!counts.empty()) counts += ", ";
            counts += withThousands(list.objects) + " " + list.list;
            if (list.restarts) counts += " (restarted " + std::to_string(list.restarts) + "x after 410 Gone)";
        }
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.1f", elapsed);
        std::cerr << "gantry import: wrote " << out << ": "
                  << (counts.empty() ? std::string("no objects") : counts) << " ("
                  << withThousands(summary.objects) << " objects in " << seconds << " s)\n";
        return Ok;
    } catch (const live::LiveError& e) {
        std::signal(SIGINT, previous);
        printer.endLine();
        if (e.kind() == live::FailureKind::Cancelled) {
            std::cerr << "gantry import: cancelled; " << out << " was not written\n";
            return RuntimeFailure;
        }
        std::cerr << "gantry import: error: " << live::failureMessage(e) << '\n';
        return e.kind() == live::FailureKind::Config ? BadInput : RuntimeFailure;
    } catch (const std::exception& e) {
        std::signal(SIGINT, previous);
        printer.endLine();
        std::cerr << "gantry import: error: " << live::failureMessage(e) << '\n';
        return RuntimeFailure;
    }
}

const CommandRegistration registration{
    {kName, "[--kubeconfig FILE] [--context NAME] | --prometheus URL [--since D] ... --out FILE",
     "read a running cluster, or its history from Prometheus, into a snapshot", runImport}};

} // namespace

} // namespace gantry::cli
