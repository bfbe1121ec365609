// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A cache opened as a recording (SampleCache::openRecording) is only read: a 20-day-old
// recording keeps every day (no retention), its bytes and mtime do not change, nothing
// appears beside it (no -wal, -shm or lock), also with the file and its directory made
// read-only; an older schema and a crashed writer's -wal are read from a private copy;
// a newer schema is refused with both versions.
#include "cachetestutil.h"
#include "engine/cache/recordingsaver.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <sqlite3.h>
#include <sys/stat.h>

using namespace Qt::StringLiterals;

using namespace Headroom;
using namespace CacheTest;

namespace {

constexpr qint64 DayMs = 24 * 3600 * 1000;
constexpr qint64 StepMs = 10'000;
constexpr int Samples = 2 * 8640; // two days at 10 s

bool rawExec(const QString &path, const char *sql)
{
    sqlite3 *db = nullptr;
    const bool ok = sqlite3_open(path.toUtf8().constData(), &db) == SQLITE_OK
        && sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return ok;
}

} // namespace

class TestRecording : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void oldRecordingReadInPlaceUnchanged();
    void readOnlyFileAndDirectory();
    void writesAreIgnored();
    void olderSchemaReadFromPrivateCopy();
    void crashedWritersWalReadFromPrivateCopy();
    void liveCacheReadBesideItsWriter();
    void refusals_data();
    void refusals();
    void saveRecordingHoldsTheSpan();
    void saveRecordingReplacesWholeOrNotAtAll();

private:
    // A closed cache at path: cpu user and system every 10 s for two days, starting
    // 20 days ago (so a 7-day retention would have dropped all of it).
    void makeRecording(const QString &path);
    void checkReadsEverything(const QString &path);

    std::unique_ptr<QTemporaryDir> m_dir;
    qint64 m_startMs = 0;
    std::vector<Sample> m_user;
};

void TestRecording::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    // Noon UTC, 20 days ago: the third day then holds 12 h of samples, enough for sealed
    // blocks (a start shortly before midnight would leave the third day's few samples in
    // the tail, and the day would have no chunk yet).
    m_startMs = (QDateTime::currentMSecsSinceEpoch() - 20 * DayMs) / DayMs * DayMs + DayMs / 2;
    m_user.clear();
}

void TestRecording::cleanup()
{
    // Writable again, so the temporary directory can be removed.
    ::chmod(QFile::encodeName(m_dir->path()).constData(), 0700);
    m_dir.reset();
}

void TestRecording::makeRecording(const QString &path)
{
    SeriesRegistry registry;
    CacheOptions options;
    options.retentionDays = 0;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, options);
    QVERIFY2(cache, qPrintable(error));
    for (int i = 0; i < Samples; ++i) {
        const qint64 ts = m_startMs + i * StepMs;
        const double user = 20 + (i % 97) * 0.25, system = 5 + (i % 13);
        cache->consume(valuesAt(
            registry, ts,
            { { gauge(u"host.cpu.user"_s), user }, { gauge(u"host.cpu.system"_s), system } }));
        m_user.push_back({ ts, user });
    }
    cache->flush();
}

