#include "core/series.h"
#include "engine/runtime/seriesregistry.h"

#include <QTest>
#include <QtConcurrent>

using namespace Headroom;

class TestSeries : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void labelsRoundTrip_data();
    void labelsRoundTrip();
    void malformedLabels_data();
    void malformedLabels();
    void registryStableIds();
    void registryConcurrent();
};

void TestSeries::labelsRoundTrip_data()
{
    QTest::addColumn<Labels>("labels");
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << Labels {} << QStringLiteral("{}");
    QTest::newRow("sorted") << Labels { { QStringLiteral("mode"), QStringLiteral("user") },
                                        { QStringLiteral("cpu"), QStringLiteral("all") } }
                            << QStringLiteral("{cpu=all,mode=user}");
    QTest::newRow("escapes") << Labels { { QStringLiteral("q"), QStringLiteral("a,b=c}\\") } }
                             << QStringLiteral("{q=a\\,b\\=c\\}\\\\}");
}

void TestSeries::labelsRoundTrip()
{
    QFETCH(Labels, labels);
    QFETCH(QString, text);
    QCOMPARE(labelsToString(labels), text);
    bool ok = false;
    QCOMPARE(labelsFromString(text, &ok), labels);
    QVERIFY(ok);
}

void TestSeries::malformedLabels_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("no braces") << QStringLiteral("a=b");
    QTest::newRow("dangling escape") << QStringLiteral("{a=b\\}");
    QTest::newRow("key without value") << QStringLiteral("{a,b=c}");
    QTest::newRow("empty string") << QString();
}

void TestSeries::malformedLabels()
{
    QFETCH(QString, text);
    bool ok = true;
    QVERIFY(labelsFromString(text, &ok).isEmpty());
    QVERIFY(!ok);
}

void TestSeries::registryStableIds()
{
    SeriesRegistry registry;
    SeriesInfo a { { QStringLiteral("host"),
                     QStringLiteral("host.cpu.utilization"),
                     { { QStringLiteral("cpu"), QStringLiteral("all") } } },
                   QStringLiteral("%"),
                   QStringLiteral("cpu"),
                   UseKind::Utilization,
                   false };
    SeriesInfo b = a;
    b.key.labels[QStringLiteral("cpu")] = QStringLiteral("cpu0");
    bool isNew = false;
    const int idA = registry.idFor(a, &isNew);
    QVERIFY(isNew);
    QCOMPARE(registry.idFor(a, &isNew), idA);
    QVERIFY(!isNew);
    const int idB = registry.idFor(b);
    QVERIFY(idB != idA);
    QCOMPARE(registry.info(idB)->key, b.key);
    registry.insert(
        100,
        SeriesInfo {
            { QStringLiteral("x"), QStringLiteral("y"), {} }, {}, {}, UseKind::Info, false });
    QCOMPARE(registry.idFor(SeriesInfo {
                 { QStringLiteral("x"), QStringLiteral("z"), {} }, {}, {}, UseKind::Info, false }),
             101);
}

void TestSeries::registryConcurrent()
{
    SeriesRegistry registry;
    auto work = [&registry](int) {
        for (int i = 0; i < 2000; ++i)
            registry.idFor(
                SeriesInfo { { QStringLiteral("s"), QStringLiteral("m%1").arg(i % 500), {} },
                             {},
                             {},
                             UseKind::Info,
                             false });
        return 0;
    };
    auto f = QtConcurrent::mapped(QList<int> { 1, 2, 3, 4 }, work);
    f.waitForFinished();
    QCOMPARE(registry.size(), 500);
    QCOMPARE(registry.ids().size(), 500);
    QCOMPARE(registry.ids().constLast(), 500);
}

QTEST_GUILESS_MAIN(TestSeries)
#include "tst_series.moc"
