// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Prometheus text exposition (0.0.4) and OpenMetrics 1.0 text, parsed into metric
// families. Written for garbage as much as for exporters: it never throws or aborts,
// every line it cannot use is skipped and counted under a short reason ("bad label
// syntax", "value is not a number", ...) that the source status shows, and it stops
// taking samples past MaxSamples and new families past MaxFamilies, so a runaway
// exporter cannot exhaust memory. These are the only per-scrape caps; what reaches the
// bus is then held to the source's series cap (SeriesRegistry).
#pragma once

#include "core/series.h"

#include <QByteArrayView>
#include <QList>
#include <QMap>
#include <QString>
#include <optional>

namespace Headroom {

enum class ExpositionFormat
{
    Text004, // text/plain; version=0.0.4 (and what a server sends without a type)
    OpenMetrics // application/openmetrics-text
};

// From a response's Content-Type: the media type decides, parameters do not.
ExpositionFormat expositionFormatFromContentType(QByteArrayView contentType);

enum class MetricType
{
    Untyped, // 0.0.4 "untyped", OpenMetrics "unknown", or no TYPE line
    Counter,
    Gauge,
    Histogram,
    Summary,
    GaugeHistogram,
    StateSet,
    Info
};

struct ExpositionSample
{
    QString name; // as written, suffix included (foo_bucket, foo_total)
    Labels labels;
    double value = 0;
    std::optional<qint64> timestampMs;
};

struct ExpositionFamily
{
    QString name; // the family: foo for foo_bucket/_sum/_count, foo for foo_total (OM)
    MetricType type = MetricType::Untyped;
    QString help;
    QString unit;
    QList<ExpositionSample> samples;
};

struct Exposition
{
    static constexpr int MaxSamples = 200'000;
    static constexpr int MaxFamilies = 10'000;
    static constexpr int MaxLineBytes = 64 * 1024;

    QList<ExpositionFamily> families;
    int samples = 0;
    int skippedLines = 0;
    QMap<QString, int> skippedByReason; // reason -> lines
    QString firstProblem; // "line 12: bad label syntax"
    bool truncated = false; // OpenMetrics without "# EOF", or MaxSamples reached

    // "3 lines skipped (2 bad label syntax, 1 value is not a number; first: line 12 ...)";
    // empty when nothing was skipped.
    QString summary() const;
};

Exposition parseExposition(QByteArrayView text, ExpositionFormat format);

} // namespace Headroom
