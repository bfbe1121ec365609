// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The shipped "PostgreSQL — USE" dashboard, exported headless against the test server
// found through PGHOST/PGPORT alone (the dashboard's pg variable is empty: libpq
// defaults), while a lock wait, statements and a skewed load on a partitioned table
// happen: every panel has CSV rows, and the hot partition has the highest shard load.
// The server is on its socket here, so the dashboard's host source reads this machine:
// its rows in the USE matrix and the host panels, and the sessions' CPU per application.
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

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
    p->setProgram(qEnvironmentVariable("HEADROOM_TEST_PGBIN") + u"/psql"_s);
    p->setArguments(
        QStringList { u"-X"_s, u"-q"_s, u"-v"_s, u"ON_ERROR_STOP=1"_s, u"-d"_s, u"postgres"_s }
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
    // Region 2 is hot: ten scans of it for each of the others. About 10 s, so the
    // scans outlast the collection (the shard table and histogram show its last poll),
    // each round flushed at once, so every poll interval sees some of them (a backend
    // otherwise flushes its counters about once a second, which a 1 s poll can miss).
    QByteArray scans;
    for (int i = 0; i < 80; ++i) {
        scans += "SELECT count(*) FROM dash_lock; SELECT pg_sleep(0.1);";
        for (int hot = 0; hot < 10; ++hot)
            scans += "SELECT count(*) FROM dash_orders WHERE region = 2;";
        scans
            += "SELECT count(*) FROM dash_orders WHERE region = " + QByteArray::number(i % 4) + ";";
        scans += "SELECT pg_stat_force_next_flush();";
    }
    std::unique_ptr<QProcess> scanner(psql({}, scans));

    QTemporaryDir dir;
    const QString csv = dir.filePath(u"pg.csv"_s);
    QProcess headroom;
    headroom.start(QStringLiteral(HEADROOM_BUILD_DIR "/bin/headroom"),
                   { u"--no-cache"_s, u"--dashboard"_s, u"postgres-use.json"_s, u"--collect-for"_s,
                     u"6"_s, u"--range"_s, u"1m"_s, u"--export-png"_s, dir.filePath(u"pg.png"_s),
                     u"--export-csv"_s, csv });
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
    QList<QByteArray> topShardRows; // the top-shards table's rows, in order
    QList<QByteArray> blockingRows; // the blocking tree's rows, depth first
    QMap<QByteArray, QMap<QByteArray, double>> buckets; // histogram: time -> bucket -> shards
    QMap<QByteArray, double> overloaded; // histogram: time -> overloaded shards
    QMap<QByteArray, double> probeRunsPerSecond; // heatmap column -> its cells summed
    QList<double> probeApdex; // the APDEX panel's probe values (T: apdex_t, 50 ms)
    QList<QByteArray> matrixHostRows; // the USE matrix's rows of the host source
    QList<QByteArray> matrixNicRows; // and of its network
    QList<QByteArray> applicationRows; // CPU by application
    for (const auto lines = file.readAll().split('\n'); const QByteArray &line : lines) {
        const QList<QByteArray> fields = line.trimmed().split(',');
        if (fields.size() < 7 || fields[0] == "time")
            continue;
        panels.insert(QString::fromUtf8(fields[1]));
        sawLockWait = sawLockWait || (line.contains("Lock:transactionid") && !line.contains(",0,"));
        // A heatmap row: one cell, labels {bucket=...,gt_ms=...,le_ms=...} (quoted,
        // so split in three here), events per second, unit 1/s.
        if (fields[1] == "latency-probe-heatmap") {
            QVERIFY2(line.contains(",\"{bucket=") && line.contains(",le_ms="), line.constData());
            QCOMPARE(fields.last().trimmed(), QByteArray("1/s"));
            QCOMPARE(fields[3], QByteArray("pg.latency.probe"));
            probeRunsPerSecond[fields[0]] += fields.at(fields.size() - 2).toDouble();
        }
        if (fields[1] == "top-shards")
            topShardRows.append(line.trimmed());
        if (fields[1] == "apdex" && fields[3] == "pg.apdex.probe")
            probeApdex.append(fields.at(fields.size() - 2).toDouble());
        if (fields[1] == "blocking")
            blockingRows.append(line.trimmed());
        if (fields[1] == "use-matrix" && fields[2] == "host")
            matrixHostRows.append(line.trimmed());
        if (fields[1] == "use-matrix" && fields[2] == "nic")
            matrixNicRows.append(line.trimmed());
        if (fields[1] == "application-cpu")
            applicationRows.append(line.trimmed());
        if (fields[1] == "shard-histogram" && fields[3] == "shard.load.bucket") {
            // Labels {bucket=90-100%,set=...}: quoted, so split apart above.
            const qsizetype at = line.indexOf("bucket=");
            const QByteArray bucket = line.mid(at + 7, line.indexOf(',', at) - at - 7);
            buckets[fields[0]][bucket] = fields.at(fields.size() - 2).toDouble();
            QCOMPARE(fields.last().trimmed(), QByteArray("shards"));
        }
        if (fields[1] == "shard-histogram" && fields[3] == "shard.load.overloaded")
            overloaded[fields[0]] = fields.at(fields.size() - 2).toDouble();
        if (fields[1] == "shard-load" && line.contains("public.dash_orders")) {
            const qsizetype at = line.indexOf("shard=public.dash_orders_");
            QVERIFY(at >= 0);
            const QByteArray shard = line.mid(at + 6, 21); // public.dash_orders_pN
            peakLoad[shard]
                = std::max(peakLoad.value(shard), fields.at(fields.size() - 2).toDouble());
        }
    }
    for (const char *id :
         { "transactions", "sessions", "waits", "rows-per-block", "tuples", "blocks", "ages",
           "errors", "latency-probe", "latency-statements", "statements-time", "statements-calls",
           "shard-load", "shard-sets", "latency-probe-heatmap", "latency-statements-heatmap",
           // Connections, WAL, I/O and sizes: what a lone server without standbys fills.
           "connections", "connections-refused", "connections-applications", "connections-users",
           "wal-rate", "wal-forced", "buffers-written", "io-by-backend", "db-size",
           "statements-temp",
           // The server's host: this machine, as the server is on its socket.
           "host-cpu", "host-processes", "application-cpu" })
        QVERIFY2(panels.contains(QString::fromLatin1(id)), id);
    // The USE matrix shows the host's CPU and memory beside the database's rows.
    const QByteArray matrixHost = matrixHostRows.join('\n');
    QVERIFY2(matrixHost.contains(",host.cpu.utilization,")
                 && matrixHost.contains(",host.mem.utilization,"),
             matrixHost.constData());
    // And the host's network: its TCP row (listen queue drops, counted on any machine).
    const QByteArray matrixNic = matrixNicRows.join('\n');
    QVERIFY2(matrixNic.contains(",tcp.listen_drops,"), matrixNic.constData());
    // The sessions' CPU, per application: psql's sessions did the work here.
    const QByteArray applications = applicationRows.join('\n');
    QVERIFY2(applications.contains("application=psql"), applications.constData());
    QVERIFY(sawLockWait);
    // The probe's APDEX, a point per poll with runs in it: a local SELECT 1 is well
    // within 50 ms.
    QVERIFY2(probeApdex.size() >= 3, qPrintable(QString::number(probeApdex.size())));
    for (const double apdex : std::as_const(probeApdex))
        QVERIFY2(apdex >= 0.5 && apdex <= 1, qPrintable(QString::number(apdex)));
    // Who blocks whom at the last poll: the holder (the statement it runs now, without
    // its values: psql sends the -c statements one by one), then the waiter below it.
    QCOMPARE(blockingRows.size(), 2);
    QVERIFY2(blockingRows.at(0).contains("depth=0")
                 && blockingRows.at(0).contains("query=SELECT pg_sleep($1);")
                 && blockingRows.at(0).endsWith(",1,sessions"),
             blockingRows.at(0).constData());
    QVERIFY2(blockingRows.at(1).contains("depth=1") && blockingRows.at(1).contains("blocked_by=")
                 && blockingRows.at(1).contains("wait=Lock:transactionid"),
             blockingRows.at(1).constData());
    // The probe runs 10 times per 1 s poll: each column of its heatmap (one per poll in
    // the export) adds up to about 10 runs per second, never much more.
    int fullColumns = 0;
    for (double runs : std::as_const(probeRunsPerSecond)) {
        QVERIFY2(runs > 0 && runs <= 12, qPrintable(QString::number(runs)));
        fullColumns += runs >= 8;
    }
    qInfo("probe heatmap: %d columns with runs, %d of them at >= 8 runs/s",
          int(probeRunsPerSecond.size()), fullColumns);
    QVERIFY2(fullColumns >= 3, qPrintable(QString::number(fullColumns)));
    QCOMPARE(peakLoad.size(), 4);
    const auto hottest = std::max_element(peakLoad.cbegin(), peakLoad.cend());
    QCOMPARE(hottest.key(), QByteArray("public.dash_orders_p2"));
    // Ten of every eleven scans: about 91 % of the set's work (all of it in an interval
    // that saw only its scans).
    QVERIFY2(hottest.value() > 85 && hottest.value() <= 100,
             qPrintable(QString::number(hottest.value())));

    // The top-shards table: the hot partition is rank 1, its load (the first column
    // shown after the name) most of the set's work, at the last poll.
    QVERIFY(!topShardRows.isEmpty());
    const QByteArray first = topShardRows.first();
    QVERIFY2(first.contains("{rank=1,set=public.dash_orders,shard=public.dash_orders_p2}")
                 && first.contains(",pg.shard.load,") && first.endsWith(",%"),
             first.constData());
    const double firstLoad = first.split(',').at(first.split(',').size() - 2).toDouble();
    QVERIFY2(firstLoad > 80, first.constData());
    // Four partitions shown, ranks in order, each with load, share, change and ops.
    QCOMPARE(topShardRows.size(), 4 * 4);
    for (int rank = 1; rank <= 4; ++rank) {
        const QByteArray label = QByteArray("{rank=") + QByteArray::number(rank) + ',';
        QVERIFY2(topShardRows.at((rank - 1) * 4).contains(label),
                 topShardRows.at((rank - 1) * 4).constData());
    }
    // The histogram at that same poll: the hot partition alone at 80 % or more, the
    // other three far below, one shard overloaded.
    QVERIFY(!buckets.isEmpty());
    const QByteArray last = buckets.lastKey();
    QCOMPARE(first.left(first.indexOf(',')), last);
    const QMap<QByteArray, double> &now = buckets.last();
    QCOMPARE(now.size(), 10);
    QCOMPARE(now.value("90-100%") + now.value("80-90%"), 1.0);
    double shards = 0;
    for (double count : now)
        shards += count;
    QCOMPARE(shards, 4.0);
    QVERIFY2(now.value("0-10%") + now.value("10-20%") == 3.0,
             qPrintable(QString::number(now.value("0-10%"))));
    QCOMPARE(overloaded.value(last), 1.0);
    // And the PNG was written, tall enough for the table at rows 36-41 of the grid
    // (64 px a row): its IHDR height, big-endian at byte 20.
    QFile png(dir.filePath(u"pg.png"_s));
    QVERIFY(png.open(QIODevice::ReadOnly));
    const QByteArray head = png.read(24);
    QVERIFY(head.startsWith("\x89PNG\r\n\x1a\n") && head.size() == 24);
    const quint32 height = quint32(quint8(head[20])) << 24 | quint32(quint8(head[21])) << 16
        | quint32(quint8(head[22])) << 8 | quint32(quint8(head[23]));
    QVERIFY2(height >= 41 * 64, qPrintable(QString::number(height)));
}

QTEST_GUILESS_MAIN(TestPostgresDashboard)
#include "tst_postgresdashboard.moc"
