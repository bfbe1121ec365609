// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/panelquery.h"

#include "core/legendtemplate.h"
#include "core/statementname.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/legendnames.h"
#include "query/panels/paneldescriptor.h"
#include "query/panels/timeseriespanel.h"

#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

QList<int> matchSeries(const QList<SeriesSelector> &selectors, const SeriesRegistry &registry)
{
    QList<std::pair<QString, int>> matched;
    for (const auto allIds = registry.ids(); int id : allIds) {
        const auto info = registry.info(id);
        if (!info)
            continue;
        const bool hit = std::any_of(selectors.cbegin(), selectors.cend(),
                                     [&](const SeriesSelector &s) { return s.matches(info->key); });
        if (hit)
            matched.append({ info->key.toString(), id });
    }
    std::sort(matched.begin(), matched.end());
    QList<int> ids;
    ids.reserve(matched.size());
    for (const auto &m : std::as_const(matched))
        ids.append(m.second);
    return ids;
}

PanelData queryPanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                     const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns)
{
    const PanelDescriptor &descriptor = panelDescriptor(panel.type);
    QList<AlertEvent> alerts;
    if (descriptor.showsAlerts)
        alerts = store.readAlertEvents(fromMs - AlertLookbackMs, toMs);
    PanelData data = descriptor.query({ panel, registry, store, fromMs, toMs, columns, alerts });
    Q_ASSERT(data.type() == panel.type);
    data.panelId = panel.id;
    data.fromMs = fromMs;
    data.toMs = toMs;
    data.alerts = std::move(alerts);
    nameSeries(&data.series, panel.legend);
    return data;
}

void addComparison(PanelData *data, const DashboardPanel &panel, const SeriesRegistry &registry,
                   const SeriesStore &store, qint64 offsetMs, int columns)
{
    data->compare.clear();
    data->compareOffsetMs = 0;
    if (offsetMs <= 0)
        return;
    PanelData earlier = queryTimeSeries(panel, registry, store, data->fromMs - offsetMs,
                                        data->toMs - offsetMs, columns);
    for (PanelSeriesData &s : earlier.series) {
        for (Sample &p : s.points)
            p.tsMs += offsetMs;
    }
    data->compare = std::move(earlier.series);
    nameSeries(&data->compare, panel.legend);
    data->compareOffsetMs = offsetMs;
}

QString seriesLabelValues(const SeriesInfo &info)
{
    // A statement by its short name: its first words and queryid, not 80 characters
    // of text (the hover and the tables show all of it).
    const QString statement = statementShortName(info.key.labels);
    QStringList values;
    for (auto it = info.key.labels.cbegin(); it != info.key.labels.cend(); ++it) {
        if (statement.isEmpty() || (it.key() != "query"_L1 && it.key() != "queryid"_L1))
            values << it.value();
    }
    if (!statement.isEmpty())
        values << statement;
    return values.join(u'/');
}

QString seriesDisplayName(const SeriesInfo &info)
{
    // The metric without its family prefix ("host.", "nic.": the panel says that), then
    // the label values that tell series apart.
    const QString values = seriesLabelValues(info);
    const QString metric = metricWithoutFamily(info.key.metric);
    return values.isEmpty() ? metric : metric + u' ' + values;
}

} // namespace Headroom
