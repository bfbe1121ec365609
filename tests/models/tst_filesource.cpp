// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Directory listings are capped at DirectoryListing::MaxEntries, the first by name,
// with the directory's real count kept for the warning: LocalFileSource on a temporary
// tree (written in reverse order, so the cap must sort), and capListing(), which the
// SSH source applies to a listing that arrived whole.
#include "collector/filesource.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestFileSource : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void localListingCap_data();
    void localListingCap();
    void capListing_data();
    void capListing();
};

namespace {
// Thousands of directories: on tmpfs when there is one, as /tmp on a busy disk makes
// creating and removing them take a minute.
QString scratchTemplate()
{
    const QFileInfo shm(u"/dev/shm"_s);
    return (shm.isDir() && shm.isWritable() ? shm.filePath() : QDir::tempPath())
        + u"/headroom-listing-XXXXXX"_s;
}

QString entryName(int i)
{
    return u"e%1"_s.arg(i, 5, 10, QChar(u'0'));
}
} // namespace

void TestFileSource::localListingCap_data()
{
    QTest::addColumn<int>("entries");
    QTest::newRow("empty") << 0;
    QTest::newRow("few") << 3;
    QTest::newRow("at the cap") << DirectoryListing::MaxEntries;
    QTest::newRow("one over") << DirectoryListing::MaxEntries + 1;
    // Past twice the cap the listing is cut while it is read, not only at the end.
    QTest::newRow("cut while listing") << 2 * DirectoryListing::MaxEntries + 7;
}

void TestFileSource::localListingCap()
{
    QFETCH(int, entries);
    QTemporaryDir root(scratchTemplate());
    QVERIFY(root.isValid());
    QVERIFY(QDir(root.path()).mkdir(u"d"_s));
    QDir dir(root.path() + u"/d"_s);
    for (int i = entries - 1; i >= 0; --i)
        QVERIFY(dir.mkdir(entryName(i)));

    LocalFileSource source(root.path());
    const DirectoryListing listing = source.listDirectory(u"/d"_s, QDeadlineTimer(10'000));
    QVERIFY(listing.error.isEmpty());
    const int kept = std::min(entries, DirectoryListing::MaxEntries);
    QCOMPARE(listing.entries.size(), qsizetype(kept));
    QCOMPARE(listing.totalEntries, qsizetype(entries));
    QCOMPARE(listing.capped(), entries > DirectoryListing::MaxEntries);
    for (int i = 0; i < kept; ++i)
        QCOMPARE(listing.entries.at(i), entryName(i)); // the first by name, in order
    if (listing.capped())
        QCOMPARE(listing.capWarning(u"/d"_s),
                 u"/d: %1 entries, only the first 4096 by name are read (listing cap 4096)"_s.arg(
                     entries));
    else
        QCOMPARE(listing.capWarning(u"/d"_s), QString());
}

void TestFileSource::capListing_data()
{
    QTest::addColumn<QStringList>("entries");
    QTest::addColumn<int>("cap");
    QTest::addColumn<QStringList>("kept");
    QTest::newRow("under") << QStringList { u"b"_s, u"a"_s } << 3 << QStringList { u"a"_s, u"b"_s };
    QTest::newRow("at") << QStringList { u"c"_s, u"b"_s, u"a"_s } << 3
                        << QStringList { u"a"_s, u"b"_s, u"c"_s };
    QTest::newRow("over: the first by name")
        << QStringList { u"eth9"_s, u"eth1"_s, u"veth0"_s, u"br0"_s } << 2
        << QStringList { u"br0"_s, u"eth1"_s };
}

void TestFileSource::capListing()
{
    QFETCH(QStringList, entries);
    QFETCH(int, cap);
    QFETCH(QStringList, kept);
    DirectoryListing listing { entries, {} };
    Headroom::capListing(&listing, cap);
    QCOMPARE(listing.entries, kept);
    QCOMPARE(listing.totalEntries, entries.size());
    QCOMPARE(listing.capped(), entries.size() > cap);
}

QTEST_GUILESS_MAIN(TestFileSource)
#include "tst_filesource.moc"
