// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A heatmap panel's options (query/heatmap/heatmapquery.h draws them), checked when a
// dashboard file is read:
//   colorScale  "linear" (the default) or "log"
//   bucketUnit  "s", "ms" or "us": the unit of Prometheus `le` bounds when the series'
//               own unit is missing or wrong
// Other keys are let through.
#pragma once

#include "document/dashboard.h"

namespace Headroom {

class JsonReader;

// path: the panel's ("panels[2]"); a refusal names the option below it.
bool checkHeatmapPanel(JsonReader &reader, const DashboardPanel &panel, const QString &path);

} // namespace Headroom
