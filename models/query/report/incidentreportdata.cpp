// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/report/incidentreportdata.h"

#include "core/valueformat.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/analysis/findingsreport.h"
#include "query/report/sourcetarget.h"
#include "query/shards/shardquery.h"
#include "query/use/usematrixquery.h"

#include <QDateTime>
#include <QFileInfo>
#include <algorithm>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

QString cellText(const UseCell &cell)
{
    if (cell.level == UseLevel::NotMeasured)
        return u"—"_s;
    // The worst value of the range, as the matrix shows it, with the level it has and
    // since when (the report is read after the fact: the latest value says little).
    const UseCellSeries *headline = cell.headlineSeries();
    const UseWorst *worst = cell.worst();
    if (!cell.hasValue() || !headline || !worst)
        return u"—"_s;
    QString text = formatUseValue(worst->sample.value, headline->info.unit) + u" ("_s
        + useLevelName(cell.level) + u')';
    if (cell.raised() && cell.sinceMs >= 0)
        text += u" since "_s + Analysis::isoUtc(cell.sinceMs)
            + (cell.untilMs >= 0 ? u" until "_s + Analysis::isoUtc(cell.untilMs) : QString());
    if (!cell.alert.isEmpty())
        text += u"; alert: "_s + cell.alert;
    return text;
}

ReportTable useMatrixTable(const DashboardPanel &panel, const PanelData &data)
{
    ReportTable table;
    table.title = panel.title.isEmpty() ? panel.id : panel.title;
    table.header = { u"Resource"_s };
    for (int c = 0; c < UseColumnCount; ++c)
        table.header.append(useColumnTitle(UseColumn(c)));
    for (const UseMatrixRow &row : data.as<UseMatrix>().rows) {
        QStringList cells { row.label };
        for (const UseCell &cell : row.cells)
            cells.append(cellText(cell));
        table.rows.append(cells);
    }
    return table;
}

ReportTable shardTable(const DashboardPanel &panel, const PanelData &data)
{
    const ShardTableData &shards = data.as<ShardTableData>();
    ReportTable table;
    table.title = panel.title.isEmpty() ? panel.id : panel.title;
    table.header = { u"Rank"_s, u"Set"_s, u"Shard"_s, u"Load"_s, u"Previous"_s, u"Ops"_s };
    QList<ShardLoadRow> rows = shards.rows;
    std::stable_sort(rows.begin(), rows.end(),
                     [](const ShardLoadRow &a, const ShardLoadRow &b) { return a.load > b.load; });
    if (shards.top > 0 && rows.size() > shards.top)
        rows.resize(shards.top);
    int rank = 0;
    for (const ShardLoadRow &row : std::as_const(rows)) {
        table.rows.append(QStringList { QString::number(++rank), row.set, row.shard,
                                        formatUseValue(row.load, shards.loadUnit),
                                        formatUseValue(row.previousLoad, shards.loadUnit),
                                        formatUseValue(row.ops, shards.opsUnit) });
    }
    return table;
}

struct RankedSeries
{
    const PanelSeriesData *series;
    double mean;
    double peak;
};

// The series of a panel that carry `label`, by their mean over the range, the largest
// first, at most `top`.
std::vector<RankedSeries> rankedByMean(const PanelData &data, const QString &label, int top)
{
    std::vector<RankedSeries> ranked;
    for (const PanelSeriesData &series : data.series) {
        if (!series.info.key.labels.contains(label) || series.points.empty())
            continue;
        double sum = 0;
        double peak = -qInf();
        int n = 0;
        for (const Sample &sample : series.points) {
            if (!std::isfinite(sample.value))
                continue;
            sum += sample.value;
            peak = std::max(peak, sample.value);
            ++n;
        }
        if (n > 0)
            ranked.push_back({ &series, sum / n, peak });
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const RankedSeries &a, const RankedSeries &b) { return a.mean > b.mean; });
    if (ranked.size() > size_t(top))
        ranked.resize(size_t(top));
    return ranked;
}

// A timeseries panel whose series are the host's processes (a "pid" label), or nullopt.
std::optional<ReportTable> processTable(const DashboardPanel &panel, const PanelData &data)
{
    const std::vector<RankedSeries> processes = rankedByMean(data, u"pid"_s, ReportTopProcesses);
    if (processes.empty())
        return std::nullopt;
    ReportTable table;
    table.title = panel.title.isEmpty() ? panel.id : panel.title;
    table.header = { u"Rank"_s, u"Source"_s, u"Process"_s, u"PID"_s,   u"User"_s,
                     u"Unit"_s, u"Mean"_s,   u"Peak"_s,    u"Metric"_s };
    int rank = 0;
    for (const RankedSeries &process : processes) {
        const SeriesInfo &info = process.series->info;
        const Labels &labels = info.key.labels;
        table.rows.append(QStringList { QString::number(++rank), info.key.source,
                                        labels.value(u"comm"_s), labels.value(u"pid"_s),
                                        labels.value(u"user"_s), labels.value(u"unit"_s),
                                        formatUseValue(process.mean, info.unit),
                                        formatUseValue(process.peak, info.unit), info.key.metric });
    }
    return table;
}

