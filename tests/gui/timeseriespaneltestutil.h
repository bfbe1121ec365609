// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the time series panel tests share: a panel's config, its data for a range, and a
// CPU series with its points cut at gaps as the query cuts them.
#pragma once

#include "document/dashboard.h"
#include "query/panelquery.h"

#include <QString>
#include <vector>

namespace Headroom::Test {

PanelSeriesData series(int id, const QString &cpu, std::vector<Sample> points);
PanelData emptyData(const QString &id, qint64 fromMs, qint64 toMs);
DashboardPanel panelConfig();

} // namespace Headroom::Test
