// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What a table panel shows ("type": "table"): an engine's instant query at the end of
// the range, one row per series, its labels in columns and its value last, sorted by
// value (the largest first by default: "the 10 busiest NICs of the fleet" is
// topk(10, ...) or a limit of 10).
#pragma once

#include "core/series.h"

#include <QList>
#include <QStringList>

namespace Headroom {

struct PromqlTableRow
{
    Labels labels; // the series' labels, __name__ included when the engine sent it
    double value = 0;
    friend bool operator==(const PromqlTableRow &, const PromqlTableRow &) = default;
};

struct PromqlTableData
{
    QString source; // the promql source asked
    qint64 atMs = 0; // the instant the engine was asked about
    QStringList columns; // label names, in display order (the value follows)
    QString unit; // the value's: the panel's "unit"
    QList<PromqlTableRow> rows; // sorted, at most the panel's limit
    int leftOut = 0; // rows beyond the limit
    bool isEmpty() const { return rows.isEmpty(); }
    friend bool operator==(const PromqlTableData &, const PromqlTableData &) = default;
};

} // namespace Headroom
