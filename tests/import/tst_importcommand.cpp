// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The headroom binary on imported files (--import): its own --export-csv comes back
// byte for byte (also through --save-recording), with nothing written beside the file
// and every export working; a Grafana-style wide CSV with labels in its headers shows
// every sample under its series; a malformed file is refused with its line; and in
// synthetic service metrics with one fault injected per case, imported with a map, the
// faulty service is the first finding, since the injection.
#include "../cache/cachetestutil.h"
#include "../gui/commandtestutil.h"
#include "core/csvcell.h"

#include <QDateTime>
#include <QDir>
#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace Qt::StringLiterals;
using namespace Headroom;
using Headroom::Test::runCommand;

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QString iso(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::UTC).toString(Qt::ISODateWithMs);
}

// One CSV line's cells (quoted cells with "" inside; no line breaks in them here).
QStringList csvCells(const QString &line)
{
    QStringList cells;
    QString cell;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (quoted) {
            if (c == u'"' && i + 1 < line.size() && line.at(i + 1) == u'"') {
                cell += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            cells << cell;
            cell.clear();
        } else {
            cell += c;
        }
    }
    cells << cell;
    return cells;
}

// The findings CSV's rows after the header.
QList<QStringList> findingRows(const QString &path)
{
    QList<QStringList> rows;
    const QList<QByteArray> lines = readAll(path).split('\n');
    for (qsizetype i = 1; i < lines.size(); ++i)
        if (!lines.at(i).trimmed().isEmpty())
            rows << csvCells(QString::fromUtf8(lines.at(i).trimmed()));
    return rows;
}

} // namespace

class TestImportCommand : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void exportComesBackByteForByte();
    void grafanaCsvWithLabelsInHeaders();
    void malformedFileIsRefusedWithItsLine();
    void injectedFaultIsTheFirstFinding_data();
    void injectedFaultIsTheFirstFinding();

private:
    Test::CommandRun headroom(const QStringList &args)
    {
        return runCommand(m_binary, args, QProcessEnvironment::systemEnvironment(), 180000);
    }

    QTemporaryDir m_dir;
    QString m_binary, m_dashboard, m_recording;
};

void TestImportCommand::initTestCase()
{
    m_binary = QStringLiteral(HEADROOM_BUILD_DIR "/bin/headroom");
    QVERIFY2(QFile::exists(m_binary), qPrintable(m_binary));
    // Time series of two sources (one of them twice, in two panels), a USE matrix over
    // everything: each panel type's rows go into the CSV.
    m_dashboard = m_dir.filePath(u"mixed.json"_s);
    QVERIFY(writeFile(m_dashboard, R"({
        "schemaVersion": 3, "title": "Mixed",
        "sources": [ { "id": "host", "plugin": "host", "intervalMs": 1000 },
                     { "id": "web", "plugin": "host", "intervalMs": 1000 } ],
        "timeRange": "15m",
        "panels": [
            { "id": "use", "type": "usematrix", "title": "USE",
              "series": [ { "source": "*", "metric": "*" } ],
              "layout": { "x": 0, "y": 0, "w": 12, "h": 4 } },
            { "id": "cpu", "type": "timeseries", "title": "CPU",
              "series": [ { "source": "host", "metric": "host.cpu.*" } ],
              "layout": { "x": 0, "y": 4, "w": 6, "h": 4 } },
            { "id": "all", "type": "timeseries", "title": "All",
              "series": [ { "source": "*", "metric": "*" } ],
              "layout": { "x": 6, "y": 4, "w": 6, "h": 4 } }
        ]
    })"));
    // Ten minutes at 1 s with odd values: fractions, negatives, large and tiny
    // numbers, a NaN, labels with commas and quotes, a formula-like label value.
    m_recording = m_dir.filePath(u"incident.sqlite"_s);
    SeriesRegistry registry;
    CacheOptions options;
    options.retentionDays = 0;
    options.reserveBytes = 0;
    QString error;
    auto cache = SampleCache::open(m_recording, &registry, &error, options);
    QVERIFY2(cache, qPrintable(error));
    SeriesInfo cpu = CacheTest::gauge(u"host.cpu.utilization"_s);
    // As the catalogue has it: a CSV carries the unit, not the kind or the resource.
    SeriesInfo mem = CacheTest::gauge(u"host.mem.available"_s);
    mem.unit = u"B"_s;
    mem.resource = u"memory"_s;
    mem.kind = UseKind::Info;
    mem.key.labels = { { u"note"_s, u"a,b \"c\""_s }, { u"x"_s, u"=1+1"_s } };
    SeriesInfo web = CacheTest::gauge(u"web.requests"_s);
    web.key.source = u"web"_s;
    web.unit = u"1/s"_s;
    web.kind = UseKind::Info;
    web.resource.clear();
    const qint64 start = (QDateTime::currentMSecsSinceEpoch() - 3600 * 1000) / 1000 * 1000;
    for (int i = 0; i < 600; ++i) {
        const double v = i == 17 ? qQNaN() : 12.5 + (i % 37) * 0.1 - (i % 5) * 1e-3;
        cache->consume(
            CacheTest::valuesAt(registry, start + i * 1000LL,
                                { { cpu, v }, { mem, 8e9 + i * 4096.5 }, { web, -1e-7 * i } }));
    }
    cache.reset();
}

