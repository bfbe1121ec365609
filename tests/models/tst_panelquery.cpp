// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/csvexport.h"
#include "query/panelquery.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

using namespace Headroom;

class TestPanelQuery : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void selectsAndOrders();
    void reducesToColumns();
    void gapsFoundBeforeReduction();
    void csvRowsAndQuoting();
    void csvFileUnwritable();

private:
    SeriesRegistry m_registry;
    LiveBuffers m_live { 10000 };
    int m_cpuAll = 0, m_cpu0 = 0, m_mem = 0, m_other = 0;
};

namespace {
SeriesInfo info(const QString &source, const QString &metric, const Labels &labels,
                const QString &unit)
{
    return SeriesInfo { { source, metric, labels }, unit, u"cpu"_s, UseKind::Utilization, false };
}
} // namespace

void TestPanelQuery::initTestCase()
{
    m_cpuAll = m_registry.idFor(
        info(u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } }, u"%"_s));
    m_cpu0 = m_registry.idFor(
        info(u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"cpu0"_s } }, u"%"_s));
    m_mem = m_registry.idFor(info(u"host"_s, u"host.mem.utilization"_s, {}, u"%"_s));
    m_other = m_registry.idFor(info(u"other"_s, u"host.mem.utilization"_s, {}, u"%"_s));
    for (int i = 0; i < 3600; ++i) {
        for (int id : { m_cpuAll, m_cpu0, m_mem, m_other })
            m_live.append(id, { 1'000'000LL + i * 1000LL, double(i % 100) + id });
    }
}

void TestPanelQuery::selectsAndOrders()
{
    const QList<SeriesSelector> cpuAll {
        { u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } }
    };
    QCOMPARE(matchSeries(cpuAll, m_registry), QList<int> { m_cpuAll });
    const QList<SeriesSelector> anyHost { { u"host"_s, u"host.*"_s, {} } };
    QCOMPARE(matchSeries(anyHost, m_registry), (QList<int> { m_cpuAll, m_cpu0, m_mem }));
    const QList<SeriesSelector> none { { u"nosuch"_s, u"*"_s, {} } };
    QVERIFY(matchSeries(none, m_registry).isEmpty());
}

