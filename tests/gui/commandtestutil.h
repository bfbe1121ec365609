// Runs the real headroom binary for the command tests: its exit code and stderr.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace Headroom::Test {

struct CommandRun
{
    int exitCode = -1; // -1: it crashed or timed out
    QString stdErr;
};

inline CommandRun runCommand(const QString &binary, const QStringList &args,
                             const QProcessEnvironment &env, int timeoutMs)
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(binary, args);
    CommandRun result;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.stdErr = QStringLiteral("timed out");
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.stdErr = QString::fromUtf8(process.readAllStandardError());
    return result;
}

} // namespace Headroom::Test
