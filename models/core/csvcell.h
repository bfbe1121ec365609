// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The cells of every CSV Headroom writes (panel data, alert events). Exported CSV is
// opened in spreadsheets, and its text comes from exporters, SSH hosts and dashboard
// files: a cell starting with =, +, -, @, a tab or a carriage return would be read as a
// formula (OWASP, "CSV Injection"). Such a cell gets a leading single quote and is
// quoted; a plain number such as -3.5 stays as it is. Other cells are quoted per RFC
// 4180 only when needed.
#pragma once

#include <QString>

namespace Headroom {

// A text field (panel, source, metric, labels, unit, message ...), safe to open.
QString csvText(const QString &field);
// A value: the shortest exact decimal, or an empty cell for NaN and infinities (a
// spreadsheet reads neither "nan" nor "inf" as a number).
QString csvNumber(double value);

} // namespace Headroom
