// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Helpers of the --serve-metrics tests: the real headroom binary serving on a free
// loopback port, and plain blocking HTTP over QTcpSocket (fine in a test).
#pragma once

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <csignal>
#include <memory>
#include <sys/prctl.h>

namespace Headroom::Test {

inline quint16 freeLoopbackPort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

// Sends request as it is and returns everything the server answers until it closes
// (empty when nothing came within timeoutMs).
inline QByteArray httpExchange(quint16 port, const QByteArray &request, int timeoutMs = 15000)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(5000))
        return {};
    socket.write(request);
    socket.waitForBytesWritten(5000);
    QByteArray response;
    QElapsedTimer timer;
    timer.start();
    while (socket.state() == QAbstractSocket::ConnectedState && timer.elapsed() < timeoutMs) {
        socket.waitForReadyRead(200);
        response += socket.readAll();
    }
    return response + socket.readAll();
}

inline QByteArray httpGet(quint16 port, const QByteArray &path, const QByteArray &accept = {})
{
    QByteArray request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    if (!accept.isEmpty())
        request += "Accept: " + accept + "\r\n";
    return httpExchange(port, request + "\r\n");
}

// The body of an HTTP response (after the blank line).
inline QByteArray bodyOf(const QByteArray &response)
{
    const qsizetype at = response.indexOf("\r\n\r\n");
    return at < 0 ? QByteArray() : response.mid(at + 4);
}

inline QString headroomBinary()
{
    return QStringLiteral(HEADROOM_BUILD_DIR "/bin/headroom");
}

// The child gets SIGKILL when the test process dies, so a failed test leaves no server.
inline void dieWithTest(QProcess *process)
{
    process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
}

// `headroom --serve-metrics 127.0.0.1:0 ARGS...` (or `headroom ARGS...` where they hold
// --serve-metrics already), with the port it printed.
class ServedHeadroom
{
public:
    explicit ServedHeadroom(const QStringList &arguments)
    {
        dieWithTest(&process);
        process.start(
            headroomBinary(),
            arguments.contains(QStringLiteral("--serve-metrics"))
                ? arguments
                : QStringList { QStringLiteral("--serve-metrics"), QStringLiteral("127.0.0.1:0") }
                    + arguments);
        static const QRegularExpression served(
            QStringLiteral("at http://127\\.0\\.0\\.1:(\\d+)/metrics"));
        QElapsedTimer timer;
        timer.start();
        while (port == 0 && process.state() != QProcess::NotRunning && timer.elapsed() < 30000) {
            process.waitForReadyRead(200);
            stderrText += QString::fromUtf8(process.readAllStandardError());
            if (const auto match = served.match(stderrText); match.hasMatch())
                port = quint16(match.captured(1).toUInt());
        }
    }
    ~ServedHeadroom()
    {
        process.kill();
        process.waitForFinished(5000);
    }
    // SIGTERM, as systemd stops it; the exit code, or -1 when it did not end in 10 s.
    int terminate()
    {
        ::kill(pid_t(process.processId()), SIGTERM);
        if (!process.waitForFinished(10000))
            return -1;
        stderrText += QString::fromUtf8(process.readAllStandardError());
        return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    }
    // Waits until /metrics holds text (a collector has polled); the body, or empty.
    QByteArray waitForSeries(const QByteArray &text, int timeoutMs = 20000)
    {
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < timeoutMs) {
            const QByteArray body = bodyOf(httpGet(port, "/metrics"));
            if (body.contains(text))
                return body;
            QTest::qWait(250);
        }
        return {};
    }

    QProcess process;
    QString stderrText;
    quint16 port = 0;
};

} // namespace Headroom::Test
