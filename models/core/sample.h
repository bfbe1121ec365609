// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Plain value types that travel from collectors to the bus, cache and views.
#pragma once

#include "core/histogram.h"
#include "core/series.h"

#include <QList>
#include <QMetaType>
#include <utility>

namespace Headroom {

struct Sample
{
    qint64 tsMs = 0; // milliseconds since the Unix epoch, UTC
    double value = 0;
    friend bool operator==(const Sample &, const Sample &) = default;
};

// One poll of a histogram series: (tsMs, histogram). A pair because that is what the
// cache has always handed out; live rings and the store use the same type.
using TimedHistogram = std::pair<qint64, LogHistogram>;

// The timestamp of either kind of sample, so time-ordered code is written once.
inline qint64 timestampOf(const Sample &sample)
{
    return sample.tsMs;
}
inline qint64 timestampOf(const TimedHistogram &histogram)
{
    return histogram.first;
}

struct SeriesValue
{
    SeriesInfo info;
    double value = 0;
};

struct SeriesHistogram
{
    SeriesInfo info; // info.histogram is true
    LogHistogram histogram;
};

// What one poll of one collector produces: every value shares the poll's timestamp.
struct SampleBatch
{
    QString source;
    qint64 tsMs = 0;
    QList<SeriesValue> values;
    QList<SeriesHistogram> histograms;

    void add(const SeriesInfo &info, double value) { values.append({ info, value }); }
    void add(const SeriesKey &key, const QString &unit, const QString &resource, UseKind kind,
             double value)
    {
        values.append({ SeriesInfo { key, unit, resource, kind, false }, value });
    }
    bool isEmpty() const { return values.isEmpty() && histograms.isEmpty(); }
};

} // namespace Headroom

Q_DECLARE_METATYPE(Headroom::Sample)
Q_DECLARE_METATYPE(Headroom::SampleBatch)
