// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// DayReclaimer on a real cache file: expired days found by their tables, freed a slice
// at a time oldest first, the days still listed never touched; table names parsed.
#include "engine/cache/cacheschema.h"
#include "engine/cache/dayreclaimer.h"
#include "engine/cache/sqlitedb.h"

#include <QTemporaryDir>
#include <QTest>
#include <sqlite3.h>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 Day = 19'700;

qint64 scalar(sqlite3 *db, const QByteArray &sql)
{
    Sqlite::Statement st(db, sql);
    return st.step() ? st.columnInt64(0) : -1;
}

bool tableExists(sqlite3 *db, const QByteArray &name)
{
    return scalar(db,
                  "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = '" + name
                      + "'")
        == 1;
}

// A day's tables with `blocks` block rows and `histograms` histogram rows of junk
// data: the reclaimer never reads what it deletes.
void fillDay(sqlite3 *db, qint64 day, int blocks, int histograms)
{
    QString error;
    QVERIFY2(Sqlite::exec(db, CacheSchema::createDayTablesSql(day), &error), qPrintable(error));
    const QByteArray n = QByteArray::number(blocks), h = QByteArray::number(histograms);
    const QByteArray start = QByteArray::number(day * CacheSchema::DayMs);
    QVERIFY2(
        Sqlite::exec(db,
                     "WITH RECURSIVE i(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM i WHERE x < " + n
                         + " - 1) INSERT INTO " + CacheSchema::blocksTable(day)
                         + "(series_id, start_ts, end_ts, count, data, min, max, sum)"
                           " SELECT x % 50, "
                         + start + " + x * 1000, " + start
                         + " + x * 1000 + 999, 120, randomblob(240), 0, 1, 60 FROM i;"
                           "WITH RECURSIVE i(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM i"
                           " WHERE x < "
                         + h + " - 1) INSERT INTO " + CacheSchema::histTable(day)
                         + "(series_id, ts, data) SELECT x % 7, " + start
                         + " + x * 1000, randomblob(60) FROM i;",
                     &error),
        qPrintable(error));
}

} // namespace

class TestDayReclaimer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void dayOfTable_data();
    void dayOfTable();
    void freesExpiredDaysInSlicesOldestFirst();
    void listedDaysAreNoOrphans();
    void dropWholeSqlRemovesWhatIsLeft();

private:
    QTemporaryDir m_dir;
    sqlite3 *m_db = nullptr;
};

void TestDayReclaimer::init()
{
    QVERIFY(m_dir.isValid());
    QFile::remove(m_dir.filePath(u"cache.sqlite"_s));
    QCOMPARE(sqlite3_open(qPrintable(m_dir.filePath(u"cache.sqlite"_s)), &m_db), SQLITE_OK);
    QString error;
    QVERIFY2(Sqlite::configure(m_db, true, &error), qPrintable(error));
    QVERIFY2(CacheSchema::createOrMigrate(m_db, &error), qPrintable(error));
}

void TestDayReclaimer::cleanup()
{
    sqlite3_close(m_db);
    m_db = nullptr;
}

void TestDayReclaimer::dayOfTable_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<qint64>("day"); // -1: not a day table
    QTest::newRow("blocks") << "blocks_19700"_ba << qint64(19700);
    QTest::newRow("histograms") << "hist_19700"_ba << qint64(19700);
    QTest::newRow("day zero") << "blocks_0"_ba << qint64(0);
    QTest::newRow("before 1970") << "hist_m3"_ba << qint64(-3);
    QTest::newRow("index") << "blocks_19700_series"_ba << qint64(-1);
    QTest::newRow("no number") << "blocks_"_ba << qint64(-1);
    QTest::newRow("leading zero") << "blocks_019700"_ba << qint64(-1);
    QTest::newRow("minus zero") << "hist_m0"_ba << qint64(-1);
    QTest::newRow("bare m") << "hist_m"_ba << qint64(-1);
    QTest::newRow("sign") << "blocks_+5"_ba << qint64(-1);
    QTest::newRow("catalogue") << "chunks"_ba << qint64(-1);
    QTest::newRow("other prefix") << "xblocks_5"_ba << qint64(-1);
    QTest::newRow("overflow") << "blocks_99999999999999999999"_ba << qint64(-1);
}

void TestDayReclaimer::dayOfTable()
{
    QFETCH(QByteArray, name);
    QFETCH(qint64, day);
    const std::optional<qint64> parsed = CacheSchema::dayOfTable(name);
    if (day == -1)
        QVERIFY2(!parsed, qPrintable(QString::number(parsed.value_or(0))));
    else
        QCOMPARE(parsed, std::optional<qint64>(day));
    // Every day's own names read back as that day.
    if (parsed) {
        QCOMPARE(CacheSchema::dayOfTable(CacheSchema::blocksTable(*parsed)), parsed);
        QCOMPARE(CacheSchema::dayOfTable(CacheSchema::histTable(*parsed)), parsed);
    }
}

