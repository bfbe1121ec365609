// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A dashboard document: versioned JSON with sources, panels, layout, time range,
// refresh interval, variables. Value types only; reading and writing live in
// dashboardfile.h.
#pragma once

#include "core/duration.h" // parseDuration, formatDuration: the time range's spelling
#include "core/series.h"
#include "core/seriesselector.h"
#include "document/alertrule.h"
#include "document/paneltype.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QtNumeric>
#include <optional>

namespace Headroom {

// Where a variable's values come from besides its options: the values of one label
// in a promql source's engine (/api/v1/label/<label>/values), optionally of the series
// matching a selector ("node_uname_info").
struct VariableLabelValues
{
    QString label; // empty: none
    QString match;
    QString source; // the promql source (empty: the dashboard's only one)
    friend bool operator==(const VariableLabelValues &, const VariableLabelValues &) = default;
};

struct DashboardVariable
{
    QString name; // referenced as ${name} in source configs
    QString label;
    QString defaultValue;
    QStringList options; // suggestions for the GUI selector; any value is accepted
    // Several values at once, written "a, b" (variableValues()); AllValues means all of
    // labelValues. Used by PromQL queries (a regular expression of the values) and by
    // panels repeated per value; never by a source's config, which takes one value.
    bool multi = false;
    VariableLabelValues labelValues {};
    friend bool operator==(const DashboardVariable &, const DashboardVariable &) = default;
};

struct DashboardSource
{
    QString id; // becomes SeriesKey::source
    QString plugin; // collector plugin id
    int intervalMs = 1000;
    int timeoutMs = 5000;
    QJsonObject config; // may contain ${variable} references
    friend bool operator==(const DashboardSource &, const DashboardSource &) = default;
};

// A series computed from others of the same source (see models/derivedseries.h).
// A series computed from others of its source: an expression over values, or the
// APDEX of a latency histogram series (then expression is empty).
struct DashboardDerived
{
    QString source;
    QString metric; // the result's metric name
    QString expression; // e.g. "pg.db.tup_returned.rate / pg.db.blks_hit.rate"
    QString unit;
    UseKind kind = UseKind::Info;
    QString apdexHistogram; // the histogram metric whose APDEX this is
    // T: a duration ("50ms") or a reference to a variable holding one ("${apdex_t}").
    QString apdexT;
    friend bool operator==(const DashboardDerived &, const DashboardDerived &) = default;
};

// The dashboard grid's width in columns, for the reader, the editor and the view.
constexpr int DashboardGridColumns = 12;

struct PanelLayout
{
    int x = 0, y = 0, w = 6, h = 4; // grid cells of the DashboardGridColumns wide grid
    friend bool operator==(const PanelLayout &, const PanelLayout &) = default;
};

// A titled band of the grid, like a Grafana row: from its grid row `y` down to the next
// section's. Collapsed, the panels whose top row lies in it are hidden and its rows
// close up (kept wherever a shown panel still covers them); the state is saved with
// the dashboard. Panels above the first section belong to none and always show.
struct DashboardSection
{
    QString title;
    int y = 0;
    bool collapsed = false;
    // A section drawn once per value of a multi-value variable, with its panels
    // (dashboardrepeat.h), like Grafana's repeated rows.
    QString repeat {};
    // Set on the dashboard as drawn, never read from a file: the index in the document's
    // sections of the section this one shows (-1: the same index).
    int documentIndex = -1;
    friend bool operator==(const DashboardSection &, const DashboardSection &) = default;
};

// How a timeseries panel's Y axis maps values: log suits latencies spanning decades.
enum class YScale
{
    Linear,
    Log
};

// Where a panel's values turn worrying: drawn as lines on time charts, colour the
// cells of tables and the USE matrix. Either may be unset (NaN). With higherIsWorse
// false (free memory, cache hit ratio), values below the bounds are the bad ones.
struct PanelThresholds
{
    double warning = qQNaN();
    double critical = qQNaN();
    bool higherIsWorse = true;