void TestImportCommand::exportComesBackByteForByte()
{
    const QString first = m_dir.filePath(u"first.csv"_s);
    auto r = headroom(
        { u"--recording"_s, m_recording, u"--dashboard"_s, m_dashboard, u"--export-csv"_s, first });
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    const QByteArray original = readAll(first);
    QVERIFY(original.count('\n') > 3 * 600);

    // The import's folder holds the CSV alone before and after: nothing beside it.
    const QString importDir = m_dir.filePath(u"in"_s);
    QVERIFY(QDir().mkpath(importDir));
    const QString imported = importDir + u"/first.csv"_s;
    QVERIFY(QFile::copy(first, imported));
    const QStringList before = CacheTest::directorySnapshot(importDir);

    const QString second = m_dir.filePath(u"second.csv"_s);
    const QString saved = m_dir.filePath(u"saved.sqlite"_s);
    const QString png = m_dir.filePath(u"import.png"_s);
    const QString findings = m_dir.filePath(u"findings.csv"_s);
    const QString report = m_dir.filePath(u"report.html"_s);
    r = headroom({ u"--import"_s, imported, u"--dashboard"_s, m_dashboard, u"--export-csv"_s,
                   second, u"--save-recording"_s, saved, u"--export-png"_s, png,
                   u"--export-findings"_s, findings, u"--export-report"_s, report });
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    // The three series and the USE matrix's rows of two of them (its view rows).
    QVERIFY2(r.stdErr.contains(u"imported: long CSV, "_s), qPrintable(r.stdErr));
    QCOMPARE(CacheTest::directorySnapshot(importDir), before);
    const QByteArray again = readAll(second);
    if (again != original) {
        const QList<QByteArray> a = original.split('\n'), b = again.split('\n');
        for (qsizetype i = 0; i < std::min(a.size(), b.size()); ++i)
            QVERIFY2(a.at(i) == b.at(i),
                     qPrintable(u"line %1: %2 | %3"_s.arg(i + 1).arg(QString::fromUtf8(a.at(i)),
                                                                     QString::fromUtf8(b.at(i)))));
        QCOMPARE(b.size(), a.size());
    }
    for (const QString &file : { png, findings, report })
        QVERIFY2(QFileInfo(file).size() > 0, qPrintable(file));

    // The recording it saved opens elsewhere and exports the same CSV again.
    const QString third = m_dir.filePath(u"third.csv"_s);
    r = headroom(
        { u"--recording"_s, saved, u"--dashboard"_s, m_dashboard, u"--export-csv"_s, third });
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    QCOMPARE(readAll(third), original);
}