// A timeseries panel whose series are statements (they carry the statement text as
// the "query" label), or nullopt.
std::optional<ReportTable> statementTable(const DashboardPanel &panel, const PanelData &data)
{
    const std::vector<RankedSeries> statements
        = rankedByMean(data, u"query"_s, ReportTopStatements);
    if (statements.empty())
        return std::nullopt;
    ReportTable table;
    table.title = panel.title.isEmpty() ? panel.id : panel.title;
    table.header = { u"Rank"_s, u"Database"_s, u"Statement"_s, u"Mean"_s, u"Peak"_s, u"Metric"_s };
    int rank = 0;
    for (const RankedSeries &statement : statements) {
        const SeriesInfo &info = statement.series->info;
        table.rows.append(QStringList {
            QString::number(++rank), info.key.labels.value(u"datname"_s),
            info.key.labels.value(u"query"_s), formatUseValue(statement.mean, info.unit),
            formatUseValue(statement.peak, info.unit), info.key.metric });
    }
    return table;
}

} // namespace

Analysis::FindingsReport dashboardFindings(const Dashboard &dashboard,
                                           const SeriesRegistry &registry, const SeriesStore &store,
                                           qint64 fromMs, qint64 toMs)
{
    QStringList sources;
    qint64 fastestPoll = 0;
    for (const DashboardSource &source : dashboard.sources) {
        sources.append(source.id);
        fastestPoll = fastestPoll == 0 ? source.intervalMs
                                       : std::min<qint64>(fastestPoll, source.intervalMs);
    }
    const QList<int> ids = Analysis::seriesOfSources(registry, sources);
    return Analysis::analyseRange(store, registry, ids, fromMs, toMs,
                                  std::max<qint64>(1000, fastestPoll));
}

IncidentReportData gatherIncidentReport(const IncidentReportRequest &request,
                                        const SeriesRegistry &registry, const SeriesStore &store,
                                        std::optional<Analysis::FindingsReport> findings)
{
    const Dashboard &dashboard = request.dashboard;
    IncidentReportData data;
    data.dashboardTitle = dashboard.title;
    data.dashboardFile = request.dashboardFile;
    data.headroomVersion = request.headroomVersion;
    data.fromMs = request.fromMs;
    data.toMs = request.toMs;
    data.generatedMs = QDateTime::currentMSecsSinceEpoch();
    const QMap<QString, QString> values = dashboard.resolveVariables(request.variables);
    for (const DashboardSource &source : dashboard.sources) {
        QString unknown;
        const QJsonObject config = substituteVariables(source.config, values, &unknown);
        data.sources.append(WatchedSource { source.id, source.plugin, source.intervalMs,
                                            sourceTargetLines(config) });
    }
    data.findings = findings
        ? std::move(*findings)
        : dashboardFindings(dashboard, registry, store, request.fromMs, request.toMs);
    data.alerts = store.readAlertEvents(request.fromMs, request.toMs);
    std::stable_sort(data.alerts.begin(), data.alerts.end(),
                     [](const AlertEvent &a, const AlertEvent &b) { return a.tsMs < b.tsMs; });

    for (const DashboardPanel &panel : dashboard.panels) {
        // Tables of three types; the others have none in the report: the heatmap and
        // the shard histogram are charts, the alert list is the report's alerts, the
        // blocking tree is of the range's end (its root blockers' series are among the
        // findings' evidence), a table panel is an engine's instant answer (no local
        // evidence), and a type added later has none until it is given one here.
        if (panel.type == PanelType::UseMatrix) {
            qint64 at = 0;
            for (const auto readings
                 = readUseSeries(panel.series, registry, store, request.fromMs, request.toMs);
                 const UseSeriesReading &reading : readings)
                if (reading.latest)
                    at = std::max(at, reading.latest->tsMs);
            at = at > 0 ? at : request.toMs;
            ReportTable table
                = useMatrixTable(panel, queryPanel(panel, registry, store, request.fromMs, at, 0));
            table.note = u"At %1%2."_s.arg(
                Analysis::isoUtc(at), at < request.toMs ? u", the newest sample"_s : QString());
            data.useMatrices.append(table);
        } else if (panel.type == PanelType::ShardTable) {
            data.shards.append(shardTable(
                panel, queryPanel(panel, registry, store, request.fromMs, request.toMs, 0)));
        } else if (panel.type == PanelType::TimeSeries) {
            // Only panels of statements or processes: the rest is charted, not tabled.
            // Cheap test first: the selectors' matches carry the "query" or "pid" label.
            bool statements = false;
            bool processes = false;
            for (const auto allIds = matchSeries(panel.series, registry); const int id : allIds) {
                const auto info = registry.info(id);
                if (!info || info->histogram)
                    continue;
                statements = statements || info->key.labels.contains(u"query"_s);
                processes = processes || info->key.labels.contains(u"pid"_s);
            }
            if (!statements && !processes)
                continue;
            const PanelData panelData
                = queryPanel(panel, registry, store, request.fromMs, request.toMs, 0);
            if (statements)
                if (auto table = statementTable(panel, panelData))
                    data.statements.append(*table);
            if (processes && !statements)
                if (auto table = processTable(panel, panelData))
                    data.processes.append(*table);
        }
    }
    return data;
}

std::optional<IncidentReportFormat> incidentReportFormat(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "html"_L1 || suffix == "htm"_L1)
        return IncidentReportFormat::Html;
    if (suffix == "pdf"_L1)
        return IncidentReportFormat::Pdf;
    return std::nullopt;
}

} // namespace Headroom
