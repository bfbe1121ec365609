// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A recording or cache file whose tables or rows were tampered with is refused on open,
// as a recording and as the cache, with the file's name and what is wrong, and is left
// as it was (not a byte changed, nothing beside it): timestamps at the ends of qint64
// (they crashed the analysis), views over an endless recursive query (they hung every
// read), triggers, extra or generated columns, CHECK clauses, expression indexes,
// unknown tables, labels past their bound. Every connection is defensive with an
// untrusted schema, and the writer never stores what the opener would refuse.
#include "cachetestutil.h"
#include "engine/cache/blockcodec.h"
#include "engine/cache/cachecheck.h"
#include "engine/cache/cacheschema.h"
#include "engine/cache/sqlitedb.h"

#include <QTemporaryDir>
#include <QTest>
#include <sqlite3.h>

using namespace Qt::StringLiterals;
using namespace Headroom;
using namespace CacheTest;

namespace {

constexpr qint64 DayMs = 24 * 3600 * 1000;
constexpr qint64 StepMs = 10'000;
constexpr int Samples = 1000; // eight sealed blocks and a tail of 40 per series

// Runs sql on the file with a plain connection (no defensive mode: what anyone's
// sqlite3 does). "BLOCKS" and "HIST" stand for the first day's tables. *changed gets
// the number of rows the statements changed.
bool tamper(const QString &path, QString sql, int *changed)
{
    sqlite3 *db = nullptr;
    bool ok = sqlite3_open(path.toUtf8().constData(), &db) == SQLITE_OK;
    sqlite3_stmt *day = nullptr;
    if (ok && sqlite3_prepare_v2(db, "SELECT min(day) FROM chunks", -1, &day, nullptr) == SQLITE_OK
        && sqlite3_step(day) == SQLITE_ROW) {
        const qint64 first = sqlite3_column_int64(day, 0);
        sql.replace(u"BLOCKS"_s, QString::fromLatin1(CacheSchema::blocksTable(first)));
        sql.replace(u"HIST"_s, QString::fromLatin1(CacheSchema::histTable(first)));
    }
    sqlite3_finalize(day);
    char *message = nullptr;
    ok = ok && sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, &message) == SQLITE_OK;
    if (!ok)
        qWarning("%s: %s", qPrintable(sql), message ? message : sqlite3_errmsg(db));
    sqlite3_free(message);
    *changed = sqlite3_total_changes(db);
    sqlite3_close(db);
    return ok;
}

} // namespace

class TestHostileRecording : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void tamperedFileIsRefused_data();
    void tamperedFileIsRefused();
    void untouchedFileOpens();
    void connectionsAreDefensive();
    void writerStoresOnlyWhatOpens();
    void reloadedTailKeepsTheCacheOpenable();

private:
    // A closed cache: two gauges every 10 s for 1000 samples from noon 20 days ago, a
    // histogram series, an alert event; blocks, tail chunks, rollups and one day chunk.
    void makeRecording(const QString &path);

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestHostileRecording::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestHostileRecording::makeRecording(const QString &path)
{
    SeriesRegistry registry;
    CacheOptions options;
    options.retentionDays = 0;
    options.reserveBytes = 0;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, options);
    QVERIFY2(cache, qPrintable(error));
    const qint64 start
        = (QDateTime::currentMSecsSinceEpoch() - 20 * DayMs) / DayMs * DayMs + DayMs / 2;
    for (int i = 0; i < Samples; ++i) {
        SampleBatch batch;
        batch.source = u"host"_s;
        batch.tsMs = start + i * StepMs;
        batch.add(gauge(u"host.cpu.user"_s), 20 + i % 7);
        batch.add(gauge(u"host.cpu.system"_s), 5 + i % 3);
        if (i % 100 == 0) {
            LogHistogram histogram;
            histogram.add(1.5 + i % 4, 3);
            batch.histograms.append({ latency(u"pg.write.latency"_s), histogram });
        }
        cache->consume(resolve(registry, batch));
    }
    AlertEvent event;
    event.tsMs = start + 60'000;
    event.ruleId = u"cpu-high"_s;
    event.ruleName = u"CPU high"_s;
    event.series = gauge(u"host.cpu.user"_s).key;
    event.state = AlertState::Firing;
    cache->recordAlertEvents({ event });
    cache->flush();
}

