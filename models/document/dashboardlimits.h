// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Bounds on what a dashboard file may ask for. Dashboards are shared (mailed, linked,
// attached to tickets), so a file is untrusted input: each bound keeps one field from
// costing memory, CPU or repaint time out of proportion, and each is refused on load
// with the file, the field and the bound (dashboardfile.h). The figures are far above
// any dashboard a person would write or the shipped ones use.
#pragma once

#include <QtGlobal>

namespace Headroom::DashboardLimits {

// A time panel draws its range in one pass over the cache; 400 days covers a year with
// room for comparisons, and keeps the axes to a few labels per day.
constexpr qint64 MaximumRangeMs = qint64(400) * 24 * 60 * 60 * 1000;

// Every source is a thread and a connection; every panel a widget and a query per refresh.
constexpr int MaximumSources = 200;
constexpr int MaximumPanels = 500;
constexpr int MaximumVariables = 100;
constexpr int MaximumVariableOptions = 200; // suggestions in one variable's drop-down
constexpr int MaximumDerived = 200;
constexpr int MaximumSelectorsPerPanel = 200;
constexpr int MaximumAlertRules = 500;
constexpr int MaximumSections = 100;

// Polls: faster than 100 ms is a busy loop on the server; slower than a day is not a
// live dashboard. A poll longer than 10 min holds a thread for nothing.
constexpr int MinimumIntervalMs = 100;
constexpr int MaximumIntervalMs = 24 * 60 * 60 * 1000;
constexpr int MinimumTimeoutMs = 100;
constexpr int MaximumTimeoutMs = 10 * 60 * 1000;
constexpr int MaximumRefreshMs = 60 * 60 * 1000;

// The grid is 12 columns wide; rows are bounded so that y + h stays far from overflow
// and a panel cannot be made a million rows tall. Every panel at the largest height,
// one below the other, still fits (the editor pushes panels down, never across).
// A panel ends by MaximumPanelRow (y + h), panels placed by the reader too.
constexpr int MaximumPanelHeight = 100;
constexpr int MaximumPanelRow = 2 * MaximumPanels * MaximumPanelHeight;

// Characters. Ids and names are keys in the cache and the CSV; titles, labels and
// units are drawn; values (variable defaults and options) hold conninfos and URLs.
constexpr int MaximumIdLength = 128;
constexpr int MaximumNameLength = 256;
constexpr int MaximumValueLength = 4096;
constexpr int MaximumQueryLength = 16 * 1024; // a panel's PromQL expression

} // namespace Headroom::DashboardLimits
