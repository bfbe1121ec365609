// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Who may read the cache: a new cache, its -wal and -shm are 0600 and the directories
// created for it 0700 under the usual umask 022; existing files and directories keep
// their mode (never widened, and a deliberately shared recording is not narrowed).
#include "cachetestutil.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <functional>
#include <sys/stat.h>

using namespace Headroom;
using namespace CacheTest;
using namespace Qt::StringLiterals;

namespace {

// stat -c %a: the permission bits, in octal.
QString modeOf(const QString &path)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return u"missing"_s;
    return QString::number(st.st_mode & 07777, 8);
}

// Restores the process umask when the test ends, whatever it checked.
class UmaskScope
{
public:
    explicit UmaskScope(mode_t mask)
        : m_previous(::umask(mask))
    {
    }
    ~UmaskScope() { ::umask(m_previous); }

private:
    mode_t m_previous;
};

CacheOptions options()
{
    CacheOptions o;
    o.retentionDays = 0;
    return o;
}

// Opens path, writes a sample and commits it, and checks the files while it is open
// (the WAL and shared memory are removed when the last connection closes).
void writeOneSample(const QString &path, const std::function<void()> &whileOpen)
{
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, options());
    QVERIFY2(cache, qPrintable(error));
    cache->consume(valuesAt(registry, 1'700'000'000'000, { { gauge(u"cpu"_s), 1.0 } }));
    cache->flush();
    whileOpen();
}

} // namespace

class TestCacheFiles : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void newCacheIsPrivate();
    void existingModesAreKept();
    void widerWalIsNarrowedToTheMainFile();
};

void TestCacheFiles::newCacheIsPrivate()
{
    const UmaskScope umask(022);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString parent = dir.filePath(u"share"_s);
    const QString cacheDir = parent + u"/headroom"_s;
    const QString path = cacheDir + u"/cache.sqlite"_s;
    writeOneSample(path, [&] {
        QCOMPARE(modeOf(path), u"600"_s);
        QCOMPARE(modeOf(path + u"-wal"_s), u"600"_s);
        QCOMPARE(modeOf(path + u"-shm"_s), u"600"_s);
    });
    QCOMPARE(modeOf(cacheDir), u"700"_s);
    QCOMPARE(modeOf(parent), u"700"_s); // every directory made for the cache
    QCOMPARE(modeOf(path), u"600"_s); // and after closing
}

void TestCacheFiles::existingModesAreKept()
{
    const UmaskScope umask(022);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A folder the user made, and an (empty) file shared with a group on purpose.
    const QString shared = dir.filePath(u"team"_s);
    QVERIFY(QDir().mkdir(shared));
    QVERIFY(::chmod(QFile::encodeName(shared).constData(), 0750) == 0);
    const QString path = shared + u"/recording.sqlite"_s;
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0640) == 0);

    writeOneSample(path, [&] {
        QCOMPARE(modeOf(path), u"640"_s);
        QCOMPARE(modeOf(path + u"-wal"_s), u"640"_s); // SQLite copies the main file's
    });
    QCOMPARE(modeOf(shared), u"750"_s);
    QCOMPARE(modeOf(path), u"640"_s);
}

void TestCacheFiles::widerWalIsNarrowedToTheMainFile()
{
    const UmaskScope umask(022);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"cache.sqlite"_s);
    writeOneSample(path, [] { });
    // A -wal left world-readable (by an older Headroom's crash, say) beside a private file.
    QFile wal(path + u"-wal"_s);
    QVERIFY(wal.open(QIODevice::WriteOnly));
    // Not empty: SQLite itself gives an empty one the main file's mode when it opens it.
    wal.write(QByteArray(100, '\0'));
    wal.close();
    QVERIFY(::chmod(QFile::encodeName(wal.fileName()).constData(), 0644) == 0);
    writeOneSample(path, [&] { QCOMPARE(modeOf(path + u"-wal"_s), u"600"_s); });
    QCOMPARE(modeOf(path), u"600"_s);
}

QTEST_GUILESS_MAIN(TestCacheFiles)
#include "tst_cachefiles.moc"
