#include "counterrate.h"

#include <QTest>

using namespace Headroom;

class TestCounterRate : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rates_data();
    void rates();
};

void TestCounterRate::rates_data()
{
    QTest::addColumn<QList<double>>("values"); // one per second
    QTest::addColumn<QList<double>>("expected"); // -1 = no rate for that interval
    QTest::newRow("steady") << QList<double> { 0, 100, 200, 350 }
                            << QList<double> { -1, 100, 100, 150 };
    QTest::newRow("reset gives a gap, then resumes")
        << QList<double> { 1000, 2000, 50, 150 } << QList<double> { -1, 1000, -1, 100 };
    QTest::newRow("wrap is a gap, not a spike")
        << QList<double> { 4294967000.0, 200, 300 } << QList<double> { -1, -1, 100 };
    QTest::newRow("NaN is skipped")
        << QList<double> { 10, qQNaN(), 30 } << QList<double> { -1, -1, 10 };
    QTest::newRow("unchanged") << QList<double> { 7, 7, 7 } << QList<double> { -1, 0, 0 };
}

void TestCounterRate::rates()
{
    QFETCH(QList<double>, values);
    QFETCH(QList<double>, expected);
    CounterRate rates;
    for (qsizetype i = 0; i < values.size(); ++i) {
        const auto rate = rates.update(QStringLiteral("c"), values.at(i), 1000 * i);
        if (expected.at(i) < 0) {
            QVERIFY2(!rate,
                     qPrintable(QStringLiteral("step %1 gave %2").arg(i).arg(rate.value_or(0))));
        } else {
            QVERIFY2(rate.has_value(), qPrintable(QStringLiteral("step %1 gave no rate").arg(i)));
            QCOMPARE(*rate, expected.at(i));
        }
    }
}

QTEST_GUILESS_MAIN(TestCounterRate)
#include "tst_counterrate.moc"
