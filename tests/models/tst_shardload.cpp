// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Shard load bucketing (shardload.h), the shard panels' queries and CSV rows
// (shardquery.h), and their options in dashboard files.
#include "document/dashboardfile.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/csvexport.h"
#include "query/panelquery.h"
#include "query/shards/shardload.h"
#include "query/shards/shardquery.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 Base = 1'700'000'000'000;

ShardLoadSeries shard(const QString &set, const QString &name, const QList<double> &loads,
                      qint64 stepMs = 1000, qint64 startMs = Base)
{
    ShardLoadSeries s;
    s.info.key = { u"pg"_s, u"pg.shard.load"_s, { { u"set"_s, set }, { u"shard"_s, name } } };
    s.info.unit = u"%"_s;
    s.info.resource = u"shardset:"_s + set;
    s.info.kind = UseKind::Utilization;
    for (qsizetype i = 0; i < loads.size(); ++i)
        s.load.push_back({ startMs + i * stepMs, loads[i] });
    return s;
}

// Five shards sampled every second for 10 s (see histogramColumns for the expectations):
// A always 100; B 95 then 15 within every 2 s (the last one counts); C 5, 15, 25, 65,
// 65 per 2 s; D 150 (capacity mode, above 100); E exactly 60 (not above 60).
QList<ShardLoadSeries> fiveShards()
{
    QList<double> b, c;
    const QList<double> cPerColumn { 5, 15, 25, 65, 65 };
    for (int i = 0; i < 10; ++i) {
        b << (i % 2 == 0 ? 95 : 15);
        c << cPerColumn[i / 2];
    }
    return { shard(u"s"_s, u"a"_s, QList<double>(10, 100)), shard(u"s"_s, u"b"_s, b),
             shard(u"s"_s, u"c"_s, c), shard(u"s"_s, u"d"_s, QList<double>(10, 150)),
             shard(u"s"_s, u"e"_s, QList<double>(10, 60)) };
}

QList<int> column(const ShardLoadHistogram &h, int c)
{
    QList<int> counts;
    for (int b = 0; b < ShardLoadBuckets; ++b)
        counts << h.at(b, c);
    return counts;
}

QList<int> nowCounts(const ShardLoadHistogram &h)
{
    return QList<int>(h.now.cbegin(), h.now.cend());
}

QStringList lines(const QByteArray &csv)
{
    QStringList out = QString::fromUtf8(csv).split(u"\r\n"_s);
    out.removeAll(QString());
    return out;
}

QByteArray dashboardJson(const QJsonObject &panel)
{
    const QJsonObject root {
        { u"schemaVersion"_s, 1 },
        { u"title"_s, u"t"_s },
        { u"sources"_s,
          QJsonArray { QJsonObject { { u"id"_s, u"pg"_s }, { u"plugin"_s, u"postgres"_s } } } },
        { u"panels"_s, QJsonArray { panel } },
    };
    return QJsonDocument(root).toJson();
}

} // namespace

class TestShardLoad : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void buckets_data();
    void buckets();
    void bucketOverloaded();
    void histogramColumns();
    void fullResolution();
    void staleShardIsNotNow();
    void outsideRangeIgnored();
    void columnsAtLeastTwoPolls();
    void currentRows();
    void overloadedPercentPrecedence();
    void histogramQueryAndCsv();
    void tableQueryAndCsv();
    void options_data();
    void options();
    void optionsRoundTrip();

private:
    void fillStore();
    SeriesRegistry m_registry;
    LiveBuffers m_live { 100 };
    bool m_filled = false;
};

void TestShardLoad::buckets_data()
{
    QTest::addColumn<double>("load");
    QTest::addColumn<int>("bucket");
    QTest::addColumn<QString>("label");

    QTest::newRow("0") << 0.0 << 0 << u"0-10%"_s;
    QTest::newRow("negative") << -5.0 << 0 << u"0-10%"_s;
    QTest::newRow("9.99") << 9.99 << 0 << u"0-10%"_s;
    QTest::newRow("10") << 10.0 << 1 << u"10-20%"_s;
    QTest::newRow("55") << 55.0 << 5 << u"50-60%"_s;
    QTest::newRow("89.99") << 89.99 << 8 << u"80-90%"_s;
    QTest::newRow("99.9") << 99.9 << 9 << u"90-100%"_s;
    QTest::newRow("100 in the top bucket") << 100.0 << 9 << u"90-100%"_s;
    QTest::newRow("above 100 (capacity) too") << 250.0 << 9 << u"90-100%"_s;
    QTest::newRow("NaN") << qQNaN() << -1 << QString();
}