void TestHostileRecording::tamperedFileIsRefused_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<bool>("changesRows");
    QTest::addColumn<QString>("reason");
    const QString outside = u", outside the times a cache holds (1900-01-01 to 2200-01-01)"_s;
    QTest::newRow("tail first_ts min")
        << u"UPDATE tail_chunks SET first_ts = -9223372036854775808"_s << true
        << u"tail_chunks: a chunk of series 1 has first_ts -9223372036854775808"_s + outside;
    QTest::newRow("tail first_ts min, last_ts max")
        << u"UPDATE tail_chunks SET first_ts = -9223372036854775808,"
           " last_ts = 9223372036854775807"_s
        << true
        << u"tail_chunks: a chunk of series 1 has first_ts -9223372036854775808"_s + outside;
    QTest::newRow("tail last_ts max")
        << u"UPDATE tail_chunks SET last_ts = 9223372036854775807"_s << true
        << u"tail_chunks: a chunk of series 1 has last_ts 9223372036854775807"_s + outside;
    QTest::newRow("tail ends before it starts")
        << u"UPDATE tail_chunks SET last_ts = first_ts - 1"_s << true << u" before first_ts "_s;
    QTest::newRow("tail first_ts text")
        << u"UPDATE tail_chunks SET first_ts = 'soon'"_s << true
        << u"tail_chunks: a chunk of series 1 has first_ts a text"_s + outside;
    QTest::newRow("block end_ts max") << u"UPDATE BLOCKS SET end_ts = 9223372036854775807"_s << true
                                      << u"a block of series 1 has end_ts 9223372036854775807"_s;
    QTest::newRow("block count zero")
        << u"UPDATE BLOCKS SET count = 0"_s << true
        << u"a block of series 1 claims 0 samples, outside 1 to 86400000"_s;
    QTest::newRow("histogram ts min")
        << u"UPDATE HIST SET ts = -9223372036854775808 WHERE id = 1"_s << true
        << u"a histogram of series 3 has ts -9223372036854775808"_s;
    QTest::newRow("alert event ts max")
        << u"UPDATE alert_events SET ts = 9223372036854775807"_s << true
        << u"alert_events: alert event 1 has ts 9223372036854775807"_s + outside;
    QTest::newRow("rollup start_ts min")
        << u"UPDATE rollup SET start_ts = -9223372036854775808 WHERE (tier, series_id, start_ts)"
           " IN (SELECT tier, series_id, start_ts FROM rollup LIMIT 1)"_s
        << true << u"rollup: a rollup row of series "_s;
    QTest::newRow("day far away") << u"INSERT INTO chunks VALUES(99999999)"_s << true
                                  << u"chunks: day 99999999 is outside the times"_s;
    QTest::newRow("day without tables") << u"INSERT INTO chunks SELECT max(day) + 1 FROM chunks"_s
                                        << true << u"whose table blocks_"_s;
    QTest::newRow("series id past int")
        << u"UPDATE series SET id = 9223372036854775807 WHERE id = 2"_s << true
        << u"series: a series has id 9223372036854775807, outside 1 to 1073741824"_s;
    QTest::newRow("labels of 400 KB")
        << u"UPDATE series SET labels = '{cpu=' || hex(zeroblob(200000)) || '}' WHERE id = 1"_s
        << true
        << u"series: series 1 has labels of 400006 bytes, more than a cache holds (262144)"_s;
    QTest::newRow("metric of 100 KB")
        << u"UPDATE series SET metric = hex(zeroblob(50000)) WHERE id = 2"_s << true
        << u"series: series 2 has a metric of 100000 bytes, more than a cache holds (65536)"_s;
    const QString endless
        = u" AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)"_s;
    QTest::newRow("series a recursive view")
        << u"DROP TABLE series; CREATE VIEW series"_s + endless
            + u" SELECT i AS id, 'host' AS source, 'm' AS metric, '{}' AS labels, '' AS unit,"
              " '' AS resource, 'info' AS kind, 0 AS histogram FROM n"_s
        << false << u"series is a view: a Headroom cache holds tables and indexes only"_s;
    QTest::newRow("tail_chunks a recursive view")
        << u"DROP TABLE tail_chunks; CREATE VIEW tail_chunks"_s + endless
            + u" SELECT 1 AS series_id, i AS seq, 0 AS first_ts, 0 AS last_ts, 1 AS count,"
              " x'' AS data FROM n"_s
        << false << u"tail_chunks is a view: a Headroom cache holds tables and indexes only"_s;
    QTest::newRow("trigger")
        << u"CREATE TRIGGER grow AFTER INSERT ON series BEGIN"
           " INSERT INTO chunks VALUES(new.id); END"_s
        << false << u"grow is a trigger: a Headroom cache holds tables and indexes only"_s;
    QTest::newRow("extra column")
        << u"ALTER TABLE series ADD COLUMN note TEXT"_s << false
        << u"table series has the columns (id INTEGER, source TEXT, metric TEXT, labels TEXT,"
           " unit TEXT, resource TEXT, kind TEXT, histogram INTEGER, note TEXT), where a cache of"
           " schema 6 has (id INTEGER, source TEXT, metric TEXT, labels TEXT, unit TEXT,"
           " resource TEXT, kind TEXT, histogram INTEGER)"_s;
    QTest::newRow("generated column")
        << u"ALTER TABLE chunks ADD COLUMN later INTEGER AS (day + 1)"_s << false
        << u"table chunks has the columns (day INTEGER, later INTEGER (generated)), where a"
           " cache of schema 6 has (day INTEGER)"_s;
    QTest::newRow("check clause")
        << u"CREATE TABLE d2(name TEXT PRIMARY KEY, json BLOB NOT NULL,"
           " CHECK(length(json) < 1e9)); INSERT INTO d2 SELECT * FROM dashboards;"
           " DROP TABLE dashboards; ALTER TABLE d2 RENAME TO dashboards"_s
        << false << u"table dashboards is defined with \"CHECK\", which no Headroom cache has"_s;
    QTest::newRow("expression index")
        << u"CREATE INDEX series_size ON series(length(labels))"_s << false
        << u"index series_size on series is on an expression: a Headroom cache indexes columns"
           " only"_s;
    QTest::newRow("partial index")
        << u"CREATE INDEX series_some ON series(id) WHERE histogram = 0"_s << false
        << u"index series_some on series is partial: a Headroom cache indexes columns only"_s;
    QTest::newRow("unknown table") << u"CREATE TABLE notes(x)"_s << false
                                   << u"table notes is not one a cache of schema 6 has"_s;
    QTest::newRow("missing table") << u"DROP TABLE dashboards"_s << false
                                   << u"table dashboards of cache schema 6 is missing"_s;
}

