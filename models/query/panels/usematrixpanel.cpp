// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The USE matrix panel ("type": "usematrix"): one row per source and resource, built
// from its series (query/use/usematrixquery.h), cells raised by firing alerts
// (query/use/alertusematrix.h); options checked by document/panels/usematrixoptions.h.
//
// CSV rows: one per cell showing a figure (unmeasured cells and those without a sample
// in the range have none), rows in the matrix's order, columns U, S, E. time and value
// = the worst sample of the headline series in the range; source, metric and unit =
// the headline series'; labels = its labels plus use=<utilization|saturation|errors>
// and resource=<resource>, which tell the cell apart (the source column the row), and
// for a raised cell level=<warning|critical>, since=<ISO 8601 UTC> and, when the
// stretch ended before the range end, until=<ISO 8601 UTC>; stale=true for a stale
// cell. E.g. {device=sda,level=warning,resource=disk:sda,since=2023-11-14T22:13:20.000Z,
// use=saturation}.
#include "core/csvcell.h"
#include "engine/seriesstore.h"
#include "query/panels/paneldescriptor.h"
#include "query/use/alertusematrix.h"
#include "query/use/promqlusematrix.h"
#include "query/use/usematrixquery.h"

#include <QDateTime>
#include <QTimeZone>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

PanelData query(const PanelQueryRequest &r)
{
    const UseMatrixOptions options = useMatrixOptions(r.panel.options);
    PanelData data = options.queries.isEmpty()
        ? queryUseMatrixPanel(r.panel, r.registry, r.store, r.fromMs, r.toMs)
        : queryPromqlUseMatrix(r.panel, options, r.store.promqlEngines(), r.fromMs, r.toMs,
                               QDateTime::currentMSecsSinceEpoch());
    UseMatrix &matrix = std::get<UseMatrix>(data.payload);
    applyFiringAlerts(&matrix, r.alerts, r.registry);
    if (options.order == UseRowOrder::Worst)
        orderUseRowsWorstFirst(&matrix.rows);
    return data;
}

QString isoUtc(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::UTC).toString(Qt::ISODateWithMs);
}

QString useMatrixCsvRows(const PanelData &data)
{
    QString out;
    for (const UseMatrixRow &row : data.as<UseMatrix>().rows) {
        for (int c = 0; c < UseColumnCount; ++c) {
            const UseCell &cell = row.cells.at(size_t(c));
            const UseCellSeries *s = cell.headlineSeries();
            const UseWorst *worst = cell.worst();
            if (!cell.hasValue() || !s || !worst)
                continue;
            Labels labels = s->info.key.labels;
            labels.insert(u"use"_s, useColumnKey(UseColumn(c)));
            labels.insert(u"resource"_s, row.resource);
            if (cell.raised()) {
                labels.insert(u"level"_s, useLevelName(cell.level));
                if (cell.sinceMs >= 0)
                    labels.insert(u"since"_s, isoUtc(cell.sinceMs));
                if (!cell.ongoing && cell.untilMs >= 0)
                    labels.insert(u"until"_s, isoUtc(cell.untilMs));
            }
            if (cell.stale)
                labels.insert(u"stale"_s, u"true"_s);
            out += isoUtc(worst->sample.tsMs) + u',' + csvText(data.panelId) + u','
                + csvText(s->info.key.source) + u',' + csvText(s->info.key.metric) + u','
                + csvText(labelsToString(labels)) + u',' + csvNumber(worst->sample.value) + u','
                + csvText(s->info.unit) + u"\r\n"_s;
        }
    }
    return out;
}

} // namespace

template<> const PanelDescriptor &panelDescriptorOf<PanelType::UseMatrix>()
{
    static constexpr PanelDescriptor descriptor {
        .type = PanelType::UseMatrix,
        .showsAlerts = true, // cells of firing instances are raised (applyFiringAlerts)
        .supportsCompare = false,
        .readsSeries = true,
        .query = query,
        .csvRows = useMatrixCsvRows,
    };
    return descriptor;
}

} // namespace Headroom
