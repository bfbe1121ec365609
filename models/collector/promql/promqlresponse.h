// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The JSON answer of a Prometheus-compatible engine's query API (/api/v1/query and
// /api/v1/query_range; Prometheus, VictoriaMetrics, Thanos, Mimir, Cortex), read as
// untrusted input: anything but a well-formed success becomes an error naming what
// was wrong (the engine's own errorType and message when it sent one), and the result
// is capped in series and points so a runaway answer cannot exhaust memory.
#pragma once

#include "core/sample.h"
#include "core/series.h"

#include <QByteArrayView>
#include <QList>
#include <QStringList>
#include <vector>

namespace Headroom {

// One bucket of a histogram: count events in (lower, upper] (a native histogram's
// boundary rule is not kept: at these widths it moves no figure drawn).
struct HistogramBucket
{
    double lower = 0;
    double upper = 0;
    double count = 0;
    friend bool operator==(const HistogramBucket &, const HistogramBucket &) = default;
};

// A native histogram's value at one time: its count, sum and populated buckets (lowest
// first), as the engine sends them ("histograms": [[t, {"count", "sum", "buckets":
// [[rule, lower, upper, count], ...]}]]).
struct PromqlHistogramPoint
{
    qint64 tsMs = 0;
    double count = 0;
    double sum = 0;
    std::vector<HistogramBucket> buckets;
    friend bool operator==(const PromqlHistogramPoint &, const PromqlHistogramPoint &) = default;
};

struct PromqlSeries
{
    Labels labels; // the result's metric labels, __name__ included when the engine sent it
    std::vector<Sample> points; // oldest first; NaN, +Inf and -Inf as doubles
    // A native histogram series' values, oldest first (points is then empty).
    std::vector<PromqlHistogramPoint> histograms;
};

struct PromqlResult
{
    static constexpr int MaxSeries = 10'000;
    // Points and native histogram buckets together (a histogram point counts as one
    // plus its buckets).
    static constexpr qint64 MaxPoints = 5'000'000;
    static constexpr int MaxBucketsPerHistogram = 1'000;

    QList<PromqlSeries> series;
    QString error; // empty: success
    QStringList warnings; // the engine's warnings, and what was left out
};

// httpStatus is the response's: Prometheus answers 400 and 422 with a JSON error body,
// which is read for its message; other statuses without one are named as such.
PromqlResult parsePromqlResponse(QByteArrayView body, int httpStatus);

// The answer of /api/v1/label/<name>/values: the values (strings only, at most
// MaxValues of at most MaxValueLength characters each; others are left out and said
// in a warning), or the error as above.
struct PromqlLabelValues
{
    static constexpr int MaxValues = 10'000;
    static constexpr int MaxValueLength = 4096;

    QStringList values;
    QString error;
    QStringList warnings;
};
PromqlLabelValues parsePromqlLabelValues(QByteArrayView body, int httpStatus);

} // namespace Headroom
