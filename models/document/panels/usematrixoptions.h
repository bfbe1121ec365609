// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The USE matrix panel's columns and options, as a dashboard file states them: which
// column a series kind belongs to, the default thresholds per column and unit, and the
// reader of a usematrix panel's "thresholds" option. The matrix itself is built in
// query/use/usematrix.h; this part lives in the document layer because the dashboard
// reader checks the panel when a file opens (checkUseMatrixPanel).
#pragma once

#include "document/dashboard.h"

#include <QJsonObject>
#include <QString>
#include <array>
#include <optional>

namespace Headroom {

class JsonReader;

enum class UseColumn
{
    Utilization,
    Saturation,
    Errors
};
inline constexpr int UseColumnCount = 3;

// "Utilization" (column titles) and "utilization" (options keys, CSV labels).
QString useColumnTitle(UseColumn column);
QString useColumnKey(UseColumn column);
// The column a series of this kind belongs to; nullopt for throughput, latency, info.
std::optional<UseColumn> useColumnOf(UseKind kind);
// The kind of a column's series (its inverse).
UseKind useKindOf(UseColumn column);

// One cell kind of a fleet matrix: a PromQL expression whose every series is one host's
// (the value of its `by` label) figure of one column on one resource.
struct UseMatrixQuery
{
    // The resource's name (usematrix.h: "cpu", "memory", "disk:sda"), where {label}
    // is a label of the series ("nic:{device}": a row per network device).
    QString resource;
    UseColumn column = UseColumn::Utilization;
    QString unit; // of the values, for the default thresholds and the figures
    QString query; // ${var} and $var are the dashboard's variables

    friend bool operator==(const UseMatrixQuery &, const UseMatrixQuery &) = default;
};

// The row order: by host then resource, or the worst first (a fleet of dozens).
enum class UseRowOrder
{
    Resource,
    Worst
};

struct UseMatrixOptions
{
    // Per column: the panel's override, or nullopt for the per-unit defaults.
    std::array<std::optional<PanelThresholds>, UseColumnCount> thresholds;
    // A fleet matrix reads these from the panel's promql source instead of series.
    QList<UseMatrixQuery> queries;
    // The label whose value names a series' host (a row's source).
    QString by = QStringLiteral("instance");
    UseRowOrder order = UseRowOrder::Resource;

    // resource: the series' (SeriesInfo::resource), for the defaults that depend on it.
    PanelThresholds thresholdsFor(UseColumn column, const QString &unit,
                                  const QString &resource = {}) const;
};

// The defaults, by column and unit:
//   Utilization  "%": warning 70, critical 90; other units: none.
//   Saturation   "%" (PSI stall share, swap used): 10 / 25
//                "" (queue lengths, run queue and load per CPU, waiting sessions): 1 / 4
//                "ms/s" (time spent waiting per second): 100 / 500
//                "h" (hours left before a resource runs out, a forecast such as a
//                filesystem's time to full): 6 / 1, lower is worse
//                "B/s" (spilled to temp files): any / 100 MB/s
//                other rates "…/s" (drops, swapping, temp files): any / 100 per second
//                other units: none.
//   Errors       "%" (retransmitted share): 1 / 5
//                any other unit: any / 1 (per second for rates).
// "any" means every value above 0 (the smallest positive double is the bound).
// A few resources have bounds of their own, before those by unit:
//   "connections" (a server's connection slots): Utilization "%" 80 / 95
//   "standby:<name>", "replica", "replica:<name>" (a standby as its primary sees it, the
//                server as a replica of its primary): Saturation "s" (lag) 10 / 60
//   "slot:<name>" (a replication slot): Saturation "B" (WAL it retains) 1 GiB / 10 GiB
//   "wal" (checkpoints and WAL): Saturation "x" (checkpoints forced by WAL volume per
//                checkpoint_timeout) 2 / 10
PanelThresholds defaultUseThresholds(UseColumn column, const QString &unit,
                                     const QString &resource = {});

// Reads a usematrix panel's options object, found at optionsPath ("panels[2].options"):
//   "thresholds": per column, as above;
//   "queries": [{"resource": "nic:{device}", "use": "saturation", "unit": "/s",
//                "query": "rate(node_network_receive_drop_total[1m])"}, ...]: a fleet
//              matrix read from the panel's promql source (at most 64);
//   "by": the label naming a series' host ("instance"; only with queries);
//   "order": "resource" (by host, then resource) or "worst" (the worst row first).
// nullopt on bad input, the reader's error naming the field below it
// ("panels[2].options.thresholds.errors.warning") and why. Unknown keys are refused so
// that typos do not go unnoticed.
std::optional<UseMatrixOptions> readUseMatrixOptions(JsonReader &reader, const QJsonObject &options,
                                                     const QString &optionsPath);
// The options as the query uses them: those of `options` when they read, else the
// defaults (a panel built in code; a file's panels were checked when it was read).
UseMatrixOptions useMatrixOptions(const QJsonObject &options);

// Checks a usematrix panel when a dashboard file is read: it needs selectors (which
// series are its resources) or queries, not both, and its options must read. path:
// the panel's ("panels[2]").
bool checkUseMatrixPanel(JsonReader &reader, const DashboardPanel &panel, const QString &path);
} // namespace Headroom
