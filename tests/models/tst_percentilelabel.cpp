// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Percentile names (core/percentilelabel.h): a histogram line's label and an alert
// rule's reducer.
#include "core/percentilelabel.h"

#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestPercentileLabel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void label_data();
    void label();
};

void TestPercentileLabel::label_data()
{
    QTest::addColumn<double>("percentile");
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("reducer");
    QTest::newRow("50") << 50.0 << u"p50"_s << u"p50"_s;
    QTest::newRow("99") << 99.0 << u"p99"_s << u"p99"_s;
    QTest::newRow("99.9") << 99.9 << u"p99.9"_s << u"p99.9"_s;
    QTest::newRow("99.99") << 99.99 << u"p99.99"_s << u"p99.99"_s;
    // Shortest exact digits for a line; six significant for a reducer.
    QTest::newRow("99.9999") << 99.9999 << u"p99.9999"_s << u"p99.9999"_s;
    QTest::newRow("99.99999") << 99.99999 << u"p99.99999"_s << u"p100"_s;
    QTest::newRow("0.5") << 0.5 << u"p0.5"_s << u"p0.5"_s;
    QTest::newRow("100") << 100.0 << u"max"_s << u"p100"_s;
}

void TestPercentileLabel::label()
{
    QFETCH(double, percentile);
    QFETCH(QString, line);
    QFETCH(QString, reducer);
    QCOMPARE(percentileLabel(percentile, PercentileLabelStyle::Line), line);
    QCOMPARE(percentileLabel(percentile, PercentileLabelStyle::Reducer), reducer);
}

QTEST_GUILESS_MAIN(TestPercentileLabel)
#include "tst_percentilelabel.moc"
