// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A file the cache cannot use is refused with its name and the reason, and is never
// modified: not a byte of it, and no WAL, shared-memory or lock file beside it.
#include "cachetestutil.h"

#include <QDir>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <sqlite3.h>

using namespace Qt::StringLiterals;

using namespace Headroom;
using namespace CacheTest;

namespace {

CacheOptions options()
{
    CacheOptions o;
    o.retentionDays = 0;
    return o;
}

bool rawExec(const QString &path, const char *sql)
{
    sqlite3 *db = nullptr;
    bool ok = sqlite3_open(path.toUtf8().constData(), &db) == SQLITE_OK
        && sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return ok;
}

// A real cache with some hundred pages of blocks, closed (so the WAL is merged).
bool makeCache(const QString &path)
{
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, options());
    if (!cache)
        return false;
    for (int i = 0; i < 6000; ++i) {
        QList<std::pair<SeriesInfo, double>> values;
        for (int s = 0; s < 10; ++s)
            values.append({ gauge(u"g"_s, QString::number(s)), i * 0.123456789 + s });
        cache->consume(valuesAt(registry, 1'700'000'000'000 + i * 1000LL, values));
    }
    return true;
}

} // namespace

class TestCacheRefusal : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void refused_data();
    void refused();
    void emptyFilesAreAccepted_data();
    void emptyFilesAreAccepted();
};

void TestCacheRefusal::refused_data()
{
    // Each row prepares a file in an empty directory; the opener must refuse it.
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("reason");
    QTest::newRow("text file") << "text" << "not a Headroom cache (not an SQLite database)";
    QTest::newRow("short binary") << "short" << "not a Headroom cache (not an SQLite database)";
    QTest::newRow("other application") << "otherapp"
                                       << "not a Headroom cache (application id 0x12345678";
    QTest::newRow("plain sqlite with tables") << "plainsqlite"
                                              << "not a Headroom cache (application id 0x00000000";
    QTest::newRow("newer schema")
        << "newer"
        << u"written by a newer Headroom (cache schema %1, this build reads up to %2); not modified"_s
               .arg(SampleCache::SchemaVersion + 1)
               .arg(SampleCache::SchemaVersion);
    QTest::newRow("truncated") << "truncated" << "unreadable or corrupt cache (";
    QTest::newRow("overwritten pages") << "overwritten" << "unreadable or corrupt cache (";
    QTest::newRow("directory") << "directory" << "not a regular file";
}

void TestCacheRefusal::refused()
{
    QFETCH(QString, kind);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"cache.sqlite"_s);

    if (kind == QLatin1StringView("text")) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("host,metric,value\nhost,cpu,1\n");
    } else if (kind == QLatin1StringView("short")) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("SQLite format", 13);
    } else if (kind == QLatin1StringView("otherapp")) {
        QVERIFY(rawExec(path, "CREATE TABLE notes(x); PRAGMA application_id = 305419896;"));
    } else if (kind == QLatin1StringView("plainsqlite")) {
        QVERIFY(rawExec(path, "CREATE TABLE series(id INTEGER PRIMARY KEY, name TEXT);"));
    } else if (kind == QLatin1StringView("newer")) {
        QVERIFY(makeCache(path));
        const QByteArray newer = QByteArray::number(SampleCache::SchemaVersion + 1);
        QVERIFY(rawExec(path, QByteArray("PRAGMA user_version = " + newer + ";").constData()));
    } else if (kind == QLatin1StringView("truncated")) {
        QVERIFY(makeCache(path));
        QFile f(path);
        QVERIFY(f.size() > 100 * 4096);
        QVERIFY(f.resize(f.size() / 2));
    } else if (kind == QLatin1StringView("overwritten")) {
        QVERIFY(makeCache(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QRandomGenerator rng(99);
        QByteArray garbage(16 * 4096, Qt::Uninitialized);
        for (auto &c : garbage)
            c = char(rng.bounded(256));
        QVERIFY(f.seek(f.size() / 2 / 4096 * 4096));
        QCOMPARE(f.write(garbage), garbage.size());
    } else if (kind == QLatin1StringView("directory")) {
        QVERIFY(QDir().mkdir(path));
    }

    const auto listing
        = [&] { return QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot); };
    const QStringList filesBefore = listing();
    const QByteArray before = fileHash(path);

    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, options());
    QVERIFY(!cache);
    const QString expected = QDir::toNativeSeparators(path) + QLatin1StringView(": ") + reason;
    QVERIFY2(error.startsWith(expected), qPrintable(error));
    qInfo("%s", qPrintable(error));
    QCOMPARE(fileHash(path), before);
    QCOMPARE(listing(), filesBefore); // no -wal, -shm or .lock either
    QCOMPARE(registry.size(), 0);
}

void TestCacheRefusal::emptyFilesAreAccepted_data()
{
    QTest::addColumn<bool>("sqliteEmpty");
    QTest::newRow("zero bytes") << false;
    QTest::newRow("sqlite database without tables") << true;
}

void TestCacheRefusal::emptyFilesAreAccepted()
{
    QFETCH(bool, sqliteEmpty);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"cache.sqlite"_s);
    if (sqliteEmpty) {
        QVERIFY(rawExec(path, "PRAGMA page_size = 4096; VACUUM;"));
        QVERIFY(QFileInfo(path).size() > 0);
    } else {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, options());
    QVERIFY2(cache, qPrintable(error));
    cache->consume(valuesAt(registry, 1000, { { gauge(u"a"_s), 1 } }));
    cache->flush();
    QCOMPARE(cache->read(1, 0, 2000), (std::vector<Sample> { { 1000, 1 } }));
}

QTEST_GUILESS_MAIN(TestCacheRefusal)
#include "tst_cacherefusal.moc"
