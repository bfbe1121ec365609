// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Exposition text with timestamps from a real Prometheus 2.53 (Debian's prometheus,
// scraping itself every second), imported by the headroom binary: what /federate
// serves (Prometheus text, milliseconds) and a query_range answer written as
// OpenMetrics (seconds, # EOF). Every sample of the text must come out of --export-csv
// once, at its time, under its metric and labels, with its value.
#include "../engines/enginetestutil.h"
#include "../gui/commandtestutil.h"
#include "core/csvcell.h"
#include "core/series.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Headroom;
using namespace Headroom::Test;

namespace {

QString iso(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::UTC).toString(Qt::ISODateWithMs);
}

// An HTTP/1.1 chunked body joined.
QByteArray dechunked(const QByteArray &body)
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

// The rows --export-csv must hold for text: "time,metric,labels,value" of each sample,
// read here with a pattern of its own (not the reader under test).
QSet<QString> expectedRows(const QByteArray &text, bool secondsTimestamps, int *samples)
{
    static const QRegularExpression sampleLine(
        u"^([A-Za-z_:][A-Za-z0-9_:]*)(?:\\{(.*)\\})? (\\S+) (\\S+)$"_s);
    static const QRegularExpression labelPair(
        u"([A-Za-z_][A-Za-z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\""_s);
    QSet<QString> rows;
    *samples = 0;
    for (const auto textLines = text.split('\n'); const QByteArray &raw : textLines) {
        const QString line = QString::fromUtf8(raw);
        if (line.isEmpty() || line.startsWith(u'#'))
            continue;
        const QRegularExpressionMatch m = sampleLine.match(line);
        if (!m.hasMatch())
            continue;
        Labels labels;
        auto pairs = labelPair.globalMatch(m.captured(2));
        while (pairs.hasNext()) {
            const auto pair = pairs.next();
            QString value = pair.captured(2);
            value.replace(u"\\\""_s, u"\""_s)
                .replace(u"\\n"_s, u"\n"_s)
                .replace(u"\\\\"_s, u"\\"_s);
            labels.insert(pair.captured(1), value);
        }
        const qint64 ms = secondsTimestamps ? qRound64(m.captured(4).toDouble() * 1000)
                                            : m.captured(4).toLongLong();
        const QString valueText = m.captured(3);
        const double value = valueText == "+Inf"_L1 ? qInf()
            : valueText == "-Inf"_L1                ? -qInf()
                                                    : valueText.toDouble();
        rows << QStringList { iso(ms), m.captured(1), labelsToString(labels), csvNumber(value) }
                    .join(u'\x1f');
        ++*samples;
    }
    return rows;
}

// One CSV line's cells (quoted cells with "" inside).
QStringList csvCells(const QString &line)
{
    QStringList cells;
    QString cell;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (quoted && c == u'"' && i + 1 < line.size() && line.at(i + 1) == u'"') {
            cell += u'"';
            ++i;
        } else if (c == u'"') {
            quoted = !quoted;
        } else if (c == u',' && !quoted) {
            cells << cell;
            cell.clear();
        } else {
            cell += c;
        }
    }
    cells << cell;
    return cells;
}

// The export's series rows (not the USE matrix's) as "time,metric,labels,value".
QList<QString> exportedRows(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<QString> rows;
    const QList<QByteArray> lines = file.readAll().split('\n');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList cells = csvCells(QString::fromUtf8(lines.at(i).trimmed()));
        if (cells.size() != 7 || cells.at(1) == "use-matrix"_L1)
            continue;
        QString labels = cells.at(4);
        if (labels.startsWith(u'\''))
            labels.remove(0, 1); // csvText's guard against formulas
        rows << QStringList { cells.at(0), cells.at(3), labels, cells.at(5) }.join(u'\x1f');
    }
    return rows;
}

} // namespace

class TestImportPrometheus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void federatedTextComesOutSampleForSample();
    void queryRangeAsOpenMetricsComesOutSampleForSample();

private:
    void importAndCompare(const QByteArray &text, const QString &name, bool seconds);

    QTemporaryDir m_dir;
    std::unique_ptr<ScrapeEngine> m_prometheus;
    qint64 m_startMs = 0;
};

