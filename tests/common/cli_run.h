#pragma once
// Runs the real `gantry` binary (GANTRY_CLI) the way a user or a CI job would.
#include <QProcess>
#include <QString>
#include <QStringList>

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

} // namespace gantry::test
