// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "timeseriespaneltestutil.h"

#include "query/downsample.h"

namespace Headroom::Test {

using namespace Qt::StringLiterals;

PanelSeriesData series(int id, const QString &cpu, std::vector<Sample> points)
{
    PanelSeriesData s;
    s.seriesId = id;
    s.info = SeriesInfo { { u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, cpu } } },
                          u"%"_s,
                          u"cpu"_s,
                          UseKind::Utilization,
                          false };
    s.points = std::move(points);
    for (const auto &part : splitAtGaps(s.points))
        s.segmentStarts.push_back(part.first);
    return s;
}

PanelData emptyData(const QString &id, qint64 fromMs, qint64 toMs)
{
    PanelData data;
    data.panelId = id;
    data.fromMs = fromMs;
    data.toMs = toMs;
    return data;
}

DashboardPanel panelConfig()
{
    DashboardPanel config;
    config.id = u"cpu"_s;
    config.type = PanelType::TimeSeries;
    config.title = u"CPU"_s;
    return config;
}

} // namespace Headroom::Test
