// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The USE matrix over a range: the worst of a series in the range and since when (its
// level's stretch), values gone stale, through the panel query; the CSV columns and the
// table model of such cells.
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "itemmodels/usematrixmodel.h"
#include "query/csvexport.h"
#include "query/panelquery.h"
#include "query/use/usematrix.h"
#include "usematrixtestutil.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestUseMatrixRange : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void staleAfter();
    void worstInRange_data();
    void worstInRange();
    void worstThroughQuery_data();
    void worstThroughQuery();
    void csvColumns_data();
    void csvColumns();
    void modelTwoSources();
};

void TestUseMatrixRange::staleAfter()
{
    QCOMPARE(useStaleAfterMs(1000), 3000);
    QCOMPARE(useStaleAfterMs(60'000), 180'000);
    QCOMPARE(useStaleAfterMs(100), 1000); // at least a second
    QCOMPARE(useStaleAfterMs(0), 10'000); // unknown spacing

    // Through the store: samples every second up to At.
    SeriesRegistry registry;
    LiveBuffers live(100);
    const int id = registry.idFor(
        series(u"host.cpu.utilization"_s, {}, u"%"_s, u"cpu"_s, UseKind::Utilization, u"host"_s));
    for (int i = 0; i < 20; ++i)
        live.append(id, { At - 19'000 + i * 1000, 95 });
    const SeriesStore store(&live, nullptr);
    DashboardPanel panel;
    panel.id = u"m"_s;
    panel.type = PanelType::UseMatrix;
    panel.series = { { u"host"_s, u"*"_s, {} } };
    const auto cellAt = [&](qint64 at) {
        return queryPanel(panel, registry, store, At - 3'600'000, at, 0)
            .as<UseMatrix>()
            .rows.constFirst()
            .cells.at(0);
    };
    QCOMPARE(cellAt(At).level, UseLevel::Critical);
    QVERIFY(!cellAt(At).stale);
    QVERIFY(!cellAt(At + 3000).stale);
    QVERIFY(cellAt(At + 3000).ongoing);
    // Stale: the worst figure stays critical, no longer ongoing.
    QCOMPARE(cellAt(At + 3001).level, UseLevel::Critical);
    QVERIFY(cellAt(At + 3001).stale);
    QVERIFY(!cellAt(At + 3001).ongoing);
    QCOMPARE(cellAt(At + 3001).untilMs, At);
    // A range ending in the past judges the value current then.
    QVERIFY(!cellAt(At - 5000).stale);
    QCOMPARE(cellAt(At - 5000).sinceMs, At - 19'000);
}

void TestUseMatrixRange::worstInRange_data()
{
    // Samples 1 s apart from T0; bounds 70 / 90 unless lower is worse (20 / 10).
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<bool>("higherIsWorse");
    QTest::addColumn<int>("worst"); // index of the worst sample
    QTest::addColumn<int>("level");
    QTest::addColumn<int>("since"); // index, -1 when not raised
    QTest::addColumn<int>("until");
    QTest::addColumn<bool>("toLast");
    const double nan = qQNaN();
    QTest::newRow("worst, not latest")
        << QList<double> { 50, 95, 60 } << true << 1 << 2 << 1 << 1 << false;
    QTest::newRow("crosses warning at t1 and stays")
        << QList<double> { 10, 20, 75, 80, 85 } << true << 4 << 1 << 2 << 4 << true;
    QTest::newRow("warning, then critical: since it turned critical")
        << QList<double> { 10, 75, 80, 95, 92 } << true << 3 << 2 << 3 << 4 << true;
    QTest::newRow("flapping over critical: the first critical of the stretch")
        << QList<double> { 75, 92, 85, 93, 80 } << true << 3 << 2 << 1 << 4 << true;
    QTest::newRow("a dip below warning ends the stretch")
        << QList<double> { 95, 50, 75, 91, 80 } << true << 0 << 2 << 0 << 0 << false;
    QTest::newRow("equal worst values: the latest")
        << QList<double> { 95, 50, 95, 80 } << true << 2 << 2 << 2 << 3 << true;
    QTest::newRow("never raised: no since")
        << QList<double> { 10, 69.9, 20 } << true << 1 << 0 << -1 << -1 << false;
    QTest::newRow("NaN neither worst nor a break")
        << QList<double> { 10, 80, nan, 95, nan } << true << 3 << 2 << 3 << 3 << true;
    QTest::newRow("lower is worse: the smallest")
        << QList<double> { 40, 15, 8, 12, 30 } << false << 2 << 2 << 2 << 3 << false;
    QTest::newRow("lower is worse: falls below warning and stays")
        << QList<double> { 50, 18, 17 } << false << 2 << 1 << 1 << 2 << true;
    QTest::newRow("lower is worse: a high value is fine")
        << QList<double> { 50, 99 } << false << 0 << 0 << -1 << -1 << false;
}

void TestUseMatrixRange::worstInRange()
{
    QFETCH(QList<double>, values);
    QFETCH(bool, higherIsWorse);
    QFETCH(int, worst);
    QFETCH(int, level);
    QFETCH(int, since);
    QFETCH(int, until);
    QFETCH(bool, toLast);
    std::vector<Sample> samples;
    samples.reserve(size_t(values.size()));
    for (qsizetype i = 0; i < values.size(); ++i)
        samples.push_back({ T0 + i * 1000, values.at(i) });
    PanelThresholds t;
    t.higherIsWorse = higherIsWorse;
    t.warning = higherIsWorse ? 70 : 20;
    t.critical = higherIsWorse ? 90 : 10;
    const auto w = useWorstInRange(samples, t);
    QVERIFY(w);
    QCOMPARE(w->sample.tsMs, T0 + worst * 1000);
    QCOMPARE(w->sample.value, values.at(worst));
    QCOMPARE(w->level, level);
    QCOMPARE(w->sinceMs, since < 0 ? -1 : T0 + since * 1000);
    QCOMPARE(w->untilMs, until < 0 ? -1 : T0 + until * 1000);
    QCOMPARE(w->toLastSample, toLast);
    QVERIFY(!useWorstInRange({}, t));
    QVERIFY(!useWorstInRange({ { T0, qQNaN() } }, t));
}

void TestUseMatrixRange::worstThroughQuery_data()
{
    // One CPU series, a sample a second from Start; the range ends at Start + end s.
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<int>("end");
    QTest::addColumn<QJsonObject>("options");
    QTest::addColumn<int>("level");
    QTest::addColumn<bool>("stale");
    QTest::addColumn<int>("since"); // s after Start, -1 when not raised
    QTest::addColumn<bool>("ongoing");
    QTest::addColumn<QString>("figure");
    QList<double> crossing(60, 40.0);
    for (int i = 30; i < 60; ++i)
        crossing[i] = 75 + (i % 3); // crosses warning at t1 = 30 s and stays
    QTest::newRow("crosses warning at t1 and stays: since t1")
        << crossing << 59 << QJsonObject {} << int(UseLevel::Warning) << false << 30 << true
        << u"77 %"_s;
    QList<double> spike(60, 30.0);
    spike[20] = 97;
    QTest::newRow("worst in range, not the latest")
        << spike << 59 << QJsonObject {} << int(UseLevel::Critical) << false << 20 << false
        << u"97 %"_s;
    // Raised, then the series went away 30 s before the range end: stale, still red.
    QList<double> gone(30, 95.0);
    gone[0] = 10;
    QTest::newRow("stale but raised") << gone << 59 << QJsonObject {} << int(UseLevel::Critical)
                                      << true << 1 << false << u"95 %"_s;
    QList<double> falling(60, 50.0);
    for (int i = 40; i < 60; ++i)
        falling[i] = 15 - (i >= 50 ? 7 : 0);
    QTest::newRow("lower is worse, by the panel's thresholds")
        << falling << 59
        << QJsonObject { { u"thresholds"_s,
                           QJsonObject { { u"utilization"_s,
                                           QJsonObject { { u"warning"_s, 20 },
                                                         { u"critical"_s, 10 },
                                                         { u"higherIsWorse"_s, false } } } } } }
        << int(UseLevel::Critical) << false << 50 << true << u"8 %"_s;
}

void TestUseMatrixRange::worstThroughQuery()
{
    QFETCH(QList<double>, values);
    QFETCH(int, end);
    QFETCH(QJsonObject, options);
    QFETCH(int, level);
    QFETCH(bool, stale);
    QFETCH(int, since);
    QFETCH(bool, ongoing);
    QFETCH(QString, figure);
    constexpr qint64 Start = T0 + 3'600'000;
    SeriesRegistry registry;
    LiveBuffers live(1000);
    const int id = registry.idFor(
        series(u"host.cpu.utilization"_s, {}, u"%"_s, u"cpu"_s, UseKind::Utilization, u"host"_s));
    for (qsizetype i = 0; i < values.size(); ++i)
        live.append(id, { Start + i * 1000, values.at(i) });
    const SeriesStore store(&live, nullptr);
    DashboardPanel panel;
    panel.id = u"m"_s;
    panel.type = PanelType::UseMatrix;
    panel.series = { { u"host"_s, u"*"_s, {} } };
    panel.options = options;
    const qint64 atMs = Start + end * 1000;
    const UseMatrix m = queryPanel(panel, registry, store, Start, atMs, 0).as<UseMatrix>();
    QCOMPARE(m.rows.size(), 1);
    const UseCell &cell = m.rows.constFirst().cell(UseColumn::Utilization);
    QCOMPARE(int(cell.level), level);
    QCOMPARE(cell.stale, stale);
    QCOMPARE(cell.sinceMs, since < 0 ? -1 : Start + since * 1000);
    QCOMPARE(cell.ongoing, ongoing);
    QCOMPARE(Test::figure(cell), figure);
    const QString text = UseMatrixModel::cellText(cell, atMs);
    QVERIFY2(text.startsWith(figure), qPrintable(text));
    if (ongoing)
        QCOMPARE(text, figure + u" since "_s + localHm(cell.sinceMs));
    else if (since >= 0)
        QVERIFY2(!text.contains(u"since"_s), qPrintable(text));
}

void TestUseMatrixRange::csvColumns_data()
{
    QTest::addColumn<QList<double>>("values"); // a sample a second, the last at At
    QTest::addColumn<qint64>("age"); // of the last sample at the range end
    QTest::addColumn<QString>("line");
    const QString head = u"use-matrix,web2,host.cpu.utilization,"_s;
    QTest::newRow("ok: no level, no since")
        << QList<double> { 30, 40, 35 } << qint64(0)
        << isoUtc(At - 1000) + u","_s + head + u"\"{resource=cpu,use=utilization}\",40,%"_s;
    QTest::newRow("raised and holding: level and since")
        << QList<double> { 30, 92, 85 } << qint64(0)
        << isoUtc(At - 1000) + u","_s + head + u"\"{level=critical,resource=cpu,since="_s
            + isoUtc(At - 1000) + u",use=utilization}\",92,%"_s;
    QTest::newRow("raised and over: until")
        << QList<double> { 75, 80, 10 } << qint64(0)
        << isoUtc(At - 1000) + u","_s + head + u"\"{level=warning,resource=cpu,since="_s
            + isoUtc(At - 2000) + u",until="_s + isoUtc(At - 1000) + u",use=utilization}\",80,%"_s;
    QTest::newRow("stale and raised: until and stale") << QList<double> { 95, 95 } << qint64(60'000)
                                                       << isoUtc(At - 60'000) + u","_s + head
            + u"\"{level=critical,resource=cpu,since="_s + isoUtc(At - 61'000)
            + u",stale=true,until="_s + isoUtc(At - 60'000) + u",use=utilization}\",95,%"_s;
}

void TestUseMatrixRange::csvColumns()
{
    QFETCH(QList<double>, values);
    QFETCH(qint64, age);
    QFETCH(QString, line);
    std::vector<Sample> samples;
    samples.reserve(size_t(values.size()));
    for (qsizetype i = 0; i < values.size(); ++i)
        samples.push_back({ At - age - (values.size() - 1 - i) * 1000, values.at(i) });
    PanelData data;
    data.panelId = u"use-matrix"_s;
    data.payload = buildUseMatrix({ rangeReading(series(u"host.cpu.utilization"_s, {}, u"%"_s,
                                                        u"cpu"_s, UseKind::Utilization, u"web2"_s),
                                                 samples) },
                                  {}, At);
    const QString csv = QString::fromUtf8(csvRows(data));
    QCOMPARE(csv, line + u"\r\n"_s);
    // The header stays the one every panel shares.
    QCOMPARE(csvHeader(), QByteArray("time,panel,source,metric,labels,value,unit\r\n"));
}

void TestUseMatrixRange::modelTwoSources()
{
    UseMatrixModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    const auto cpu = [](const QString &source) {
        return series(u"host.cpu.utilization"_s, {}, u"%"_s, u"cpu"_s, UseKind::Utilization,
                      source);
    };
    // host: raised from At - 3 s and holding; web2: fine now, was critical a while ago.
    const UseMatrix m = buildUseMatrix(
        { rangeReading(cpu(u"host"_s), { { At - 5000, 40 }, { At - 3000, 92 }, { At, 91 } }),
          rangeReading(cpu(u"web2"_s),
                       { { At - 200'000, 95 }, { At - 100'000, 96 }, { At, 20 } }) },
        {}, At);
    model.setMatrix(m);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.headerData(0, Qt::Vertical).toString(), u"host · CPU"_s);
    QCOMPARE(model.headerData(1, Qt::Vertical).toString(), u"web2 · CPU"_s);
    QCOMPARE(model.headerData(1, Qt::Vertical, UseMatrixModel::SourceRole).toString(), u"web2"_s);
    const QModelIndex host = model.index(0, 0);
    QCOMPARE(host.data().toString(), u"92 % since "_s + localHm(At - 3000));
    QCOMPARE(host.data(UseMatrixModel::SinceRole).toLongLong(), At - 3000);
    QCOMPARE(host.data(UseMatrixModel::ValueRole).toDouble(), 92.0);
    QCOMPARE(host.data(UseMatrixModel::WorstTimeRole).toLongLong(), At - 3000);
    const QModelIndex web2 = model.index(1, 0);
    QCOMPARE(web2.data(UseMatrixModel::LevelRole).toInt(), int(UseLevel::Critical));
    QCOMPARE(web2.data(UseMatrixModel::ValueRole).toDouble(), 96.0);
    QCOMPARE(web2.data(UseMatrixModel::SinceRole).toLongLong(), At - 200'000);
    QCOMPARE(web2.data(UseMatrixModel::UntilRole).toLongLong(), At - 100'000);
    QCOMPARE(web2.data(UseMatrixModel::SourceRole).toString(), u"web2"_s);
    const QString ended = localHm(At - 200'000) == localHm(At - 100'000)
        ? QString(u"96 % at "_s + localHm(At - 200'000))
        : u"96 % "_s + localHm(At - 200'000) + u'–' + localHm(At - 100'000);
    QCOMPARE(web2.data().toString(), ended);
    const QString tip = web2.data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.startsWith(u"web2 · CPU — Utilization: critical"_s), qPrintable(tip));
    QVERIFY2(tip.contains(u"critical from "_s), qPrintable(tip));
    // The same rows again: data changes, no reset.
    model.setMatrix(m);
    QCOMPARE(resets.size(), 1);
    // One host goes: a reset, and the remaining row's label is short again.
    UseMatrix one = m;
    one.rows.removeLast();
    labelUseRows(&one.rows);
    model.setMatrix(one);
    QCOMPARE(resets.size(), 2);
    QCOMPARE(model.headerData(0, Qt::Vertical).toString(), u"CPU"_s);
}

QTEST_GUILESS_MAIN(TestUseMatrixRange)
#include "tst_usematrixrange.moc"
