// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the USE matrix tests share: the fixture times, the shipped dashboards' matrix
// panels, series and their readings as readUseSeries() gives them, and short names for
// what a matrix shows (a cell's figure and headline, its rows, times as the model
// writes them).
#pragma once

#include "core/sample.h"
#include "document/dashboard.h"
#include "query/use/usematrix.h"

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace Headroom::Test {

constexpr qint64 T0 = 1'700'000'000'000;
constexpr qint64 Interval = 2000; // the fixtures' two polls are 2 s apart
constexpr qint64 At = T0 + Interval; // "now" for the matrix: the second poll

QString shipped(const QString &name); // resources/dashboards/name
// The "use-matrix" panel of a shipped dashboard.
DashboardPanel shippedMatrixPanel(const QString &file);

SeriesInfo series(const QString &metric, const Labels &labels, const QString &unit,
                  const QString &resource, UseKind kind,
                  const QString &source = QStringLiteral("pg"));
PanelThresholds defaultsFor(const SeriesInfo &info);
// What readUseSeries() gives for a series whose samples in the range are `samples`
// (oldest first), judged by the default thresholds of its column and unit.
UseSeriesReading rangeReading(const SeriesInfo &info, const std::vector<Sample> &samples,
                              qint64 spacingMs = 1000);
// A single sample ageMs before At.
UseSeriesReading reading(const SeriesInfo &info, std::optional<double> value, qint64 ageMs = 0,
                         qint64 spacingMs = 1000);

// The worst figure of a cell, as the model writes it ("" without one).
QString figure(const UseCell &cell);
QString localHm(qint64 ms); // as the model writes a time
QString isoUtc(qint64 ms); // as the CSV writes a time
UseCell cellOf(const UseMatrix &matrix, const QString &resource, UseColumn column);
QString headlineName(const UseCell &cell); // metric{labels} of its headline series
QStringList resources(const UseMatrix &matrix); // the rows' resources, in order

} // namespace Headroom::Test
