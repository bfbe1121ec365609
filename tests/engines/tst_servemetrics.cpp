// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// `headroom --serve-metrics` as a service runs: the real binary collecting the shipped
// host dashboard and serving it, both formats by content negotiation, hostile and
// malformed requests answered without harm to the next scrape, a port in use or a bad
// address refused with the reason, an untrusted dashboard not acted on, and SIGTERM
// ending it cleanly (exit 0, as systemd expects of a stopped service).
#include "expositionparser.h"
#include "openmetricstestutil.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {
// The status line of a response ("HTTP/1.1 404 Not Found").
QByteArray statusOf(const QByteArray &response)
{
    return response.left(response.indexOf("\r\n"));
}

struct Finished
{
    int exitCode = -1;
    QString stderrText;
};

Finished runHeadroom(const QStringList &arguments)
{
    QProcess process;
    dieWithTest(&process);
    process.start(headroomBinary(), arguments);
    Finished finished;
    if (process.waitForFinished(30000))
        finished.exitCode = process.exitCode();
    finished.stderrText = QString::fromUtf8(process.readAllStandardError());
    return finished;
}
} // namespace

class TestServeMetrics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void servesTheHostDashboard()
    {
        ServedHeadroom served({ u"--no-cache"_s });
        QVERIFY2(served.port != 0, qPrintable(served.stderrText));
        QVERIFY2(!served.waitForSeries("headroom_host_cpu_utilization{").isEmpty(),
                 qPrintable(served.stderrText));

        const QByteArray openMetrics
            = httpGet(served.port, "/metrics",
                      "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5");
        QCOMPARE(statusOf(openMetrics), QByteArray("HTTP/1.1 200 OK"));
        QVERIFY(openMetrics.contains(
            "\r\nContent-Type: application/openmetrics-text; version=1.0.0; charset=utf-8\r\n"));
        const Exposition parsed
            = parseExposition(bodyOf(openMetrics), ExpositionFormat::OpenMetrics);
        QVERIFY2(parsed.skippedLines == 0, qPrintable(parsed.summary()));
        QVERIFY(!parsed.truncated);
        QVERIFY2(parsed.samples > 20, qPrintable(QString::number(parsed.samples)));
        bool sawCpu = false;
        for (const ExpositionFamily &family : parsed.families) {
            QVERIFY2(family.name.startsWith(u"headroom_"_s), qPrintable(family.name));
            for (const ExpositionSample &sample : family.samples) {
                const QString source = sample.labels.value(u"source"_s);
                QVERIFY2(source == u"host"_s || source == u"nic"_s, qPrintable(source));
                if (sample.name == u"headroom_host_cpu_utilization"_s
                    && sample.labels.value(u"cpu"_s) == u"all"_s) {
                    QVERIFY(sample.value >= 0 && sample.value <= 100);
                    sawCpu = true;
                }
            }
        }
        QVERIFY(sawCpu);

        const QByteArray text = httpGet(served.port, "/metrics");
        QVERIFY(text.contains("\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"));
        QVERIFY(!bodyOf(text).contains("# EOF"));
        QCOMPARE(parseExposition(bodyOf(text), ExpositionFormat::Text004).skippedLines, 0);

        const QByteArray head
            = httpExchange(served.port, "HEAD /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        QCOMPARE(statusOf(head), QByteArray("HTTP/1.1 200 OK"));
        QVERIFY(bodyOf(head).isEmpty());
        QCOMPARE(served.terminate(), 0);
        QVERIFY2(served.stderrText.contains(u"stopped after "_s), qPrintable(served.stderrText));
    }

    // The packaged systemd unit's command line, run as systemd would (its %S state
    // directory made), on a free port instead of 9187.
    void theServiceUnitsCommandServes()
    {
        QFile unit(u"" HEADROOM_SOURCE_DIR "/packaging/headroom-serve-metrics.service"_s);
        QVERIFY(unit.open(QIODevice::ReadOnly));
        QString execStart;
        for (const auto lines = unit.readAll().split('\n'); const QByteArray &line : lines) {
            if (line.startsWith("ExecStart="))
                execStart = QString::fromUtf8(line.mid(10));
        }
        QStringList arguments = execStart.split(u' ', Qt::SkipEmptyParts);
        QCOMPARE(arguments.value(0), u"/usr/bin/headroom"_s);
        QVERIFY(arguments.contains(u"127.0.0.1:9187"_s));
        QTemporaryDir state;
        QVERIFY(QDir(state.path()).mkpath(u"headroom"_s));
        arguments.removeFirst();
        for (QString &argument : arguments) {
            argument.replace(u"127.0.0.1:9187"_s, u"127.0.0.1:0"_s);
            argument.replace(u"%S"_s, state.path());
        }
        ServedHeadroom served(arguments);
        QVERIFY2(served.port != 0, qPrintable(served.stderrText));
        QVERIFY2(!served.waitForSeries("headroom_host_mem_utilization{").isEmpty(),
                 qPrintable(served.stderrText));
        QCOMPARE(served.terminate(), 0);
        const QFileInfo cache(state.filePath(u"headroom/cache.sqlite"_s));
        QVERIFY2(cache.exists() && cache.size() > 0, qPrintable(served.stderrText));
    }

    void hostileRequestsDoNoHarm()
    {
        ServedHeadroom served({ u"--no-cache"_s });
        QVERIFY2(served.port != 0, qPrintable(served.stderrText));
        const auto status = [&](const QByteArray &request) {
            return statusOf(httpExchange(served.port, request));
        };
        QCOMPARE(status(QByteArray("\x00\x01\x02garbage\r\n\r\n", 15)),
                 QByteArray("HTTP/1.1 400 Bad Request"));
        QCOMPARE(status("POST /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nbody"),
                 QByteArray("HTTP/1.1 405 Method Not Allowed"));
        QCOMPARE(status("GET /../../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
                 QByteArray("HTTP/1.1 404 Not Found"));
        QCOMPARE(status("GET /metrics HTTP/1.1\r\nX: " + QByteArray(20000, 'a') + "\r\n\r\n"),
                 QByteArray("HTTP/1.1 431 Request Header Fields Too Large"));
        // A client that never finishes its request is cut off, not waited for.
        QElapsedTimer slow;
        slow.start();
        QCOMPARE(status("GET /metrics HTTP/1.1\r\n"), QByteArray("HTTP/1.1 408 Request Timeout"));
        QVERIFY2(slow.elapsed() < 14000, qPrintable(QString::number(slow.elapsed())));
        // A flood of idle connections: the ones past the limit are refused at once.
        std::vector<std::unique_ptr<QTcpSocket>> idle;
        for (int i = 0; i < 40; ++i) {
            idle.push_back(std::make_unique<QTcpSocket>());
            idle.back()->connectToHost(QHostAddress::LocalHost, served.port);
            QVERIFY(idle.back()->waitForConnected(5000));
        }
        int refused = 0;
        for (auto &socket : idle) {
            if (socket->waitForReadyRead(300) && socket->readAll().startsWith("HTTP/1.1 503"))
                ++refused;
        }
        QCOMPARE(refused, 40 - 32);
        idle.clear();
        QTest::qWait(300);
        // The next scrape is served as if nothing had happened.
        QVERIFY(!served.waitForSeries("headroom_host_").isEmpty());
        QCOMPARE(served.terminate(), 0);
    }

    // A page in the user's browser that points a name of its own at 127.0.0.1 (DNS
    // rebinding) sends that name as Host: only the listening address, localhost and
    // names given with --serve-host are answered.
    void answersOnlyHostsNamingIt()
    {
        ServedHeadroom served({ u"--no-cache"_s, u"--serve-host"_s, u"metrics.example"_s });
        QVERIFY2(served.port != 0, qPrintable(served.stderrText));
        QVERIFY(!served.waitForSeries("headroom_host_").isEmpty());
        const QByteArray port = QByteArray::number(served.port);
        const auto get = [&](const QByteArray &hostLines) {
            return httpExchange(
                served.port, "GET /metrics HTTP/1.1\r\n" + hostLines + "Connection: close\r\n\r\n");
        };
        const QList<QByteArray> answered {
            QByteArray("127.0.0.1:") + port,       "127.0.0.1",
            QByteArray("localhost:") + port,       QByteArray("LocalHost:") + port,
            QByteArray("metrics.example:") + port, QByteArray("Metrics.Example:") + port
        };
        for (const QByteArray &host : answered) {
            const QByteArray response = get("Host: " + host + "\r\n");
            QVERIFY2(statusOf(response) == "HTTP/1.1 200 OK", host.constData());
            QVERIFY(bodyOf(response).contains("headroom_host_"));
        }
        const QList<QByteArray> refused { QByteArray("rebind.attacker.example:") + port,
                                          QByteArray("127.0.0.2:") + port,
                                          QByteArray("[::1]:") + port,
                                          QByteArray("metrics.example.attacker.example:") + port,
                                          "127.0.0.1.attacker.example",
                                          "localhost." };
        for (const QByteArray &host : refused) {
            const QByteArray response = get("Host: " + host + "\r\n");
            QVERIFY2(statusOf(response) == "HTTP/1.1 421 Misdirected Request", host.constData());
            QVERIFY2(!response.contains("headroom_"), host.constData());
        }
        QCOMPARE(statusOf(get({})), QByteArray("HTTP/1.1 400 Bad Request"));
        QCOMPARE(statusOf(get("Host: 127.0.0.1\r\nHost: rebind.attacker.example\r\n")),
                 QByteArray("HTTP/1.1 400 Bad Request"));
        QCOMPARE(served.terminate(), 0);

        Finished alone = runHeadroom({ u"--serve-host"_s, u"metrics.example"_s });
        QCOMPARE(alone.exitCode, 2);
        QVERIFY2(alone.stderrText.contains(u"--serve-metrics, which is not given"_s),
                 qPrintable(alone.stderrText));
        Finished bad = runHeadroom(
            { u"--serve-metrics"_s, u"127.0.0.1:0"_s, u"--serve-host"_s, u"metrics.example:80"_s });
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.stderrText.contains(u"--serve-host \"metrics.example:80\""_s),
                 qPrintable(bad.stderrText));
    }

    void refusesWhatItCannotDo()
    {
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost, 0));
        const QString address = u"127.0.0.1:%1"_s.arg(taken.serverPort());
        Finished inUse = runHeadroom({ u"--serve-metrics"_s, address, u"--no-cache"_s });
        QCOMPARE(inUse.exitCode, 4);
        QVERIFY2(inUse.stderrText.contains(u"--serve-metrics %1: cannot listen"_s.arg(address)),
                 qPrintable(inUse.stderrText));

        Finished name = runHeadroom({ u"--serve-metrics"_s, u"example.com:9187"_s });
        QCOMPARE(name.exitCode, 2);
        QVERIFY2(name.stderrText.contains(u"\"example.com\" is not an IP address"_s),
                 qPrintable(name.stderrText));
        Finished noPort = runHeadroom({ u"--serve-metrics"_s, u"127.0.0.1"_s });
        QCOMPARE(noPort.exitCode, 2);
        QVERIFY2(noPort.stderrText.contains(u"expected ADDRESS:PORT"_s),
                 qPrintable(noPort.stderrText));
        Finished combined = runHeadroom(
            { u"--serve-metrics"_s, u"127.0.0.1:0"_s, u"--export-csv"_s, u"/tmp/never.csv"_s });
        QCOMPARE(combined.exitCode, 2);
        QVERIFY(!QFile::exists(u"/tmp/never.csv"_s));

        // A mailed dashboard naming a server of its own is not acted on without --trust.
        QTemporaryDir dir;
        const QString mailed = dir.filePath(u"mailed.json"_s);
        QFile file(mailed);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"schemaVersion": 3, "title": "Mailed", "sources": [{"id": "pg",
            "plugin": "postgres", "config": {"conninfo": "host=db.example.com user=x"}}],
            "panels": []})");
        file.close();
        Finished untrusted = runHeadroom(
            { u"--serve-metrics"_s, u"127.0.0.1:0"_s, u"--no-cache"_s, u"--dashboard"_s, mailed });
        QCOMPARE(untrusted.exitCode, 2);
        QVERIFY2(untrusted.stderrText.contains(u"is not trusted"_s)
                     && untrusted.stderrText.contains(u"db.example.com"_s)
                     && !untrusted.stderrText.contains(u"serving"_s),
                 qPrintable(untrusted.stderrText));
    }
};

QTEST_GUILESS_MAIN(TestServeMetrics)
#include "tst_servemetrics.moc"
