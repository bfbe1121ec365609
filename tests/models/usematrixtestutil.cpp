// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "usematrixtestutil.h"

#include "document/dashboardfile.h"

#include <QDateTime>
#include <QTimeZone>

namespace Headroom::Test {

using namespace Qt::StringLiterals;

QString shipped(const QString &name)
{
    return QStringLiteral(HEADROOM_FIXTURES_DIR "/../../resources/dashboards/") + name;
}

// The "use-matrix" panel of a shipped dashboard.
DashboardPanel shippedMatrixPanel(const QString &file)
{
    const DashboardLoadResult loaded = loadDashboard(shipped(file));
    if (!loaded.ok())
        qFatal("%s", qPrintable(loaded.error.toString()));
    const DashboardPanel *panel = loaded.dashboard->panel(u"use-matrix"_s);
    if (!panel)
        qFatal("%s has no use-matrix panel", qPrintable(file));
    return *panel;
}

SeriesInfo series(const QString &metric, const Labels &labels, const QString &unit,
                  const QString &resource, UseKind kind, const QString &source)
{
    return SeriesInfo { { source, metric, labels }, unit, resource, kind, false };
}

PanelThresholds defaultsFor(const SeriesInfo &info)
{
    return defaultUseThresholds(*useColumnOf(info.kind), info.unit, info.resource);
}

// What readUseSeries() gives for a series whose samples in the range are `samples`
// (oldest first), judged by the default thresholds of its column and unit.
UseSeriesReading rangeReading(const SeriesInfo &info, const std::vector<Sample> &samples,
                              qint64 spacingMs)
{
    UseSeriesReading r;
    r.info = info;
    r.seriesId = int(qHash(info.key) & 0xffff);
    if (!samples.empty())
        r.latest = samples.back();
    r.spacingMs = spacingMs;
    r.worst = useWorstInRange(samples, defaultsFor(info));
    return r;
}

// A single sample ageMs before At.
UseSeriesReading reading(const SeriesInfo &info, std::optional<double> value, qint64 ageMs,
                         qint64 spacingMs)
{
    std::vector<Sample> samples;
    if (value)
        samples.push_back({ At - ageMs, *value });
    return rangeReading(info, samples, spacingMs);
}

// The worst figure of a cell, as the model writes it ("" without one).
QString figure(const UseCell &cell)
{
    const UseWorst *w = cell.worst();
    return w && cell.hasValue() ? formatUseValue(w->sample.value, cell.headlineSeries()->info.unit)
                                : QString();
}

QString localHm(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(u"HH:mm"_s);
}

QString isoUtc(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::UTC).toString(Qt::ISODateWithMs);
}

UseCell cellOf(const UseMatrix &matrix, const QString &resource, UseColumn column)
{
    const int row = matrix.rowOf(resource);
    if (row < 0)
        qFatal("no row %s", qPrintable(resource));
    return matrix.rows.at(row).cell(column);
}

QString headlineName(const UseCell &cell)
{
    const UseCellSeries *s = cell.headlineSeries();
    if (!s)
        return {};
    return s->info.key.labels.isEmpty() ? s->info.key.metric
                                        : s->info.key.metric + labelsToString(s->info.key.labels);
}

QStringList resources(const UseMatrix &matrix)
{
    QStringList out;
    for (const UseMatrixRow &row : matrix.rows)
        out << row.resource;
    return out;
}

} // namespace Headroom::Test
