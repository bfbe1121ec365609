// A timeseries panel's options, checked when a dashboard file is read:
//   apdex  a duration ("50ms"): histogram series draw as their APDEX with that T
//          (query/heatmap/percentilelines.h), not as percentile lines
// stacked, yMin and yMax are read by the view as they are; other keys are let through.
#pragma once

#include "document/dashboard.h"

#include <optional>

namespace Headroom {

class JsonReader;

// path: the panel's ("panels[2]"); a refusal names the option below it.
bool checkTimeSeriesPanel(JsonReader &reader, const DashboardPanel &panel, const QString &path);

// The panel's APDEX T in ms; nullopt when it draws percentiles.
std::optional<qint64> timeSeriesApdexTMs(const DashboardPanel &panel);

} // namespace Headroom
