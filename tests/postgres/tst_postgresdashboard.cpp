// The shipped "PostgreSQL — USE" dashboard, exported headless against the test server
// found through PGHOST/PGPORT alone (the dashboard's pg variable is empty: libpq
// defaults), while a lock wait and some work happen: every panel has CSV rows.
#include <QFile>
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

    std::unique_ptr<QProcess> setup(
        psql({},
             "DROP TABLE IF EXISTS dash_lock;"
             "CREATE TABLE dash_lock (id int primary key, v int);"
             "INSERT INTO dash_lock SELECT g, 0 FROM generate_series(1, 1000) g;"));
    QVERIFY(setup->waitForFinished(30000));
    QCOMPARE(setup->exitCode(), 0);
    // One session holds a row lock for 8 s, a second waits on it (Lock:transactionid),
    // a third scans the table repeatedly (tuples and blocks for the ratio).
    std::unique_ptr<QProcess> holder(
        psql({}, "BEGIN; UPDATE dash_lock SET v = 1 WHERE id = 1; SELECT pg_sleep(8); COMMIT;"));
    QTest::qWait(500);
    std::unique_ptr<QProcess> waiter(psql({}, "UPDATE dash_lock SET v = 2 WHERE id = 1;"));
    QByteArray scans;
    for (int i = 0; i < 40; ++i)
        scans += "SELECT count(*) FROM dash_lock; SELECT pg_sleep(0.1);";
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
    for (const QByteArray &line : file.readAll().split('\n')) {
        const QList<QByteArray> fields = line.split(',');
        if (fields.size() < 7 || fields[0] == "time")
            continue;
        panels.insert(QString::fromUtf8(fields[1]));
        sawLockWait = sawLockWait || (line.contains("Lock:transactionid") && !line.contains(",0,"));
    }
    for (const char *id : { "transactions", "sessions", "waits", "rows-per-block", "tuples",
                            "blocks", "ages", "errors" })
        QVERIFY2(panels.contains(QString::fromLatin1(id)), id);
    QVERIFY(sawLockWait);
}

QTEST_GUILESS_MAIN(TestPostgresDashboard)
#include "tst_postgresdashboard.moc"
