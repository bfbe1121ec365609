// The shipped "PostgreSQL — USE" dashboard, exported headless against the test server
// found through PGHOST/PGPORT alone (the dashboard's pg variable is empty: libpq
// defaults), while a lock wait, statements and a skewed load on a partitioned table
// happen: every panel has CSV rows, and the hot partition has the highest shard load.
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

class TestPostgresDashboard : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void exportHasEveryPanel();
};

namespace {
QProcess *psql(const QStringList &args, const QByteArray &script)
{
    auto *p = new QProcess;
    p->setProgram(qEnvironmentVariable("HEADROOM_TEST_PGBIN") + QStringLiteral("/psql"));
    p->setArguments(QStringList { QStringLiteral("-X"), QStringLiteral("-q"), QStringLiteral("-v"),
                                  QStringLiteral("ON_ERROR_STOP=1"), QStringLiteral("-d"),
                                  QStringLiteral("postgres") }
                    + args);
    p->start();
    p->waitForStarted();
    p->write(script);
    p->waitForBytesWritten(); // the writes would otherwise wait for an event loop
    p->closeWriteChannel();
    return p;
}
} // namespace

void TestPostgresDashboard::exportHasEveryPanel()
{
    if (qEnvironmentVariableIsEmpty("HEADROOM_TEST_PGHOST"))
        QSKIP("no test PostgreSQL (run through ./dev test)");
    qputenv("PGHOST", qgetenv("HEADROOM_TEST_PGHOST"));
    qputenv("PGPORT", qgetenv("HEADROOM_TEST_PGPORT"));
    qputenv("PGUSER", "postgres");
    qputenv("PGDATABASE", "postgres");

    // pg_stat_statements in the database the dashboard connects to (the test server
    // preloads the library).
    std::unique_ptr<QProcess> setup(
        psql({},
             "DROP TABLE IF EXISTS dash_lock;"
             "CREATE TABLE dash_lock (id int primary key, v int);"
             "INSERT INTO dash_lock SELECT g, 0 FROM generate_series(1, 1000) g;"
             "CREATE EXTENSION IF NOT EXISTS pg_stat_statements;"
             "DROP TABLE IF EXISTS dash_orders;"
             "CREATE TABLE dash_orders (region int, id int) PARTITION BY LIST (region);"
             "CREATE TABLE dash_orders_p0 PARTITION OF dash_orders FOR VALUES IN (0);"
             "CREATE TABLE dash_orders_p1 PARTITION OF dash_orders FOR VALUES IN (1);"
             "CREATE TABLE dash_orders_p2 PARTITION OF dash_orders FOR VALUES IN (2);"
             "CREATE TABLE dash_orders_p3 PARTITION OF dash_orders FOR VALUES IN (3);"
             "INSERT INTO dash_orders SELECT g % 4, g FROM generate_series(1, 4000) g;"));
    QVERIFY(setup->waitForFinished(30000));
    QCOMPARE(setup->exitCode(), 0);
    // One session holds a row lock for 8 s, a second waits on it (Lock:transactionid),
    // a third scans the table repeatedly (tuples and blocks for the ratio).
    std::unique_ptr<QProcess> holder(
        psql({}, "BEGIN; UPDATE dash_lock SET v = 1 WHERE id = 1; SELECT pg_sleep(8); COMMIT;"));
    QTest::qWait(500);
    std::unique_ptr<QProcess> waiter(psql({}, "UPDATE dash_lock SET v = 2 WHERE id = 1;"));
    // Region 2 is hot: ten scans of it for each of the others.
    QByteArray scans;
    for (int i = 0; i < 40; ++i) {
        scans += "SELECT count(*) FROM dash_lock; SELECT pg_sleep(0.1);";
        for (int hot = 0; hot < 10; ++hot)
            scans += "SELECT count(*) FROM dash_orders WHERE region = 2;";
        scans
            += "SELECT count(*) FROM dash_orders WHERE region = " + QByteArray::number(i % 4) + ";";
    }
    std::unique_ptr<QProcess> scanner(psql({}, scans));

    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("pg.csv"));
    QProcess headroom;
    headroom.start(QStringLiteral(HEADROOM_BUILD_DIR "/bin/headroom"),
                   { QStringLiteral("--no-cache"), QStringLiteral("--dashboard"),
                     QStringLiteral("postgres-use.json"), QStringLiteral("--collect-for"),
                     QStringLiteral("6"), QStringLiteral("--range"), QStringLiteral("1m"),
                     QStringLiteral("--export-png"), dir.filePath(QStringLiteral("pg.png")),
                     QStringLiteral("--export-csv"), csv });
    QVERIFY(headroom.waitForFinished(60000));
    QVERIFY2(headroom.exitCode() == 0, headroom.readAllStandardError().constData());
    for (auto *p : { holder.get(), waiter.get(), scanner.get() }) {
        QVERIFY(p->waitForFinished(30000));
        QVERIFY2(p->exitCode() == 0, p->readAllStandardError().constData());
    }

    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QSet<QString> panels;
    bool sawLockWait = false;
    QMap<QByteArray, double> peakLoad; // shard -> highest pg.shard.load seen
    for (const QByteArray &line : file.readAll().split('\n')) {
        const QList<QByteArray> fields = line.trimmed().split(',');
        if (fields.size() < 7 || fields[0] == "time")
            continue;
        panels.insert(QString::fromUtf8(fields[1]));
        sawLockWait = sawLockWait || (line.contains("Lock:transactionid") && !line.contains(",0,"));
        if (fields[1] == "shard-load" && line.contains("public.dash_orders")) {
            const qsizetype at = line.indexOf("shard=public.dash_orders_");
            QVERIFY(at >= 0);
            const QByteArray shard = line.mid(at + 6, 21); // public.dash_orders_pN
            peakLoad[shard]
                = std::max(peakLoad.value(shard), fields.at(fields.size() - 2).toDouble());
        }
    }
    for (const char *id : { "transactions", "sessions", "waits", "rows-per-block", "tuples",
                            "blocks", "ages", "errors", "latency-probe", "latency-statements",
                            "statements-time", "statements-calls", "shard-load", "shard-sets" })
        QVERIFY2(panels.contains(QString::fromLatin1(id)), id);
    QVERIFY(sawLockWait);
    QCOMPARE(peakLoad.size(), 4);
    const auto hottest = std::max_element(peakLoad.cbegin(), peakLoad.cend());
    QCOMPARE(hottest.key(), QByteArray("public.dash_orders_p2"));
    QCOMPARE(hottest.value(), 100.0);
}

QTEST_GUILESS_MAIN(TestPostgresDashboard)
#include "tst_postgresdashboard.moc"
