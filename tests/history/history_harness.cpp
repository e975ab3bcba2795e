#include "history_harness.h"

#include "history/time_text.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>

namespace gantry::testing {

std::string prometheusMissing() {
    std::string missing;
    for (const char* p : {"prometheus", "promtool"})
        if (findProgram(p).empty()) missing += (missing.empty() ? "" : " and ") + std::string(p);
    if (missing.empty()) return {};
    return missing + " not installed: the history tests need a real Prometheus (Debian package prometheus; "
                     "scripts/install-deps.sh installs it)";
}

HistoryHarness::HistoryHarness(bool https, const std::vector<std::string>& extraArgs) {
    // A whole hour three days ago: the window lies wholly in the past.
    const double now = double(std::time(nullptr));
    const double start = std::floor(now / 3600) * 3600 - 3 * 86400;
    fixture = scenarioHistory(start);
    fixture.load(findProgram("promtool"), path("tsdb"), path("history.om"));
    caFile = path("pki/ca.crt");
    otherCaFile = path("pki/other-ca.crt");
    std::filesystem::create_directories(path("pki"));
    std::ofstream(caFile) << pki.ca().cert;
    std::ofstream(otherCaFile) << pki.otherCa().cert;
    std::ofstream(path("pki/server.crt")) << pki.server().cert;
    std::ofstream(path("pki/server.key")) << pki.server().key;
    std::filesystem::create_directories(path("out"));
    prometheus = another("prometheus", https, extraArgs);
}

std::unique_ptr<PrometheusServer> HistoryHarness::another(const std::string& name, bool https,
                                                          const std::vector<std::string>& extraArgs) const {
    PrometheusServer::Options options;
    if (https) {
        options.certFile = path("pki/server.crt");
        options.keyFile = path("pki/server.key");
    }
    options.extraArgs = extraArgs;
    return std::make_unique<PrometheusServer>(findProgram("prometheus"), path("tsdb"), path(name), options);
}

std::string HistoryHarness::path(const std::string& name) const {
    return dir.path().toStdString() + "/" + name;
}

QStringList HistoryHarness::window() const {
    return {"--start", QString::fromStdString(history::formatRfc3339(fixture.start)),
            "--end",   QString::fromStdString(history::formatRfc3339(fixture.end)),
            "--step",  "1m"};
}

Run runCli(const QStringList& args, int timeoutMs) {
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const char* v : {"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"})
        e.remove(v);
    p.setProcessEnvironment(e);
    QElapsedTimer timer;
    timer.start();
    p.start(GANTRY_CLI, args);
    p.waitForStarted();
    if (!p.waitForFinished(timeoutMs)) p.kill();
    p.waitForFinished(5000);
    Run run;
    run.seconds = double(timer.elapsed()) / 1000.0;
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    run.out = p.readAllStandardOutput().toStdString();
    run.err = p.readAllStandardError().toStdString();
    return run;
}

std::vector<std::string> errorLines(const std::string& err) {
    std::vector<std::string> lines;
    size_t pos = 0;
    while (pos < err.size()) {
        size_t end = err.find('\n', pos);
        std::string line = err.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        if (line.find("error") != std::string::npos) lines.push_back(line);
        if (end == std::string::npos) break;
        pos = end + 1;
    }
    return lines;
}

} // namespace gantry::testing
