// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Sections and panels repeated per value of a multi-value variable ("repeat": "host"):
// the dashboard as it is drawn. The document itself keeps one of each: only the
// drawing repeats.
//
// A repeated panel becomes one copy per value, each with its own value of the variable
// in DashboardPanel::variables (its PromQL reads that one value), the id
// "<id>/<value>", the title with ${name} and $name replaced (or " — <value>" appended
// when the title names no variable), and repeatOf the original's id (editing a copy
// edits the original). Layout, on the 12-column grid:
// - "h" (default): copies of the panel's width side by side from column 0, as many per
//   grid row as fit (12 / w), wrapping onto further rows of the panel's height; a panel
//   that shares its rows with others is drawn as "v" instead (the others keep their
//   place);
// - "v": copies one below the other in the panel's columns.
// Everything that starts at or below the panel's last row (panels and sections) moves
// down by the rows the copies added, so nothing overlaps.
//
// A repeated section (Grafana's repeated row) is copied with its band of panels (its
// rows down to the next section; the last one, down to its lowest panel) once per
// value, one band below the other: the section's title gets the value as a panel's
// does, its panels' titles have ${name} replaced, their ids "<id>/<value>", and they
// read the copy's value. Sections expand first, so a repeated panel inside one repeats
// in each copy. Each drawn section's documentIndex says which section of the document
// it shows (folding a copy folds the section).
//
// A variable without values leaves its panel or section as it is (drawn once, with the
// variable's value as written).
#pragma once
#include "document/dashboard.h"

#include <QMap>
#include <QStringList>

namespace Headroom {

// At most this many copies of one panel (a fleet of hundreds would be unreadable).
inline constexpr int MaximumRepeats = 64;

// The dashboard with every repeated panel expanded, by the values of each variable
// (a name missing from values: the panel is drawn once).
Dashboard expandRepeats(const Dashboard &dashboard, const QMap<QString, QStringList> &values);

// True when a panel or a section of the dashboard repeats.
bool hasRepeats(const Dashboard &dashboard);

} // namespace Headroom
