// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// An alert rule: which series it watches, how a window of samples is reduced to one
// value, when that value is bad and when it is good again, and what to tell the user.
// Value types and their validation only; evaluation is alertevaluator.h, reading and
// writing JSON is alertrulejson.h.
#pragma once

#include "core/seriesselector.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QtNumeric>
#include <optional>

namespace Headroom {

enum class AlertReducer
{
    Last, // the newest sample
    Avg,
    Min,
    Max,
    Rate, // (newest - oldest) / seconds between them: the rate of a counter
    Percentile, // pNN of the merged histograms (histogram series) or of the samples
    Change // avg over the window / avg over the baseline window just before it
};

enum class AlertComparison
{
    Above, // >
    AtOrAbove, // >=
    Below, // <
    AtOrBelow // <=
};

enum class AlertSeverity
{
    Info,
    Warning,
    Critical
};

// What an instance does when its series has sent nothing for noDataAfterMs.
enum class AlertNoData
{
    Ok, // resolve it: silence is not a problem
    KeepState, // leave it as it is
    Alert // treat silence as the condition holding (a dead source is an incident)
};

enum class AlertState
{
    Ok,
    Pending, // the condition holds, for less than `for`
    Firing,
    Resolved // recovered after firing; behaves as Ok for the next evaluation
};

// A second condition on a sibling series (same source and labels, another metric),
// e.g. disk utilization > 90 % only while that disk's queue is > 1. Its newest sample
// within the rule's window is compared; no sample means the condition does not hold.
struct AlertGuard
{
    QString metric; // empty: no guard
    AlertComparison comparison = AlertComparison::Above;
    double threshold = 0;

    bool isSet() const { return !metric.isEmpty(); }
    bool holds(double value) const;
    SeriesKey siblingOf(const SeriesKey &series) const
    {
        return SeriesKey { series.source, metric, series.labels };
    }
    friend bool operator==(const AlertGuard &, const AlertGuard &) = default;
};

struct AlertRule
{
    QString id; // stable; a rule of the dashboard with a pack rule's id replaces it
    QString name;
    bool enabled = true;
    // Source and metric may use '*'; a selector matching many series gives one
    // alert instance per series.
    SeriesSelector selector;
    AlertReducer reducer = AlertReducer::Last;
    double percentile = 99; // for Percentile, in (0, 100]
    qint64 windowMs = 60 * 1000;
    qint64 baselineMs = 60 * 60 * 1000; // for Change: the window before `windowMs`
    AlertComparison comparison = AlertComparison::Above;
    double threshold = 0;
    // Where a firing instance resolves; NaN: the threshold itself. For Above/AtOrAbove
    // it must not be above the threshold (below it is the hysteresis band).
    double recoveryThreshold = qQNaN();
    qint64 forMs = 0; // how long the condition must hold before firing
    AlertGuard also;
    AlertSeverity severity = AlertSeverity::Warning;
    AlertNoData noData = AlertNoData::KeepState;
    qint64 noDataAfterMs = 0; // 0: 3 x the series' sample spacing, at least 10 s
    // Placeholders: {value}, {threshold}, {unit}, {series}, {source}, {metric},
    // {rule}, and {label:NAME} for any label of the series.
    QString description;
    QString hint; // what to check when it fires
    QString unit; // of the reduced value, for messages; empty: the series' unit

    double effectiveRecovery() const
    {
        return qIsNaN(recoveryThreshold) ? threshold : recoveryThreshold;
    }
    // Whether `value` is on the bad side of the threshold / the good side of recovery.
    bool triggers(double value) const;
    bool recovers(double value) const;

    // Whether the rule reads this series: as the watched series or as a guard.
    bool reads(const SeriesKey &key) const;

    friend bool operator==(const AlertRule &a, const AlertRule &b);
};

// "last", "avg", "min", "max", "rate", "p99" (any pNN), "change".
QString alertReducerName(const AlertRule &rule);
bool parseAlertReducer(const QString &text, AlertReducer *reducer, double *percentile);
QString alertComparisonSymbol(AlertComparison comparison);
std::optional<AlertComparison> alertComparisonFromSymbol(const QString &symbol);
QString alertSeverityName(AlertSeverity severity);
std::optional<AlertSeverity> alertSeverityFromName(const QString &name);
QString alertNoDataName(AlertNoData noData);
std::optional<AlertNoData> alertNoDataFromName(const QString &name);
QString alertStateName(AlertState state);
std::optional<AlertState> alertStateFromName(const QString &name);

// A problem with a rule: the field (as in the JSON, e.g. "recoveryThreshold") and why.
struct AlertRuleProblem
{
    QString field;
    QString reason;
};

// Checks what the types cannot: ids, names, windows, the recovery side. The editor
// calls this as the user types; the dashboard loader calls it for every rule.
std::optional<AlertRuleProblem> validateAlertRule(const AlertRule &rule);

// The rule's description with placeholders filled; the rule's name when it has none.
QString renderAlertMessage(const AlertRule &rule, const SeriesKey &series, const QString &unit,
                           double value);

} // namespace Headroom

Q_DECLARE_METATYPE(Headroom::AlertRule)
