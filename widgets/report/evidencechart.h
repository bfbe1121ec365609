// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A finding's evidence as pictures for the incident report: its evidence series drawn
// by the dashboard's own time panel (TimeSeriesPanel) over a window around the onset,
// with a vertical onset marker. Rendered offscreen; needs a QApplication.
#pragma once

#include "query/analysis/findings.h"

#include <QImage>
#include <QList>
#include <QString>

namespace Headroom {

class SeriesRegistry;
class SeriesStore;

struct EvidenceChart
{
    QString caption; // what it shows, plain text
    QImage image;
};

// The window drawn around a finding: from three times the finding's length (at least
// 20 bins) before its onset to a quarter of it (at least 5 bins) after its end,
// clipped to [rangeFromMs, rangeToMs].
std::pair<qint64, qint64> evidenceWindow(const Analysis::Finding &finding, qint64 rangeFromMs,
                                         qint64 rangeToMs, qint64 binMs);

// One chart per unit among the evidence series (the signal's unit first; at most
// three charts and six series each), each widthPx × heightPx logical pixels at
// `scale`. Empty when none of the series has data in the window.
QList<EvidenceChart> evidenceCharts(const Analysis::Finding &finding,
                                    const SeriesRegistry &registry, const SeriesStore &store,
                                    qint64 rangeFromMs, qint64 rangeToMs, qint64 binMs,
                                    int widthPx = 900, int heightPx = 280, qreal scale = 2);

} // namespace Headroom
