// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The one value formatter (core/valueformat.h) in each place's format: the USE matrix
// and alert default, the shard table's columns, axis ticks, the heatmap's row bounds
// and colour bar. The strings are the ones each place printed before it shared it.
#include "core/valueformat.h"

#include <QTest>
#include <cmath>

using namespace Headroom;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Headroom::ValueFormat)

namespace {
ValueFormat shardOps()
{
    ValueFormat f;
    f.noValue = QString();
    f.digits = ValueFormat::Digits::DecimalsByPrefix;
    f.prefixFrom = 1e4;
    f.largestPrefix = 1e6;
    return f;
}
ValueFormat fixed1(bool plusSign)
{
    ValueFormat f;
    f.noValue = QString();
    f.digits = ValueFormat::Digits::Fixed;
    f.precision = 1;
    f.prefixFrom = ValueFormat::NoPrefix;
    f.plusSign = plusSign;
    return f;
}
ValueFormat axis(double step)
{
    ValueFormat f;
    f.digits = ValueFormat::Digits::Step;
    f.step = step;
    f.prefixFrom = 1e3;
    return f;
}
ValueFormat heatmapBound()
{
    ValueFormat f;
    f.digits = ValueFormat::Digits::Significant;
    f.precision = 3;
    f.prefixFrom = ValueFormat::NoPrefix;
    return f;
}
ValueFormat heatmapRate()
{
    ValueFormat f;
    f.digits = ValueFormat::Digits::Significant;
    f.precision = 3;
    f.prefixFrom = 1e3;
    f.largestPrefix = 1e6;
    f.spaceBeforeUnit = false;
    return f;
}
} // namespace

class TestValueFormat : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void formats_data();
    void formats();
    void useValueIsTheDefault();
    void scales_data();
    void scales();
};

