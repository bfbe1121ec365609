// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Running the analysis over stored data: which series, read how, and the two answers
// (findings of a range; what changed in a window). Synchronous and GUI-free: callers
// run it on a worker thread (QtConcurrent) and hand the value results to the GUI
// thread, as panel queries are.
#pragma once

#include "query/analysis/findings.h"
#include "query/analysis/whatchanged.h"

#include <QList>
#include <QStringList>

namespace Headroom {
class SeriesRegistry;
class SeriesStore;
} // namespace Headroom

namespace Headroom::Analysis {

// Every value series (not histograms) of the given sources the registry knows (the
// cache's series once it is open, with what was collected since); all sources when
// sources is empty. Sorted by id.
QList<int> seriesOfSources(const SeriesRegistry &registry, const QStringList &sources);

// The tracks of seriesIds over [fromMs, toMs] with bins of binMs. Where a bin spans a
// minute or more, blocks of the cache that span at most two bins are read from their
// summaries (SeriesStore::readForBins), so a day of 776 series reads in well under a
// second. Series without a sample in the range are left out.
std::vector<SeriesTrack> readTracks(const SeriesStore &store, const SeriesRegistry &registry,
                                    const QList<int> &seriesIds, qint64 fromMs, qint64 toMs,
                                    qint64 binMs);

struct FindingsReport
{
    qint64 fromMs = 0;
    qint64 toMs = 0;
    qint64 binMs = 0;
    int seriesAnalysed = 0; // with data in the range
    std::vector<Finding> findings;
};

// Findings of [fromMs, toMs] over seriesIds; bins from binWidthFor (at least minBinMs:
// the poll interval is the finest an onset can be placed).
FindingsReport analyseRange(const SeriesStore &store, const SeriesRegistry &registry,
                            const QList<int> &seriesIds, qint64 fromMs, qint64 toMs,
                            qint64 minBinMs = 1000, const FindingsOptions &options = {});

// What changed in [windowFromMs, windowToMs] against the 4x longer baseline before it.
std::vector<ChangeRank> explainWindow(const SeriesStore &store, const SeriesRegistry &registry,
                                      const QList<int> &seriesIds, qint64 windowFromMs,
                                      qint64 windowToMs, qint64 minBinMs = 1000);

} // namespace Headroom::Analysis

Q_DECLARE_METATYPE(Headroom::Analysis::FindingsReport)
