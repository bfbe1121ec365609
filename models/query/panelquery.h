// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Turns a panel's series selectors into data ready to draw: match the selectors
// against the known series, read each through the SeriesStore, reduce to the panel's
// pixel width. GUI-free so the query pool, the headless export and tests share it.
#pragma once

#include "core/sample.h"
#include "document/dashboard.h"
#include "engine/runtime/alertevent.h"
#include "query/panels/panelpayloads.h" // generated: every query/panels/<type>payload.h

#include <QMetaType>
#include <QtNumeric>
#include <utility>
#include <variant>
#include <vector>

namespace Headroom {

class SeriesRegistry;
class SeriesStore;

// One drawn line. A value series gives one; a histogram series gives one per percentile
// (same seriesId, info.key.labels with "percentile" added; see percentilelines.h).
// A series' figures over a panel's range, for its legend table.
struct SeriesStats
{
    double last = qQNaN();
    double min = qQNaN();
    double max = qQNaN();
    double mean = qQNaN();
    qint64 count = 0; // values the figures were taken from
};

struct PanelSeriesData
{
    int seriesId = 0;
    SeriesInfo info;
    // The legend name (query/legendnames.h), set by queryPanel and addComparison; empty
    // in data built by hand, where views fall back to seriesDisplayName().
    QString name;
    // Over the samples read for the range: every sample up to a day, block summaries
    // (each block's min and max) beyond; percentile and APDEX lines: their points.
    SeriesStats stats;
    std::vector<Sample> points; // downsampled, oldest first
    // Indices into points where a line starts after a gap in the raw samples (always
    // 0 first when there are points). Gaps are found before reduction: reduced points
    // are unevenly spaced and would look like gaps themselves.
    std::vector<size_t> segmentStarts;
    qint64 rawCount = 0; // samples (or histograms) in range before reduction
};

// One alternative per PanelType, in enum order (PanelData::type() is the index): the
// PanelPayloadFor<Type>::type of each type's query/panels/<type>payload.h.
namespace Detail {
template<size_t... Index>
std::variant<typename PanelPayloadFor<AllPanelTypes[Index]>::type...>
    panelPayloadVariant(std::index_sequence<Index...>);
} // namespace Detail
using PanelPayload
    = decltype(Detail::panelPayloadVariant(std::make_index_sequence<size_t(PanelTypeCount)>()));

struct PanelData
{
    QString panelId;
    qint64 fromMs = 0;
    qint64 toMs = 0;
    QList<PanelSeriesData> series; // sorted by series key for a stable legend
    // Compare mode (time panels): the same series over [from - offset, to - offset],
    // timestamps shifted by +offset so they overlay the current range. Empty when off.
    QList<PanelSeriesData> compare;
    qint64 compareOffsetMs = 0;
    // Alert events from AlertLookbackMs before the range to its end, for the types that
    // show alerts (PanelDescriptor::showsAlerts): the alert list panel lists them, time
    // panels shade firing spans and mark firings, the USE matrix colours cells of firing
    // instances. Empty for other types.
    QList<AlertEvent> alerts;
    // What only this panel's type has; which alternative it holds is the type.
    PanelPayload payload;
    // Why the panel shows less than it asks for: a PromQL engine's error (refused, timed
    // out, its own "bad_data: ..."), shown over the panel. Empty: nothing went wrong.
    QString message;
    QStringList warnings; // an engine's warnings, and what a capped answer left out

    PanelType type() const { return PanelType(payload.index()); }
    // The payload as T, or an empty T when it holds another type's (a panel that has not
    // been queried yet has a default PanelData, a timeseries one).
    template<typename T> const T &as() const
    {
        if (const T *held = std::get_if<T>(&payload))
            return *held;
        static const T empty {};
        return empty;
    }
};

// How far before a range alert events are read, so an alert that started firing
// before the range and is still firing is known to be (see alertFiringSpans).
inline constexpr qint64 AlertLookbackMs = 24 * 60 * 60 * 1000;

// Ids of every known series matched by any of the selectors, ordered by key.
QList<int> matchSeries(const QList<SeriesSelector> &selectors, const SeriesRegistry &registry);

// The query of the panel's type (query/panels/paneldescriptor.h), with panelId, the range
// and, for types that show them, the alert events filled in. columns <= 0 means "no
// reduction" (the CSV export wants every sample, and a point per stored histogram).
PanelData queryPanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                     const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns);

// A short legend name: the metric without its family prefix, then the label values,
// e.g. "cpu.utilization all", "rx.bytes eth0".
QString seriesDisplayName(const SeriesInfo &info);
// The label values part of it ("all", "erp/SELECT 1 #9"); empty for a series without labels.
QString seriesLabelValues(const SeriesInfo &info);

// The series of `panel` over the range offsetMs earlier, shifted onto [fromMs, toMs]:
// fills data->compare and data->compareOffsetMs. offsetMs <= 0 clears them. For the
// types that support compare (PanelDescriptor::supportsCompare); the series are read as
// a timeseries panel reads them.
void addComparison(PanelData *data, const DashboardPanel &panel, const SeriesRegistry &registry,
                   const SeriesStore &store, qint64 offsetMs, int columns);

} // namespace Headroom

Q_DECLARE_METATYPE(Headroom::PanelData)
