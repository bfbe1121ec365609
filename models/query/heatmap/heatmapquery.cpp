// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/heatmap/heatmapquery.h"

#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/downsample.h"
#include "query/heatmap/latencyheatmap.h"

#include <QHash>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 DefaultIntervalMs = 1000;

// The poll interval of a series: the mean spacing of consecutive timestamps, leaving
// out spacings far from the median (an outage, a burst). The median alone would carry
// the timer's jitter (990 or 1010 ms for 1 s polls) into every rescaled cell. 0 with
// fewer than two timestamps.
template<typename Timed, typename TimeOf>
qint64 typicalSpacing(const std::vector<Timed> &sorted, TimeOf timeOf)
{
    std::vector<qint64> gaps;
    for (size_t i = 1; i < sorted.size(); ++i) {
        const qint64 gap = timeOf(sorted[i]) - timeOf(sorted[i - 1]);
        if (gap > 0)
            gaps.push_back(gap);
    }
    if (gaps.empty())
        return 0;
    std::vector<qint64> ordered = gaps;
    const auto middle = ordered.begin() + qsizetype(ordered.size() / 2);
    std::nth_element(ordered.begin(), middle, ordered.end());
    const double median = double(*middle);
    double sum = 0;
    int n = 0;
    for (qint64 gap : gaps) {
        if (gap >= median / 2 && gap <= median * 3 / 2) {
            sum += double(gap);
            ++n;
        }
    }
    return std::llround(sum / n); // n >= 1: the median itself counts
}

int columnsFor(qint64 fromMs, qint64 toMs, int requested, qint64 intervalMs)
{
    const qint64 span = toMs - fromMs;
    if (span <= 0)
        return 0;
    if (intervalMs <= 0)
        intervalMs = DefaultIntervalMs;
    if (requested <= 0)
        return int(std::clamp<qint64>(span / intervalMs, 1, HeatmapMaxExportColumns));
    return int(std::clamp<qint64>(span / (HeatmapIntervalsPerColumn * intervalMs), 1, requested));
}

// Turns heatmapFromHistograms' "count / column width" into "count / time the column's
// polls cover", so a column holding one poll more than its neighbour is not drawn
// busier. Columns without a poll stay 0 (a gap).
void rescaleToPolls(HeatmapGrid &grid, const std::vector<TimedHistogram> &histograms,
                    qint64 intervalMs)
{
    if (grid.rows() == 0 || intervalMs <= 0)
        return;
    std::vector<int> polls(size_t(grid.columns), 0);
    for (const TimedHistogram &h : histograms) {
        if (h.first >= grid.fromMs && h.first <= grid.toMs)
            ++polls[size_t(pixelColumn(h.first, grid.fromMs, grid.toMs, grid.columns))];
    }
    const double columnMs = double(grid.toMs - grid.fromMs) / grid.columns;
    for (int c = 0; c < grid.columns; ++c) {
        if (polls[size_t(c)] == 0)
            continue;
        const double factor = columnMs / (double(polls[size_t(c)]) * double(intervalMs));
        for (int r = 0; r < grid.rows(); ++r)
            grid.perSecond[size_t(r) * size_t(grid.columns) + size_t(c)] *= factor;
    }
    grid.maxPerSecond = *std::max_element(grid.perSecond.begin(), grid.perSecond.end());
}

// The bound series of one Prometheus histogram, i.e. one key without `le`.
struct BucketGroup
{
    QString unit;
    QList<std::pair<double, std::vector<Sample>>> bounds;
    qint64 intervalMs = 0;
};

} // namespace

std::optional<double> msPerBucketUnit(const QString &unit)
{
    if (unit == u"s"_s)
        return 1000.0;
    if (unit == u"ms"_s)
        return 1.0;
    if (unit == u"us"_s || unit == u"µs"_s)
        return 0.001;
    return std::nullopt;
}

std::optional<double> parseLeBound(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.compare(u"+Inf"_s, Qt::CaseInsensitive) == 0
        || trimmed.compare(u"Inf"_s, Qt::CaseInsensitive) == 0)
        return std::numeric_limits<double>::infinity();
    bool ok = false;
    const double value = trimmed.toDouble(&ok);
    if (!ok || std::isnan(value))
        return std::nullopt;
    return value;
}

