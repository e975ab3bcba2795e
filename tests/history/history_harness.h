#pragma once
// What the history tests share: the scenario history loaded into a real Prometheus (Debian's
// prometheus and promtool) on loopback, certificates for its HTTPS twin, and running the CLI.
#include "history_fixture.h"
#include "prometheus_server.h"
#include "test_pki.h"

#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <memory>
#include <string>

namespace gantry::testing {

// Why the tests cannot run here: "" when prometheus and promtool are installed.
std::string prometheusMissing();

class HistoryHarness {
  public:
    // Makes the scenario history, loads it with promtool and starts Prometheus (plain HTTP; with
    // `https`, HTTPS with a certificate of the harness' CA). Throws std::runtime_error.
    explicit HistoryHarness(bool https = false, const std::vector<std::string>& extraArgs = {});

    TestPki pki;
    QTemporaryDir dir;
    HistoryFixture fixture;
    std::unique_ptr<PrometheusServer> prometheus;
    std::string caFile, otherCaFile;

    std::string path(const std::string& name) const;
    // --start, --end and --step of the fixture's window.
    QStringList window() const;
    // Starts another Prometheus on the same TSDB (its own flags).
    std::unique_ptr<PrometheusServer> another(const std::string& name, bool https,
                                              const std::vector<std::string>& extraArgs) const;
};

struct Run {
    int exitCode = -1;
    std::string out, err;
    double seconds = 0;
};

// Runs `gantry ARGS` (GANTRY_CLI) with no proxy variables; gives up after `timeoutMs`.
Run runCli(const QStringList& args, int timeoutMs = 300000);

// The lines of stderr that report an error.
std::vector<std::string> errorLines(const std::string& err);

} // namespace gantry::testing
