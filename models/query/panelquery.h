// Turns a panel's series selectors into data ready to draw: match the selectors
// against the known series, read each through the SeriesStore, reduce to the panel's
// pixel width. GUI-free so the query pool, the headless export and tests share it.
#pragma once

#include "core/sample.h"
#include "document/dashboard.h"
#include "engine/runtime/alertevent.h"
#include "query/heatmap/latencyheatmap.h"
#include "query/shards/shardload.h"
#include "query/use/usematrix.h"

#include <QMetaType>
#include <vector>

namespace Headroom {

class SeriesRegistry;
class SeriesStore;

// One drawn line. A value series gives one; a histogram series gives one per percentile
// (same seriesId, info.key.labels with "percentile" added; see percentilelines.h).
struct PanelSeriesData
{
    int seriesId = 0;
    SeriesInfo info;
    std::vector<Sample> points; // downsampled, oldest first
    // Indices into points where a line starts after a gap in the raw samples (always
    // 0 first when there are points). Gaps are found before reduction: reduced points
    // are unevenly spaced and would look like gaps themselves.
    std::vector<size_t> segmentStarts;
    qint64 rawCount = 0; // samples (or histograms) in range before reduction
};

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
    // Heatmap panels (heatmapquery.h): their series summed into one latency grid; no
    // rows for every other panel type.
    HeatmapGrid heatmap;
    // USE matrix panels (usematrixquery.h): one row per resource; empty for others.
    UseMatrix useMatrix;
    // Shard panels (shardquery.h): the load histogram of a shardhistogram panel, the
    // rows of a shardtable panel; empty for other types.
    ShardLoadHistogram shardHistogram;
    ShardTableData shardTable;
    // Alert events from AlertLookbackMs before the range to its end: the alert list
    // panel lists them, time panels shade firing spans and mark firings, the USE
    // matrix colours cells of firing instances. Empty for other types.
    QList<AlertEvent> alerts;
};

// How far before a range alert events are read, so an alert that started firing
// before the range and is still firing is known to be (see alertFiringSpans).
inline constexpr qint64 AlertLookbackMs = 24 * 60 * 60 * 1000;

// Whether panels of this type show alert events (PanelData::alerts).
bool panelShowsAlerts(const QString &type);

// Ids of every known series matched by any of the selectors, ordered by key.
QList<int> matchSeries(const QList<SeriesSelector> &selectors, const SeriesRegistry &registry);

// columns <= 0 means "no reduction" (the CSV export wants every sample, and a point per
// stored histogram).
PanelData queryPanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                     const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns);

// A short legend name: the metric without its family prefix, then the label values,
// e.g. "cpu.utilization all", "rx.bytes eth0".
QString seriesDisplayName(const SeriesInfo &info);

// The series of `panel` over the range offsetMs earlier, shifted onto [fromMs, toMs]:
// fills data->compare and data->compareOffsetMs. offsetMs <= 0 clears them.
void addComparison(PanelData *data, const DashboardPanel &panel, const SeriesRegistry &registry,
                   const SeriesStore &store, qint64 offsetMs, int columns);

} // namespace Headroom

Q_DECLARE_METATYPE(Headroom::PanelData)
