// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// CSV of panel data: one header row, one row per sample. The format is a contract
// for scripts: time (ISO-8601 UTC, milliseconds), panel, source, metric, labels,
// value, unit. A panel's series come first, then the rows of its type's own view
// (PanelDescriptor::csvRows; each format is described in query/panels/<type>panel.h or
// the query file it names). Cells are written by csvcell.h (quoted per RFC 4180 when needed,
// formula cells escaped, NaN and infinities empty).
#pragma once

#include "core/csvcell.h"
#include "query/panelquery.h"

namespace Headroom {

QByteArray csvHeader();
QByteArray csvRows(const PanelData &data);
// One row of a type's own view (PanelDescriptor::csvRows) in the columns above.
QString csvRow(qint64 tsMs, const QString &panel, const QString &source, const QString &metric,
               const Labels &labels, double value, const QString &unit);
// Header plus every panel's rows, written atomically (QSaveFile).
bool writeCsvFile(const QList<PanelData> &panels, const QString &path, QString *error);

} // namespace Headroom
