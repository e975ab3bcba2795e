// gantry import: read a running cluster through its API server into a snapshot file.
#include "command.h"
#include "diagnostics_printer.h"
#include "input_error.h"
#include "live/live_error.h"
#include "live/live_import.h"
#include "live/live_snapshot_file.h"
#include "options.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
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

int runImport(const Args& args) {
    live::ConnectRequest request;
    std::string out;
    bool quiet = false;
    live::ImportOptions options;
    std::optional<double> requestTimeout, connectTimeout;
    std::optional<int64_t> pageSize;
    const OptionTable table{
        .command = kName,
        .about = "Reads a running cluster through its API server (as kubectl would: --kubeconfig, else\n"
                 "KUBECONFIG, else ~/.kube/config, else the pod's service account) and writes a snapshot:\n"
                 "nodes, pods that have not finished, namespaces, priority classes, and Volcano, Kueue and\n"
                 "YuniKorn objects when installed. No managedFields, Secrets or credentials are written.",
        .options = {
            {.names = {"--kubeconfig"},
             .metavar = "FILE",
             .value = Text{&request.kubeconfig},
             .help = "kubeconfig to use (only this file)"},
            {.names = {"--context"},
             .metavar = "NAME",
             .value = Text{&request.context},
             .help = "context to use instead of current-context"},
            {.names = {"--out", "-o"},
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
            {.names = {"--page-size"},
             .metavar = "N",
             .value = Int{&pageSize},
             .help = "objects per list page (default 500, as kubectl)",
             .sign = Sign::Positive,
             .max = std::numeric_limits<int>::max()},
            {.names = {"--quiet", "-q"}, .value = Switch{&quiet}, .help = "no progress on stderr"},
        }};
    if (auto exit = parseCommandLine(table, args)) return *exit;
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
        std::cerr << "gantry import: error: " << e.what() << '\n';
        return e.kind() == live::FailureKind::Config ? BadInput : RuntimeFailure;
    } catch (const std::exception& e) {
        std::signal(SIGINT, previous);
        printer.endLine();
        std::cerr << "gantry import: error: " << e.what() << '\n';
        return RuntimeFailure;
    }
}

const CommandRegistration registration{{kName, "[--kubeconfig FILE] [--context NAME] --out FILE",
                                        "read a running cluster into a snapshot", runImport}};

} // namespace

} // namespace gantry::cli
