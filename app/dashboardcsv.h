// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A dashboard's data as CSV (csvexport.h): every panel's samples over [from, to],
// unreduced, straight from the query layer. The headless --export-csv and the GUI's
// "Export Data as CSV" share it; no widget is involved, so it runs in a worker thread
// or a process without a display.
#pragma once

#include "query/panelquery.h"

namespace Headroom {

// Every panel's data over [fromMs, toMs], in the dashboard's panel order, with every
// sample (no pixel reduction) and no comparison range.
QList<PanelData> queryDashboardForCsv(const QList<DashboardPanel> &panels,
                                      const SeriesRegistry &registry, const SeriesStore &store,
                                      qint64 fromMs, qint64 toMs);

// queryDashboardForCsv written to path (writeCsvFile: header, rows, atomically).
// panelMessages (when given) gets "panel ID: why" for each panel that could not read
// all it asks for (PanelData::message: a PromQL engine down, slow, refusing).
bool writeDashboardCsv(const QList<DashboardPanel> &panels, const SeriesRegistry &registry,
                       const SeriesStore &store, qint64 fromMs, qint64 toMs, const QString &path,
                       QString *error, QStringList *panelMessages = nullptr);

} // namespace Headroom
