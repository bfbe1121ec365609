// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A table panel's options ("type": "table": an engine's instant query, one row per
// series; query/promql/promqltable.h reads them), checked when a dashboard file is
// read:
//   columns  label names shown, in display order, each once (default: every label
//            the rows have but __name__, in natural order); the value is the last column
//   limit    rows shown at most, 1 to TableMaximumRows (default TableDefaultRows)
//   sort     "desc" (the default: the largest value first, a top-N) or "asc"
// Unknown keys are refused. The panel itself must have a `query`.
#pragma once

#include "document/dashboard.h"

#include <QStringList>

namespace Headroom {

class JsonReader;

inline constexpr int TableDefaultRows = 100;
inline constexpr int TableMaximumRows = 10'000;

struct TableOptions
{
    QStringList columns; // empty: every label
    int limit = TableDefaultRows;
    bool ascending = false;
};

// The options of a panel the reader accepted (defaults for what is absent).
TableOptions tableOptions(const DashboardPanel &panel);

// path: the panel's ("panels[2]"); a refusal names the option below it.
bool checkTablePanel(JsonReader &reader, const DashboardPanel &panel, const QString &path);

} // namespace Headroom
