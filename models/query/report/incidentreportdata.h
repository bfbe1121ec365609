// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The incident report's content (`headroom --export-report`, File ▸ Export Incident
// Report…), gathered GUI-free from the store for one range: the findings, the alert
// events, the dashboard's USE matrix, top statements, top processes and top shards panels as
// tables,
// and what was watched. widgets/report/ turns it into HTML and PDF, with charts.
//
// The tables reuse the panels' own queries (queryPanel): each usematrix panel gives a
// table of its rows at the range end, or at its newest sample when the data ends before
// (a report made after the fact would otherwise show every cell stale); each shardtable panel its
// rows as the table shows them (busiest first, its "top"); each timeseries panel whose series are
// statements (a "query" label, pg_stat_statements) a table of the statements by their mean over the
// range, and each one whose series are processes (a "pid" label: the host's top processes) a
// table of the processes by their mean. A dashboard without such a panel gets an empty list, and
// the report says so. Text from the
// sources (statement texts, labels, alert messages) is kept as it is: it is untrusted, and the
// writers escape it.
#pragma once

#include "document/dashboard.h"
#include "engine/runtime/alertevent.h"
#include "query/analysis/analysisrun.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace Headroom {

class SeriesRegistry;
class SeriesStore;

// A table of the report: a panel's title, the header and the rows as display text.
struct ReportTable
{
    QString title;
    QString note; // one line under the title, e.g. the time a USE matrix shows
    QStringList header;
    QList<QStringList> rows;
};

struct WatchedSource
{
    QString id;
    QString plugin;
    int intervalMs = 0;
    QStringList target; // sourceTargetLines(): no secret in it
};

struct IncidentReportData
{
    QString dashboardTitle;
    QString dashboardFile; // the file it was read from; empty: the shipped default
    QString headroomVersion;
    qint64 fromMs = 0;
    qint64 toMs = 0;
    qint64 generatedMs = 0;
    QList<WatchedSource> sources;
    Analysis::FindingsReport findings;
    QList<AlertEvent> alerts; // events in [fromMs, toMs], oldest first
    QList<ReportTable> useMatrices;
    QList<ReportTable> statements;
    QList<ReportTable> processes;
    QList<ReportTable> shards;
};

struct IncidentReportRequest
{
    const Dashboard &dashboard;
    QString dashboardFile;
    QMap<QString, QString> variables; // as the sources were started with
    QString headroomVersion;
    qint64 fromMs = 0;
    qint64 toMs = 0;
};

// The findings of the range over every series of the dashboard's sources, binned no
// finer than its fastest poll: what --export-findings writes and the report lists.
Analysis::FindingsReport dashboardFindings(const Dashboard &dashboard,
                                           const SeriesRegistry &registry, const SeriesStore &store,
                                           qint64 fromMs, qint64 toMs);

// Everything but the findings, which take the longest and which a caller may have
// already (pass them in), else they are computed with dashboardFindings().
IncidentReportData gatherIncidentReport(const IncidentReportRequest &request,
                                        const SeriesRegistry &registry, const SeriesStore &store,
                                        std::optional<Analysis::FindingsReport> findings = {});

// The statements and processes table rows kept per panel.
inline constexpr int ReportTopStatements = 10;
inline constexpr int ReportTopProcesses = 10;

enum class IncidentReportFormat
{
    Html,
    Pdf
};
// By the file's suffix: .html or .htm, .pdf (any case); nullopt for anything else.
std::optional<IncidentReportFormat> incidentReportFormat(const QString &path);

} // namespace Headroom