void TestRecording::checkReadsEverything(const QString &path)
{
    SeriesRegistry registry;
    QString error;
    auto recording = SampleCache::openRecording(path, &registry, &error);
    QVERIFY2(recording, qPrintable(error));
    QVERIFY(recording->isReadOnly());
    const auto id = registry.find(gauge(u"host.cpu.user"_s).key);
    QVERIFY2(id, "the recording's series were not loaded into the registry");
    QVERIFY(registry.find(gauge(u"host.cpu.system"_s).key));
    const std::vector<Sample> read = recording->read(*id, m_startMs, m_startMs + 3 * DayMs, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(read.size(), m_user.size());
    QVERIFY(sameBits(read, m_user));
    const auto span = recording->span(&error);
    QVERIFY2(span, qPrintable(error));
    QCOMPARE(span->first, m_startMs);
    QCOMPARE(span->second, m_user.back().tsMs);
    QCOMPARE(recording->sources(), QStringList { u"host"_s });
    QCOMPARE(recording->chunkDays().size(), 3); // two days from noon
}

void TestRecording::oldRecordingReadInPlaceUnchanged()
{
    const QString path = m_dir->filePath(u"incident.sqlite"_s);
    makeRecording(path);
    QVERIFY(!QFileInfo::exists(path + u"-wal"_s)); // closed: checkpointed and removed
    const QByteArray hash = fileHash(path);
    const QStringList handedOver = directorySnapshot(m_dir->path());
    QTest::qWait(20); // an mtime written now would differ
    checkReadsEverything(path);
    {
        SeriesRegistry registry;
        QString error;
        auto recording = SampleCache::openRecording(path, &registry, &error);
        QVERIFY2(recording, qPrintable(error));
        QCOMPARE(recording->readMode(), u"read-only, in place"_s);
        // While it is open, too: nothing beside it.
        QCOMPARE(directorySnapshot(m_dir->path()), handedOver);
    }
    QCOMPARE(directorySnapshot(m_dir->path()), handedOver);
    QCOMPARE(fileHash(path), hash);
}

void TestRecording::readOnlyFileAndDirectory()
{
    const QString path = m_dir->filePath(u"incident.sqlite"_s);
    makeRecording(path);
    QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::ReadGroup));
    QCOMPARE(::chmod(QFile::encodeName(m_dir->path()).constData(), 0500), 0);
    const QByteArray hash = fileHash(path);
    const QStringList before = directorySnapshot(m_dir->path());
    checkReadsEverything(path);
    QCOMPARE(directorySnapshot(m_dir->path()), before);
    QCOMPARE(fileHash(path), hash);
}

void TestRecording::writesAreIgnored()
{
    const QString path = m_dir->filePath(u"incident.sqlite"_s);
    makeRecording(path);
    const QByteArray hash = fileHash(path);
    const QStringList before = directorySnapshot(m_dir->path());
    {
        SeriesRegistry registry;
        QString error;
        auto recording = SampleCache::openRecording(path, &registry, &error);
        QVERIFY2(recording, qPrintable(error));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        recording->consume(valuesAt(registry, now, { { gauge(u"host.cpu.user"_s), 1.0 } }));
        AlertEvent event;
        event.tsMs = now;
        event.ruleId = u"r"_s;
        recording->recordAlertEvents({ event });
        recording->flush();
        QCOMPARE(recording->expireBefore(now), 0);
        QVERIFY(!recording->status().hadWriteErrors());
        const auto id = registry.find(gauge(u"host.cpu.user"_s).key);
        QVERIFY(id);
        QVERIFY(recording->read(*id, now - 1000, now + 1000).empty());
    }
    QCOMPARE(directorySnapshot(m_dir->path()), before);
    QCOMPARE(fileHash(path), hash);
}

