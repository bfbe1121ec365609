// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What a poll of the mariadb collector costs at a busy server's sizes: 500 tables (eight
// of them one shard set) and 2,000 statement digests besides Headroom's own, one poll a
// second. Printed:
//  - mariadbpoll_wall_median_ms, _p90_ms: the whole poll as the collector's thread sees it;
//  - mariadbpoll_client_cpu_median_ms: CPU time of that thread per poll (parsing, rates,
//    building the batch; the rest of the wall time is waiting for the server);
//  - mariadbpoll_server_ms_<part>: the server's time per poll for each part's statements
//    (performance_schema's own digest summary of Headroom's statements), and
//    mariadbpoll_server_ms_total.
// Needs the test MariaDB: HEADROOM_TEST_MARIADB_* as ./dev bench sets them
// (tests/run-benchmarks starts one), else it says so and prints nothing.
#include "../mariadb/mariadbtestutil.h"
#include "benchutil.h"
#include "mariadbstatements.h"

#include <QMap>
#include <QThread>
#include <ctime>

using namespace Headroom;
using namespace Headroom::Bench;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

constexpr int Tables = 500;
constexpr int ShapesPerTable = 4; // 2,000 digests
constexpr int Polls = 20;

double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

// Which part of the collector a statement of Headroom's belongs to, by what it reads.
QString partOf(const QString &text)
{
    static const QList<std::pair<QString, QString>> parts {
        { u"INNODB_TRX"_s, u"locks"_s },
        { u"table_io_waits"_s, u"tables"_s },
        { u"LEFT ( `DIGEST_TEXT`"_s, u"statement_texts"_s },
        { u"events_statements_summary_by_digest"_s, u"statements"_s },
        { u"SLAVES"_s, u"replication"_s },
        { u"SHOW GLOBAL"_s, u"status"_s },
    };
    for (const auto &[needle, part] : parts)
        if (text.contains(needle))
            return part;
    return u"other"_s;
}

// Server time so far of Headroom's statements by part, ms.
QMap<QString, double> ownServerTime()
{
    QMap<QString, double> byPart;
    const QString rows = mariadbSql(
        u"SELECT SUM_TIMER_WAIT / 1e9, REPLACE(DIGEST_TEXT, '\\n', ' ')"
        " FROM performance_schema.events_statements_summary_by_digest WHERE DIGEST_TEXT IS NOT NULL"_s);
    for (const QString &line : rows.split(u'\n', Qt::SkipEmptyParts)) {
        const qsizetype tab = line.indexOf(u'\t');
        const QString text = line.mid(tab + 1);
        if (MariadbStatements::isOwnStatement(text))
            byPart[partOf(text)] += line.left(tab).toDouble();
    }
    return byPart;
}

} // namespace

class BenchMariadbPoll : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pollAtIssueSizes();
};

void BenchMariadbPoll::pollAtIssueSizes()
{
    if (mariadbSocket().isEmpty())
        QSKIP("no test MariaDB (./dev bench starts one)");
    QString setup;
    for (int t = 0; t < Tables; ++t) {
        // Eight of them one shard set (bench_s0 … bench_s7), the rest plain tables.
        const QString name = t < 8 ? u"bench_s%1"_s.arg(t) : u"bench_table_%1_x"_s.arg(t);
        setup += u"CREATE TABLE IF NOT EXISTS %1 (id INT PRIMARY KEY, v INT);"
                 " INSERT IGNORE INTO %1 VALUES (1, 1), (2, 2);"_s.arg(name);
    }
    mariadbSql(setup, 600000);
    QString workload;
    for (int t = 0; t < Tables; ++t) {
        const QString name = t < 8 ? u"bench_s%1"_s.arg(t) : u"bench_table_%1_x"_s.arg(t);
        // Four shapes a table: four digests each.
        workload += u"SELECT COUNT(*) FROM %1; SELECT v FROM %1 WHERE id = 1;"
                    " SELECT id FROM %1 WHERE v > 0; UPDATE %1 SET v = v WHERE id = 2;"_s.arg(name);
    }
    static_assert(Tables * ShapesPerTable == 2000);
    mariadbSql(workload, 600000);
    const QString digests = mariadbSql(
        u"SELECT COUNT(*) FROM performance_schema.events_statements_summary_by_digest"_s);
    qInfo("digests: %s; tables: %d", qPrintable(digests), Tables);

    auto collector = makeMariadbCollector({ { u"url"_s, rootSocketUrl() } });
    QVERIFY(collector);
    collector->poll(QDeadlineTimer(5000)); // connects, primes baselines
    const QMap<QString, double> before = ownServerTime();
    std::vector<double> wall;
    std::vector<double> cpu;
    for (int i = 0; i < Polls; ++i) {
        // Some of the workload again, so that statements and tables have rates.
        mariadbSql(
            u"SELECT COUNT(*) FROM bench_s3; SELECT v FROM bench_table_100_x WHERE id = 1;"_s);
        QElapsedTimer timer;
        timer.start();
        const double cpuBefore = threadCpuMs();
        const PollResult poll = collector->poll(QDeadlineTimer(5000));
        cpu.push_back(threadCpuMs() - cpuBefore);
        wall.push_back(double(timer.nsecsElapsed()) / 1e6);
        QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
        QThread::msleep(std::max(0, 1000 - int(timer.elapsed())));
    }
    const QMap<QString, double> after = ownServerTime();
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    print("mariadbpoll_wall_median_ms", wall[wall.size() / 2]);
    print("mariadbpoll_wall_p90_ms", wall[wall.size() * 9 / 10]);
    print("mariadbpoll_client_cpu_median_ms", cpu[cpu.size() / 2]);
    double total = 0;
    for (auto it = after.cbegin(); it != after.cend(); ++it) {
        const double perPoll = (it.value() - before.value(it.key())) / Polls;
        total += perPoll;
        print(qPrintable(u"mariadbpoll_server_ms_"_s + it.key()), perPoll);
    }
    print("mariadbpoll_server_ms_total", total);
}

QTEST_GUILESS_MAIN(BenchMariadbPoll)
#include "bench_mariadbpoll.moc"
