// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The payload of the stat panel: one figure per drawn line of its series (or of its
// query's answer), reduced over the range as options.reduce says.
#pragma once

#include "document/panels/statoptions.h"
#include "query/panels/panelpayloadfor.h"

#include <QList>
#include <QtNumeric>

namespace Headroom {

struct StatFigure
{
    qsizetype series = 0; // index into PanelData::series, whose name and unit it shows
    double value = qQNaN(); // NaN: no sample in the range
    qint64 tsMs = 0; // the sample's time for "last", the range's end for the others
};

struct StatData
{
    StatReduce reduce = StatReduce::Last;
    QList<StatFigure> figures; // in PanelData::series order
};

template<> struct PanelPayloadFor<PanelType::Stat>
{
    using type = StatData;
};

} // namespace Headroom