void TestImportCommand::grafanaCsvWithLabelsInHeaders()
{
    // Grafana's "Inspect → Data" (series joined by time): local times without a zone,
    // headers in PromQL form, a gap where a series had no point.
    QByteArray csv = "\"Time\",\"node_load1{instance=\"\"db1:9100\"\", job=\"\"node\"\"}\","
                     "\"node_load1{instance=\"\"db2:9100\"\", job=\"\"node\"\"}\"\r\n";
    const qint64 start = QDateTime::currentMSecsSinceEpoch() / 1000 * 1000 - 7200 * 1000;
    QSet<QString> expected;
    for (int i = 0; i < 240; ++i) {
        const qint64 ts = start + i * 15000LL;
        const QString time
            = QDateTime::fromMSecsSinceEpoch(ts, QTimeZone::UTC).toString(u"yyyy-MM-dd HH:mm:ss"_s);
        const double a = 0.25 * (i % 9), b = 1.5 + i;
        const bool gap = i % 50 == 7;
        csv += time.toUtf8() + ',' + QByteArray::number(a) + ','
            + (gap ? QByteArray() : QByteArray::number(b)) + "\r\n";
        expected << iso(ts) + u",import,node_load1,{instance=db1:9100,job=node},"_s + csvNumber(a);
        if (!gap)
            expected << iso(ts) + u",import,node_load1,{instance=db2:9100,job=node},"_s
                    + csvNumber(b);
    }
    const QString file = m_dir.filePath(u"grafana.csv"_s);
    QVERIFY(writeFile(file, csv));
    const QString out = m_dir.filePath(u"grafana-out.csv"_s);
    const auto r = headroom({ u"--import"_s, file, u"--export-csv"_s, out });
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    // The generated dashboard's panel of node_load1 holds every sample once.
    QSet<QString> seen;
    int rows = 0;
    for (const auto allLines = readAll(out).split('\n'); const QByteArray &line : allLines) {
        const QStringList cells = csvCells(QString::fromUtf8(line.trimmed()));
        if (cells.size() != 7 || cells.at(3) != "node_load1"_L1 || cells.at(1) == "use-matrix"_L1)
            continue;
        // time,panel,source,metric,labels,value,unit
        seen << QStringList { cells.at(0), cells.at(2), cells.at(3), cells.at(4), cells.at(5) }
                    .join(u',');
        ++rows;
    }
    QCOMPARE(rows, expected.size());
    QCOMPARE(seen, expected);
}

void TestImportCommand::malformedFileIsRefusedWithItsLine()
{
    const QString dir = m_dir.filePath(u"bad"_s);
    QVERIFY(QDir().mkpath(dir));
    const QString file = dir + u"/bad.csv"_s;
    QVERIFY(writeFile(file, "time,a\n1767225600,1\n1767225601,x\n"));
    const QStringList before = CacheTest::directorySnapshot(dir);
    const auto r
        = headroom({ u"--import"_s, file, u"--export-csv"_s, m_dir.filePath(u"no.csv"_s) });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.stdErr.contains(file + u": line 3: column 2 (a): \"x\" is not a number"_s),
             qPrintable(r.stdErr));
    QVERIFY(!QFile::exists(m_dir.filePath(u"no.csv"_s)));
    QCOMPARE(CacheTest::directorySnapshot(dir), before);
}

void TestImportCommand::injectedFaultIsTheFirstFinding_data()
{
    QTest::addColumn<QString>("fault");
    QTest::addColumn<int>("service");
    QTest::newRow("latency rise") << u"latency"_s << 2;
    QTest::newRow("error burst") << u"errors"_s << 4;
    QTest::newRow("saturation") << u"saturation"_s << 0;
    QTest::newRow("cascade: the first and largest rise leads") << u"cascade"_s << 3;
}