void TestHostileRecording::tamperedFileIsRefused()
{
    QFETCH(QString, sql);
    QFETCH(bool, changesRows);
    QFETCH(QString, reason);
    const QString path = m_dir->filePath(u"incident.sqlite"_s);
    makeRecording(path);
    int changed = 0;
    QVERIFY(tamper(path, sql, &changed));
    if (changesRows)
        QVERIFY2(changed > 0, "the tampering changed no row: the recording lacks what it targets");
    const QByteArray hash = fileHash(path);
    const QStringList before = directorySnapshot(m_dir->path());
    const QString prefix = QDir::toNativeSeparators(path) + u": not a cache Headroom can read: "_s;
    {
        SeriesRegistry registry;
        QString error;
        QVERIFY(!SampleCache::openRecording(path, &registry, &error));
        QVERIFY2(error.startsWith(prefix) && error.contains(reason)
                     && error.endsWith(u"; not modified"_s),
                 qPrintable(error));
        QCOMPARE(registry.size(), 0);
    }
    {
        // The same file as the cache to collect into: refused alike, no lock, WAL or
        // reserve made beside it.
        SeriesRegistry registry;
        QString error;
        QVERIFY(!SampleCache::open(path, &registry, &error));
        QVERIFY2(error.startsWith(prefix) && error.contains(reason), qPrintable(error));
    }
    QCOMPARE(directorySnapshot(m_dir->path()), before);
    QCOMPARE(fileHash(path), hash);
}

void TestHostileRecording::untouchedFileOpens()
{
    // What the refusals above start from passes the checks and reads in full.
    const QString path = m_dir->filePath(u"incident.sqlite"_s);
    makeRecording(path);
    SeriesRegistry registry;
    QString error;
    auto recording = SampleCache::openRecording(path, &registry, &error);
    QVERIFY2(recording, qPrintable(error));
    const auto span = recording->span(&error);
    QVERIFY2(span, qPrintable(error));
    QCOMPARE(span->second - span->first, (Samples - 1) * StepMs);
    const auto id = registry.find(gauge(u"host.cpu.user"_s).key);
    QVERIFY(id);
    QCOMPARE(recording->read(*id, span->first, span->second).size(), size_t(Samples));
    QCOMPARE(recording->readAlertEvents(span->first, span->second).size(), 1);
}

