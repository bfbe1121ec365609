// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Legends that name things: the template over labels (core/legendtemplate.h), default
// names and figures per line (query/legendnames.h) through the real panel query, and
// the table legend's model under QAbstractItemModelTester with a sort proxy.
#include "core/legendtemplate.h"
#include "core/valueformat.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "itemmodels/legendtablemodel.h"
#include "query/legendnames.h"
#include "query/panelquery.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {
SeriesInfo nic(const QString &interface, const QString &metric = u"nic.rx.bytes"_s)
{
    return { { u"nic"_s, metric, { { u"interface"_s, interface } } },
             u"B/s"_s,
             u"nic:"_s + interface,
             UseKind::Utilization,
             false };
}

SeriesInfo statement(const QString &queryid, const QString &text)
{
    return { { u"pg:erp"_s,
               u"pg.statements.exec_time.rate"_s,
               { { u"datname"_s, u"erp"_s }, { u"queryid"_s, queryid }, { u"query"_s, text } } },
             u"ms/s"_s,
             u"db:erp"_s,
             UseKind::Utilization,
             false };
}

PanelSeriesData line(const SeriesInfo &info)
{
    PanelSeriesData s;
    s.info = info;
    return s;
}

QStringList names(const QList<PanelSeriesData> &series)
{
    QStringList out;
    for (const PanelSeriesData &s : series)
        out << s.name;
    return out;
}
} // namespace

class TestLegend : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void templateExpands_data();
    void templateExpands();
    void templateRefusals_data();
    void templateRefusals();
    void defaultNamesDropASharedMetric();
    void templateNamesAndFallback();
    void statsSkipNaN();
    void queryNamesAndFigures();
    void tableModel();
};

void TestLegend::templateExpands_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("expected");
    QTest::newRow("labels") << u"{interface} {direction}"_s << u"eth0 rx"_s;
    QTest::newRow("missing label collapses") << u"{db} {interface}"_s << u"eth0"_s;
    QTest::newRow("fields") << u"{source}: {metric} in {unit}"_s << u"nic: rx.bytes in B/s"_s;
    QTest::newRow("label wins over field") << u"{unit}"_s << u"octets"_s;
    QTest::newRow("literal braces") << u"{{{interface}}}"_s << u"{eth0}"_s;
    QTest::newRow("no placeholder") << u"all traffic"_s << u"all traffic"_s;
    QTest::newRow("only missing") << u"{nosuch}"_s << QString();
}

void TestLegend::templateExpands()
{
    QFETCH(QString, format);
    QFETCH(QString, expected);
    SeriesInfo info = nic(u"eth0"_s);
    info.key.labels.insert(u"direction"_s, u"rx"_s);
    if (format == u"{unit}"_s)
        info.key.labels.insert(u"unit"_s, u"octets"_s);
    QString error;
    const std::optional<LegendTemplate> parsed = LegendTemplate::parse(format, &error);
    QVERIFY2(parsed, qPrintable(error));
    QCOMPARE(parsed->expand(info), expected);
}

void TestLegend::templateRefusals_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("error");
    QTest::newRow("open") << u"{interface"_s << u"'{' at character 1 is not closed"_s;
    QTest::newRow("stray close") << u"a}b"_s
                                 << u"'}' at character 2 has no '{' (write '}}' for a brace)"_s;
    QTest::newRow("empty") << u"x {}"_s << u"'{}' at character 3 names no label"_s;
    QTest::newRow("not a name") << u"{a b}"_s << u"'{a b}' at character 1 is not a label name"_s;
    QTest::newRow("digit first") << u"{1x}"_s << u"'{1x}' at character 1 is not a label name"_s;
}

void TestLegend::templateRefusals()
{
    QFETCH(QString, format);
    QFETCH(QString, error);
    QString actual;
    QVERIFY(!LegendTemplate::parse(format, &actual));
    QCOMPARE(actual, error);
}

