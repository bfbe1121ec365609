// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The incident report as HTML: one document, its sections in order (what was watched,
// findings with their evidence charts, the alert timeline, the USE matrix, top
// statements, top shards). Every text that comes from data (statement texts, labels,
// summaries, alert messages, dashboard titles) is escaped; the document names nothing
// outside itself (no link, script, stylesheet or remote image).
#pragma once

#include "query/report/incidentreportdata.h"
#include "report/evidencechart.h"

#include <QList>
#include <QString>

namespace Headroom {

// How the charts are referenced: inline as data: URIs (the .html file), or by the
// names reportChartName() gives, for a QTextDocument that holds them as resources (PDF).
enum class ReportImages
{
    DataUri,
    ResourceNames
};

QString reportChartName(int finding, int chart);

// charts[i]: the charts of data.findings.findings[i] (shorter: no charts for the rest).
// imageWidthPx: the width the charts are shown at.
QString incidentReportHtml(const IncidentReportData &data,
                           const QList<QList<EvidenceChart>> &charts, ReportImages images,
                           int imageWidthPx);

} // namespace Headroom
