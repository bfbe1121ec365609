// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Names for a chart's list legend that fit its width and tell the lines apart. Qt
// Charts fits a legend row by cutting every name's end alike, so the eight shards of
// "public.orders_p1" ... read "public.o…" each, and with too little room an entry is a
// marker and nothing else. Here the whole names are kept when they fit on the row;
// otherwise they lose what they share and their middles (core/shortnames.h), as little
// as the row allows; and when that would leave them too short to read, the legend goes
// to the right of the plot, one entry per line. The whole name is the entry's tooltip.
#pragma once

#include <QFont>
#include <QStringList>

namespace Headroom {

struct LegendFit
{
    Qt::Alignment alignment = Qt::AlignTop; // above the plot, or Qt::AlignRight
    QStringList names; // what each entry shows, in the order given
};

// The widest a legend at the right takes of the chart's width, and never more than
// MaxRightLegendPx.
inline constexpr double RightLegendShare = 0.35;
inline constexpr int MaxRightLegendPx = 320;

// For a legend widthPx wide whose entries are drawn in font. A width of 0 or less (not
// laid out yet) keeps the names whole.
LegendFit fitLegendNames(const QStringList &names, const QFont &font, int widthPx);

// The width Qt Charts gives an entry showing text: the marker, its margins and the text.
double legendEntryWidth(const QString &text, const QFont &font);

} // namespace Headroom