void TestValueFormat::formats_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<ValueFormat>("format");
    QTest::addColumn<QString>("expected");

    const ValueFormat use;
    QTest::newRow("use percent") << 93.4 << u"%"_s << use << u"93 %"_s;
    QTest::newRow("use percent never prefixed") << 12345.0 << u"%"_s << use << u"12345 %"_s;
    QTest::newRow("use small") << 2.14 << u""_s << use << u"2.1"_s;
    QTest::newRow("use zero") << 0.0 << u"B"_s << use << u"0 B"_s;
    QTest::newRow("use rate") << 0.4 << u"1/s"_s << use << u"0.4 /s"_s;
    QTest::newRow("use unit after prefix") << 12.0 << u"pages/s"_s << use << u"12 pages/s"_s;
    QTest::newRow("use below 10 000 exact") << 9999.0 << u""_s << use << u"9999"_s;
    QTest::newRow("use k from 10 000") << 10000.0 << u""_s << use << u"10k"_s;
    QTest::newRow("use NaN") << qQNaN() << u"%"_s << use << u"—"_s;
    QTest::newRow("use infinity") << qInf() << u"ms"_s << use << u"∞"_s;
    QTest::newRow("use minus infinity") << -qInf() << u"B"_s << use << u"-∞"_s;

    // Bytes: binary prefixes on the unit, from prefixFrom (10 000) on.
    QTest::newRow("bytes below prefixFrom") << 9999.0 << u"B"_s << use << u"9999 B"_s;
    QTest::newRow("bytes KiB") << 10000.0 << u"B"_s << use << u"9.8 KiB"_s;
    QTest::newRow("bytes MiB/s") << 1.5e6 << u"B/s"_s << use << u"1.4 MiB/s"_s;
    QTest::newRow("bytes one MiB") << 1048576.0 << u"B/s"_s << use << u"1 MiB/s"_s;
    QTest::newRow("bytes just under MiB") << 1048575.0 << u"B"_s << use << u"1024 KiB"_s;
    QTest::newRow("bytes GiB negative") << -2.5e9 << u"B"_s << use << u"-2.3 GiB"_s;
    QTest::newRow("bytes TiB") << 3.0 * 1099511627776.0 << u"B"_s << use << u"3 TiB"_s;
    QTest::newRow("bytes beyond TiB") << 2048.0 * 1099511627776.0 << u"B"_s << use << u"2048 TiB"_s;
    QTest::newRow("bytes not a byte unit") << 12000.0 << u"Buffers"_s << use << u"12k Buffers"_s;

    // Bit rates: SI prefixes on the unit, whatever prefix the unit came with.
    QTest::newRow("bits Mbit/s as Gbit/s") << 10000.0 << u"Mbit/s"_s << use << u"10 Gbit/s"_s;
    QTest::newRow("bits Mbit/s") << 100.0 << u"Mbit/s"_s << use << u"100 Mbit/s"_s;
    QTest::newRow("bits small") << 9000.0 << u"bit/s"_s << use << u"9000 bit/s"_s;
    QTest::newRow("bits kbit/s") << 12600.0 << u"bit/s"_s << use << u"13 kbit/s"_s;
    QTest::newRow("bits zero") << 0.0 << u"Gbit/s"_s << use << u"0 bit/s"_s;

    // Durations: the unit that reads best, at each boundary.
    QTest::newRow("duration zero keeps unit") << 0.0 << u"s"_s << use << u"0 s"_s;
    QTest::newRow("duration ns") << 5e-5 << u"ms"_s << use << u"50 ns"_s;
    QTest::newRow("duration 0.1 µs") << 1e-4 << u"ms"_s << use << u"0.1 µs"_s;
    QTest::newRow("duration µs") << 0.0999 << u"ms"_s << use << u"100 µs"_s;
    QTest::newRow("duration 0.1 ms") << 0.1 << u"ms"_s << use << u"0.1 ms"_s;
    QTest::newRow("duration ms") << 999.0 << u"ms"_s << use << u"999 ms"_s;
    QTest::newRow("duration one second") << 1000.0 << u"ms"_s << use << u"1 s"_s;
    QTest::newRow("duration from s") << 0.5 << u"s"_s << use << u"500 ms"_s;
    QTest::newRow("duration from µs") << 2500.0 << u"µs"_s << use << u"2.5 ms"_s;
    QTest::newRow("duration from us") << 40.0 << u"us"_s << use << u"40 µs"_s;
    QTest::newRow("duration under 2 min") << 119.0 << u"s"_s << use << u"119 s"_s;
    QTest::newRow("duration min") << 120.0 << u"s"_s << use << u"2 min"_s;
    QTest::newRow("duration h") << 7200.0 << u"s"_s << use << u"2 h"_s;
    QTest::newRow("duration under 2 days") << 172799.0 << u"s"_s << use << u"48 h"_s;
    QTest::newRow("duration days") << 3e13 << u"ms"_s << use << u"347222 d"_s;
    QTest::newRow("duration negative") << -1500.0 << u"ms"_s << use << u"-1.5 s"_s;
    QTest::newRow("duration rate is not one") << 12.0 << u"ms/s"_s << use << u"12 ms/s"_s;

    QTest::newRow("shard ops small") << 2.46 << u""_s << shardOps() << u"2.5"_s;
    QTest::newRow("shard ops") << 850.4 << u""_s << shardOps() << u"850"_s;
    QTest::newRow("shard ops k") << 12345.0 << u""_s << shardOps() << u"12.3k"_s;
    QTest::newRow("shard ops M") << 1.254e6 << u""_s << shardOps() << u"1.25M"_s;
    QTest::newRow("shard ops no G") << 2e9 << u""_s << shardOps() << u"2000.00M"_s;
    QTest::newRow("shard ops NaN") << qQNaN() << u""_s << shardOps() << QString();
    QTest::newRow("shard load") << 12345.67 << u""_s << fixed1(false) << u"12345.7"_s;
    QTest::newRow("shard change rise") << 1.26 << u""_s << fixed1(true) << u"+1.3"_s;
    QTest::newRow("shard change fall") << -3.0 << u""_s << fixed1(true) << u"-3.0"_s;
    QTest::newRow("shard change none") << 0.0 << u""_s << fixed1(true) << u"0.0"_s;

    QTest::newRow("axis decimals of the step") << 0.5 << u""_s << axis(0.05) << u"0.50"_s;
    QTest::newRow("axis one decimal") << 0.5 << u""_s << axis(0.25) << u"0.5"_s;
    QTest::newRow("axis zero") << 0.0 << u""_s << axis(0.5) << u"0.0"_s;
    QTest::newRow("axis integer step") << 40.0 << u""_s << axis(20) << u"40"_s;
    QTest::newRow("axis k from 1000") << 1500.0 << u""_s << axis(500) << u"1.5k"_s;
    QTest::newRow("axis M") << 2e6 << u""_s << axis(1e6) << u"2M"_s;
    QTest::newRow("axis T") << 4e12 << u""_s << axis(1e12) << u"4T"_s;
    QTest::newRow("axis no step") << 3.0 << u""_s << axis(0) << u"3"_s;

    QTest::newRow("heatmap bound ms") << 0.25 << u"ms"_s << heatmapBound() << u"0.25 ms"_s;
    QTest::newRow("heatmap bound 4 digits") << 999.5 << u"ms"_s << heatmapBound() << u"999.5 ms"_s;
    QTest::newRow("heatmap bound s") << 2048.0 << u"ms"_s << heatmapBound() << u"2.05 s"_s;
    QTest::newRow("heatmap bound 0.1 ms") << 0.1 << u"ms"_s << heatmapBound() << u"0.1 ms"_s;
    QTest::newRow("heatmap bound µs") << 0.0625 << u"ms"_s << heatmapBound() << u"62.5 µs"_s;
    QTest::newRow("heatmap bound 2^-10 ms")
        << 0.0009765625 << u"ms"_s << heatmapBound() << u"0.977 µs"_s;
    QTest::newRow("heatmap bound ns") << 0.00005 << u"ms"_s << heatmapBound() << u"50 ns"_s;
    QTest::newRow("heatmap bound zero") << 0.0 << u"ms"_s << heatmapBound() << u"0 ms"_s;
    QTest::newRow("heatmap rate") << 8.5 << u"1/s"_s << heatmapRate() << u"8.5/s"_s;
    QTest::newRow("heatmap rate zero") << 0.0 << u"1/s"_s << heatmapRate() << u"0/s"_s;
    QTest::newRow("heatmap rate k") << 12345.0 << u"1/s"_s << heatmapRate() << u"12.3k/s"_s;
    QTest::newRow("heatmap rate M") << 4.5e9 << u"1/s"_s << heatmapRate() << u"4.5e+03M/s"_s;
}