void TestRecording::olderSchemaReadFromPrivateCopy()
{
    const QString path = m_dir->filePath(u"schema2.sqlite"_s);
    makeRecording(path);
    // Schema 2 lacks the alert events, dashboards and rollup tables (its blocks were
    // bytewise, and the decoder reads either kind).
    QVERIFY(rawExec(path,
                    "DROP TABLE alert_events; DROP TABLE dashboards; DROP TABLE rollup;"
                    " DROP TABLE rollup_hist;"
                    " PRAGMA user_version = 2;"));
    const QByteArray hash = fileHash(path);
    const QStringList before = directorySnapshot(m_dir->path());
    checkReadsEverything(path);
    {
        SeriesRegistry registry;
        QString error;
        auto recording = SampleCache::openRecording(path, &registry, &error);
        QVERIFY2(recording, qPrintable(error));
        QVERIFY2(recording->readMode().contains(
                     u"migrated from cache schema 2 to %1"_s.arg(SampleCache::SchemaVersion)),
                 qPrintable(recording->readMode()));
        QVERIFY(
            recording->readAlertEvents(0, QDateTime::currentMSecsSinceEpoch(), &error).isEmpty());
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    QCOMPARE(directorySnapshot(m_dir->path()), before);
    QCOMPARE(fileHash(path), hash);
}

void TestRecording::crashedWritersWalReadFromPrivateCopy()
{
    // A writer's files copied while it runs: the main file lacks the last commits, its
    // -wal has them (what a crash leaves behind).
    const QString live = m_dir->filePath(u"live/cache.sqlite"_s);
    QVERIFY(QDir().mkpath(m_dir->filePath(u"live"_s)));
    const QString path = m_dir->filePath(u"crashed.sqlite"_s);
    {
        SeriesRegistry registry;
        CacheOptions options;
        options.retentionDays = 0;
        QString error;
        auto cache = SampleCache::open(live, &registry, &error, options);
        QVERIFY2(cache, qPrintable(error));
        for (int i = 0; i < Samples; ++i) {
            const qint64 ts = m_startMs + i * StepMs;
            const double user = 20 + (i % 97) * 0.25;
            cache->consume(valuesAt(registry, ts, { { gauge(u"host.cpu.user"_s), user } }));
            m_user.push_back({ ts, user });
        }
        cache->flush();
        QVERIFY(QFileInfo(live + u"-wal"_s).size() > 0);
        QVERIFY(QFile::copy(live, path));
        QVERIFY(QFile::copy(live + u"-wal"_s, path + u"-wal"_s));
    }
    const QByteArray hash = fileHash(path), walHash = fileHash(path + u"-wal"_s);
    const QStringList before = directorySnapshot(m_dir->path());
    SeriesRegistry registry;
    QString error;
    auto recording = SampleCache::openRecording(path, &registry, &error);
    QVERIFY2(recording, qPrintable(error));
    QVERIFY2(recording->readMode().contains(u"crashed.sqlite-wal"_s),
             qPrintable(recording->readMode()));
    const auto id = registry.find(gauge(u"host.cpu.user"_s).key);
    QVERIFY(id);
    QVERIFY(sameBits(recording->read(*id, m_startMs, m_startMs + 3 * DayMs), m_user));
    recording.reset();
    QCOMPARE(directorySnapshot(m_dir->path()), before);
    QCOMPARE(fileHash(path), hash);
    QCOMPARE(fileHash(path + u"-wal"_s), walHash);
}

void TestRecording::liveCacheReadBesideItsWriter()
{
    const QString path = m_dir->filePath(u"live.sqlite"_s);
    SeriesRegistry writerRegistry;
    CacheOptions options;
    options.retentionDays = 0;
    QString error;
    auto cache = SampleCache::open(path, &writerRegistry, &error, options);
    QVERIFY2(cache, qPrintable(error));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    cache->consume(valuesAt(writerRegistry, now, { { gauge(u"host.cpu.user"_s), 42.0 } }));
    cache->flush();
    SeriesRegistry registry;
    auto recording = SampleCache::openRecording(path, &registry, &error);
    QVERIFY2(recording, qPrintable(error));
    QVERIFY2(recording->readMode().contains(u"writing it"_s), qPrintable(recording->readMode()));
    const auto id = registry.find(gauge(u"host.cpu.user"_s).key);
    QVERIFY(id);
    const auto read = recording->read(*id, now - 1000, now + 1000);
    QCOMPARE(read.size(), size_t(1));
    QCOMPARE(read.front().value, 42.0);
}

void TestRecording::refusals_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing") << u"missing"_s << u"no such file"_s;
    QTest::newRow("empty") << u"empty"_s << u"empty: not a recording"_s;
    QTest::newRow("text") << u"text"_s << u"not a Headroom cache (not an SQLite database)"_s;
    QTest::newRow("newer schema")
        << u"newer"_s
        << u"written by a newer Headroom (cache schema 9, this build reads up to %1); not modified"_s
               .arg(SampleCache::SchemaVersion);
}

