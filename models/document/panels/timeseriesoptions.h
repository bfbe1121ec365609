// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A timeseries panel's options, checked when a dashboard file is read:
//   apdex          a duration ("50ms"): histogram series draw as their APDEX with that
//                  T (query/heatmap/percentilelines.h), not as percentile lines
//   legendDisplay  "list" (default: the names above the chart) or "table" (a sortable
//                  table below it with last, min, max and mean per line)
// stacked, yMin and yMax are read by the view as they are; other keys are let through.
#pragma once

#include "document/dashboard.h"

#include <optional>

namespace Headroom {

class JsonReader;

// path: the panel's ("panels[2]"); a refusal names the option below it.
bool checkTimeSeriesPanel(JsonReader &reader, const DashboardPanel &panel, const QString &path);

enum class LegendDisplay
{
    List,
    Table
};
LegendDisplay timeSeriesLegendDisplay(const DashboardPanel &panel);

// The panel's APDEX T in ms; nullopt when it draws percentiles.
std::optional<qint64> timeSeriesApdexTMs(const DashboardPanel &panel);

} // namespace Headroom
