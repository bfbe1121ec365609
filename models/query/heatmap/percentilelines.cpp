// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/heatmap/percentilelines.h"

#include "core/apdex.h"
#include "core/percentilelabel.h"
#include "query/downsample.h"

namespace Headroom {

using namespace Qt::StringLiterals;

QList<double> defaultPercentiles()
{
    return { 50, 95, 99, 100 };
}

std::vector<TimedHistogram> mergePerColumn(std::span<const TimedHistogram> sorted, qint64 fromMs,
                                           qint64 toMs, int columns)
{
    if (columns <= 0 || toMs <= fromMs)
        return std::vector<TimedHistogram>(sorted.begin(), sorted.end());
    std::vector<TimedHistogram> out;
    int column = -1;
    for (const auto &[tsMs, histogram] : sorted) {
        const int c = pixelColumn(tsMs, fromMs, toMs, columns);
        if (c != column || out.empty()) {
            out.emplace_back(tsMs, histogram);
            column = c;
        } else {
            out.back().first = tsMs;
            out.back().second.merge(histogram);
        }
    }
    return out;
}

QList<PanelSeriesData> percentileLines(int seriesId, const SeriesInfo &info,
                                       std::span<const TimedHistogram> sorted,
                                       const QList<double> &percentiles, qint64 fromMs, qint64 toMs,
                                       int columns)
{
    QList<PanelSeriesData> lines;
    for (double percentile : percentiles) {
        PanelSeriesData line;
        line.seriesId = seriesId;
        line.info = info;
        line.info.key.labels.insert(u"percentile"_s,
                                    percentileLabel(percentile, PercentileLabelStyle::Line));
        line.rawCount = qint64(sorted.size());
        lines.append(std::move(line));
    }
    // Reduced per segment, as values are: a column never merges across an outage.
    for (const auto &[begin, end] : splitAtGaps(sorted)) {
        const std::vector<TimedHistogram> merged
            = mergePerColumn(sorted.subspan(begin, end - begin), fromMs, toMs, columns);
        for (qsizetype i = 0; i < lines.size(); ++i) {
            PanelSeriesData &line = lines[i];
            const double q = percentiles.at(i) / 100.0;
            const size_t start = line.points.size();
            for (const auto &[tsMs, histogram] : merged) {
                if (!histogram.isEmpty())
                    line.points.push_back({ tsMs, histogram.quantile(q) });
            }
            if (line.points.size() > start) // a segment of empty polls draws nothing
                line.segmentStarts.push_back(start);
        }
    }
    return lines;
}

PanelSeriesData apdexLine(int seriesId, const SeriesInfo &info,
                          std::span<const TimedHistogram> sorted, qint64 tMs, qint64 fromMs,
                          qint64 toMs, int columns)
{
    PanelSeriesData line;
    line.seriesId = seriesId;
    line.info = info;
    line.info.unit.clear();
    line.info.key.labels.insert(u"apdex"_s, u"T="_s + formatDuration(tMs));
    line.rawCount = qint64(sorted.size());
    for (const auto &[begin, end] : splitAtGaps(sorted)) {
        const size_t start = line.points.size();
        for (const auto &[tsMs, histogram] :
             mergePerColumn(sorted.subspan(begin, end - begin), fromMs, toMs, columns)) {
            if (const auto score = apdexScore(histogram, double(tMs)))
                line.points.push_back({ tsMs, *score });
        }
        if (line.points.size() > start)
            line.segmentStarts.push_back(start);
    }
    return line;
}

} // namespace Headroom
