// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The query behind a "usematrix" panel: the series its selectors match, the worst of
// each over the range and its latest sample, built into a UseMatrix (usematrix.h).
#pragma once

#include "query/panelquery.h"
#include "query/use/usematrix.h"

namespace Headroom {

class SeriesRegistry;
class SeriesStore;

// The readings buildUseMatrix() needs: for every matched U/S/E series its worst in
// [from, to] by the thresholds of its column and unit (read with
// SeriesStore::readForColumns over UseRangeColumns: block summaries on ranges longer
// than a day), its latest sample in [max(from, to - UseLookbackMs), to] and the median
// spacing of its last few samples (read as they are: summaries have no spacing).
QList<UseSeriesReading> readUseSeries(const QList<SeriesSelector> &selectors,
                                      const SeriesRegistry &registry, const SeriesStore &store,
                                      qint64 fromMs, qint64 toMs,
                                      const UseMatrixOptions &options = {});

// PanelData with a UseMatrix payload (series stays empty: the cells are the view). The
// panel's options were validated when the dashboard was read; options that do not
// parse here (a panel built in code) fall back to the default thresholds.
PanelData queryUseMatrixPanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                              const SeriesStore &store, qint64 fromMs, qint64 toMs);

} // namespace Headroom