void TestShardLoad::buckets()
{
    QFETCH(double, load);
    QFETCH(int, bucket);
    QFETCH(QString, label);
    QCOMPARE(shardLoadBucket(load), bucket);
    if (bucket >= 0)
        QCOMPARE(shardLoadBucketLabel(bucket), label);
}

void TestShardLoad::bucketOverloaded()
{
    const auto red = [](double threshold) {
        QList<int> buckets;
        for (int b = 0; b < ShardLoadBuckets; ++b) {
            if (shardLoadBucketOverloaded(b, threshold))
                buckets << b;
        }
        return buckets;
    };
    QCOMPARE(red(60), (QList<int> { 6, 7, 8, 9 })); // 60-70 holds 65, which is above
    QCOMPARE(red(65), (QList<int> { 6, 7, 8, 9 }));
    QCOMPARE(red(70), (QList<int> { 7, 8, 9 }));
    QCOMPARE(red(100), QList<int> { 9 }); // the top bucket holds 150 %
    QCOMPARE(red(0).size(), ShardLoadBuckets);
}

void TestShardLoad::histogramColumns()
{
    // 10 s in 5 columns of 2 s: each holds two samples of every shard.
    const ShardLoadHistogram h = shardLoadHistogram(fiveShards(), Base, Base + 10'000, 5, 60);
    QCOMPARE(h.columns, 5);
    QCOMPARE(h.counts.size(), size_t(5 * ShardLoadBuckets));
    for (int c = 0; c < 5; ++c)
        QCOMPARE(h.columnTimeMs[size_t(c)], Base + 2000 * c + 1000); // the newest sample in it
    //                               0-10 ...                    90-100
    QCOMPARE(column(h, 0), (QList<int> { 1, 1, 0, 0, 0, 0, 1, 0, 0, 2 }));
    QCOMPARE(column(h, 1), (QList<int> { 0, 2, 0, 0, 0, 0, 1, 0, 0, 2 }));
    QCOMPARE(column(h, 2), (QList<int> { 0, 1, 1, 0, 0, 0, 1, 0, 0, 2 }));
    QCOMPARE(column(h, 3), (QList<int> { 0, 1, 0, 0, 0, 0, 2, 0, 0, 2 }));
    QCOMPARE(column(h, 4), column(h, 3));
    QCOMPARE(h.maxCount, 2);
    // Above 60: A and D, then C too once it is at 65; E at exactly 60 never.
    QCOMPARE(h.overloaded, (std::vector<int> { 2, 2, 2, 3, 3 }));
    const std::vector<Sample> line = overloadedSamples(h);
    QCOMPARE(line.size(), size_t(5));
    QCOMPARE(line[3], (Sample { Base + 7000, 3 }));

    QCOMPARE(h.nowMs, Base + 9000);
    QCOMPARE(nowCounts(h), (QList<int> { 0, 1, 0, 0, 0, 0, 2, 0, 0, 2 }));
    QCOMPARE(h.nowOverloaded(), 3);
    QStringList order;
    for (const ShardLoadRow &row : h.nowShards)
        order << row.shard;
    QCOMPARE(order, (QStringList { u"d"_s, u"a"_s, u"c"_s, u"e"_s, u"b"_s }));
    QCOMPARE(h.sets, QStringList { u"s"_s });

    // Another threshold moves only the overloaded counts.
    const ShardLoadHistogram at50 = shardLoadHistogram(fiveShards(), Base, Base + 10'000, 5, 50);
    QCOMPARE(at50.overloaded, (std::vector<int> { 3, 3, 3, 4, 4 }));
    QCOMPARE(at50.counts, h.counts);
}

void TestShardLoad::fullResolution()
{
    // columns 0 (the CSV): one column per sample time.
    const ShardLoadHistogram h = shardLoadHistogram(fiveShards(), Base, Base + 10'000, 0, 60);
    QCOMPARE(h.columns, 10);
    for (int c = 0; c < 10; ++c)
        QCOMPARE(h.columnTimeMs[size_t(c)], Base + 1000 * c);
    // At t = 0, B is at 95.
    QCOMPARE(column(h, 0), (QList<int> { 1, 0, 0, 0, 0, 0, 1, 0, 0, 3 }));
    QCOMPARE(column(h, 1), (QList<int> { 1, 1, 0, 0, 0, 0, 1, 0, 0, 2 }));
    QCOMPARE(h.overloaded[0], 3);
    QCOMPARE(h.overloaded[1], 2);
    QCOMPARE(h.maxCount, 3);
}

void TestShardLoad::staleShardIsNotNow()
{
    // F stopped reporting at 3 s (a dropped partition): it counts in the columns it has
    // samples in, but not now.
    QList<ShardLoadSeries> shards = fiveShards();
    shards << shard(u"s"_s, u"f"_s, { 50, 50, 50, 50 });
    const ShardLoadHistogram h = shardLoadHistogram(shards, Base, Base + 10'000, 5, 60);
    QCOMPARE(h.at(5, 0), 1);
    QCOMPARE(h.at(5, 1), 1);
    QCOMPARE(h.at(5, 2), 0);
    QCOMPARE(h.now[5], 0);
    QCOMPARE(h.nowShards.size(), 5);

    // A source polling every 10 s is current 20 s after its last sample.
    const QList<ShardLoadSeries> slow { shard(u"s"_s, u"fast"_s, QList<double>(31, 10)),
                                        shard(u"s"_s, u"slow"_s, { 90, 90, 90 }, 10'000) };
    const QList<ShardLoadRow> rows = currentShardRows(slow);
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows.first().shard, u"slow"_s);
}

void TestShardLoad::outsideRangeIgnored()
{
    // 5 % before the range, 95 % inside it, 50 % after: only the 95s count, though the
    // edge columns would take the others as their first or last sample.
    QList<double> loads;
    for (int i = 0; i < 20; ++i)
        loads << (i < 5 ? 5 : i < 15 ? 95 : 50);
    const QList<ShardLoadSeries> shards { shard(u"s"_s, u"x"_s, loads, 1000, Base - 5000) };
    const ShardLoadHistogram h = shardLoadHistogram(shards, Base, Base + 9000, 10, 60);
    QCOMPARE(h.columns, 4); // 9 s of 1 s polls: columns of at least 2 s
    for (int c = 0; c < h.columns; ++c) {
        QCOMPARE(h.at(9, c), 1);
        QCOMPARE(h.at(0, c), 0);
        QCOMPARE(h.at(5, c), 0);
    }
    QCOMPARE(h.nowMs, Base + 9000);
    QCOMPARE(nowCounts(h), (QList<int> { 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 }));
    QCOMPARE(shardLoadHistogram(shards, Base, Base, 10, 60).columns, 0); // empty range
    QVERIFY(shardLoadHistogram({}, Base, Base + 9000, 10, 60).isEmpty());
}

void TestShardLoad::columnsAtLeastTwoPolls()
{
    // A minute of 1 s polls on 500 pixels: 30 columns of 2 s, every one with data, not
    // 500 columns with a poll in one of every eight.
    const QList<ShardLoadSeries> shards { shard(u"s"_s, u"x"_s, QList<double>(60, 42)) };
    const ShardLoadHistogram h = shardLoadHistogram(shards, Base, Base + 60'000, 500, 60);
    QCOMPARE(h.columns, 30);
    for (int c = 0; c < h.columns; ++c)
        QVERIFY(h.columnTimeMs[size_t(c)] != 0);
    // Plenty of polls for the pixels: one column per pixel.
    const QList<ShardLoadSeries> dense { shard(u"s"_s, u"x"_s, QList<double>(3600, 42)) };
    QCOMPARE(shardLoadHistogram(dense, Base, Base + 3'600'000, 500, 60).columns, 500);
}

void TestShardLoad::currentRows()
{
    ShardLoadSeries s = shard(u"public.orders"_s, u"public.orders_p1"_s, { 10, 20, 35 });
    s.ops = { { Base, 100 }, { Base + 1000, 200 }, { Base + 2000, 350 } };
    const QList<ShardLoadRow> rows = currentShardRows({ s });
    QCOMPARE(rows.size(), 1);
    const ShardLoadRow &row = rows.first();
    QCOMPARE(row.set, u"public.orders"_s);
    QCOMPARE(row.shard, u"public.orders_p1"_s);
    QCOMPARE(row.labels,
             (Labels { { u"set"_s, u"public.orders"_s }, { u"shard"_s, u"public.orders_p1"_s } }));
    QCOMPARE(row.resource, u"shardset:public.orders"_s);
    QCOMPARE(row.tsMs, Base + 2000);
    QCOMPARE(row.load, 35.0);
    QCOMPARE(row.ops, 350.0);
    QCOMPARE(row.previousLoad, 20.0);
    QCOMPARE(row.previousTsMs, Base + 1000);
    QCOMPARE(shardLoadChange(row), 15.0);

    // A gap before the newest sample: no previous interval to compare with.
    ShardLoadSeries gap = shard(u"s"_s, u"g"_s, { 10, 20, 30, 40 });
    gap.load.back().tsMs += 60'000;
    const ShardLoadRow afterGap = currentShardRows({ gap }).constFirst();
    QVERIFY(qIsNaN(afterGap.previousLoad));
    QVERIFY(qIsNaN(afterGap.ops)); // no ops series
    QVERIFY(qIsNaN(shardLoadChange(afterGap)));

    const auto totals = shardSetOpsTotals(rows);
    QCOMPARE(totals.value(u"public.orders"_s), 350.0);
    QCOMPARE(shardOpsShare(350, 1400), 25.0);
    QVERIFY(qIsNaN(shardOpsShare(0, 0)));
    QVERIFY(qIsNaN(shardOpsShare(qQNaN(), 10)));
}

void TestShardLoad::overloadedPercentPrecedence()
{
    DashboardPanel panel;
    QCOMPARE(shardOverloadedPercent(panel), 60.0);
    panel.thresholds.warning = 70;
    QCOMPARE(shardOverloadedPercent(panel), 70.0);
    panel.options.insert(u"overloadedPercent"_s, 80);
    QCOMPARE(shardOverloadedPercent(panel), 80.0);
}

// Two sets: public.orders with p0 (100 %, 500 ops/s), p1 (0, 10, ... 40 %, 200 ops/s),
// p2 (20 %, 100 ops/s); tenants with t1 (70 %, 50 ops/s). Five polls a second apart.
void TestShardLoad::fillStore()
{
    if (m_filled)
        return;
    m_filled = true;
    struct Shard
    {
        QString set, name;
        QList<double> loads;
        double ops;
    };
    const QList<Shard> shards {
        { u"public.orders"_s, u"public.orders_p0"_s, { 100, 100, 100, 100, 100 }, 500 },
        { u"public.orders"_s, u"public.orders_p1"_s, { 0, 10, 20, 30, 40 }, 200 },
        { u"public.orders"_s, u"public.orders_p2"_s, { 20, 20, 20, 20, 20 }, 100 },
        { u"tenants"_s, u"t1"_s, { 70, 70, 70, 70, 70 }, 50 },
    };
    for (const Shard &s : shards) {
        const Labels labels { { u"set"_s, s.set }, { u"shard"_s, s.name } };
        const QString resource = u"shardset:"_s + s.set;
        const int load = m_registry.idFor(
            { { u"pg"_s, u"pg.shard.load"_s, labels }, u"%"_s, resource, UseKind::Utilization });
        const int ops = m_registry.idFor({ { u"pg"_s, u"pg.shard.ops.rate"_s, labels },
                                           u"1/s"_s,
                                           resource,
                                           UseKind::Throughput });
        for (int i = 0; i < 5; ++i) {
            m_live.append(load, { Base + i * 1000, s.loads[i] });
            m_live.append(ops, { Base + i * 1000, s.ops });
        }
    }
}

void TestShardLoad::histogramQueryAndCsv()
{
    fillStore();
    const SeriesStore store(&m_live, nullptr);
    DashboardPanel panel;
    panel.id = u"hist"_s;
    panel.type = PanelType::ShardHistogram;
    // The ops series matched too must not count as shards.
    panel.series = { { u"pg"_s, u"pg.shard.*"_s, {} } };

    const PanelData data = queryPanel(panel, m_registry, store, Base, Base + 4000, 0);
    const ShardLoadHistogram &h = data.as<ShardLoadHistogram>();
    QCOMPARE(h.columns, 5);
    QCOMPARE(h.sets, (QStringList { u"public.orders"_s, u"tenants"_s }));
    QCOMPARE(nowCounts(h), (QList<int> { 0, 0, 1, 0, 1, 0, 0, 1, 0, 1 }));
    QCOMPARE(h.nowOverloaded(), 2); // p0 and t1
    QCOMPARE(data.series.size(), 1);
    const PanelSeriesData &line = data.series.first();
    QCOMPARE(line.info.key.metric, u"shard.load.overloaded"_s);
    QCOMPARE(line.info.key.labels, (Labels { { u"set"_s, u"*"_s } }));
    QCOMPARE(line.info.unit, u"shards"_s);
    QCOMPARE(line.points.size(), size_t(5));
    QCOMPARE(line.points.back(), (Sample { Base + 4000, 2 }));

    const QStringList rows = lines(csvRows(data));
    QCOMPARE(rows.size(), 5 + 5 * ShardLoadBuckets); // the line, then 10 buckets per column
    QCOMPARE(rows.first(),
             u"2023-11-14T22:13:20.000Z,hist,pg,shard.load.overloaded,{set=*},2,shards"_s);
    QVERIFY(rows.contains(
        u"2023-11-14T22:13:24.000Z,hist,pg,shard.load.bucket,\"{bucket=90-100%,set=*}\",1,shards"_s));
    QVERIFY(rows.contains(
        u"2023-11-14T22:13:24.000Z,hist,pg,shard.load.bucket,\"{bucket=40-50%,set=*}\",1,shards"_s));
    QVERIFY(rows.contains(
        u"2023-11-14T22:13:20.000Z,hist,pg,shard.load.bucket,\"{bucket=0-10%,set=*}\",1,shards"_s));
    QVERIFY(rows.contains(
        u"2023-11-14T22:13:20.000Z,hist,pg,shard.load.bucket,\"{bucket=50-60%,set=*}\",0,shards"_s));

    // One set through a selector label; reduced to columns: a panel 5 px wide leaves 3
    // to the grid, and 4 s of 1 s polls make 2 columns of two polls.
    panel.series = { { u"pg"_s, u"pg.shard.load"_s, { { u"set"_s, u"tenants"_s } } } };
    const PanelData one = queryPanel(panel, m_registry, store, Base, Base + 4000, 5);
    QCOMPARE(one.as<ShardLoadHistogram>().columns, 2);
    QCOMPARE(one.as<ShardLoadHistogram>().sets, QStringList { u"tenants"_s });
    QCOMPARE(one.series.first().info.key.labels, (Labels { { u"set"_s, u"tenants"_s } }));
    QCOMPARE(one.series.first().info.resource, u"shardset:tenants"_s);
    // t1 at 0 and 1 s in column 0, 2, 3 and 4 s in column 1: once each.
    QCOMPARE(one.as<ShardLoadHistogram>().at(7, 0), 1);
    QCOMPARE(one.as<ShardLoadHistogram>().at(7, 1), 1);
    QCOMPARE(one.as<ShardLoadHistogram>().columnTimeMs[0], Base + 1000);
    QCOMPARE(one.as<ShardLoadHistogram>().columnTimeMs[1], Base + 4000);

    // Nothing matched: no grid, no line, no rows.
    panel.series = { { u"pg"_s, u"nothing"_s, {} } };
    const PanelData none = queryPanel(panel, m_registry, store, Base, Base + 4000, 100);
    QVERIFY(none.as<ShardLoadHistogram>().isEmpty());
    QVERIFY(none.series.isEmpty());
    QVERIFY(csvRows(none).isEmpty());
}

void TestShardLoad::tableQueryAndCsv()
{
    fillStore();
    const SeriesStore store(&m_live, nullptr);
    DashboardPanel panel;
    panel.id = u"top"_s;
    panel.type = PanelType::ShardTable;
    panel.series = { { u"pg"_s, u"pg.shard.load"_s, {} } };
    panel.options = QJsonObject {
        { u"top"_s, 3 },
        { u"columns"_s,
          QJsonArray { u"shard"_s, u"load"_s, u"share"_s, u"change"_s, u"ops"_s, u"previous"_s } },
    };
    const PanelData data = queryPanel(panel, m_registry, store, Base, Base + 4000, 300);
    const ShardTableData &table = data.as<ShardTableData>();
    QVERIFY(data.series.isEmpty());
    QCOMPARE(table.rows.size(), 4); // all of them: the view filters before cutting
    QCOMPARE(table.top, 3);
    QCOMPARE(table.columns,
             (QList<int> { ShardNameColumn, ShardLoadColumn, ShardShareColumn, ShardChangeColumn,
                           ShardOpsColumn, ShardPreviousColumn }));
    QStringList order;
    for (const ShardLoadRow &row : table.rows)
        order << row.shard;
    QCOMPARE(order,
             (QStringList { u"public.orders_p0"_s, u"t1"_s, u"public.orders_p1"_s,
                            u"public.orders_p2"_s }));
    QCOMPARE(table.rows[2].ops, 200.0);
    QCOMPARE(table.loadMetric, u"pg.shard.load"_s);
    QCOMPARE(table.opsUnit, u"1/s"_s);

    const QStringList rows = lines(csvRows(data));
    // Three shards shown, five numbers each.
    QCOMPARE(rows.size(), 15);
    const QString p1 = u"\"{rank=3,set=public.orders,shard=public.orders_p1}\""_s;
    QCOMPARE(rows.mid(10),
             (QStringList {
                 u"2023-11-14T22:13:24.000Z,top,pg,pg.shard.load,%1,40,%"_s.arg(p1),
                 u"2023-11-14T22:13:24.000Z,top,pg,shard.ops.share,%1,25,%"_s.arg(p1),
                 u"2023-11-14T22:13:24.000Z,top,pg,shard.load.change,%1,10,points"_s.arg(p1),
                 u"2023-11-14T22:13:24.000Z,top,pg,pg.shard.ops.rate,%1,200,1/s"_s.arg(p1),
                 u"2023-11-14T22:13:23.000Z,top,pg,pg.shard.load,%1,30,%"_s.arg(p1),
             }));
    QVERIFY(rows.first().contains(u"{rank=1,set=public.orders,shard=public.orders_p0}"_s));
    QVERIFY(rows.contains(
        u"2023-11-14T22:13:24.000Z,top,pg,shard.ops.share,\"{rank=1,set=public.orders,shard=public.orders_p0}\",62.5,%"_s));
    QVERIFY(rows.contains(
        u"2023-11-14T22:13:24.000Z,top,pg,shard.ops.share,\"{rank=2,set=tenants,shard=t1}\",100,%"_s));

    // Without a column choice, two sets shown: the set column leads.
    panel.options = {};
    const PanelData defaults = queryPanel(panel, m_registry, store, Base, Base + 4000, 300);
    QCOMPARE(defaults.as<ShardTableData>().top, DefaultShardTableTop);
    QCOMPARE(defaults.as<ShardTableData>().columns, defaultShardColumns(true));
    QCOMPARE(defaults.as<ShardTableData>().columns.first(), int(ShardSetColumn));
    QCOMPARE(lines(csvRows(defaults)).size(), 4 * 4); // load, share, change, ops
}

void TestShardLoad::options_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QJsonObject>("options");
    QTest::addColumn<QString>("field"); // empty: accepted
    QTest::addColumn<QString>("reason");

    const QString valid = u"(valid: set, shard, load, ops, previous, share, change)"_s;
    QTest::newRow("table, all") << u"shardtable"_s
                                << QJsonObject { { u"top"_s, 5 },
                                                 { u"columns"_s,
                                                   QJsonArray { u"shard"_s, u"load"_s } },
                                                 { u"overloadedPercent"_s, 75 },
                                                 { u"opsMetric"_s, u"x.ops"_s } }
                                << QString() << QString();
    QTest::newRow("histogram, none")
        << u"shardhistogram"_s << QJsonObject() << QString() << QString();
    QTest::newRow("unknown column")
        << u"shardtable"_s << QJsonObject { { u"columns"_s, QJsonArray { u"shard"_s, u"lod"_s } } }
        << u"panels[0].options.columns[1]"_s << u"unknown column \"lod\" "_s + valid;
    QTest::newRow("column twice") << u"shardtable"_s
                                  << QJsonObject { { u"columns"_s,
                                                     QJsonArray { u"load"_s, u"load"_s } } }
                                  << u"panels[0].options.columns[1]"_s
                                  << u"column \"load\" is listed twice"_s;
    QTest::newRow("no columns") << u"shardtable"_s << QJsonObject { { u"columns"_s, QJsonArray() } }
                                << u"panels[0].options.columns"_s
                                << u"must name at least one column "_s + valid;
    QTest::newRow("columns not an array")
        << u"shardtable"_s << QJsonObject { { u"columns"_s, u"load"_s } }
        << u"panels[0].options.columns"_s << u"must be an array, got \"load\""_s;
    QTest::newRow("negative top") << u"shardtable"_s << QJsonObject { { u"top"_s, -1 } }
                                  << u"panels[0].options.top"_s
                                  << u"must be a non-negative integer, got -1"_s;
    QTest::newRow("overloadedPercent text")
        << u"shardhistogram"_s << QJsonObject { { u"overloadedPercent"_s, u"hot"_s } }
        << u"panels[0].options.overloadedPercent"_s
        << u"must be a number of at least 0, got \"hot\""_s;
    QTest::newRow("typo in a key")
        << u"shardtable"_s << QJsonObject { { u"column"_s, QJsonArray { u"load"_s } } }
        << u"panels[0].options.column"_s
        << u"unknown option (a shardtable panel takes: columns, opsMetric, overloadedPercent, top)"_s;
    QTest::newRow("table option on a histogram")
        << u"shardhistogram"_s << QJsonObject { { u"top"_s, 3 } } << u"panels[0].options.top"_s
        << u"unknown option (a shardhistogram panel takes: overloadedPercent)"_s;
}

void TestShardLoad::options()
{
    QFETCH(QString, type);
    QFETCH(QJsonObject, options);
    QFETCH(QString, field);
    QFETCH(QString, reason);

    const QJsonObject panel {
        { u"id"_s, u"p"_s },
        { u"type"_s, type },
        { u"series"_s,
          QJsonArray {
              QJsonObject { { u"source"_s, u"pg"_s }, { u"metric"_s, u"pg.shard.load"_s } } } },
        { u"options"_s, options },
    };
    const DashboardLoadResult result = parseDashboard(dashboardJson(panel), u"d.json"_s);
    QCOMPARE(result.ok(), field.isEmpty());
    QCOMPARE(result.error.field, field);
    QCOMPARE(result.error.reason, reason);
}

void TestShardLoad::optionsRoundTrip()
{
    // The user's column choice is saved in the file and read back as it was.
    const QJsonObject panel {
        { u"id"_s, u"top-shards"_s },
        { u"type"_s, u"shardtable"_s },
        { u"series"_s,
          QJsonArray {
              QJsonObject { { u"source"_s, u"pg"_s }, { u"metric"_s, u"pg.shard.load"_s } } } },
        { u"options"_s,
          QJsonObject { { u"top"_s, 10 },
                        { u"columns"_s, QJsonArray { u"change"_s, u"shard"_s, u"load"_s } } } },
    };
    const DashboardLoadResult first = parseDashboard(dashboardJson(panel), u"d.json"_s);
    QVERIFY2(first.ok(), qPrintable(first.error.toString()));
    const DashboardLoadResult second
        = parseDashboard(dashboardToJson(*first.dashboard), u"again.json"_s);
    QVERIFY2(second.ok(), qPrintable(second.error.toString()));
    QCOMPARE(*second.dashboard, *first.dashboard);
    QCOMPARE(second.dashboard->panels.first().options.value(u"columns"_s).toArray(),
             (QJsonArray { u"change"_s, u"shard"_s, u"load"_s }));
}

QTEST_GUILESS_MAIN(TestShardLoad)
#include "tst_shardload.moc"
