// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The headroom binary on a recording (--recording): a 20-day-old cache is exported over
// its full span headless and shown in the window under Xvfb, and afterwards the file's
// bytes and mtime are unchanged with nothing beside it, also when the file and its
// directory are read-only; --from/--to narrow the export; a bad recording is refused, and
// a tampered one at once, with what is wrong in it.
#include "../cache/cachetestutil.h"
#include "commandtestutil.h"
#include "imagetestutil.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <sqlite3.h>
#include <sys/stat.h>

using namespace Qt::StringLiterals;
using namespace Headroom;
using Headroom::Test::countColor;
using Headroom::Test::runCommand;
using Headroom::Test::xvfbEnvironment;

namespace {

constexpr qint64 StepMs = 10'000;
constexpr int Samples = 8640; // a day at 10 s

QString iso(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::UTC).toString(Qt::ISODateWithMs);
}

} // namespace

class TestRecordingCommand : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void headlessExportsTheWholeSpan_data();
    void headlessExportsTheWholeSpan();
    void fromAndToNarrowTheExport();
    void guiShowsTheRecordingUnderXvfb();
    void badRecordingIsRefused();
    void tamperedRecordingIsRefusedAtOnce_data();
    void tamperedRecordingIsRefusedAtOnce();
    void savedRecordingOpensElsewhereWithTheSameCsv();

private:
    QStringList cpuRows(const QString &csvPath) const;

    QTemporaryDir m_dir;
    QString m_binary, m_dashboard, m_recordingDir, m_recording;
    qint64 m_startMs = 0, m_endMs = 0;
};

void TestRecordingCommand::initTestCase()
{
    m_binary = QStringLiteral(HEADROOM_BUILD_DIR "/bin/headroom");
    QVERIFY2(QFile::exists(m_binary), qPrintable(m_binary));
    m_dashboard = m_dir.filePath(u"cpu.json"_s);
    QFile dashboard(m_dashboard);
    QVERIFY(dashboard.open(QIODevice::WriteOnly));
    dashboard.write(R"({
        "schemaVersion": 2, "title": "CPU",
        "sources": [ { "id": "host", "plugin": "host", "intervalMs": 1000 } ],
        "timeRange": "15m",
        "panels": [
            { "id": "cpu", "type": "timeseries", "title": "CPU user",
              "series": [ { "source": "host", "metric": "host.cpu.user", "labels": { "cpu": "all" } } ],
              "layout": { "x": 0, "y": 0, "w": 12, "h": 6 } }
        ]
    })");
    dashboard.close();

    // A day of samples 20 days ago, written by the cache as a session would.
    m_recordingDir = m_dir.filePath(u"recordings"_s);
    QVERIFY(QDir().mkpath(m_recordingDir));
    m_recording = m_recordingDir + u"/incident.sqlite"_s;
    m_startMs = (QDateTime::currentMSecsSinceEpoch() - 20 * 24 * 3600 * 1000LL) / 1000 * 1000;
    m_endMs = m_startMs + (Samples - 1) * StepMs;
    SeriesRegistry registry;
    CacheOptions options;
    options.retentionDays = 0;
    options.reserveBytes = 0;
    QString error;
    auto cache = SampleCache::open(m_recording, &registry, &error, options);
    QVERIFY2(cache, qPrintable(error));
    for (int i = 0; i < Samples; ++i)
        cache->consume(
            CacheTest::valuesAt(registry, m_startMs + i * StepMs,
                                { { CacheTest::gauge(u"host.cpu.user"_s), 30.0 + i % 40 } }));
}

void TestRecordingCommand::cleanupTestCase()
{
    ::chmod(QFile::encodeName(m_recordingDir).constData(), 0700);
}

QStringList TestRecordingCommand::cpuRows(const QString &csvPath) const
{
    QFile file(csvPath);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList rows;
    for (const auto lines = file.readAll().split('\n'); const QByteArray &line : lines)
        if (line.contains(",cpu,host,host.cpu.user,"))
            rows << QString::fromUtf8(line.trimmed());
    return rows;
}

