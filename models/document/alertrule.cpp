// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/alertrule.h"

#include "core/percentilelabel.h"
#include "core/valueformat.h"

#include <QRegularExpression>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

bool sameDouble(double a, double b)
{
    return a == b || (qIsNaN(a) && qIsNaN(b));
}

template<typename Enum> struct Named
{
    Enum value;
    QLatin1StringView name;
};

constexpr Named<AlertComparison> comparisons[] = {
    { AlertComparison::Above, ">"_L1 },
    { AlertComparison::AtOrAbove, ">="_L1 },
    { AlertComparison::Below, "<"_L1 },
    { AlertComparison::AtOrBelow, "<="_L1 },
};
constexpr Named<AlertSeverity> severities[] = {
    { AlertSeverity::Info, "info"_L1 },
    { AlertSeverity::Warning, "warning"_L1 },
    { AlertSeverity::Critical, "critical"_L1 },
};
constexpr Named<AlertNoData> noDataPolicies[] = {
    { AlertNoData::Ok, "ok"_L1 },
    { AlertNoData::KeepState, "keep"_L1 },
    { AlertNoData::Alert, "alert"_L1 },
};
constexpr Named<AlertState> states[] = {
    { AlertState::Ok, "ok"_L1 },
    { AlertState::Pending, "pending"_L1 },
    { AlertState::Firing, "firing"_L1 },
    { AlertState::Resolved, "resolved"_L1 },
};
constexpr Named<AlertReducer> plainReducers[] = {
    { AlertReducer::Last, "last"_L1 }, { AlertReducer::Avg, "avg"_L1 },
    { AlertReducer::Min, "min"_L1 },   { AlertReducer::Max, "max"_L1 },
    { AlertReducer::Rate, "rate"_L1 }, { AlertReducer::Change, "change"_L1 },
};

template<typename Enum, size_t N> QString nameOf(const Named<Enum> (&table)[N], Enum value)
{
    for (const auto &entry : table)
        if (entry.value == value)
            return entry.name;
    return {};
}

template<typename Enum, size_t N>
std::optional<Enum> valueOf(const Named<Enum> (&table)[N], const QString &name)
{
    for (const auto &entry : table)
        if (name == entry.name)
            return entry.value;
    return std::nullopt;
}

} // namespace

static bool compare(AlertComparison comparison, double value, double threshold)
{
    switch (comparison) {
    case AlertComparison::Above:
        return value > threshold;
    case AlertComparison::AtOrAbove:
        return value >= threshold;
    case AlertComparison::Below:
        return value < threshold;
    case AlertComparison::AtOrBelow:
        return value <= threshold;
    }
    return false;
}

bool AlertGuard::holds(double value) const
{
    return !qIsNaN(value) && compare(comparison, value, threshold);
}

bool AlertRule::triggers(double value) const
{
    return !qIsNaN(value) && compare(comparison, value, threshold);
}

bool AlertRule::reads(const SeriesKey &key) const
{
    if (!enabled)
        return false;
    if (selector.matches(key))
        return true;
    if (!also.isSet() || key.metric != also.metric)
        return false;
    SeriesSelector guard = selector;
    guard.metric = also.metric;
    return guard.matches(key);
}

bool AlertRule::recovers(double value) const
{
    if (qIsNaN(value))
        return false;
    const double bound = effectiveRecovery();
    // The complement of the trigger test at the recovery bound: with recovery equal to
    // the threshold, every value either triggers or recovers.
    switch (comparison) {
    case AlertComparison::Above:
        return value <= bound;
    case AlertComparison::AtOrAbove:
        return value < bound;
    case AlertComparison::Below:
        return value >= bound;
    case AlertComparison::AtOrBelow:
        return value > bound;
    }
    return false;
}

bool operator==(const AlertRule &a, const AlertRule &b)
{
    return a.id == b.id && a.name == b.name && a.enabled == b.enabled && a.selector == b.selector
        && a.reducer == b.reducer && sameDouble(a.percentile, b.percentile)
        && a.windowMs == b.windowMs && a.baselineMs == b.baselineMs && a.comparison == b.comparison
        && sameDouble(a.threshold, b.threshold) && a.also == b.also
        && sameDouble(a.recoveryThreshold, b.recoveryThreshold) && a.forMs == b.forMs
        && a.severity == b.severity && a.noData == b.noData && a.noDataAfterMs == b.noDataAfterMs
        && a.description == b.description && a.hint == b.hint && a.unit == b.unit;
}

QString alertReducerName(const AlertRule &rule)
{
    if (rule.reducer == AlertReducer::Percentile)
        return percentileLabel(rule.percentile, PercentileLabelStyle::Reducer);
    return nameOf(plainReducers, rule.reducer);
}

bool parseAlertReducer(const QString &text, AlertReducer *reducer, double *percentile)
{
    if (const auto plain = valueOf(plainReducers, text)) {
        *reducer = *plain;
        return true;
    }
    static const QRegularExpression pattern(u"^p(\\d+(\\.\\d+)?)$"_s);
    const auto match = pattern.match(text);
    if (!match.hasMatch())
        return false;
    const double p = match.captured(1).toDouble();
    if (!(p > 0 && p <= 100))
        return false;
    *reducer = AlertReducer::Percentile;
    *percentile = p;
    return true;
}