void TestDayReclaimer::freesExpiredDaysInSlicesOldestFirst()
{
    fillDay(m_db, Day, 5000, 700);
    fillDay(m_db, Day + 1, 300, 30);
    fillDay(m_db, Day + 2, 1000, 100);
    // Days 0 and 1 expired: out of the catalogue, their tables still there.
    QVERIFY(Sqlite::exec(m_db, "DELETE FROM chunks WHERE day < " + QByteArray::number(Day + 2),
                         nullptr));

    DayReclaimer reclaimer(m_db, 64);
    QString error;
    QVERIFY2(reclaimer.findOrphans(&error), qPrintable(error));
    QCOMPARE(reclaimer.pendingDays(), 2);
    QVERIFY(reclaimer.contains(Day) && reclaimer.contains(Day + 1) && !reclaimer.contains(Day + 2));

    const QByteArray oldBlocks = CacheSchema::blocksTable(Day);
    const QByteArray newerBlocks = CacheSchema::blocksTable(Day + 1);
    int slices = 0;
    qint64 previous = scalar(m_db, "SELECT count(*) FROM " + oldBlocks);
    while (reclaimer.pending()) {
        QVERIFY2(reclaimer.runSlice(&error), qPrintable(error));
        ++slices;
        QVERIFY(slices < 10'000);
        // Oldest day first: the next day is untouched while the first has rows left.
        if (tableExists(m_db, oldBlocks)) {
            const qint64 left = scalar(m_db, "SELECT count(*) FROM " + oldBlocks);
            QVERIFY2(left <= previous, qPrintable(u"%1 > %2"_s.arg(left).arg(previous)));
            previous = left;
            QCOMPARE(scalar(m_db, "SELECT count(*) FROM " + newerBlocks), 300);
            // Oldest rows go first: what is left is the newest rows.
            if (left > 0)
                QCOMPARE(scalar(m_db, "SELECT max(id) FROM " + oldBlocks), 5000);
        }
        QVERIFY(reclaimer.sliceRows() >= DayReclaimer::MinSliceRows
                && reclaimer.sliceRows() <= DayReclaimer::MaxSliceRows);
    }
    QVERIFY2(slices > 2, qPrintable(QString::number(slices)));
    QCOMPARE(reclaimer.rowsDeleted(), qint64(5000 + 700 + 300 + 30));
    for (qint64 day : { Day, Day + 1 }) {
        QVERIFY(!tableExists(m_db, CacheSchema::blocksTable(day)));
        QVERIFY(!tableExists(m_db, CacheSchema::histTable(day)));
    }
    // The day still listed keeps every row, and its index.
    QCOMPARE(scalar(m_db, "SELECT count(*) FROM " + CacheSchema::blocksTable(Day + 2)), 1000);
    QCOMPARE(scalar(m_db, "SELECT count(*) FROM " + CacheSchema::histTable(Day + 2)), 100);
    QCOMPARE(scalar(m_db,
                    "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND tbl_name = '"
                        + CacheSchema::blocksTable(Day + 2) + "'"),
             1);
    QCOMPARE(scalar(m_db, "SELECT count(*) FROM chunks"), 1);
    // The file is whole after all those transactions.
    Sqlite::Statement check(m_db, "PRAGMA integrity_check");
    QVERIFY(check.step());
    QCOMPARE(check.columnText(0), u"ok"_s);
}

void TestDayReclaimer::listedDaysAreNoOrphans()
{
    fillDay(m_db, Day, 10, 2);
    fillDay(m_db, -3, 10, 2); // a day before 1970 (a clock gone wrong once)
    DayReclaimer reclaimer(m_db);
    QString error;
    QVERIFY2(reclaimer.findOrphans(&error), qPrintable(error));
    QVERIFY(!reclaimer.pending());
    QVERIFY(reclaimer.runSlice(&error)); // nothing to do, nothing done
    QCOMPARE(scalar(m_db, "SELECT count(*) FROM " + CacheSchema::blocksTable(-3)), 10);
    QCOMPARE(scalar(m_db, "SELECT count(*) FROM " + CacheSchema::blocksTable(Day)), 10);
}

void TestDayReclaimer::dropWholeSqlRemovesWhatIsLeft()
{
    fillDay(m_db, Day, 2000, 10);
    QVERIFY(Sqlite::exec(m_db, "DELETE FROM chunks", nullptr));
    DayReclaimer reclaimer(m_db, 64);
    QString error;
    QVERIFY(reclaimer.findOrphans(&error));
    QVERIFY(reclaimer.runSlice(&error));
    QVERIFY(reclaimer.pending());
    QCOMPARE(scalar(m_db, "SELECT count(*) FROM " + CacheSchema::blocksTable(Day)), 2000 - 64);
    QCOMPARE(scalar(m_db, "SELECT min(id) FROM " + CacheSchema::blocksTable(Day)), 65);
    // A late sample creates the day again: what is left of the old rows goes first.
    QVERIFY2(Sqlite::exec(m_db,
                          DayReclaimer::dropWholeSql(Day) + CacheSchema::createDayTablesSql(Day),
                          &error),
             qPrintable(error));
    reclaimer.forget(Day);
    QVERIFY(!reclaimer.pending());
    QCOMPARE(scalar(m_db, "SELECT count(*) FROM " + CacheSchema::blocksTable(Day)), 0);
    QCOMPARE(scalar(m_db, "SELECT count(*) FROM " + CacheSchema::histTable(Day)), 0);
    QCOMPARE(scalar(m_db, "SELECT count(*) FROM chunks"), 1);
}

QTEST_GUILESS_MAIN(TestDayReclaimer)
#include "tst_dayreclaimer.moc"
