// Panels repeated per value of a multi-value variable ("repeat": "host"): the dashboard
// as it is drawn, one copy of such a panel per value, each copy's own value of the
// variable in DashboardPanel::variables (its PromQL reads that one value), its id
// "<id>/<value>", its title with ${name} and $name replaced (or " — <value>" appended
// when the title names no variable), and repeatOf the original's id (editing a copy
// edits the original). The document itself keeps one panel: only the drawing repeats.
//
// Layout, on the 12-column grid:
// - "h" (default): copies of the panel's width side by side from column 0, as many per
//   grid row as fit (12 / w), wrapping onto further rows of the panel's height;
// - "v": copies one below the other in the panel's columns.
// Everything that starts at or below the panel's last row (panels and sections) moves
// down by the rows the copies added, so nothing overlaps. A horizontal repeat of a
// panel that shares its rows with others is drawn vertically (the others keep their
// place). A variable without values leaves the panel as it is (drawn once, with the
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

// True when a panel of the dashboard repeats.
bool hasRepeats(const Dashboard &dashboard);

} // namespace Headroom
