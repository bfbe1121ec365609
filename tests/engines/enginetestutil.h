// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Prometheus 2.53 and VictoriaMetrics 1.112 (Debian's packages prometheus and
// victoria-metrics) run for a test on free loopback ports with their own data
// directories, scraping the targets given every second; and their HTTP query API read
// back. A test fails, not skips, when one cannot start: a missing install step shows.
#pragma once

#include "openmetricstestutil.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QUrlQuery>

namespace Headroom::Test {

struct RangePoint
{
    qint64 tsMs = 0;
    double value = 0;
};

// A real node_exporter on a free loopback port with only the collectors given
// ("meminfo", "cpu"); its address ("127.0.0.1:PORT"), empty when it did not start.
inline QString startNodeExporter(QProcess *process, const QStringList &collectors)
{
    dieWithTest(process);
    const QString address = QStringLiteral("127.0.0.1:%1").arg(freeLoopbackPort());
    QStringList arguments { QStringLiteral("--web.listen-address=") + address,
                            QStringLiteral("--collector.disable-defaults") };
    for (const QString &collector : collectors)
        arguments << QStringLiteral("--collector.") + collector;
    process->start(QStringLiteral("/usr/bin/prometheus-node-exporter"), arguments);
    return process->waitForStarted(5000) ? address : QString();
}

class ScrapeEngine
{
public:
    enum class Kind
    {
        Prometheus,
        VictoriaMetrics
    };

    // A target "self" is the engine's own address; jobConfig (indented YAML lines) is
    // added to every scrape job.
    ScrapeEngine(Kind engine, const QStringList &targets, const QStringList &extraArguments = {},
                 const QByteArray &jobConfig = {})
        : kind(engine)
        , port(freeLoopbackPort())
    {
        QByteArray config = "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                            "scrape_configs:\n";
        for (qsizetype i = 0; i < targets.size(); ++i) {
            const QByteArray target = targets.at(i) == QStringLiteral("self")
                ? "127.0.0.1:" + QByteArray::number(port)
                : targets.at(i).toUtf8();
            config += "  - job_name: target" + QByteArray::number(i)
                + "\n    static_configs:\n      - targets: ['" + target + "']\n" + jobConfig;
        }
        QFile file(m_dir.filePath(QStringLiteral("scrape.yml")));
        if (!file.open(QIODevice::WriteOnly) || file.write(config) != config.size())
            return;
        file.close();
        const QString listen = QStringLiteral("127.0.0.1:%1").arg(port);
        const QString data = m_dir.filePath(QStringLiteral("data"));
        process.setProcessChannelMode(QProcess::MergedChannels);
        dieWithTest(&process);
        if (engine == Kind::Prometheus) {
            process.start(QStringLiteral("/usr/bin/prometheus"),
                          QStringList { QStringLiteral("--config.file=") + file.fileName(),
                                        QStringLiteral("--storage.tsdb.path=") + data,
                                        QStringLiteral("--web.listen-address=") + listen,
                                        QStringLiteral("--log.level=warn") }
                              + extraArguments);
        } else {
            // latencyOffset 0: by default the newest 30 s are not queried.
            process.start(QStringLiteral("/usr/bin/victoria-metrics"),
                          QStringList { QStringLiteral("-promscrape.config=") + file.fileName(),
                                        QStringLiteral("-storageDataPath=") + data,
                                        QStringLiteral("-httpListenAddr=") + listen,
                                        QStringLiteral("-search.latencyOffset=0s"),
                                        QStringLiteral("-search.disableCache"),
                                        QStringLiteral("-loggerLevel=ERROR") }
                              + extraArguments);
        }
    }
    ~ScrapeEngine()
    {
        process.kill();
        process.waitForFinished(5000);
    }

    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(port); }

    QString name() const
    {
        return kind == Kind::Prometheus ? QStringLiteral("Prometheus")
                                        : QStringLiteral("VictoriaMetrics");
    }