    bool isEmpty() const { return qIsNaN(warning) && qIsNaN(critical); }
    // 0 ok, 1 warning, 2 critical.
    int level(double value) const;
    friend bool operator==(const PanelThresholds &a, const PanelThresholds &b)
    {
        const auto same = [](double x, double y) { return x == y || (qIsNaN(x) && qIsNaN(y)); };
        return same(a.warning, b.warning) && same(a.critical, b.critical)
            && a.higherIsWorse == b.higherIsWorse;
    }
};

// "All values" of a multi-value variable.
inline constexpr QLatin1StringView AllValues("*");

// The values of a multi-value variable's value: split at commas, trimmed, empty ones
// dropped ("web1:9100, web2:9100").
QStringList variableValues(const QString &value);

struct DashboardPanel
{
    QString id;
    PanelType type = PanelType::TimeSeries;
    QString title;
    QString unit; // overrides the series' unit on the axis when set
    // A legend template over the series' labels ("{interface} {direction}"; see
    // core/legendtemplate.h), checked when read; empty: the default names.
    QString legend;
    QList<SeriesSelector> series;
    // A PromQL expression read from a Prometheus-compatible engine instead of `series`
    // (timeseries panels; ${var} and $var are the dashboard's variables), and the id of
    // the `promql` source that names the engine (empty: the dashboard's only one).
    QString query;
    QString querySource;
    PanelLayout layout;
    // Type-specific. Those of heatmap, usematrix and shard panels are checked when a file
    // is read (document/panels/); timeseries (stacked, yMin, yMax) and alerts (states,
    // minSeverity) options are taken as they are.
    QJsonObject options;
    // Lines drawn per histogram series, each in (0, 100]; 100 is the maximum. Empty:
    // p50, p95, p99 and max (see percentilelines.h).
    QList<double> percentiles;
    YScale yScale = YScale::Linear;
    PanelThresholds thresholds;
    // A panel drawn once per value of a multi-value variable (dashboardrepeat.h): side by
    // side across the grid's rows, or one below the other (repeatVertical).
    QString repeat;
    bool repeatVertical = false;
    // Set on the copies expandRepeats() makes, never read from a file: the repeated
    // panel's id, and the copy's own value of the variable.
    QString repeatOf;
    QMap<QString, QString> variables;
    friend bool operator==(const DashboardPanel &, const DashboardPanel &) = default;
};

// The plugin id of sources that name a Prometheus-compatible engine (collectors/promql):
// panels read from it by `query`.
inline constexpr QLatin1StringView PromqlPlugin("promql");

struct Dashboard
{
    // 2 added alert rules, 3 sections, 4 multi-value variables and repeated panels; a
    // build reading an older version refuses such a file instead of dropping what it
    // does not know on the next save.
    static constexpr int SchemaVersion = 4;

    QString title;
    QList<DashboardVariable> variables;
    QList<DashboardSource> sources;
    QList<DashboardDerived> derived;
    QList<DashboardPanel> panels;
    QList<DashboardSection> sections; // by y, each y once
    // A rule pack from resources ("use"; empty: none) and the dashboard's own rules,
    // which replace pack rules of the same id (alerts/alertrulejson.h).
    QString alertPack;
    QList<AlertRule> alerts;
    qint64 rangeMs = 15 * 60 * 1000;
    int refreshMs = 1000;

    const DashboardPanel *panel(const QString &id) const;
    // The index in `sections` of the section grid row y lies in; -1 above the first.
    int sectionOfRow(int y) const;
    // Default values of every variable, overridden by `values`.
    // Values for undeclared names are ignored (with a warning).
    QMap<QString, QString> resolveVariables(const QMap<QString, QString> &values) const;
    friend bool operator==(const Dashboard &, const Dashboard &) = default;
};

// "linear" and "log", as dashboard files spell them; nullopt for any other name.
QString yScaleName(YScale scale);
std::optional<YScale> yScaleFromName(const QString &name);

// Replaces ${name} in every string value of config, in objects and arrays at any
// depth. Unknown names are left as written and the first is reported in *error
// ("unknown variable ${name}"); *error is cleared when all names are known.
QJsonObject substituteVariables(const QJsonObject &config, const QMap<QString, QString> &values,
                                QString *error);

// The APDEX T of `derived` in ms, its variables replaced by `values`; nullopt and
// *error ("T \"fast\" of pg.apdex.probe is no duration like 50ms") when it is not a
// positive duration.
std::optional<qint64> apdexTMs(const DashboardDerived &derived,
                               const QMap<QString, QString> &values, QString *error);

} // namespace Headroom
