// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The stat panel ("type": "stat"), the first type added as one line in
// document/paneltypelist.h plus its own files: the reader's options check (reduce, unknown
// keys), the query's figures (last with its sample's time, mean, min, max over the raw
// samples; a series without samples in the range has none), its CSV rows, and the widget's
// tiles (the figure with its unit, the series' name, the thresholds' colour level, "No
// series" without any).
#include "document/dashboardfile.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "panels/panelfactory.h"
#include "panels/statpanel.h"
#include "query/csvexport.h"
#include "query/panels/statpayload.h"

#include <QLabel>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestStatPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsOptions_data();
    void readsOptions();
    void figures_data();
    void figures();
    void csvRowsPerFigure();
    void tiles();
};

namespace {

constexpr qint64 Base = 1'700'000'000'000;

QByteArray statFile(const QString &options)
{
    return u"{\"schemaVersion\": 2, \"title\": \"s\", \"sources\": [{\"id\": \"host\", "
           "\"plugin\": \"host\"}], \"panels\": [{\"id\": \"cpu\", \"type\": \"stat\", "
           "\"series\": [{\"source\": \"host\", \"metric\": \"host.cpu.utilization\"}]%1}]}"_s
               .arg(options)
               .toUtf8();
}

// Two CPUs over 60 s at 1 s: cpu0 climbs 0..59 %, cpu1 is 40 % throughout; a third
// series (memory) has its only sample an hour before the range.
struct Store
{
    SeriesRegistry registry;
    LiveBuffers live { 1000 };
    SeriesStore store { &live, nullptr };
    int memory = 0;

    Store()
    {
        for (const QString &cpu : { u"cpu0"_s, u"cpu1"_s }) {
            const int id = registry.idFor(
                SeriesInfo { { u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, cpu } } },
                             u"%"_s,
                             u"cpu"_s,
                             UseKind::Utilization,
                             false });
            for (qint64 t = 0; t < 60; ++t)
                live.append(id, { Base + t * 1000, cpu == u"cpu0"_s ? double(t) : 40.0 });
        }
        memory = registry.idFor(SeriesInfo { { u"host"_s, u"host.memory.used"_s, {} },
                                             u"B"_s,
                                             u"memory"_s,
                                             UseKind::Utilization,
                                             false });
        live.append(memory, { Base - 3'600'000, 1e9 });
    }

    PanelData query(const QString &reduce, const QString &metric = u"host.*"_s)
    {
        DashboardPanel panel;
        panel.id = u"cpu"_s;
        panel.type = PanelType::Stat;
        panel.series = { { u"host"_s, metric, {} } };
        if (!reduce.isEmpty())
            panel.options.insert(u"reduce"_s, reduce);
        // The range ends 30 s after the last sample: "last" is the sample's time.
        return queryPanel(panel, registry, store, Base, Base + 90'000, 200);
    }
};

} // namespace

void TestStatPanel::readsOptions_data()
{
    QTest::addColumn<QString>("options");
    QTest::addColumn<QString>("error"); // empty: the file reads
    QTest::newRow("none") << QString() << QString();
    QTest::newRow("max") << u", \"options\": {\"reduce\": \"max\"}"_s << QString();
    QTest::newRow("median") << u", \"options\": {\"reduce\": \"median\"}"_s
                            << u"panels[0].options.reduce: must be \"last\", \"mean\", \"min\" "
                               "or \"max\", got \"median\""_s;
    QTest::newRow("not a string") << u", \"options\": {\"reduce\": 3}"_s
                                  << u"panels[0].options.reduce:"_s;
    QTest::newRow("unknown") << u", \"options\": {\"colour\": \"red\"}"_s << u"panels[0].options"_s;
}

void TestStatPanel::readsOptions()
{
    QFETCH(QString, options);
    QFETCH(QString, error);
    const DashboardLoadResult read = parseDashboard(statFile(options), u"stat.json"_s);
    if (error.isEmpty()) {
        QVERIFY2(read.ok(), qPrintable(read.error.toString()));
        QCOMPARE(read.dashboard->panels.at(0).type, PanelType::Stat);
        // It is written back as it was read.
        const DashboardLoadResult again
            = parseDashboard(dashboardToJson(*read.dashboard), u"again.json"_s);
        QVERIFY2(again.ok(), qPrintable(again.error.toString()));
        QCOMPARE(*again.dashboard, *read.dashboard);
        return;
    }
    QVERIFY(!read.ok());
    QVERIFY2(read.error.toString().contains(error), qPrintable(read.error.toString()));
    QVERIFY2(read.error.toString().contains(u"stat.json"_s), qPrintable(read.error.toString()));
}

void TestStatPanel::figures_data()
{
    QTest::addColumn<QString>("reduce");
    QTest::addColumn<double>("cpu0");
    QTest::addColumn<double>("cpu1");
    QTest::addColumn<qint64>("cpu0AtMs");
    QTest::newRow("default: last") << QString() << 59.0 << 40.0 << Base + 59'000;
    QTest::newRow("last") << u"last"_s << 59.0 << 40.0 << Base + 59'000;
    QTest::newRow("mean") << u"mean"_s << 29.5 << 40.0 << Base + 90'000;
    QTest::newRow("min") << u"min"_s << 0.0 << 40.0 << Base + 90'000;
    QTest::newRow("max") << u"max"_s << 59.0 << 40.0 << Base + 90'000;
}

