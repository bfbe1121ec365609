// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/analysisrun.h"

#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"

#include <algorithm>

namespace Headroom::Analysis {

QList<int> seriesOfSources(const SeriesRegistry &registry, const QStringList &sources)
{
    QList<int> ids;
    const QList<int> all = registry.ids();
    for (int id : all) {
        const std::optional<SeriesInfo> info = registry.info(id);
        if (!info || info->histogram)
            continue;
        if (sources.isEmpty() || sources.contains(info->key.source))
            ids.append(id);
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::vector<SeriesTrack> readTracks(const SeriesStore &store, const SeriesRegistry &registry,
                                    const QList<int> &seriesIds, qint64 fromMs, qint64 toMs,
                                    qint64 binMs)
{
    std::vector<SeriesTrack> tracks;
    tracks.reserve(size_t(seriesIds.size()));
    for (int id : seriesIds) {
        const std::optional<SeriesInfo> info = registry.info(id);
        if (!info || info->histogram)
            continue;
        SeriesTrack track;
        track.seriesId = id;
        track.info = *info;
        track.fromMs = fromMs;
        track.toMs = toMs;
        track.binMs = binMs;
        fillTrack(&track, store.readForBins(id, fromMs, toMs, binMs));
        if (!track.isEmpty())
            tracks.push_back(std::move(track));
    }
    return tracks;
}

FindingsReport analyseRange(const SeriesStore &store, const SeriesRegistry &registry,
                            const QList<int> &seriesIds, qint64 fromMs, qint64 toMs,
                            qint64 minBinMs, const FindingsOptions &options)
{
    FindingsReport report;
    report.fromMs = fromMs;
    report.toMs = toMs;
    report.binMs = binWidthFor(fromMs, toMs, minBinMs);
    const std::vector<SeriesTrack> tracks
        = readTracks(store, registry, seriesIds, fromMs, toMs, report.binMs);
    report.seriesAnalysed = int(tracks.size());
    report.findings = findFindings(tracks, options);
    return report;
}

std::vector<ChangeRank> explainWindow(const SeriesStore &store, const SeriesRegistry &registry,
                                      const QList<int> &seriesIds, qint64 windowFromMs,
                                      qint64 windowToMs, qint64 minBinMs)
{
    const qint64 from = windowFromMs - BaselineFactor * (windowToMs - windowFromMs);
    // 300 bins: a 1 h window gets 60 bins of a minute against 240 before it, plenty for
    // the KS statistic, and minute bins read from the block summaries.
    const qint64 bin = binWidthFor(from, windowToMs, minBinMs, 300);
    const std::vector<SeriesTrack> tracks
        = readTracks(store, registry, seriesIds, from, windowToMs, bin);
    return rankChanges(tracks, windowFromMs, windowToMs);
}

} // namespace Headroom::Analysis
