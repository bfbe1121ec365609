// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "charts/legendfit.h"

#include "core/shortnames.h"

#include <QFontMetricsF>
#include <algorithm>
#include <functional>

namespace Headroom {

namespace {

// Qt Charts' legend entry: a marker about as wide as the text is high, margins of 4 px
// on each side and 4 px between marker and text, and the text's bounding rectangle,
// which adds a few pixels of its own; rounded up, so that an entry we think fits is
// never cut by Qt Charts after all.
constexpr double EntryPaddingPx = 22;
// The legend's own margins and the chart's border within the view.
constexpr double LegendMarginPx = 30;
// On the row above the plot a name keeps at least this many characters (or all of
// its own): shorter ones read better one per line at the right.
constexpr int RowMinChars = 12;

// The largest maxChars in [lo, hi] for which fits(distinctShortNames(names, maxChars)),
// given that lo fits; its names.
QStringList longestFitting(const QStringList &names, int lo, int hi,
                           const std::function<bool(const QStringList &)> &fits)
{
    QStringList best = distinctShortNames(names, lo);
    while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        QStringList shown = distinctShortNames(names, mid);
        if (fits(shown)) {
            lo = mid;
            best = std::move(shown);
        } else {
            hi = mid - 1;
        }
    }
    return best;
}

} // namespace

double legendEntryWidth(const QString &text, const QFont &font)
{
    const QFontMetricsF metrics(font);
    return metrics.height() + EntryPaddingPx + metrics.horizontalAdvance(text);
}

LegendFit fitLegendNames(const QStringList &names, const QFont &font, int widthPx)
{
    LegendFit fit { Qt::AlignTop, names };
    if (names.isEmpty() || widthPx <= 0)
        return fit;
    const double row = widthPx - LegendMarginPx;
    const auto fitsRow = [&](const QStringList &shown) {
        double width = 0;
        for (const QString &name : shown)
            width += legendEntryWidth(name, font);
        return width <= row;
    };
    if (fitsRow(names))
        return fit;
    int longest = MinShortNameChars;
    for (const QString &name : names)
        longest = std::max(longest, int(name.size()));
    if (fitsRow(distinctShortNames(names, RowMinChars))) {
        fit.names = longestFitting(names, RowMinChars, longest, fitsRow);
        return fit;
    }
    // No room on one row for readable names: one entry per line, at the right.
    const double column
        = std::min<double>(MaxRightLegendPx, std::max(80.0, widthPx * RightLegendShare));
    const auto fitsColumn = [&](const QStringList &shown) {
        return std::all_of(shown.cbegin(), shown.cend(), [&](const QString &name) {
            return legendEntryWidth(name, font) <= column;
        });
    };
    fit.alignment = Qt::AlignRight;
    fit.names = longestFitting(names, MinShortNameChars, longest, fitsColumn);
    return fit;
}

} // namespace Headroom