void TestStatPanel::figures()
{
    QFETCH(QString, reduce);
    QFETCH(double, cpu0);
    QFETCH(double, cpu1);
    QFETCH(qint64, cpu0AtMs);
    Store s;
    const PanelData data = s.query(reduce);
    QCOMPARE(data.type(), PanelType::Stat);
    const StatData &stat = data.as<StatData>();
    // cpu0, cpu1 and memory, in the series' (key) order.
    QCOMPARE(data.series.size(), 3);
    QCOMPARE(stat.figures.size(), 3);
    QHash<QString, StatFigure> byName;
    for (const StatFigure &figure : stat.figures)
        byName.insert(data.series.at(figure.series).info.key.labels.value(u"cpu"_s, u"memory"_s),
                      figure);
    QCOMPARE(byName.value(u"cpu0"_s).value, cpu0);
    QCOMPARE(byName.value(u"cpu0"_s).tsMs, cpu0AtMs);
    QCOMPARE(byName.value(u"cpu1"_s).value, cpu1);
    // No sample of memory in the range: no figure, not its hour-old value.
    QVERIFY(qIsNaN(byName.value(u"memory"_s).value));
}

void TestStatPanel::csvRowsPerFigure()
{
    Store s;
    const PanelData data = s.query(u"max"_s);
    const QString csv = QString::fromUtf8(csvRows(data));
    // The series' own rows first (60 samples each of the two CPUs), then one row per
    // figure with a value: memory has none. Lines end in CRLF (RFC 4180).
    const QStringList rows = csv.split(u"\r\n"_s, Qt::SkipEmptyParts);
    QStringList figureRows;
    for (const QString &row : rows) {
        if (row.contains(u"reduce=max"_s))
            figureRows.append(row);
    }
    QCOMPARE(figureRows.size(), 2);
    QCOMPARE(rows.size(), 60 + 60 + 2);
    QVERIFY2(
        figureRows.at(0).startsWith(u"2023-11-14T22:14:50.000Z,cpu,host,host.cpu.utilization,"_s),
        qPrintable(figureRows.at(0)));
    QVERIFY2(figureRows.at(0).endsWith(u",59,%"_s), qPrintable(figureRows.at(0)));
    QVERIFY2(figureRows.at(1).endsWith(u",40,%"_s), qPrintable(figureRows.at(1)));
    for (const QString &row : figureRows)
        QVERIFY2(!row.contains(u"host.memory.used"_s), qPrintable(row));
}

void TestStatPanel::tiles()
{
    Store s;
    DashboardPanel config;
    config.id = u"cpu"_s;
    config.type = PanelType::Stat;
    config.title = u"CPU now"_s;
    config.thresholds.warning = 50;
    config.thresholds.critical = 90;
    std::unique_ptr<PanelWidget> widget(createPanelWidget(config));
    auto *panel = qobject_cast<StatPanel *>(widget.get());
    QVERIFY(panel);
    // Before any data: no tiles, "No series".
    QVERIFY(panel->figureTexts().isEmpty());
    QVERIFY(!panel->emptyLabel()->isHidden());

    PanelData data = s.query(u"last"_s);
    panel->setData(data);
    QCOMPARE(panel->figureTexts().size(), 3);
    QVERIFY(panel->emptyLabel()->isHidden());
    // cpu0's 59 % is past the warning bound, cpu1's 40 % is not; memory has no figure.
    QCOMPARE(panel->figureTexts(), (QStringList { u"59 %"_s, u"40 %"_s, u"—"_s }));
    QCOMPARE(panel->levels(), (QList<int> { 1, 0, 0 }));
    for (const auto allNames = panel->nameTexts(); const QString &name : allNames)
        QVERIFY2(!name.isEmpty(), qPrintable(panel->nameTexts().join(u" | "_s)));
    QVERIFY(panel->nameTexts().at(0).contains(u"cpu0"_s));
    // Tiles differ by their names (what all names share is left out), whole in the tooltip.
    const QStringList names = panel->nameTexts();
    QCOMPARE(QSet<QString>(names.cbegin(), names.cend()).size(), names.size());
    for (const auto allLabels = panel->findChildren<QLabel *>(); const QLabel *label : allLabels) {
        if (names.contains(label->text()) && !label->toolTip().isEmpty())
            QVERIFY2(label->toolTip().contains(label->text()), qPrintable(label->toolTip()));
    }

    // A refresh over the same series updates the tiles in place: cpu0's minimum, 0 %,
    // is below the warning bound again.
    const QList<QLabel *> labels = panel->findChildren<QLabel *>();
    panel->setData(s.query(u"min"_s));
    QCOMPARE(panel->figureTexts(), (QStringList { u"0 %"_s, u"40 %"_s, u"—"_s }));
    QCOMPARE(panel->levels(), (QList<int> { 0, 0, 0 }));
    QCOMPARE(panel->findChildren<QLabel *>(), labels);

    // Only memory: one tile without a figure; the other two are gone.
    panel->setData(s.query(u"last"_s, u"host.memory.*"_s));
    QCOMPARE(panel->figureTexts(), QStringList { u"—"_s });
    QCOMPARE(panel->findChildren<QLabel *>().size(), 3 + 2); // title, message, empty + a tile
}

QTEST_MAIN(TestStatPanel)
#include "tst_statpanel.moc"
