// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Writes the incident report to a file: HTML (one self-contained file, charts as data:
// URIs) or PDF (QPdfWriter over a QTextDocument of the same HTML, A4, a page per
// section), by the file's suffix (incidentReportFormat). Renders the evidence charts
// offscreen, so it runs on the GUI thread (QApplication, offscreen platform headless).
#pragma once

#include "query/report/incidentreportdata.h"

#include <QString>

namespace Headroom {

class SeriesRegistry;
class SeriesStore;

// The findings whose evidence is charted: the first ones by rank.
inline constexpr int ReportChartedFindings = 20;

// False with *error naming the file ("PATH: cannot write: reason") when it cannot be
// written, or when its suffix is neither .html/.htm nor .pdf.
bool writeIncidentReport(const IncidentReportData &data, const SeriesRegistry &registry,
                         const SeriesStore &store, const QString &path, QString *error);

} // namespace Headroom
