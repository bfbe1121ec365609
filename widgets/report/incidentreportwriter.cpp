// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "report/incidentreportwriter.h"

#include "report/evidencechart.h"
#include "report/incidenthtml.h"

#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>
#include <QUrl>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

QList<QList<EvidenceChart>> chartsOf(const IncidentReportData &data, const SeriesRegistry &registry,
                                     const SeriesStore &store)
{
    QList<QList<EvidenceChart>> charts;
    const auto &findings = data.findings.findings;
    for (size_t i = 0; i < findings.size() && i < size_t(ReportChartedFindings); ++i)
        charts.append(evidenceCharts(findings[i], registry, store, data.fromMs, data.toMs,
                                     data.findings.binMs));
    return charts;
}

bool writePdf(const IncidentReportData &data, const QList<QList<EvidenceChart>> &charts,
              QSaveFile *file)
{
    QPdfWriter writer(file);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                     QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter));
    writer.setResolution(300);
    writer.setTitle(u"Incident report: "_s + data.dashboardTitle);
    writer.setCreator(u"Headroom "_s + data.headroomVersion);
    QTextDocument document;
    // The charts are the document's resources, so the PDF needs no data: URI decoder.
    for (qsizetype i = 0; i < charts.size(); ++i)
        for (qsizetype c = 0; c < charts[i].size(); ++c)
            document.addResource(QTextDocument::ImageResource,
                                 QUrl(reportChartName(int(i), int(c))), charts[i][c].image);
    // A4 less the margins is about 680 px wide at QTextDocument's 96 dpi.
    document.setHtml(incidentReportHtml(data, charts, ReportImages::ResourceNames, 640));
    document.print(&writer);
    return true;
}

} // namespace

bool writeIncidentReport(const IncidentReportData &data, const SeriesRegistry &registry,
                         const SeriesStore &store, const QString &path, QString *error)
{
    const auto format = incidentReportFormat(path);
    if (!format) {
        *error = path + u": cannot write: an incident report is .html, .htm or .pdf"_s;
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = path + u": cannot write: "_s + file.errorString();
        return false;
    }
    const QList<QList<EvidenceChart>> charts = chartsOf(data, registry, store);
    bool written = true;
    switch (*format) {
    case IncidentReportFormat::Html:
        written = file.write(incidentReportHtml(data, charts, ReportImages::DataUri, 900).toUtf8())
            >= 0;
        break;
    case IncidentReportFormat::Pdf:
        written = writePdf(data, charts, &file);
        break;
    }
    if (!written || !file.commit()) {
        *error = path + u": cannot write: "_s + file.errorString();
        return false;
    }
    return true;
}

} // namespace Headroom