QString alertComparisonSymbol(AlertComparison comparison)
{
    return nameOf(comparisons, comparison);
}

std::optional<AlertComparison> alertComparisonFromSymbol(const QString &symbol)
{
    return valueOf(comparisons, symbol);
}

QString alertSeverityName(AlertSeverity severity)
{
    return nameOf(severities, severity);
}

std::optional<AlertSeverity> alertSeverityFromName(const QString &name)
{
    return valueOf(severities, name);
}

QString alertNoDataName(AlertNoData noData)
{
    return nameOf(noDataPolicies, noData);
}

std::optional<AlertNoData> alertNoDataFromName(const QString &name)
{
    return valueOf(noDataPolicies, name);
}

QString alertStateName(AlertState state)
{
    return nameOf(states, state);
}

std::optional<AlertState> alertStateFromName(const QString &name)
{
    return valueOf(states, name);
}

std::optional<AlertRuleProblem> validateAlertRule(const AlertRule &rule)
{
    static const QRegularExpression idPattern(u"^[A-Za-z0-9_.:-]+$"_s);
    if (!idPattern.match(rule.id).hasMatch())
        return AlertRuleProblem { u"id"_s, u"must be letters, digits and _ . : - (not empty)"_s };
    if (rule.name.trimmed().isEmpty())
        return AlertRuleProblem { u"name"_s, u"must not be empty"_s };
    if (rule.selector.source.isEmpty())
        return AlertRuleProblem { u"series.source"_s,
                                  u"must not be empty (\"*\" matches every source)"_s };
    if (rule.selector.metric.isEmpty())
        return AlertRuleProblem { u"series.metric"_s, u"must not be empty"_s };
    if (rule.reducer == AlertReducer::Percentile
        && !(rule.percentile > 0 && rule.percentile <= 100))
        return AlertRuleProblem { u"reducer"_s, u"a percentile must be in (0, 100]"_s };
    if (rule.windowMs <= 0)
        return AlertRuleProblem { u"window"_s, u"must be a positive duration"_s };
    if (rule.reducer == AlertReducer::Change && rule.baselineMs <= 0)
        return AlertRuleProblem { u"baseline"_s,
                                  u"must be a positive duration for the change reducer"_s };
    if (!std::isfinite(rule.threshold))
        return AlertRuleProblem { u"threshold"_s, u"must be a finite number"_s };
    if (!qIsNaN(rule.recoveryThreshold)) {
        if (!std::isfinite(rule.recoveryThreshold))
            return AlertRuleProblem { u"recoveryThreshold"_s, u"must be a finite number"_s };
        const bool higherIsWorse = rule.comparison == AlertComparison::Above
            || rule.comparison == AlertComparison::AtOrAbove;
        if (higherIsWorse && rule.recoveryThreshold > rule.threshold)
            return AlertRuleProblem {
                u"recoveryThreshold"_s,
                u"must not be above the threshold %1 (the alert fires above it and resolves "
                "at or below the recovery threshold)"_s.arg(rule.threshold)
            };
        if (!higherIsWorse && rule.recoveryThreshold < rule.threshold)
            return AlertRuleProblem {
                u"recoveryThreshold"_s,
                u"must not be below the threshold %1 (the alert fires below it and resolves "
                "at or above the recovery threshold)"_s.arg(rule.threshold)
            };
    }
    if (rule.also.isSet() && !std::isfinite(rule.also.threshold))
        return AlertRuleProblem { u"also.threshold"_s, u"must be a finite number"_s };
    if (rule.forMs < 0)
        return AlertRuleProblem { u"for"_s, u"must not be negative"_s };
    if (rule.noDataAfterMs < 0)
        return AlertRuleProblem { u"noDataAfter"_s, u"must not be negative"_s };
    return std::nullopt;
}

QString renderAlertMessage(const AlertRule &rule, const SeriesKey &series, const QString &unit,
                           double value)
{
    const QString shownUnit = rule.unit.isEmpty() ? unit : rule.unit;
    QString text = rule.description.isEmpty() ? rule.name : rule.description;
    static const QRegularExpression placeholder(u"\\{(label:)?([A-Za-z0-9_.]+)\\}"_s);
    QString out;
    qsizetype last = 0;
    auto it = placeholder.globalMatch(text);
    while (it.hasNext()) {
        const auto match = it.next();
        out += QStringView(text).mid(last, match.capturedStart() - last);
        last = match.capturedEnd();
        const QString name = match.captured(2);
        if (!match.captured(1).isEmpty()) {
            out += series.labels.value(name, u"?"_s);
            continue;
        }
        if (name == "value"_L1)
            out += qIsNaN(value) ? u"no data"_s : formatUseValue(value, shownUnit);
        else if (name == "threshold"_L1)
            out += formatUseValue(rule.threshold, shownUnit);
        else if (name == "unit"_L1)
            out += shownUnit;
        else if (name == "series"_L1)
            out += series.toString();
        else if (name == "source"_L1)
            out += series.source;
        else if (name == "metric"_L1)
            out += series.metric;
        else if (name == "rule"_L1)
            out += rule.name;
        else
            out += match.captured(0); // unknown: left as written, so the typo shows
    }
    out += QStringView(text).mid(last);
    return out;
}

} // namespace Headroom
