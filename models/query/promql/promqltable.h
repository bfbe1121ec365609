// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The query of a table panel: its `query` as /api/v1/query at the range's end (or now,
// when the range ends later), on the query pool, with the panel's deadline. An instant
// more than PromqlFinalAfterMs in the past is final, so its answer is kept in
// PromqlEngines' cache (memory and disk) like a complete range chunk: a re-render or an
// offline reopen asks the engine nothing. Native histogram series have no single value
// and are left out (said in a warning).
//
// CSV rows: one per table row in display order. time = the instant asked; source = the
// promql source; metric = the series' __name__ ("promql" without one); labels = its
// other labels; value; unit = the panel's.
#pragma once

#include "collector/promql/promqlresponse.h"
#include "query/panelquery.h"

namespace Headroom {

class PromqlEngines;

PanelData queryPromqlTable(const DashboardPanel &panel, const PromqlEngines *engines, qint64 toMs,
                           qint64 nowMs);

// The answer's series as the table's rows: columns as the options name them (else every
// label but __name__, in natural order), sorted by value (NaN last, ties by labels) and
// cut to the limit.
PromqlTableData promqlTableOf(const QList<PromqlSeries> &series, const DashboardPanel &panel);

QString promqlTableCsvRows(const PanelData &data);

} // namespace Headroom