void TestValueFormat::formats()
{
    QFETCH(double, value);
    QFETCH(QString, unit);
    QFETCH(ValueFormat, format);
    QFETCH(QString, expected);
    const QString text = formatValue(value, unit, format);
    QCOMPARE(text, expected);
    QCOMPARE(text.isNull(), expected.isNull()); // the shard table's empty cell
}

void TestValueFormat::useValueIsTheDefault()
{
    for (double v : { 0.0, 0.42, 93.0, 12345.0, 1.5e6, qQNaN() })
        for (const QString &unit : { u""_s, u"%"_s, u"1/s"_s, u"B/s"_s, u"pages/s"_s })
            QCOMPARE(formatUseValue(v, unit), formatValue(v, unit, ValueFormat {}));
}

void TestValueFormat::scales_data()
{
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("magnitude");
    QTest::addColumn<double>("factor");
    QTest::addColumn<QString>("shown");

    QTest::newRow("bytes") << u"B/s"_s << 3e6 << 1048576.0 << u"MiB/s"_s;
    QTest::newRow("bytes small") << u"B"_s << 1000.0 << 1.0 << u"B"_s;
    QTest::newRow("bytes KiB from 1024") << u"B"_s << 1024.0 << 1024.0 << u"KiB"_s;
    QTest::newRow("bits") << u"Mbit/s"_s << 10000.0 << 1000.0 << u"Gbit/s"_s;
    QTest::newRow("bits down") << u"Mbit/s"_s << 0.5 << 1e-3 << u"kbit/s"_s;
    QTest::newRow("ms to s") << u"ms"_s << 90000.0 << 1000.0 << u"s"_s;
    QTest::newRow("ms to µs") << u"ms"_s << 0.05 << 1e-3 << u"µs"_s;
    QTest::newRow("s to min") << u"s"_s << 600.0 << 60.0 << u"min"_s;
    QTest::newRow("s to ms") << u"s"_s << 0.2 << 1e-3 << u"ms"_s;
    QTest::newRow("zero keeps unit") << u"ms"_s << 0.0 << 1.0 << u"ms"_s;
    QTest::newRow("infinite keeps unit") << u"B"_s << qInf() << 1.0 << u"B"_s;
    QTest::newRow("percent") << u"%"_s << 250.0 << 1.0 << u"%"_s;
    QTest::newRow("other") << u"pages/s"_s << 1e6 << 1.0 << u"pages/s"_s;
}

void TestValueFormat::scales()
{
    QFETCH(QString, unit);
    QFETCH(double, magnitude);
    QFETCH(double, factor);
    QFETCH(QString, shown);
    const UnitScale scale = unitScale(unit, magnitude);
    QCOMPARE(scale.factor, factor);
    QCOMPARE(scale.unit, shown);
    // A value at the magnitude, formatted alone, is in the same unit (bytes and bits
    // from formatValue's prefixFrom, 10 000, on).
    if (factor != 1 && (magnitude >= 1e4 || !unit.contains(u'B')))
        QVERIFY2(formatValue(magnitude, unit).endsWith(shown), qPrintable(shown));
}

QTEST_GUILESS_MAIN(TestValueFormat)
#include "tst_valueformat.moc"
