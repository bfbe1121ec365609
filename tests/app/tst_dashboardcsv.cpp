// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The dashboard CSV (dashboardcsv.h) as a headless run writes it: every panel's
// samples from the query layer, unreduced, in panel order, byte for byte; no widget
// and no QApplication.
#include "dashboardcsv.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestDashboardCsv : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void writesEveryPanelsSamples();
    void everySampleOfALongRange();
    void unwritablePath();

private:
    static DashboardPanel panel(const QString &id, const QString &metric);
    QByteArray writeAndRead(const QList<DashboardPanel> &panels, qint64 fromMs, qint64 toMs);

    QTemporaryDir m_dir;
    SeriesRegistry m_registry;
    LiveBuffers m_live { 10000 };
};

namespace {
SeriesInfo info(const QString &metric, const Labels &labels, const QString &unit)
{
    return SeriesInfo {
        { u"host"_s, metric, labels }, unit, u"cpu"_s, UseKind::Utilization, false
    };
}
constexpr qint64 T0 = 1'700'000'000'000; // 2023-11-14T22:13:20Z
} // namespace

void TestDashboardCsv::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const int cpu
        = m_registry.idFor(info(u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } }, u"%"_s));
    const int mem = m_registry.idFor(info(u"host.mem.used"_s, {}, u"bytes"_s));
    for (int i = 0; i < 3600; ++i) {
        m_live.append(cpu, { T0 + i * 1000LL, 12.5 + i % 10 });
        m_live.append(mem, { T0 + i * 1000LL, 1024.0 * (i + 1) });
    }
}

DashboardPanel TestDashboardCsv::panel(const QString &id, const QString &metric)
{
    DashboardPanel p;
    p.id = id;
    p.type = PanelType::TimeSeries;
    p.series = { { u"host"_s, metric, {} } };
    return p;
}

QByteArray TestDashboardCsv::writeAndRead(const QList<DashboardPanel> &panels, qint64 fromMs,
                                          qint64 toMs)
{
    const SeriesStore store(&m_live, nullptr);
    const QString path = m_dir.filePath(u"out.csv"_s);
    QString error;
    if (!writeDashboardCsv(panels, m_registry, store, fromMs, toMs, path, &error)) {
        qWarning() << error;
        return {};
    }
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void TestDashboardCsv::writesEveryPanelsSamples()
{
    // Panel order, not series order; a panel that matches nothing adds no rows.
    const QByteArray csv
        = writeAndRead({ panel(u"mem"_s, u"host.mem.used"_s), panel(u"none"_s, u"host.nosuch"_s),
                         panel(u"cpu"_s, u"host.cpu.utilization"_s) },
                       T0 + 1000, T0 + 2000);
    QCOMPARE(
        csv,
        QByteArray("time,panel,source,metric,labels,value,unit\r\n"
                   "2023-11-14T22:13:21.000Z,mem,host,host.mem.used,{},2048,bytes\r\n"
                   "2023-11-14T22:13:22.000Z,mem,host,host.mem.used,{},3072,bytes\r\n"
                   "2023-11-14T22:13:21.000Z,cpu,host,host.cpu.utilization,{cpu=all},13.5,%\r\n"
                   "2023-11-14T22:13:22.000Z,cpu,host,host.cpu.utilization,{cpu=all},14.5,%\r\n"));
    QCOMPARE(writeAndRead({}, T0, T0 + 1000),
             QByteArray("time,panel,source,metric,labels,value,unit\r\n"));
}

void TestDashboardCsv::everySampleOfALongRange()
{
    // No pixel reduction: an hour at one sample a second is 3600 rows.
    const QList<PanelData> data
        = queryDashboardForCsv({ panel(u"cpu"_s, u"host.cpu.utilization"_s) }, m_registry,
                               SeriesStore(&m_live, nullptr), T0, T0 + 3599'000);
    QCOMPARE(data.size(), 1);
    QCOMPARE(data[0].panelId, u"cpu"_s);
    QCOMPARE(data[0].series.size(), 1);
    QCOMPARE(data[0].series[0].points.size(), size_t(3600));
    QVERIFY(data[0].compare.isEmpty());
    QCOMPARE(
        writeAndRead({ panel(u"cpu"_s, u"host.cpu.utilization"_s) }, T0, T0 + 3599'000).count('\n'),
        3601);
}

void TestDashboardCsv::unwritablePath()
{
    QString error;
    QVERIFY(!writeDashboardCsv({ panel(u"cpu"_s, u"host.cpu.utilization"_s) }, m_registry,
                               SeriesStore(&m_live, nullptr), T0, T0 + 1000,
                               u"/nonexistent-dir/out.csv"_s, &error));
    QVERIFY2(error.startsWith(u"/nonexistent-dir/out.csv: cannot write: "_s), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestDashboardCsv)
#include "tst_dashboardcsv.moc"