    // Waits for the engine's readiness endpoint; false (with its output) when it did
    // not come up within 30 s.
    bool waitReady(QString *error)
    {
        QElapsedTimer timer;
        timer.start();
        const QByteArray path = kind == Kind::Prometheus ? "/-/ready" : "/health";
        while (timer.elapsed() < 30000 && process.state() != QProcess::NotRunning) {
            // Up: it answers (401 where it asks for credentials).
            const QByteArray answer = httpGet(port, path);
            if (answer.startsWith("HTTP/1.1 200") || answer.startsWith("HTTP/1.1 401"))
                return true;
            QTest::qWait(250);
        }
        *error = name() + QStringLiteral(" did not start: ") + QString::fromUtf8(process.readAll());
        return false;
    }

    // GET /api/v1/<endpoint>?query; the "data" object, or empty with *error.
    QJsonObject api(const QByteArray &endpoint, const QUrlQuery &query, QString *error)
    {
        // QUrlQuery leaves '+' as it is, which the engine reads as a space ({le="+Inf"}).
        const QByteArray encoded
            = query.toString(QUrl::FullyEncoded).toLatin1().replace("+", "%2B");
        const QByteArray response
            = httpExchange(port,
                           "GET /api/v1/" + endpoint + '?' + encoded
                               + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        QByteArray body = bodyOf(response);
        // VictoriaMetrics answers chunked: take the JSON between the chunk sizes.
        if (response.toLower().contains("transfer-encoding: chunked"))
            body = dechunked(body);
        const QJsonObject root = QJsonDocument::fromJson(body).object();
        if (root.value(QStringLiteral("status")).toString() != QStringLiteral("success")) {
            *error = name() + QStringLiteral(": ") + QString::fromUtf8(response.left(2000));
            return {};
        }
        return root.value(QStringLiteral("data")).toObject();
    }

    // query_range, series by the value of label: its points.
    QMap<QString, QList<RangePoint>> queryRange(const QString &promql, const QString &label,
                                                qint64 fromMs, qint64 toMs, QString *error)
    {
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("query"), promql);
        query.addQueryItem(QStringLiteral("start"), QString::number(double(fromMs) / 1000, 'f', 3));
        query.addQueryItem(QStringLiteral("end"), QString::number(double(toMs) / 1000, 'f', 3));
        query.addQueryItem(QStringLiteral("step"), QStringLiteral("1s"));
        QMap<QString, QList<RangePoint>> out;
        const QJsonArray result
            = api("query_range", query, error).value(QStringLiteral("result")).toArray();
        for (const auto &series : result) {
            const QString key = series[QStringLiteral("metric")][label].toString();
            for (const auto allPoints = series[QStringLiteral("values")].toArray();
                 const auto &point : allPoints) {
                out[key].append(
                    { qint64(point[0].toDouble() * 1000), point[1].toString().toDouble() });
            }
        }
        return out;
    }

    // An instant query's single value (NaN when there is not exactly one series).
    double queryOne(const QString &promql, QString *error)
    {
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("query"), promql);
        const QJsonArray result
            = api("query", query, error).value(QStringLiteral("result")).toArray();
        if (result.size() != 1)
            return std::nan("");
        return result.at(0)[QStringLiteral("value")][1].toString().toDouble();
    }

    const Kind kind;
    const quint16 port;
    QProcess process;

private:
    static QByteArray dechunked(const QByteArray &body)
    {
        QByteArray out;
        qsizetype at = 0;
        while (at < body.size()) {
            const qsizetype lineEnd = body.indexOf("\r\n", at);
            if (lineEnd < 0)
                break;
            bool ok = false;
            const qsizetype size = body.mid(at, lineEnd - at).trimmed().toLongLong(&ok, 16);
            if (!ok || size == 0)
                break;
            out += body.mid(lineEnd + 2, size);
            at = lineEnd + 2 + size + 2;
        }
        return out;
    }

    QTemporaryDir m_dir;
};

} // namespace Headroom::Test