void TestPanelQuery::reducesToColumns()
{
    DashboardPanel panel;
    panel.id = u"p"_s;
    panel.series = { { u"host"_s, u"host.cpu.utilization"_s, {} } };
    const SeriesStore store(&m_live, nullptr);
    const PanelData full = queryPanel(panel, m_registry, store, 1'000'000, 1'000'000 + 3599'000, 0);
    QCOMPARE(full.series.size(), 2);
    QCOMPARE(full.series[0].points.size(), size_t(3600));
    const PanelData reduced
        = queryPanel(panel, m_registry, store, 1'000'000, 1'000'000 + 3599'000, 100);
    QCOMPARE(reduced.series[0].rawCount, 3600);
    QVERIFY(reduced.series[0].points.size() <= 400);
    QCOMPARE(seriesDisplayName(reduced.series[0].info), u"cpu.utilization all"_s);
    QCOMPARE(seriesDisplayName(info(u"h"_s, u"host.mem.utilization"_s, {}, {})),
             u"mem.utilization"_s);
    QCOMPARE(
        seriesDisplayName(info(u"n"_s, u"nic.utilization"_s,
                               { { u"interface"_s, u"eth0"_s }, { u"direction"_s, u"tx"_s } }, {})),
        u"utilization tx/eth0"_s);
    QCOMPARE(seriesDisplayName(info(u"n"_s, u"plain"_s, {}, {})), u"plain"_s);
    // A statement by its first words and queryid, its database before.
    const auto statement = [&](const QString &query) {
        return seriesDisplayName(info(
            u"pg"_s, u"pg.statements.mean_time_ms"_s,
            { { u"datname"_s, u"shop"_s }, { u"queryid"_s, u"-4242"_s }, { u"query"_s, query } },
            {}));
    };
    QCOMPARE(statement(u"SELECT pad FROM flip WHERE id = $1"_s),
             u"statements.mean_time_ms shop/SELECT pad FROM flip WHERE id = $1 #-4242"_s);
    QCOMPARE(statement(u"SELECT a, b, c FROM orders o JOIN customers c ON c.id = o.customer"_s),
             u"statements.mean_time_ms shop/SELECT a, b, c FROM orders o JOIN…"
             " #-4242"_s);
    QCOMPARE(statement(QString(60, u'x')),
             u"statements.mean_time_ms shop/"_s + QString(40, u'x') + u"… #-4242"_s);
    QCOMPARE(statement(QString()), u"statements.mean_time_ms shop/#-4242"_s);
}

void TestPanelQuery::gapsFoundBeforeReduction()
{
    // A day at 1 s reduced to 1600 columns: uneven reduced points are not gaps, a
    // real 5-minute outage is.
    SeriesRegistry registry;
    LiveBuffers live(90000);
    const int id = registry.idFor(info(u"host"_s, u"m"_s, {}, u"%"_s));
    const qint64 base = 1'700'000'000'000;
    for (qint64 t = 0; t < 86400; ++t) {
        if (t >= 40000 && t < 40300)
            continue;
        live.append(id, { base + t * 1000, double(t % 97) });
    }
    DashboardPanel panel;
    panel.id = u"p"_s;
    panel.series = { { u"host"_s, u"m"_s, {} } };
    const SeriesStore store(&live, nullptr);
    const PanelData data = queryPanel(panel, registry, store, base, base + 86399'000, 1600);
    const PanelSeriesData &s = data.series.constFirst();
    QCOMPARE(s.segmentStarts.size(), size_t(2));
    QCOMPARE(s.segmentStarts[0], size_t(0));
    QCOMPARE(s.points[s.segmentStarts[1]].tsMs, base + 40300 * 1000);
    QCOMPARE(s.points[s.segmentStarts[1] - 1].tsMs, base + 39999 * 1000);
    QVERIFY(s.points.size() <= 4 * 1600 + 8);
}

void TestPanelQuery::csvRowsAndQuoting()
{
    PanelData data;
    data.panelId = u"panel, \"one\""_s;
    PanelSeriesData s;
    s.info = info(u"host"_s, u"host.cpu.utilization"_s,
                  { { u"cpu"_s, u"all"_s }, { u"mode"_s, u"user"_s } }, u"%"_s);
    s.points = { { 0, 12.5 }, { 1500, 0.1 } };
    data.series.append(s);
    const QByteArray rows = csvRows(data);
    const QList<QByteArray> lines = rows.split('\n');
    QCOMPARE(lines.size(), 3); // two rows and the empty rest after the last CRLF
    QCOMPARE(lines[0],
             QByteArray("1970-01-01T00:00:00.000Z,\"panel, \"\"one\"\"\",host,host.cpu.utilization,"
                        "\"{cpu=all,mode=user}\",12.5,%\r"));
    QVERIFY(lines[1].startsWith("1970-01-01T00:00:01.500Z,"));
    QVERIFY(lines[1].contains(",0.1,%"));
    QCOMPARE(csvHeader(), QByteArray("time,panel,source,metric,labels,value,unit\r\n"));
}

void TestPanelQuery::csvFileUnwritable()
{
    QTemporaryDir dir;
    QString error;
    QVERIFY(!writeCsvFile({}, dir.path() + u"/missing/out.csv"_s, &error));
    QVERIFY2(error.contains(u"missing/out.csv"_s), qPrintable(error));
    QVERIFY(writeCsvFile({}, dir.path() + u"/out.csv"_s, &error));
}

QTEST_GUILESS_MAIN(TestPanelQuery)
#include "tst_panelquery.moc"