void TestRecordingCommand::headlessExportsTheWholeSpan_data()
{
    QTest::addColumn<bool>("readOnly");
    QTest::newRow("writable file and directory") << false;
    QTest::newRow("read-only file and directory") << true;
}

void TestRecordingCommand::headlessExportsTheWholeSpan()
{
    QFETCH(bool, readOnly);
    if (readOnly) {
        QVERIFY(QFile::setPermissions(m_recording, QFileDevice::ReadOwner));
        QCOMPARE(::chmod(QFile::encodeName(m_recordingDir).constData(), 0500), 0);
    }
    const QByteArray hash = CacheTest::fileHash(m_recording);
    const QStringList before = CacheTest::directorySnapshot(m_recordingDir);
    QCOMPARE(before.size(), 1); // the file alone: no -wal, -shm, lock or reserve
    const QString csv = m_dir.filePath(u"recording.csv"_s);
    const QString png = m_dir.filePath(u"recording.png"_s);
    const auto r = runCommand(m_binary,
                              { u"--recording"_s, m_recording, u"--dashboard"_s, m_dashboard,
                                u"--export-csv"_s, csv, u"--export-png"_s, png },
                              QProcessEnvironment::systemEnvironment(), 120000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    QVERIFY2(r.stdErr.contains(u"recording, read-only, in place"_s), qPrintable(r.stdErr));
    // Nothing but what the run says: not Qt's offscreen "propagateSizeHints()" noise.
    QCOMPARE(r.stdErr.count(u'\n'), 1);
    const QStringList rows = cpuRows(csv);
    QCOMPARE(rows.size(), Samples);
    QVERIFY2(rows.first().startsWith(iso(m_startMs)), qPrintable(rows.first()));
    QVERIFY2(rows.last().startsWith(iso(m_endMs)), qPrintable(rows.last()));
    QVERIFY2(countColor(QImage(png), QColor(0x1f77b4)) > 300, "no recorded line drawn");
    QCOMPARE(CacheTest::directorySnapshot(m_recordingDir), before);
    QCOMPARE(CacheTest::fileHash(m_recording), hash);
}

void TestRecordingCommand::fromAndToNarrowTheExport()
{
    const QString csv = m_dir.filePath(u"narrow.csv"_s);
    const qint64 from = m_startMs + 3600 * 1000, to = from + 600 * 1000;
    auto r = runCommand(m_binary,
                        { u"--recording"_s, m_recording, u"--dashboard"_s, m_dashboard, u"--from"_s,
                          iso(from), u"--to"_s, iso(to), u"--export-csv"_s, csv },
                        QProcessEnvironment::systemEnvironment(), 120000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    QStringList rows = cpuRows(csv);
    QCOMPARE(rows.size(), 61); // 10 minutes at 10 s, both ends included
    QVERIFY(rows.first().startsWith(iso(from)));
    // Relative to the recording's end, not to now.
    r = runCommand(m_binary,
                   { u"--recording"_s, m_recording, u"--dashboard"_s, m_dashboard, u"--from"_s,
                     u"-1m"_s, u"--export-csv"_s, csv },
                   QProcessEnvironment::systemEnvironment(), 120000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    rows = cpuRows(csv);
    QCOMPARE(rows.size(), 7);
    QVERIFY(rows.last().startsWith(iso(m_endMs)));
}

void TestRecordingCommand::guiShowsTheRecordingUnderXvfb()
{
    const std::optional<QProcessEnvironment> xvfb = xvfbEnvironment();
    if (!xvfb)
        QSKIP("no Xvfb display (run the tests through ./dev test)");
    QProcessEnvironment env = *xvfb;
    // Its own XDG dirs: the default cache must stay closed, and is checked to be.
    env.insert(u"XDG_DATA_HOME"_s, m_dir.filePath(u"xdg-data"_s));
    env.insert(u"XDG_CONFIG_HOME"_s, m_dir.filePath(u"xdg-config"_s));
    const QByteArray hash = CacheTest::fileHash(m_recording);
    const QStringList before = CacheTest::directorySnapshot(m_recordingDir);
    const QString shot = m_dir.filePath(u"gui-recording.png"_s);
    const auto r = runCommand(m_binary,
                              { u"--recording"_s, m_recording, u"--dashboard"_s, m_dashboard,
                                u"--quit-after"_s, u"4"_s, u"--gui-snapshot"_s, shot },
                              env, 120000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    QVERIFY2(countColor(QImage(shot), QColor(0x1f77b4)) > 300,
             "the window does not show the recorded line over the recording's span");
    QCOMPARE(CacheTest::directorySnapshot(m_recordingDir), before);
    QCOMPARE(CacheTest::fileHash(m_recording), hash);
    QVERIFY2(!QFileInfo::exists(m_dir.filePath(u"xdg-data/headroom/cache.sqlite"_s)),
             "the live cache was opened while a recording was studied");
}

void TestRecordingCommand::badRecordingIsRefused()
{
    const QString text = m_dir.filePath(u"notes.sqlite"_s);
    QFile file(text);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("not a cache\n");
    file.close();
    auto r = runCommand(m_binary,
                        { u"--recording"_s, text, u"--export-csv"_s, m_dir.filePath(u"x.csv"_s) },
                        QProcessEnvironment::systemEnvironment(), 60000);
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.stdErr.contains(text + u": not a Headroom cache"_s), qPrintable(r.stdErr));
    r = runCommand(m_binary,
                   { u"--recording"_s, m_recording, u"--collect-for"_s, u"2"_s, u"--export-csv"_s,
                     m_dir.filePath(u"x.csv"_s) },
                   QProcessEnvironment::systemEnvironment(), 60000);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.stdErr.contains(u"--recording opens a file read-only"_s), qPrintable(r.stdErr));
}

void TestRecordingCommand::tamperedRecordingIsRefusedAtOnce_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("reason");
    const QString endless
        = u" AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)"_s;
    QTest::newRow("first_ts min") << u"UPDATE tail_chunks SET first_ts = -9223372036854775808"_s
                                  << u"tail_chunks: a chunk of series 1 has first_ts "
                                     "-9223372036854775808, outside the times a cache holds"_s;
    QTest::newRow("first_ts min, last_ts max")
        << u"UPDATE tail_chunks SET first_ts = -9223372036854775808,"
           " last_ts = 9223372036854775807"_s
        << u"tail_chunks: a chunk of series 1 has first_ts -9223372036854775808"_s;
    QTest::newRow("series a recursive view") << u"DROP TABLE series; CREATE VIEW series"_s + endless
            + u" SELECT i AS id, 'host' AS source, 'm' AS metric, '{}' AS labels, '' AS unit,"
              " '' AS resource, 'info' AS kind, 0 AS histogram FROM n"_s
                                             << u"series is a view"_s;
    QTest::newRow("tail_chunks a recursive view")
        << u"DROP TABLE tail_chunks; CREATE VIEW tail_chunks"_s + endless
            + u" SELECT 1 AS series_id, i AS seq, 0 AS first_ts, 0 AS last_ts, 1 AS count,"
              " x'' AS data FROM n"_s
        << u"tail_chunks is a view"_s;
    QTest::newRow("labels of 400 KB")
        << u"UPDATE series SET labels = '{cpu=' || hex(zeroblob(200000)) || '}'"_s
        << u"series: series 1 has labels of 400006 bytes, more than a cache holds (262144)"_s;
}

void TestRecordingCommand::tamperedRecordingIsRefusedAtOnce()
{
    // A recording from someone else, tampered with. Unchecked, a first_ts of INT64_MIN
    // aborts --export-findings (std::length_error), INT64_MIN to INT64_MAX makes it
    // write far outside its bins, and a view over an endless query never lets it end:
    // each is refused in seconds, exit 3, the file as it was.
    QFETCH(QString, sql);
    QFETCH(QString, reason);
    const QString dir = m_dir.filePath(u"tampered"_s);
    QVERIFY(QDir().mkpath(dir));
    const QString path = dir + u"/recording.sqlite"_s;
    QFile::remove(path);
    {
        // Two blocks and a tail of ten samples.
        SeriesRegistry registry;
        CacheOptions options;
        options.retentionDays = 0;
        options.reserveBytes = 0;
        QString error;
        auto cache = SampleCache::open(path, &registry, &error, options);
        QVERIFY2(cache, qPrintable(error));
        for (int i = 0; i < 250; ++i)
            cache->consume(
                CacheTest::valuesAt(registry, m_startMs + i * StepMs,
                                    { { CacheTest::gauge(u"host.cpu.user"_s), 30.0 + i % 40 } }));
    }
    sqlite3 *db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    const int rc = sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, nullptr);
    const int changed = sqlite3_total_changes(db);
    sqlite3_close(db);
    QCOMPARE(rc, SQLITE_OK);
    QVERIFY(changed > 0 || sql.contains(u"VIEW"_s));
    const QByteArray hash = CacheTest::fileHash(path);
    const auto r = runCommand(
        m_binary,
        { u"--recording"_s, path, u"--export-findings"_s, m_dir.filePath(u"tampered.csv"_s) },
        QProcessEnvironment::systemEnvironment(), 60000);
    QVERIFY2(r.exitCode == 3, qPrintable(r.stdErr));
    QVERIFY2(r.stdErr.contains(path + u": not a cache Headroom can read: "_s + reason),
             qPrintable(r.stdErr));
    QCOMPARE(CacheTest::fileHash(path), hash);
}