HeatmapGrid sumHeatmapGrids(const QList<HeatmapGrid> &grids)
{
    QList<const HeatmapGrid *> usable;
    for (const HeatmapGrid &grid : grids) {
        if (grid.columns > 0 && grid.rows() > 0
            && (usable.isEmpty()
                || (grid.fromMs == usable.first()->fromMs && grid.toMs == usable.first()->toMs
                    && grid.columns == usable.first()->columns)))
            usable.append(&grid);
    }
    if (usable.isEmpty())
        return grids.isEmpty() ? HeatmapGrid {} : grids.first();
    if (usable.size() == 1)
        return *usable.first();

    HeatmapGrid sum;
    sum.fromMs = usable.first()->fromMs;
    sum.toMs = usable.first()->toMs;
    sum.columns = usable.first()->columns;
    const size_t columns = size_t(sum.columns);

    // Per row exponent, the summed cells; only rows with something in them, so an empty
    // row of one grid does not widen the result.
    std::map<int, std::vector<double>> rows;
    for (const HeatmapGrid *grid : std::as_const(usable)) {
        for (int r = 0; r < grid->rows(); ++r) {
            const int exponent = r == 0 ? HeatmapZeroRow : grid->firstExponent + r - 1;
            for (size_t c = 0; c < columns; ++c) {
                const double value = grid->perSecond[size_t(r) * columns + c];
                if (!(value > 0))
                    continue;
                std::vector<double> &row = rows[exponent];
                if (row.empty())
                    row.assign(columns, 0.0);
                row[c] += value;
            }
        }
    }
    if (rows.empty())
        return sum;
    const int highest = rows.rbegin()->first;
    int first = highest;
    if (highest != HeatmapZeroRow) {
        const int lowest = rows.upper_bound(HeatmapZeroRow)->first;
        first = std::max(lowest, highest - (MaxHeatmapRows - 2));
        sum.firstExponent = first;
        sum.upperBoundsMs.append(std::ldexp(1.0, first - 1));
        for (int e = first; e <= highest; ++e)
            sum.upperBoundsMs.append(std::ldexp(1.0, e));
    } else {
        sum.upperBoundsMs.append(LogHistogram::MinValue); // only the zero bucket
    }
    sum.perSecond.assign(size_t(sum.rows()) * columns, 0.0);
    for (const auto &[exponent, cells] : rows) {
        const int row = exponent == HeatmapZeroRow || exponent < first ? 0 : exponent - first + 1;
        for (size_t c = 0; c < columns; ++c)
            sum.perSecond[size_t(row) * columns + c] += cells[c];
    }
    sum.maxPerSecond = *std::max_element(sum.perSecond.begin(), sum.perSecond.end());
    return sum;
}

PanelData queryHeatmapPanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                            const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns)
{
    PanelData data;
    data.panelId = panel.id;
    data.fromMs = fromMs;
    data.toMs = toMs;

    // Read everything first: the columns depend on the finest source interval.
    struct HistogramSeries
    {
        std::vector<TimedHistogram> histograms;
        qint64 intervalMs = 0;
    };
    std::vector<HistogramSeries> histogramSeries;
    std::map<QString, BucketGroup> groups; // by key without le: a stable order
    qint64 finestIntervalMs = 0;
    const auto noteInterval = [&](qint64 intervalMs) {
        if (intervalMs > 0 && (finestIntervalMs == 0 || intervalMs < finestIntervalMs))
            finestIntervalMs = intervalMs;
    };

    for (const auto ids = matchSeries(panel.series, registry); int id : ids) {
        PanelSeriesData s;
        s.seriesId = id;
        s.info = registry.info(id).value_or(SeriesInfo {});
        if (s.info.histogram) {
            HistogramSeries series;
            series.histograms = store.readHistogramsForColumns(id, fromMs, toMs, columns);
            series.intervalMs = typicalSpacing(series.histograms,
                                               [](const TimedHistogram &h) { return h.first; });
            noteInterval(series.intervalMs);
            s.rawCount = qint64(series.histograms.size());
            histogramSeries.push_back(std::move(series));
            data.series.append(std::move(s));
            continue;
        }
        const auto le = s.info.key.labels.constFind(u"le"_s);
        if (le == s.info.key.labels.cend())
            continue; // a plain value series has no distribution to draw
        const std::optional<double> bound = parseLeBound(le.value());
        if (!bound)
            continue;
        SeriesKey groupKey = s.info.key;
        groupKey.labels.remove(u"le"_s);
        BucketGroup &group = groups[groupKey.toString()];
        if (group.unit.isEmpty())
            group.unit = s.info.unit;
        std::vector<Sample> samples = store.read(id, fromMs, toMs);
        const qint64 interval = typicalSpacing(samples, [](const Sample &p) { return p.tsMs; });
        noteInterval(interval);
        if (group.intervalMs == 0)
            group.intervalMs = interval;
        s.rawCount = qint64(samples.size());
        group.bounds.append({ *bound, std::move(samples) });
        data.series.append(std::move(s));
    }

    const int gridColumns = columnsFor(fromMs, toMs, columns, finestIntervalMs);
    const QString unitOption = panel.options.value(u"bucketUnit"_s).toString();
    QList<HeatmapGrid> grids;
    for (const HistogramSeries &series : histogramSeries) {
        HeatmapGrid grid = heatmapFromHistograms(series.histograms, fromMs, toMs, gridColumns);
        rescaleToPolls(grid, series.histograms, series.intervalMs);
        grids.append(std::move(grid));
    }
    for (const auto &[key, group] : groups) {
        const double msPerUnit
            = msPerBucketUnit(unitOption.isEmpty() ? group.unit : unitOption).value_or(1000.0);
        grids.append(
            heatmapFromCumulativeBuckets(group.bounds, msPerUnit, fromMs, toMs, gridColumns));
    }
    HeatmapGrid &grid = data.payload.emplace<HeatmapGrid>(sumHeatmapGrids(grids));
    if (grids.isEmpty()) {
        // Still a grid over the range, so the view knows its time axis.
        grid.fromMs = fromMs;
        grid.toMs = toMs;
        grid.columns = gridColumns;
    }
    return data;
}

} // namespace Headroom