void TestLegend::defaultNamesDropASharedMetric()
{
    // One metric: the label values say which line is which.
    QList<PanelSeriesData> one { line(nic(u"eth0"_s)), line(nic(u"wlan0"_s)) };
    nameSeries(&one, {});
    QCOMPARE(names(one), (QStringList { u"eth0"_s, u"wlan0"_s }));
    // Two metrics: the metric stays.
    QList<PanelSeriesData> two { line(nic(u"eth0"_s)), line(nic(u"eth0"_s, u"nic.tx.bytes"_s)) };
    nameSeries(&two, {});
    QCOMPARE(names(two), (QStringList { u"rx.bytes eth0"_s, u"tx.bytes eth0"_s }));
    // A series without labels keeps its metric, shared or not.
    QList<PanelSeriesData> bare { line({ { u"h"_s, u"host.mem.utilization"_s, {} },
                                         u"%"_s,
                                         u"memory"_s,
                                         UseKind::Utilization,
                                         false }) };
    nameSeries(&bare, {});
    QCOMPARE(names(bare), QStringList { u"mem.utilization"_s });
    // Statements: the database and the short statement, never 80 characters of SQL.
    QList<PanelSeriesData> statements {
        line(statement(u"42"_s, u"SELECT pad FROM flip WHERE id = $1"_s)),
        line(statement(
            u"7"_s, u"UPDATE accounts SET balance = balance + $1 WHERE id = $2 AND branch = $3"_s)),
    };
    nameSeries(&statements, {});
    QCOMPARE(names(statements).at(0), u"erp/SELECT pad FROM flip WHERE id = $1 #42"_s);
    QVERIFY2(names(statements).at(1).size() < 60, qPrintable(names(statements).at(1)));
    QVERIFY(names(statements).at(1).endsWith(u"#7"_s));
}

void TestLegend::templateNamesAndFallback()
{
    QList<PanelSeriesData> series { line(nic(u"eth0"_s)), line(statement(u"9"_s, u"SELECT 1"_s)) };
    nameSeries(&series, u"{interface}"_s);
    // The statement has no interface: its default name, not an empty line name.
    QCOMPARE(names(series),
             (QStringList { u"eth0"_s, u"statements.exec_time.rate erp/SELECT 1 #9"_s }));
    QList<PanelSeriesData> statements { line(statement(u"9"_s, u"SELECT 1"_s)) };
    nameSeries(&statements, u"{statement} ({datname})"_s);
    QCOMPARE(names(statements), QStringList { u"SELECT 1 #9 (erp)"_s });
}

void TestLegend::statsSkipNaN()
{
    const std::vector<Sample> samples {
        { 1, 4 }, { 2, qQNaN() }, { 3, -2 }, { 4, 10 }, { 5, qQNaN() }
    };
    const SeriesStats stats = seriesStats(samples);
    QCOMPARE(stats.count, qint64(3));
    QCOMPARE(stats.last, 10.0);
    QCOMPARE(stats.min, -2.0);
    QCOMPARE(stats.max, 10.0);
    QCOMPARE(stats.mean, 4.0);
    const SeriesStats none = seriesStats(std::vector<Sample> { { 1, qQNaN() } });
    QCOMPARE(none.count, qint64(0));
    QVERIFY(qIsNaN(none.last) && qIsNaN(none.mean));
}

