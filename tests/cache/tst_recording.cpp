// A cache opened as a recording (SampleCache::openRecording) is only read: a 20-day-old
// recording keeps every day (no retention), its bytes and mtime do not change, nothing
// appears beside it (no -wal, -shm or lock), also with the file and its directory made
// read-only; an older schema and a crashed writer's -wal are read from a private copy;
// a newer schema is refused with both versions.
#include "cachetestutil.h"

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

// What a directory holds, with each file's size and mtime: "nothing appears beside it,
// nothing changes".
QStringList snapshot(const QString &dir)
{
    QStringList entries;
    const auto infos = QDir(dir).entryInfoList(QDir::Files | QDir::Hidden, QDir::Name);
    for (const QFileInfo &info : infos)
        entries << u"%1 %2 %3"_s.arg(info.fileName())
                       .arg(info.size())
                       .arg(info.lastModified().toMSecsSinceEpoch());
    return entries;
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
    m_startMs = (QDateTime::currentMSecsSinceEpoch() - 20 * DayMs) / 1000 * 1000;
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
        cache->consume(
            valuesAt(registry, ts, { { gauge(u"host.cpu.user"_s), user }, { gauge(u"host.cpu.system"_s), system } }));
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
    QCOMPARE(recording->chunkDays().size(), 3); // two days from a start within a day
}

void TestRecording::oldRecordingReadInPlaceUnchanged()
{
    const QString path = m_dir->filePath(u"incident.sqlite"_s);
    makeRecording(path);
    QVERIFY(!QFileInfo::exists(path + u"-wal"_s)); // closed: checkpointed and removed
    const QByteArray hash = fileHash(path);
    const QStringList handedOver = snapshot(m_dir->path());
    QTest::qWait(20); // an mtime written now would differ
    checkReadsEverything(path);
    {
        SeriesRegistry registry;
        QString error;
        auto recording = SampleCache::openRecording(path, &registry, &error);
        QVERIFY2(recording, qPrintable(error));
        QCOMPARE(recording->readMode(), u"read-only, in place"_s);
        // While it is open, too: nothing beside it.
        QCOMPARE(snapshot(m_dir->path()), handedOver);
    }
    QCOMPARE(snapshot(m_dir->path()), handedOver);
    QCOMPARE(fileHash(path), hash);
}

void TestRecording::readOnlyFileAndDirectory()
{
    const QString path = m_dir->filePath(u"incident.sqlite"_s);
    makeRecording(path);
    QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::ReadGroup));
    QCOMPARE(::chmod(QFile::encodeName(m_dir->path()).constData(), 0500), 0);
    const QByteArray hash = fileHash(path);
    const QStringList before = snapshot(m_dir->path());
    checkReadsEverything(path);
    QCOMPARE(snapshot(m_dir->path()), before);
    QCOMPARE(fileHash(path), hash);
}

void TestRecording::writesAreIgnored()
{
    const QString path = m_dir->filePath(u"incident.sqlite"_s);
    makeRecording(path);
    const QByteArray hash = fileHash(path);
    const QStringList before = snapshot(m_dir->path());
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
    QCOMPARE(snapshot(m_dir->path()), before);
    QCOMPARE(fileHash(path), hash);
}

void TestRecording::olderSchemaReadFromPrivateCopy()
{
    const QString path = m_dir->filePath(u"schema2.sqlite"_s);
    makeRecording(path);
    // Schema 2 is schema 3 without the alert events.
    QVERIFY(rawExec(path, "DROP TABLE alert_events; PRAGMA user_version = 2;"));
    const QByteArray hash = fileHash(path);
    const QStringList before = snapshot(m_dir->path());
    checkReadsEverything(path);
    {
        SeriesRegistry registry;
        QString error;
        auto recording = SampleCache::openRecording(path, &registry, &error);
        QVERIFY2(recording, qPrintable(error));
        QVERIFY2(recording->readMode().contains(u"migrated from cache schema 2 to 3"_s),
                 qPrintable(recording->readMode()));
        QVERIFY(recording->readAlertEvents(0, QDateTime::currentMSecsSinceEpoch(), &error).isEmpty());
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    QCOMPARE(snapshot(m_dir->path()), before);
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
    const QStringList before = snapshot(m_dir->path());
    SeriesRegistry registry;
    QString error;
    auto recording = SampleCache::openRecording(path, &registry, &error);
    QVERIFY2(recording, qPrintable(error));
    QVERIFY2(recording->readMode().contains(u"crashed.sqlite-wal"_s), qPrintable(recording->readMode()));
    const auto id = registry.find(gauge(u"host.cpu.user"_s).key);
    QVERIFY(id);
    QVERIFY(sameBits(recording->read(*id, m_startMs, m_startMs + 3 * DayMs), m_user));
    recording.reset();
    QCOMPARE(snapshot(m_dir->path()), before);
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
        << u"written by a newer Headroom (cache schema 9, this build reads up to 3); not modified"_s;
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
    const QStringList before = snapshot(m_dir->path());
    SeriesRegistry registry;
    QString error;
    QVERIFY(!SampleCache::openRecording(path, &registry, &error));
    QCOMPARE(error, QDir::toNativeSeparators(path) + u": "_s + expected);
    QCOMPARE(snapshot(m_dir->path()), before);
    QCOMPARE(fileHash(path), hash);
}

QTEST_GUILESS_MAIN(TestRecording)
#include "tst_recording.moc"
