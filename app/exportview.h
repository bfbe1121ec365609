// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The dashboard view as the headless PNG export draws it: off screen, width pixels
// wide and as tall as its grid, every panel filled with [fromMs, toMs].
#pragma once

#include <QtGlobal>

namespace Headroom {

class DashboardView;

// The view must have its store and dashboard. Lays it out, queries every panel at its
// width, then sizes the view again: panels as tall as their content (a USE matrix's
// rows) know their height only from their data.
void showForExport(DashboardView *view, int width, qint64 fromMs, qint64 toMs);

} // namespace Headroom