void TestLegend::queryNamesAndFigures()
{
    SeriesRegistry registry;
    LiveBuffers live(10000);
    const int eth0 = registry.idFor(nic(u"eth0"_s));
    const int wlan0 = registry.idFor(nic(u"wlan0"_s));
    // eth0: 0..599 B/s over ten minutes; wlan0: 1000 flat.
    for (int i = 0; i < 600; ++i) {
        live.append(eth0, { 1'000'000LL + i * 1000LL, double(i) });
        live.append(wlan0, { 1'000'000LL + i * 1000LL, 1000 });
    }
    const SeriesStore store(&live, nullptr);
    DashboardPanel panel;
    panel.id = u"nic"_s;
    panel.series = { { u"nic"_s, u"nic.rx.bytes"_s, {} } };
    // Reduced to 50 columns: the figures are still those of every sample.
    const PanelData data = queryPanel(panel, registry, store, 1'000'000, 1'599'000, 50);
    QCOMPARE(names(data.series), (QStringList { u"eth0"_s, u"wlan0"_s }));
    QVERIFY(data.series[0].points.size() <= 100);
    QCOMPARE(data.series[0].stats.count, qint64(600));
    QCOMPARE(data.series[0].stats.last, 599.0);
    QCOMPARE(data.series[0].stats.min, 0.0);
    QCOMPARE(data.series[0].stats.max, 599.0);
    QCOMPARE(data.series[0].stats.mean, 299.5);
    QCOMPARE(data.series[1].stats.mean, 1000.0);

    panel.legend = u"{source} {interface}"_s;
    const PanelData named = queryPanel(panel, registry, store, 1'000'000, 1'599'000, 50);
    QCOMPARE(names(named.series), (QStringList { u"nic eth0"_s, u"nic wlan0"_s }));
    // The earlier range of compare mode is named the same way.
    PanelData compared = named;
    addComparison(&compared, panel, registry, store, 300'000, 50);
    QCOMPARE(names(compared.compare), (QStringList { u"nic eth0"_s, u"nic wlan0"_s }));
}

void TestLegend::tableModel()
{
    LegendTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSortFilterProxyModel sorted;
    sorted.setSourceModel(&model);
    sorted.setSortRole(LegendTableModel::SortRole);
    QAbstractItemModelTester proxyTester(&sorted,
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);
    const auto row = [](const QString &name, double last, double mean, qint64 count = 10) {
        SeriesStats stats;
        stats.last = last;
        stats.min = std::min(last, mean);
        stats.max = std::max(last, mean);
        stats.mean = mean;
        stats.count = count;
        return LegendTableModel::Row {
            { u"nic"_s, u"nic.rx.bytes"_s, { { u"interface"_s, name } } },
            name,
            u"B/s"_s,
            0xff0000ffu,
            stats
        };
    };
    model.setRows(
        { row(u"eth0"_s, 1500, 2048), row(u"wlan0"_s, 12, 3), row(u"lo"_s, qQNaN(), qQNaN(), 0) });
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int(LegendTableModel::ColumnCount));
    QCOMPARE(model.headerData(LegendTableModel::MeanColumn, Qt::Horizontal).toString(), u"Mean"_s);
    QCOMPARE(model.index(0, LegendTableModel::NameColumn).data().toString(), u"eth0"_s);
    // Figures in the row's unit, as every table words them (core/valueformat.h).
    QCOMPARE(model.index(0, LegendTableModel::MeanColumn).data().toString(),
             formatValue(2048, u"B/s"_s));
    QCOMPARE(model.index(1, LegendTableModel::LastColumn).data().toString(), u"12 B/s"_s);
    QCOMPARE(model.index(2, LegendTableModel::LastColumn).data().toString(), u"—"_s);
    QCOMPARE(model.index(0, LegendTableModel::MaxColumn).data(LegendTableModel::ColorRole).toUInt(),
             0xff0000ffu);
    QVERIFY(model.index(0, 0).data(LegendTableModel::ShownRole).toBool());
    QCOMPARE(model.index(1, LegendTableModel::NameColumn)
                 .data(LegendTableModel::KeyRole)
                 .value<SeriesKey>()
                 .labels.value(u"interface"_s),
             u"wlan0"_s);
    // Hover: the whole name, then what the series is.
    const QString tip
        = model.index(0, LegendTableModel::LastColumn).data(Qt::ToolTipRole).toString();
    QCOMPARE(tip, u"eth0\nnic nic.rx.bytes\ninterface = eth0\n10 value(s) in the range"_s);

    // Sorted by mean, largest first; no value sorts below every number.
    sorted.sort(LegendTableModel::MeanColumn, Qt::DescendingOrder);
    QStringList order;
    for (int r = 0; r < sorted.rowCount(); ++r)
        order << sorted.index(r, 0).data().toString();
    QCOMPARE(order, (QStringList { u"eth0"_s, u"wlan0"_s, u"lo"_s }));

    // A live refresh of the same lines changes data in place, no reset.
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
    model.setRows({ row(u"eth0"_s, 1500, 2048), row(u"wlan0"_s, 5000, 3),
                    row(u"lo"_s, qQNaN(), qQNaN(), 0) });
    QCOMPARE(resets.count(), 0);
    QCOMPARE(changes.count(), 1); // only wlan0's row
    QCOMPARE(changes.at(0).at(0).toModelIndex().row(), 1);
    LegendTableModel::Row hidden = row(u"lo"_s, qQNaN(), qQNaN(), 0);
    hidden.shown = false;
    model.setRows({ row(u"eth0"_s, 1500, 2048), row(u"wlan0"_s, 5000, 3), hidden });
    QVERIFY(!model.index(2, 0).data(LegendTableModel::ShownRole).toBool());
    QCOMPARE(changes.count(), 2); // the row that changed, nothing else
    // Other lines: a reset.
    model.setRows({ row(u"eth1"_s, 1, 1) });
    QCOMPARE(resets.count(), 1);
    QCOMPARE(model.rowCount(), 1);
}

QTEST_GUILESS_MAIN(TestLegend)
#include "tst_legend.moc"
