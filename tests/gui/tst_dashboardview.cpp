#include "dashboardview.h"
#include "livebuffers.h"
#include "seriesregistry.h"
#include "seriesstore.h"
#include "timeseriespanel.h"

#include <QSignalSpy>
#include <QTest>

using namespace Headroom;

class TestDashboardView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void placesPanelsAndRefreshes();
};

void TestDashboardView::placesPanelsAndRefreshes()
{
    SeriesRegistry registry;
    LiveBuffers live(1000);
    const int cpu = registry.idFor(
        SeriesInfo { { QStringLiteral("host"), QStringLiteral("host.cpu.utilization"), {} },
                     QStringLiteral("%"),
                     QStringLiteral("cpu"),
                     UseKind::Utilization,
                     false });
    const int mem = registry.idFor(
        SeriesInfo { { QStringLiteral("host"), QStringLiteral("host.mem.utilization"), {} },
                     QStringLiteral("%"),
                     QStringLiteral("memory"),
                     UseKind::Utilization,
                     false });
    for (int i = 0; i < 100; ++i) {
        live.append(cpu, { i * 1000LL, 10.0 + i % 5 });
        live.append(mem, { i * 1000LL, 50.0 });
    }
    const SeriesStore store(&live, nullptr);

    Dashboard dashboard;
    DashboardPanel a;
    a.id = QStringLiteral("cpu");
    a.type = QStringLiteral("timeseries");
    a.series = { { QStringLiteral("host"), QStringLiteral("host.cpu.*"), {} } };
    a.layout = { 0, 0, 6, 4 };
    DashboardPanel b = a;
    b.id = QStringLiteral("mem");
    b.series = { { QStringLiteral("host"), QStringLiteral("host.mem.utilization"), {} } };
    b.layout = { 6, 0, 6, 4 };
    DashboardPanel c = b;
    c.id = QStringLiteral("wide");
    c.layout = { 0, 4, 12, 2 };
    dashboard.panels = { a, b, c };

    DashboardView view(&registry);
    view.setStore(&store);
    view.setDashboard(dashboard);
    view.resize(view.preferredSize(1200));
    QCOMPARE(view.preferredSize(1200).height(), 6 * DashboardView::RowUnitPx + 8);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.panels().size(), 3);
    // Side by side: same top, the second to the right of the first; the third below, full width.
    QCOMPARE(view.panels()[0]->y(), view.panels()[1]->y());
    QVERIFY(view.panels()[1]->x() > view.panels()[0]->x() + view.panels()[0]->width() / 2);
    QVERIFY(view.panels()[2]->y() > view.panels()[0]->y());
    QVERIFY(view.panels()[2]->width() > view.panels()[0]->width() * 3 / 2);

    QSignalSpy refreshed(&view, &DashboardView::refreshed);
    view.refresh(0, 99'000); // asynchronous: pool, then queued back
    view.refresh(0, 99'000); // coalesced while the first runs
    QTRY_VERIFY(refreshed.count() >= 1);
    QCOMPARE(view.panels()[0]->data().series.size(), 1);
    QCOMPARE(view.panels()[0]->data().series[0].points.size(), size_t(100));
    QCOMPARE(view.panels()[1]->data().series[0].points.front().value, 50.0);

    const QList<PanelData> all = view.queryAll(0, 49'000);
    QCOMPARE(all.size(), 3);
    QCOMPARE(all[0].series[0].points.size(), size_t(50));
}

QTEST_MAIN(TestDashboardView)
#include "tst_dashboardview.moc"
