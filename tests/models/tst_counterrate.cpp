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

using Width = CounterRate::Width;
Q_DECLARE_METATYPE(Width)

void TestCounterRate::rates_data()
{
    QTest::addColumn<QList<double>>("values"); // one per second
    QTest::addColumn<Width>("width");
    QTest::addColumn<QList<double>>("expected"); // -1 = no rate for that interval
    QTest::newRow("steady") << QList<double>{0, 100, 200, 350} << Width::Unbounded
                            << QList<double>{-1, 100, 100, 150};
    QTest::newRow("reset gives a gap, then resumes")
        << QList<double>{1000, 2000, 50, 150} << Width::Unbounded << QList<double>{-1, 1000, -1, 100};
    QTest::newRow("32-bit wrap recovered")
        << QList<double>{4294967000.0, 200} << Width::Bits32 << QList<double>{-1, 496};
    QTest::newRow("32-bit drop far from the top is a reset")
        << QList<double>{1000000, 10} << Width::Bits32 << QList<double>{-1, -1};
    QTest::newRow("unchanged") << QList<double>{7, 7, 7} << Width::Unbounded << QList<double>{-1, 0, 0};
}

void TestCounterRate::rates()
{
    QFETCH(QList<double>, values);
    QFETCH(Width, width);
    QFETCH(QList<double>, expected);
    // A wrap implying more than 1e6/s is not believable here: a reset instead.
    CounterRate rates(1e6);
    for (qsizetype i = 0; i < values.size(); ++i) {
        const auto rate = rates.update(QStringLiteral("c"), values.at(i), 1000 * i, width);
        if (expected.at(i) < 0) {
            QVERIFY2(!rate, qPrintable(QStringLiteral("step %1 gave %2").arg(i).arg(rate.value_or(0))));
        } else {
            QVERIFY2(rate.has_value(), qPrintable(QStringLiteral("step %1 gave no rate").arg(i)));
            QCOMPARE(*rate, expected.at(i));
        }
    }
}

QTEST_GUILESS_MAIN(TestCounterRate)
#include "tst_counterrate.moc"
