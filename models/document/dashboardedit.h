// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Layout editing on a Dashboard, GUI-free so the editor dialog and tests share it.
// Every function keeps the grid valid for dashboardfile.h: panels stay inside the
// 12 columns, ids stay unique, and no two panels overlap (a panel in the way of a
// moved, resized or added one is pushed down, and so on below it).
#pragma once

#include "document/dashboard.h"

namespace Headroom {

// An id derived from title: lower case, letters and digits, other runs a single '-'
// ("Disk I/O (sda)" -> "disk-i-o-sda"; "panel" when nothing is left), with "-2", "-3" ... appended
// while another panel has it.
QString uniquePanelId(const Dashboard &dashboard, const QString &title);

// Appends panel below every other panel at x = 0, its size clamped to the grid. Keeps
// panel.id when set and unused, otherwise derives one from the title. Returns the id.
QString addPanel(Dashboard &dashboard, DashboardPanel panel);

// False when no panel has the id.
bool removePanel(Dashboard &dashboard, const QString &id);

// Moves the panel's top-left corner; x is clamped so the panel stays inside the grid,
// y to >= 0. Panels it now overlaps are pushed down.
bool movePanel(Dashboard &dashboard, const QString &id, int x, int y);

// w is clamped to 1 .. the columns right of x, h to >= 1. Panels it now overlaps are
// pushed down. After any of these edits no panel reaches into a section from above: such
// a section moves down below it, with every panel from its first row on.
bool resizePanel(Dashboard &dashboard, const QString &id, int w, int h);

// Replaces the panel (same place in the list) by panel, e.g. the result of the panel
// editor. The new id is panel.id when set and not used by another panel, else the old
// one. Its layout is clamped and panels it overlaps are pushed down.
bool replacePanel(Dashboard &dashboard, const QString &id, DashboardPanel panel);

// Swaps the panel with its neighbour in the list (the file's order and the CSV order;
// the grid places panels by their layout). delta is -1 (up) or +1 (down). False at
// either end or for an unknown id.
bool movePanelInList(Dashboard &dashboard, const QString &id, int delta);

bool panelsOverlap(const PanelLayout &a, const PanelLayout &b);

// A source renamed from `from` to `to`: every panel selector, derived series and alert
// rule that names it (exactly; patterns with '*' are left alone) follows.
void renameSource(Dashboard &dashboard, const QString &from, const QString &to);

// Why the dashboard would not load back once saved (the reader's "field: reason"), or
// empty: what an editor checks before it hands an edited dashboard on.
QString dashboardProblem(const Dashboard &dashboard);

} // namespace Headroom