void TestRecording::refusals()
{
    QFETCH(QString, kind);
    QFETCH(QString, expected);
    const QString path = m_dir->filePath(u"file.sqlite"_s);
    if (kind == u"empty"_s) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
    } else if (kind == u"text"_s) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("host,cpu\n1,2\n");
    } else if (kind == u"newer"_s) {
        makeRecording(path);
        QVERIFY(rawExec(path, "PRAGMA user_version = 9;"));
    }
    const QByteArray hash = fileHash(path);
    const QStringList before = directorySnapshot(m_dir->path());
    SeriesRegistry registry;
    QString error;
    QVERIFY(!SampleCache::openRecording(path, &registry, &error));
    QCOMPARE(error, QDir::toNativeSeparators(path) + u": "_s + expected);
    QCOMPARE(directorySnapshot(m_dir->path()), before);
    QCOMPARE(fileHash(path), hash);
}

void TestRecording::saveRecordingHoldsTheSpan()
{
    const QString path = m_dir->filePath(u"cache.sqlite"_s);
    SeriesRegistry registry;
    CacheOptions options;
    options.retentionDays = 0;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, options);
    QVERIFY2(cache, qPrintable(error));
    const SeriesInfo user = gauge(u"host.cpu.user"_s), idle = gauge(u"host.cpu.idle"_s);
    const SeriesInfo latencyInfo = latency(u"pg.statement.latency"_s);
    std::vector<Sample> userSamples;
    for (int i = 0; i < Samples; ++i) {
        const qint64 ts = m_startMs + i * StepMs;
        SampleBatch batch;
        batch.source = u"host"_s;
        batch.tsMs = ts;
        batch.add(user, i * 0.5);
        if (i % 2 == 0) // another poll rhythm
            batch.add(idle, 100 - i % 50);
        if (i % 60 == 0) {
            LogHistogram h;
            h.add(1.0 + i % 7, 3);
            batch.histograms.append({ latencyInfo, h });
        }
        cache->consume(resolve(registry, batch));
        userSamples.push_back({ ts, i * 0.5 });
    }
    AlertEvent inside;
    inside.tsMs = m_startMs + 5 * 3600 * 1000;
    inside.ruleId = u"cpu"_s;
    inside.ruleName = u"CPU busy"_s;
    inside.series = user.key;
    inside.state = AlertState::Firing;
    inside.value = 97;
    AlertEvent outside = inside;
    outside.tsMs = m_startMs + 30 * 3600 * 1000;
    cache->recordAlertEvents({ inside, outside });
    cache->flush();

    // Three hours and a bit, not on window or block bounds.
    const qint64 from = m_startMs + 3 * 3600 * 1000 + 5000, to = from + 3 * 3600 * 1000 + 1234;
    const QString saved = m_dir->filePath(u"saved.sqlite"_s);
    const QByteArray json = R"({"title": "x"})";
    const auto stats
        = saveRecording(*cache, registry, from, to, { { u"cpu.json"_s, json } }, saved, &error);
    QVERIFY2(stats, qPrintable(error));
    QCOMPARE(stats->series, 3);
    QCOMPARE(stats->alertEvents, 1);
    QCOMPARE(QFileInfo(saved).size(), stats->bytes);
    QVERIFY(!QFileInfo::exists(saved + u"-wal"_s));
    QVERIFY(QDir(m_dir->path()).entryList({ u"*.partial-*"_s }).isEmpty());

    SeriesRegistry copyRegistry;
    auto copy = SampleCache::openRecording(saved, &copyRegistry, &error);
    QVERIFY2(copy, qPrintable(error));
    QCOMPARE(copy->readMode(), u"read-only, in place"_s);
    const auto id
        = [&](const SeriesRegistry &r, const SeriesInfo &info) { return *r.find(info.key); };
    for (const SeriesInfo &info : { user, idle }) {
        const auto expected = cache->read(id(registry, info), from, to);
        const auto got = copy->read(id(copyRegistry, info), 0, std::numeric_limits<qint64>::max());
        QVERIFY(!expected.empty());
        QVERIFY2(sameBits(got, expected), qPrintable(info.key.toString()));
    }
    // Ids keep their order, so panels list the series as they did.
    QVERIFY(id(copyRegistry, user) < id(copyRegistry, idle));
    const auto histograms = copy->readHistograms(id(copyRegistry, latencyInfo), 0,
                                                 std::numeric_limits<qint64>::max());
    const auto expectedHistograms = cache->readHistograms(id(registry, latencyInfo), from, to);
    QCOMPARE(histograms.size(), expectedHistograms.size());
    QCOMPARE(histograms.size(), size_t(18)); // every 10 minutes, 3:10 to 6:00
    for (size_t i = 0; i < histograms.size(); ++i) {
        QCOMPARE(histograms[i].first, expectedHistograms[i].first);
        QCOMPARE(histograms[i].second.serialize(), expectedHistograms[i].second.serialize());
    }
    const auto events = copy->readAlertEvents(0, std::numeric_limits<qint64>::max());
    QCOMPARE(events.size(), 1);
    QCOMPARE(events.front().tsMs, inside.tsMs);
    QCOMPARE(events.front().ruleName, inside.ruleName);
    const auto dashboards = copy->dashboards();
    QCOMPARE(dashboards.size(), 1);
    QCOMPARE(dashboards.front().first, u"cpu.json"_s);
    QCOMPARE(dashboards.front().second, json);
    const auto span = copy->span();
    QVERIFY(span);
    QVERIFY(span->first >= from && span->second <= to);
    QVERIFY(copy->chunkDays().size() <= 2); // just the span's days, not the source's three

    // The cache being read is not a place to save to.
    QVERIFY(!saveRecording(*cache, registry, from, to, {}, path, &error));
    QVERIFY2(error.contains(u"is the cache being read"_s), qPrintable(error));
}

