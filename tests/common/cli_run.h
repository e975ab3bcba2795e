#pragma once
// Runs the real `gantry` binary (GANTRY_CLI) the way a user or a CI job would.
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <exception>
#include <nlohmann/json.hpp>

namespace gantry::test {

struct CliResult {
    int code = -1; // -1 when the process did not exit by itself (crash or timeout)
    QString out, err;
};

inline CliResult runGantry(const QStringList& args, int timeoutMs = 120000) {
    QProcess p;
    p.start(GANTRY_CLI, args);
    p.waitForFinished(timeoutMs);
    const bool exited = p.state() == QProcess::NotRunning && p.exitStatus() == QProcess::NormalExit;
    return {exited ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// A run whose standard output should be JSON: out is null, and err says why, when it is not.
struct JsonRun {
    int exitCode = -1;
    nlohmann::json out;
    QString err;
};

inline JsonRun runGantryJson(const QStringList& args, int timeoutMs = 120000) {
    const CliResult r = runGantry(args, timeoutMs);
    JsonRun run{r.code, nlohmann::json(), r.err};
    try {
        run.out = nlohmann::json::parse(r.out.toStdString());
    } catch (const std::exception& e) {
        run.err += QString("\nstdout is not JSON: ") + e.what() + "\n" + r.out;
    }
    return run;
}

// A JSON file (an expected.json); null when it cannot be opened, an exception when it is not JSON.
inline nlohmann::json readJsonFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return nlohmann::json();
    return nlohmann::json::parse(f.readAll().toStdString());
}

} // namespace gantry::test
