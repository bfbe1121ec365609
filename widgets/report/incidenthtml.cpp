// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "report/incidenthtml.h"

#include "core/csvcell.h"
#include "core/valueformat.h"
#include "literaltext.h"
#include "query/analysis/findingsreport.h"

#include <QBuffer>
#include <QDateTime>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Every text of the report goes through here: most of it comes from targets.
QString esc(const QString &text)
{
    return literalHtml(text);
}

// A section heading; every one but the first starts a page when printed (PDF).
QString section(const QString &id, const QString &title, bool first)
{
    return u"<h2 id=\"%1\"%2>%3</h2>\n"_s.arg(
        id, first ? QString() : u" style=\"page-break-before: always\""_s, esc(title));
}

QString table(const QStringList &header, const QList<QStringList> &rows, const QString &cls)
{
    QString out
        = u"<table class=\"%1\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n<tr>"_s.arg(cls);
    for (const QString &h : header)
        out += u"<th>"_s + esc(h) + u"</th>"_s;
    out += u"</tr>\n"_s;
    for (const QStringList &row : rows) {
        out += u"<tr>"_s;
        for (const QString &cell : row)
            out += u"<td>"_s + esc(cell) + u"</td>"_s;
        out += u"</tr>\n"_s;
    }
    return out + u"</table>\n"_s;
}

QString paragraph(const QString &text)
{
    return u"<p>"_s + esc(text) + u"</p>\n"_s;
}

QString pngDataUri(const QImage &image)
{
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return u"data:image/png;base64,"_s + QString::fromLatin1(png.toBase64());
}

// The same eleven columns and figures as --export-findings (findingsCsv), unquoted.
QStringList findingCells(const Analysis::Finding &f)
{
    return { QString::number(f.rank),
             f.source,
             f.resource,
             Analysis::findingKindName(f.kind),
             f.signal,
             Analysis::isoUtc(f.sinceMs),
             Analysis::isoUtc(f.untilMs),
             csvNumber(f.peak),
             QString::number(f.score, 'f', 3),
             f.summary,
             f.causedBy > 0 ? QString::number(f.causedBy) : QString() };
}

QString watched(const IncidentReportData &data)
{
    QString out = section(u"watched"_s, u"What was watched"_s, true);
    out += table({ u"Dashboard"_s, u"File"_s, u"Range (UTC)"_s, u"Headroom"_s, u"Generated"_s },
                 { { data.dashboardTitle,
                     data.dashboardFile.isEmpty() ? u"(shipped default)"_s : data.dashboardFile,
                     Analysis::isoUtc(data.fromMs) + u" to "_s + Analysis::isoUtc(data.toMs),
                     data.headroomVersion, Analysis::isoUtc(data.generatedMs) } },
                 u"watched"_s);
    QList<QStringList> sources;
    for (const WatchedSource &source : data.sources)
        sources.append(
            QStringList { source.id, source.plugin, QString::number(source.intervalMs) + u" ms"_s,
                          source.target.isEmpty() ? u"(local)"_s : source.target.join(u"; "_s) });
    out += u"<h3>Sources</h3>\n"_s;
    out += sources.isEmpty()
        ? paragraph(u"The dashboard has no source."_s)
        : table({ u"Source"_s, u"Plugin"_s, u"Interval"_s, u"Target"_s }, sources, u"sources"_s);
    return out;
}