void TestRecording::saveRecordingReplacesWholeOrNotAtAll()
{
    const QString path = m_dir->filePath(u"cache.sqlite"_s);
    makeRecording(path);
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::openRecording(path, &registry, &error);
    QVERIFY2(cache, qPrintable(error));
    const QString target = m_dir->filePath(u"saved.sqlite"_s);
    {
        QFile old(target);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("an older file of that name\n");
    }
    QVERIFY2(
        saveRecording(*cache, registry, m_startMs, m_startMs + 3600 * 1000, {}, target, &error),
        qPrintable(error));
    SeriesRegistry copyRegistry;
    QVERIFY2(SampleCache::openRecording(target, &copyRegistry, &error), qPrintable(error));
    // A directory that cannot be written to: nothing is left behind, the old file stays.
    const QString blocked = m_dir->filePath(u"blocked"_s);
    QVERIFY(QDir().mkpath(blocked));
    const QString blockedTarget = blocked + u"/saved.sqlite"_s;
    {
        QFile old(blockedTarget);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("keep me\n");
    }
    // A file where the partial copy's directory should be: the copy cannot be created.
    QVERIFY(!saveRecording(*cache, registry, m_startMs, m_startMs + 3600 * 1000, {},
                           blocked + u"/saved.sqlite/inside.sqlite"_s, &error));
    QVERIFY2(error.startsWith(QDir::toNativeSeparators(blocked)), qPrintable(error));
    QCOMPARE(QDir(blocked).entryList(QDir::Files), QStringList { u"saved.sqlite"_s });
    QCOMPARE(fileHash(blockedTarget),
             QCryptographicHash::hash("keep me\n", QCryptographicHash::Sha256));
}

QTEST_GUILESS_MAIN(TestRecording)
#include "tst_recording.moc"