void TestImportPrometheus::initTestCase()
{
    m_startMs = QDateTime::currentMSecsSinceEpoch();
    m_prometheus
        = std::make_unique<ScrapeEngine>(ScrapeEngine::Kind::Prometheus, QStringList { u"self"_s });
    QString error;
    QVERIFY2(m_prometheus->waitReady(&error), qPrintable(error));
    // Until it holds a few scrapes of itself (polled, not slept).
    QElapsedTimer timer;
    timer.start();
    double scrapes = 0;
    while (timer.elapsed() < 60000) {
        scrapes = m_prometheus->queryOne(u"count_over_time(up[1m])"_s, &error);
        if (scrapes >= 5)
            break;
        QTest::qWait(250);
    }
    QVERIFY2(scrapes >= 5, qPrintable(error));
}

void TestImportPrometheus::importAndCompare(const QByteArray &text, const QString &name,
                                            bool seconds)
{
    const QString file = m_dir.filePath(name);
    {
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
    }
    int samples = 0;
    const QSet<QString> expected = expectedRows(text, seconds, &samples);
    QVERIFY2(samples > 20, text.left(2000).constData());
    const QString csv = m_dir.filePath(name + u".csv"_s);
    const CommandRun r
        = runCommand(headroomBinary(), { u"--import"_s, file, u"--export-csv"_s, csv },
                     QProcessEnvironment::systemEnvironment(), 180000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    QVERIFY2(r.stdErr.contains(u"OpenMetrics text"_s), qPrintable(r.stdErr));
    const QList<QString> rows = exportedRows(csv);
    const QSet<QString> seen(rows.cbegin(), rows.cend());
    QCOMPARE(rows.size(), samples); // each once
    const QSet<QString> missing = expected - seen, extra = seen - expected;
    QVERIFY2(missing.isEmpty() && extra.isEmpty(),
             qPrintable(u"missing %1, e.g. %2; extra %3, e.g. %4"_s.arg(missing.size())
                            .arg(missing.isEmpty() ? QString() : *missing.begin())
                            .arg(extra.size())
                            .arg(extra.isEmpty() ? QString() : *extra.begin())));
}

void TestImportPrometheus::federatedTextComesOutSampleForSample()
{
    const QByteArray response
        = httpGet(m_prometheus->port, "/federate?match%5B%5D=%7Bjob%3D~%22.%2B%22%7D");
    QByteArray text = bodyOf(response);
    if (response.toLower().contains("transfer-encoding: chunked"))
        text = dechunked(text);
    QVERIFY2(text.contains("prometheus_build_info{"), text.left(2000).constData());
    importAndCompare(text, u"federate.prom"_s, false);
}

void TestImportPrometheus::queryRangeAsOpenMetricsComesOutSampleForSample()
{
    // A few series over the run so far at 1 s steps, as promtool's backfill input.
    QString error;
    QUrlQuery query;
    query.addQueryItem(u"query"_s,
                       u"{__name__=~\"up|prometheus_http_requests_total|go_goroutines\"}"_s);
    query.addQueryItem(u"start"_s, QString::number(double(m_startMs) / 1000, 'f', 3));
    query.addQueryItem(u"end"_s,
                       QString::number(double(QDateTime::currentMSecsSinceEpoch()) / 1000, 'f', 3));
    query.addQueryItem(u"step"_s, u"1s"_s);
    const QJsonArray result
        = m_prometheus->api("query_range", query, &error).value(u"result"_s).toArray();
    QVERIFY2(!result.isEmpty(), qPrintable(error));
    QByteArray text = "# TYPE up gauge\n";
    for (const auto &series : result) {
        QJsonObject metric = series[u"metric"_s].toObject();
        const QString name = metric.take(u"__name__"_s).toString();
        QStringList labels;
        for (auto it = metric.begin(); it != metric.end(); ++it)
            labels << it.key() + u"=\""_s
                    + it.value().toString().replace(u"\\"_s, u"\\\\"_s).replace(u"\""_s, u"\\\""_s)
                    + u'"';
        for (const auto points = series[u"values"_s].toArray(); const auto &point : points) {
            const QJsonArray p = point.toArray();
            text += (name + u'{' + labels.join(u',') + u"} "_s + p.at(1).toString() + u' '
                     + QString::number(p.at(0).toDouble(), 'f', 3) + u'\n')
                        .toUtf8();
        }
    }
    text += "# EOF\n";
    importAndCompare(text, u"range.om"_s, true);
}

QTEST_GUILESS_MAIN(TestImportPrometheus)
#include "tst_importprometheus.moc"