void TestImportCommand::injectedFaultIsTheFirstFinding()
{
    QFETCH(QString, fault);
    QFETCH(int, service);
    // Five services, 20 minutes at 1 s, each with CPU, a queue, errors and a p99 latency
    // in columns named as another tool names them; the map says what they are.
    const QStringList services { u"cart"_s, u"checkout"_s, u"search"_s, u"auth"_s, u"ship"_s };
    const QByteArray map = R"({"time": "ts", "columns": [
        {"match": "^(\\w+)_cpu_pct$", "metric": "svc.cpu", "labels": {"service": "$1"},
         "unit": "%", "kind": "utilization"},
        {"match": "^(\\w+)_queue$", "metric": "svc.queue", "labels": {"service": "$1"},
         "unit": "", "kind": "saturation"},
        {"match": "^(\\w+)_err_per_s$", "metric": "svc.errors", "labels": {"service": "$1"},
         "unit": "1/s", "kind": "errors"},
        {"match": "^(\\w+)_p99_ms$", "metric": "svc.latency", "labels": {"service": "$1",
         "quantile": "p99"}, "unit": "ms", "kind": "latency"}]})";
    const QString mapFile = m_dir.filePath(u"services-map.json"_s);
    QVERIFY(writeFile(mapFile, map));
    QByteArray csv = "ts";
    for (const QString &s : services)
        for (const char *column : { "_cpu_pct", "_queue", "_err_per_s", "_p99_ms" })
            csv += ',' + s.toUtf8() + column;
    csv += '\n';
    const qint64 start = QDateTime::currentMSecsSinceEpoch() / 1000 * 1000 - 3 * 3600 * 1000;
    constexpr int Rows = 1200, FaultAt = 700;
    const qint64 faultMs = start + FaultAt * 1000LL;
    QRandomGenerator random(fault.size() * 7919 + service);
    for (int i = 0; i < Rows; ++i) {
        csv += QByteArray::number(start / 1000 + i);
        for (int s = 0; s < services.size(); ++s) {
            const double noise = random.generateDouble() - 0.5;
            double cpu = 30 + 4 * noise, queue = 0.2 + 0.2 * random.generateDouble(), errors = 0,
                   latency = 20 + 3 * noise;
            const bool faulted = s == service && i >= FaultAt;
            if (faulted && fault == "latency"_L1)
                latency = 400 + 30 * noise;
            if (faulted && fault == "errors"_L1)
                errors = 25 + 5 * noise;
            if (faulted && fault == "saturation"_L1) {
                queue = 12 + 2 * noise;
                cpu = 97 + noise;
            }
            if (fault == "cascade"_L1) {
                // The faulty service's latency rises first and most; two that call it
                // follow a minute later, less.
                if (faulted)
                    latency = 600 + 30 * noise;
                else if ((s == 1 || s == 0) && i >= FaultAt + 60)
                    latency = 150 + 10 * noise;
            }
            csv += ',' + QByteArray::number(cpu, 'f', 2) + ',' + QByteArray::number(queue, 'f', 3)
                + ',' + QByteArray::number(errors, 'f', 2) + ','
                + QByteArray::number(latency, 'f', 1);
        }
        csv += '\n';
    }
    const QString file = m_dir.filePath(u"services-%1.csv"_s.arg(fault));
    QVERIFY(writeFile(file, csv));
    const QString findings = m_dir.filePath(u"services-%1-findings.csv"_s.arg(fault));
    const auto r = headroom(
        { u"--import"_s, file, u"--import-map"_s, mapFile, u"--export-findings"_s, findings });
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    const QList<QStringList> rows = findingRows(findings);
    QVERIFY2(!rows.isEmpty(), readAll(findings).constData());
    const QStringList &top = rows.first();
    // rank,source,resource,kind,signal,since,...
    QVERIFY2(top.size() > 5, readAll(findings).constData());
    QCOMPARE(top.at(2), u"service "_s + services.at(service));
    QVERIFY2(top.at(3) != "change"_L1, readAll(findings).constData());
    const qint64 since = QDateTime::fromString(top.at(5), Qt::ISODateWithMs).toMSecsSinceEpoch();
    QVERIFY2(std::abs(since - faultMs) <= 2000,
             qPrintable(u"since %1, fault at %2"_s.arg(top.at(5), iso(faultMs))));
}

QTEST_GUILESS_MAIN(TestImportCommand)
#include "tst_importcommand.moc"
