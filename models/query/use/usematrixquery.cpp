// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/use/usematrixquery.h"

#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"

#include <algorithm>

namespace Headroom {

namespace {
// Enough recent samples for a median spacing that one late poll does not skew.
constexpr size_t SpacingSamples = 5;
// Read first; the whole look-back window only for series this finds (nearly) empty,
// so a live refresh copies a minute of samples per series, not ten.
constexpr qint64 FirstWindowMs = 60 * 1000;
// SeriesStore::readForColumns() reads ranges up to a day as they are (no summaries).
constexpr qint64 RawRangeMs = 86'400'000;

qint64 medianSpacing(const std::vector<Sample> &samples)
{
    if (samples.size() < 2)
        return 0;
    const size_t first = samples.size() > SpacingSamples ? samples.size() - SpacingSamples : 0;
    std::vector<qint64> gaps;
    for (size_t i = first + 1; i < samples.size(); ++i)
        gaps.push_back(samples[i].tsMs - samples[i - 1].tsMs);
    std::nth_element(gaps.begin(), gaps.begin() + qsizetype(gaps.size() / 2), gaps.end());
    return gaps[gaps.size() / 2];
}
} // namespace

QList<UseSeriesReading> readUseSeries(const QList<SeriesSelector> &selectors,
                                      const SeriesRegistry &registry, const SeriesStore &store,
                                      qint64 fromMs, qint64 toMs, const UseMatrixOptions &options)
{
    QList<UseSeriesReading> readings;
    const qint64 windowFrom = std::max(fromMs, toMs - UseLookbackMs);
    const qint64 firstFrom = std::max(windowFrom, toMs - FirstWindowMs);
    for (const auto ids = matchSeries(selectors, registry); int id : ids) {
        const auto info = registry.info(id);
        const auto column = info ? useColumnOf(info->kind) : std::nullopt;
        if (!info || info->histogram || !column)
            continue;
        UseSeriesReading reading;
        reading.seriesId = id;
        reading.info = *info;
        // The range, reduced to its worst at once (a day at 1 s is 86,400 samples per
        // series; only one series' samples are held at a time).
        std::vector<Sample> range = store.readForColumns(id, fromMs, toMs, UseRangeColumns);
        reading.worst
            = useWorstInRange(range, options.thresholdsFor(*column, info->unit, info->resource));
        if (!reading.worst) {
            readings.append(std::move(reading));
            continue; // nothing in the range, so nothing near its end either
        }
        std::vector<Sample> samples;
        if (toMs - fromMs <= RawRangeMs) {
            // Read as it is (readForColumns): its tail is the look-back window's samples,
            // and reading them again would scan the live ring a second time.
            const auto first
                = std::lower_bound(range.begin(), range.end(), windowFrom,
                                   [](const Sample &s, qint64 ts) { return s.tsMs < ts; });
            samples.assign(first, range.end());
        } else {
            samples = store.read(id, firstFrom, toMs);
            if (samples.size() < SpacingSamples && firstFrom > windowFrom)
                samples = store.read(id, windowFrom, toMs);
        }
        if (!samples.empty()) {
            reading.latest = samples.back();
            reading.spacingMs = medianSpacing(samples);
        }
        readings.append(std::move(reading));
    }
    return readings;
}

PanelData queryUseMatrixPanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                              const SeriesStore &store, qint64 fromMs, qint64 toMs)
{
    PanelData data;
    data.panelId = panel.id;
    data.fromMs = fromMs;
    data.toMs = toMs;
    const UseMatrixOptions options = useMatrixOptions(panel.options);
    data.payload = buildUseMatrix(
        readUseSeries(panel.series, registry, store, fromMs, toMs, options), options, toMs);
    return data;
}

} // namespace Headroom