QString findings(const IncidentReportData &data, const QList<QList<EvidenceChart>> &charts,
                 ReportImages images, int imageWidthPx)
{
    const Analysis::FindingsReport &report = data.findings;
    QString out = section(u"findings"_s, u"Findings"_s, false);
    out += paragraph(
        u"%1 series analysed in bins of %2 s; findings at or above a score of %3 "
        "are warnings, from %4 critical."_s.arg(
            QString::number(report.seriesAnalysed), QString::number(report.binMs / 1000.0),
            QString::number(Analysis::WarningScore), QString::number(Analysis::CriticalScore)));
    if (report.findings.empty())
        return out + paragraph(u"No finding: no series changed beyond its own noise."_s);
    QList<QStringList> rows;
    for (const Analysis::Finding &f : report.findings)
        rows.append(findingCells(f));
    out += table({ u"rank"_s, u"source"_s, u"resource"_s, u"kind"_s, u"signal"_s, u"since"_s,
                   u"until"_s, u"peak"_s, u"score"_s, u"summary"_s, u"caused_by"_s },
                 rows, u"findings"_s);
    for (size_t i = 0; i < report.findings.size(); ++i) {
        const Analysis::Finding &f = report.findings[i];
        // A chain: the consequences say which finding explains them.
        out += u"<h3>%1. %2 — %3 since %4%5</h3>\n"_s.arg(
            QString::number(f.rank), esc(f.resource), esc(Analysis::findingKindName(f.kind)),
            esc(Analysis::sinceText(f)),
            f.causedBy > 0 ? u" (a consequence of #%1)"_s.arg(f.causedBy) : QString());
        out += paragraph(f.summary);
        out += paragraph(u"Before: %1; peak: %2; score %3. Evidence: %4"_s.arg(
            formatValue(f.before, f.unit), formatValue(f.peak, f.unit),
            QString::number(f.score, 'f', 2), [&] {
                QStringList keys;
                for (const SeriesKey &key : f.evidenceKeys)
                    keys.append(key.toString());
                return keys.join(u", "_s);
            }()));
        const QList<EvidenceChart> none;
        const QList<EvidenceChart> &own
            = qsizetype(i) < charts.size() ? charts[qsizetype(i)] : none;
        for (qsizetype c = 0; c < own.size(); ++c) {
            const QString src = images == ReportImages::DataUri ? pngDataUri(own[c].image)
                                                                : reportChartName(int(i), int(c));
            out += u"<p><img class=\"evidence\" src=\"%1\" width=\"%2\" alt=\"%3\"><br>"
                   "<small>%3</small></p>\n"_s.arg(src, QString::number(imageWidthPx),
                                                   esc(own[c].caption));
        }
    }
    return out;
}

QString alertTimeline(const IncidentReportData &data)
{
    QString out = section(u"alerts"_s, u"Alert timeline"_s, false);
    if (data.alerts.isEmpty())
        return out + paragraph(u"No alert event in the range."_s);
    QList<QStringList> rows;
    for (const AlertEvent &event : data.alerts)
        rows.append(QStringList { Analysis::isoUtc(event.tsMs), alertStateName(event.state),
                                  alertSeverityName(event.severity),
                                  event.ruleName.isEmpty() ? event.ruleId : event.ruleName,
                                  event.series.toString(), formatValue(event.value, QString()),
                                  event.message });
    return out
        + table({ u"time"_s, u"state"_s, u"severity"_s, u"rule"_s, u"series"_s, u"value"_s,
                  u"message"_s },
                rows, u"alerts"_s);
}

QString tables(const QString &id, const QString &title, const QList<ReportTable> &tables,
               const QString &none)
{
    QString out = section(id, title, false);
    if (tables.isEmpty())
        return out + paragraph(none);
    for (const ReportTable &t : tables) {
        out += u"<h3>"_s + esc(t.title) + u"</h3>\n"_s;
        if (!t.note.isEmpty())
            out += paragraph(t.note);
        out += t.rows.isEmpty() ? paragraph(u"No data in the range."_s)
                                : table(t.header, t.rows, id);
    }
    return out;
}

} // namespace

QString reportChartName(int finding, int chart)
{
    return u"chart-%1-%2.png"_s.arg(finding).arg(chart);
}

QString incidentReportHtml(const IncidentReportData &data,
                           const QList<QList<EvidenceChart>> &charts, ReportImages images,
                           int imageWidthPx)
{
    const QString title = u"Incident report: "_s + data.dashboardTitle + u", "_s
        + Analysis::isoUtc(data.fromMs) + u" to "_s + Analysis::isoUtc(data.toMs);
    QString out = u"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>"_s + esc(title)
        + u"</title>\n<style>\nbody { font-family: sans-serif; font-size: 10pt; }\n"
          "table { border-collapse: collapse; margin-bottom: 8px; }\n"
          "th { background-color: #e8e8e8; text-align: left; }\n"
          "td, th { padding: 2px 4px; vertical-align: top; }\n"
          "img.evidence { max-width: 100%; height: auto; }\n"
          "</style>\n</head><body>\n<h1>"_s
        + esc(title) + u"</h1>\n"_s;
    out += watched(data);
    out += findings(data, charts, images, imageWidthPx);
    out += alertTimeline(data);
    out += tables(u"use"_s, u"USE matrix"_s, data.useMatrices,
                  u"The dashboard has no USE matrix panel."_s);
    out += tables(u"statements"_s, u"Top statements"_s, data.statements,
                  u"The dashboard has no panel of statements (pg_stat_statements), or none "
                  "recorded a statement in the range."_s);
    out += tables(u"processes"_s, u"Top processes"_s, data.processes,
                  u"The dashboard has no panel of the host's top processes, or none recorded a "
                  "process in the range."_s);
    out += tables(u"shards"_s, u"Top shards"_s, data.shards,
                  u"The dashboard has no top shards table."_s);
    return out + u"</body></html>\n"_s;
}

} // namespace Headroom
