// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/series.h"
#include "engine/runtime/seriesregistry.h"

#include <QTest>
#include <QtConcurrentMap>

using namespace Qt::StringLiterals;

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
    QTest::newRow("empty") << Labels {} << u"{}"_s;
    QTest::newRow("sorted") << Labels { { u"mode"_s, u"user"_s }, { u"cpu"_s, u"all"_s } }
                            << u"{cpu=all,mode=user}"_s;
    QTest::newRow("escapes") << Labels { { u"q"_s, u"a,b=c}\\"_s } } << u"{q=a\\,b\\=c\\}\\\\}"_s;
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
    QTest::newRow("no braces") << u"a=b"_s;
    QTest::newRow("dangling escape") << u"{a=b\\}"_s;
    QTest::newRow("key without value") << u"{a,b=c}"_s;
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
    SeriesInfo a { { u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } },
                   u"%"_s,
                   u"cpu"_s,
                   UseKind::Utilization,
                   false };
    SeriesInfo b = a;
    b.key.labels[u"cpu"_s] = u"cpu0"_s;
    bool isNew = false;
    const int idA = registry.idFor(a, &isNew);
    QVERIFY(isNew);
    QCOMPARE(registry.idFor(a, &isNew), idA);
    QVERIFY(!isNew);
    const int idB = registry.idFor(b);
    QVERIFY(idB != idA);
    QCOMPARE(registry.info(idB)->key, b.key);
    registry.insert(100, SeriesInfo { { u"x"_s, u"y"_s, {} }, {}, {}, UseKind::Info, false });
    QCOMPARE(registry.idFor(SeriesInfo { { u"x"_s, u"z"_s, {} }, {}, {}, UseKind::Info, false }),
             101);
}

void TestSeries::registryConcurrent()
{
    SeriesRegistry registry;
    auto work = [&registry](int) {
        for (int i = 0; i < 2000; ++i)
            registry.idFor(
                SeriesInfo { { u"s"_s, u"m%1"_s.arg(i % 500), {} }, {}, {}, UseKind::Info, false });
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