void TestRecordingCommand::savedRecordingOpensElsewhereWithTheSameCsv()
{
    // Two hours from the middle of the recording, saved with its dashboard...
    const qint64 from = m_startMs + 6 * 3600 * 1000 + 5000, to = from + 2 * 3600 * 1000;
    const QString saved = m_dir.filePath(u"handover/incident-2h.sqlite"_s);
    QVERIFY(QDir().mkpath(m_dir.filePath(u"handover"_s)));
    const QString original = m_dir.filePath(u"original.csv"_s);
    auto r = runCommand(m_binary,
                        { u"--recording"_s, m_recording, u"--dashboard"_s, m_dashboard, u"--from"_s,
                          iso(from), u"--to"_s, iso(to), u"--export-csv"_s, original,
                          u"--save-recording"_s, saved },
                        QProcessEnvironment::systemEnvironment(), 120000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    QVERIFY2(r.stdErr.contains(u"1 series, 720 samples"_s), qPrintable(r.stdErr));
    // ... opens on "another machine": its own empty settings and data, no --dashboard,
    // no source configured anywhere; the CSV of the same span is the same, byte for byte.
    QProcessEnvironment elsewhere = QProcessEnvironment::systemEnvironment();
    elsewhere.insert(u"XDG_DATA_HOME"_s, m_dir.filePath(u"elsewhere/data"_s));
    elsewhere.insert(u"XDG_CONFIG_HOME"_s, m_dir.filePath(u"elsewhere/config"_s));
    elsewhere.insert(u"XDG_STATE_HOME"_s, m_dir.filePath(u"elsewhere/state"_s));
    const QString reopened = m_dir.filePath(u"reopened.csv"_s);
    r = runCommand(m_binary,
                   { u"--recording"_s, saved, u"--from"_s, iso(from), u"--to"_s, iso(to),
                     u"--export-csv"_s, reopened },
                   elsewhere, 120000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    QCOMPARE(cpuRows(reopened).size(), 720);
    QCOMPARE(CacheTest::fileHash(reopened), CacheTest::fileHash(original));
    // Without --from/--to it shows its own span: the same rows again.
    r = runCommand(m_binary, { u"--recording"_s, saved, u"--export-csv"_s, reopened }, elsewhere,
                   120000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.stdErr));
    QCOMPARE(CacheTest::fileHash(reopened), CacheTest::fileHash(original));
}

QTEST_MAIN(TestRecordingCommand)
#include "tst_recordingcommand.moc"
