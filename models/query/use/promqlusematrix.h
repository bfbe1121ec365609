// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A fleet USE matrix: a "usematrix" panel whose options hold PromQL `queries` instead of
// series selectors (document/panels/usematrixoptions.h). Every query is read over the
// panel's range from its promql source (query/promql/promqlpanelquery.h: chunks, the
// answer cache, one 10 s deadline for the whole panel), at about UseFleetPoints points
// per series. Each series the engine returns is one host's figure of one column on one
// resource: the host is the value of the `by` label ("instance"; the source's id when
// a series lacks it), the resource the query's template over the series' labels. From
// there the rules are the USE matrix's own (usematrix.h): worst in range, since when,
// stale when the engine stopped returning a host's series (a host that went away).
//
// The engine's error is PanelData::message (the queries after it are not asked); the
// cells of the queries read before it stay.
#pragma once
#include "query/panelquery.h"
#include "query/use/usematrix.h"

namespace Headroom {

class PromqlEngines;

// Points per series over the range: a 15-minute range at 5 s, an hour at 15 s.
inline constexpr int UseFleetPoints = 240;

// The readings buildUseMatrix() needs, from the engine; *message is the engine's error.
QList<UseSeriesReading> readPromqlUseSeries(const DashboardPanel &panel,
                                            const UseMatrixOptions &options,
                                            const PromqlEngines *engines, qint64 fromMs,
                                            qint64 toMs, qint64 nowMs, QString *message,
                                            QStringList *warnings);

// PanelData with a UseMatrix payload of the fleet.
PanelData queryPromqlUseMatrix(const DashboardPanel &panel, const UseMatrixOptions &options,
                               const PromqlEngines *engines, qint64 fromMs, qint64 toMs,
                               qint64 nowMs);

} // namespace Headroom