void TestHostileRecording::connectionsAreDefensive()
{
    const QString path = m_dir->filePath(u"any.sqlite"_s);
    QString error;
    Sqlite::Db db = Sqlite::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &error);
    QVERIFY2(db, qPrintable(error));
    int defensive = -1, trusted = -1;
    QCOMPARE(sqlite3_db_config(db.get(), SQLITE_DBCONFIG_DEFENSIVE, -1, &defensive), SQLITE_OK);
    QCOMPARE(sqlite3_db_config(db.get(), SQLITE_DBCONFIG_TRUSTED_SCHEMA, -1, &trusted), SQLITE_OK);
    QCOMPARE(defensive, 1);
    QCOMPARE(trusted, 0);
    // Defensive: the schema cannot be written behind SQLite's back.
    QVERIFY(Sqlite::exec(db.get(), "PRAGMA writable_schema = ON"));
    QVERIFY(!Sqlite::exec(db.get(), "CREATE TABLE t(x); UPDATE sqlite_schema SET sql = ''"));
}

void TestHostileRecording::writerStoresOnlyWhatOpens()
{
    // Samples outside the times a cache holds and a series whose labels are past their
    // bound are not stored: the file the writer leaves opens again, with the rest.
    const QString path = m_dir->filePath(u"cache.sqlite"_s);
    SeriesInfo huge = gauge(u"host.cpu.user"_s, QString(300 * 1024, u'x'));
    const SeriesInfo fine = gauge(u"host.cpu.system"_s);
    const qint64 now = QDateTime::currentMSecsSinceEpoch() / 1000 * 1000;
    {
        SeriesRegistry registry;
        CacheOptions options;
        options.retentionDays = 0;
        options.reserveBytes = 0;
        QString error;
        auto cache = SampleCache::open(path, &registry, &error, options);
        QVERIFY2(cache, qPrintable(error));
        cache->consume(valuesAt(registry, std::numeric_limits<qint64>::min(), { { fine, 1 } }));
        cache->consume(valuesAt(registry, CacheCheck::LatestMs, { { fine, 2 } }));
        cache->consume(valuesAt(registry, now, { { fine, 3 }, { huge, 4 } }));
        cache->flush();
    }
    SeriesRegistry registry;
    QString error;
    auto recording = SampleCache::openRecording(path, &registry, &error);
    QVERIFY2(recording, qPrintable(error));
    QVERIFY(!registry.find(huge.key));
    const auto id = registry.find(fine.key);
    QVERIFY(id);
    const auto span = recording->span(&error);
    QVERIFY2(span, qPrintable(error));
    QCOMPARE(*span, std::pair(now, now));
    QCOMPARE(recording->read(*id, CacheCheck::EarliestMs, CacheCheck::LatestMs - 1),
             (std::vector<Sample> { { now, 3 } }));
}

void TestHostileRecording::reloadedTailKeepsTheCacheOpenable()
{
    // A tail chunk whose data (not its first_ts and last_ts, which are checked) decodes
    // to a sample 285,000 years before 1970, then one of 1900: the cache opens, and the
    // writer that reloads the tail leaves the first out instead of sealing it into a
    // day the next open would refuse.
    const QString path = m_dir->filePath(u"cache.sqlite"_s);
    CacheOptions options;
    options.retentionDays = 0;
    options.reserveBytes = 0;
    {
        SeriesRegistry registry;
        QString error;
        auto cache = SampleCache::open(path, &registry, &error, options);
        QVERIFY2(cache, qPrintable(error));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < 10; ++i) // a tail, no block
            cache->consume(valuesAt(registry, now + i * StepMs, { { gauge(u"g"_s), 1.0 * i } }));
    }
    const QByteArray data
        = BlockCodec::encode({ { -9'000'000'000'000'000, 1 }, { CacheCheck::EarliestMs, 2 } });
    sqlite3 *db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    sqlite3_stmt *st = nullptr;
    QCOMPARE(sqlite3_prepare_v2(db, "UPDATE tail_chunks SET data = ?", -1, &st, nullptr),
             SQLITE_OK);
    sqlite3_bind_blob(st, 1, data.constData(), int(data.size()), SQLITE_TRANSIENT);
    QCOMPARE(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    QVERIFY(sqlite3_changes(db) > 0);
    sqlite3_close(db);
    for (int open = 0; open < 2; ++open) {
        SeriesRegistry registry;
        QString error;
        auto cache = SampleCache::open(path, &registry, &error, options);
        QVERIFY2(cache, qPrintable(error));
        cache->flush();
    }
}

QTEST_GUILESS_MAIN(TestHostileRecording)
#include "tst_hostilerecording.moc"
