// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Runs the real headroom binary for the command tests: its exit code and stderr.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <optional>

namespace Headroom::Test {

struct CommandRun
{
    int exitCode = -1; // -1: it crashed or timed out
    QString stdErr;
    QString stdOut;
};

// The environment for the binary's real xcb platform on the tests' Xvfb display
// (HEADROOM_TEST_DISPLAY, set by tests/run-tests); nullopt without one.
inline std::optional<QProcessEnvironment> xvfbEnvironment()
{
    const QString display = qEnvironmentVariable("HEADROOM_TEST_DISPLAY");
    if (display.isEmpty())
        return std::nullopt;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), display);
    env.remove(QStringLiteral("QT_QPA_PLATFORM")); // the real xcb platform, as users get it
    return env;
}

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
    result.stdOut = QString::fromUtf8(process.readAllStandardOutput());
    return result;
}

} // namespace Headroom::Test
