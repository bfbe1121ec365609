// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/alerts/alertevaluator.h"

#include <algorithm>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 MinimumNoDataMs = 10 * 1000;
constexpr int MinimumBaselineSamples = 3;

// Mean of the finite values with ts in (from, to].
double meanBetween(const std::deque<Sample> &samples, qint64 fromMs, qint64 toMs)
{
    double sum = 0;
    int count = 0;
    for (const Sample &s : samples) {
        if (s.tsMs <= fromMs || s.tsMs > toMs || !std::isfinite(s.value))
            continue;
        sum += s.value;
        ++count;
    }
    return count >= 1 ? sum / count : qQNaN();
}

int countBetween(const std::deque<Sample> &samples, qint64 fromMs, qint64 toMs)
{
    return int(std::count_if(samples.cbegin(), samples.cend(), [&](const Sample &s) {
        return s.tsMs > fromMs && s.tsMs <= toMs && std::isfinite(s.value);
    }));
}

qint64 spanOf(const AlertRule &rule)
{
    return rule.windowMs + (rule.reducer == AlertReducer::Change ? rule.baselineMs : 0);
}

} // namespace

void AlertEvaluator::setRules(const QList<AlertRule> &rules)
{
    QList<AlertRule> enabled;
    for (const AlertRule &rule : rules)
        if (rule.enabled)
            enabled.append(rule);
    // Instances survive only when their rule is unchanged.
    for (auto it = m_instances.begin(); it != m_instances.end();) {
        const auto before = std::find_if(m_rules.cbegin(), m_rules.cend(), [&](const AlertRule &r) {
            return r.id == it->first.first;
        });
        const auto after = std::find_if(enabled.cbegin(), enabled.cend(), [&](const AlertRule &r) {
            return r.id == it->first.first;
        });
        if (before == m_rules.cend() || after == enabled.cend() || !(*before == *after))
            it = m_instances.erase(it);
        else
            ++it;
    }
    m_rules = enabled;
    for (auto &[key, window] : m_windows) {
        Q_UNUSED(key);
        window.rules.clear();
        window.keepMs = 0;
        for (int i = 0; i < m_rules.size(); ++i) {
            if (m_rules[i].selector.matches(window.info.key)) {
                window.rules.append(i);
                window.keepMs = std::max(window.keepMs, spanOf(m_rules[i]));
            }
        }
    }
}

bool AlertEvaluator::watches(const SeriesKey &key) const
{
    return std::any_of(m_rules.cbegin(), m_rules.cend(),
                       [&](const AlertRule &rule) { return rule.reads(key); });
}

AlertEvaluator::SeriesWindow &AlertEvaluator::windowFor(const SeriesInfo &info)
{
    const QString text = info.key.toString();
    auto it = m_windows.find(text);
    if (it != m_windows.end())
        return it->second;
    SeriesWindow window;
    window.info = info;
    for (int i = 0; i < m_rules.size(); ++i) {
        if (m_rules[i].selector.matches(info.key)) {
            window.rules.append(i);
            window.keepMs = std::max(window.keepMs, spanOf(m_rules[i]));
        }
    }
    return m_windows.emplace(text, std::move(window)).first->second;
}

QList<AlertEvent> AlertEvaluator::addSample(const SeriesInfo &info, Sample sample)
{
    SeriesWindow &window = windowFor(info);
    Sample &latest = m_latest[info.key.toString()];
    if (sample.tsMs > latest.tsMs)
        latest = sample; // what guards of other series read
    if (window.rules.isEmpty())
        return {};
    if (!window.samples.empty() && sample.tsMs <= window.samples.back().tsMs)
        return {};
    window.samples.push_back(sample);
    while (!window.samples.empty() && window.samples.front().tsMs <= sample.tsMs - window.keepMs)
        window.samples.pop_front();
    return evaluate(window, sample.tsMs);
}

QList<AlertEvent> AlertEvaluator::addHistogram(const SeriesInfo &info, qint64 tsMs,
                                               const LogHistogram &histogram)
{
    SeriesWindow &window = windowFor(info);
    if (window.rules.isEmpty())
        return {};
    if (!window.histograms.empty() && tsMs <= window.histograms.back().first)
        return {};
    window.histograms.emplace_back(tsMs, histogram);
    while (!window.histograms.empty() && window.histograms.front().first <= tsMs - window.keepMs)
        window.histograms.pop_front();
    return evaluate(window, tsMs);
}

double AlertEvaluator::reduce(const AlertRule &rule, const SeriesWindow &window, qint64 tsMs) const
{
    const qint64 from = tsMs - rule.windowMs;
    if (window.info.histogram) {
        // Every reducer of a histogram series reads the merged histogram of the window:
        // a percentile, or its count / mean / extremes for the others.
        LogHistogram merged;
        for (const auto &[ts, histogram] : window.histograms)
            if (ts > from && ts <= tsMs)
                merged.merge(histogram);
        if (merged.isEmpty())
            return qQNaN();
        switch (rule.reducer) {
        case AlertReducer::Percentile:
            return merged.quantile(rule.percentile / 100.0);
        case AlertReducer::Min:
            return merged.min();
        case AlertReducer::Max:
            return merged.max();
        case AlertReducer::Last:
        case AlertReducer::Avg:
        case AlertReducer::Change:
            return merged.sum() / double(merged.count());
        case AlertReducer::Rate:
            return double(merged.count()) / (double(rule.windowMs) / 1000.0);
        }
        return qQNaN();
    }

    std::vector<Sample> in;
    for (const Sample &s : window.samples)
        if (s.tsMs > from && s.tsMs <= tsMs && std::isfinite(s.value))
            in.push_back(s);
    if (in.empty())
        return qQNaN();
    switch (rule.reducer) {
    case AlertReducer::Last:
        return in.back().value;
    case AlertReducer::Avg:
        return meanBetween(window.samples, from, tsMs);
    case AlertReducer::Min:
        return std::min_element(in.cbegin(), in.cend(),
                                [](const Sample &a, const Sample &b) { return a.value < b.value; })
            ->value;
    case AlertReducer::Max:
        return std::max_element(in.cbegin(), in.cend(),
                                [](const Sample &a, const Sample &b) { return a.value < b.value; })
            ->value;
    case AlertReducer::Rate: {
        if (in.size() < 2)
            return qQNaN();
        const double seconds = double(in.back().tsMs - in.front().tsMs) / 1000.0;
        return (in.back().value - in.front().value) / seconds;
    }
    case AlertReducer::Percentile: {
        // Nearest rank: the smallest sample with at least p % of the samples at or below.
        std::vector<double> values;
        values.reserve(in.size());
        for (const Sample &s : in)
            values.push_back(s.value);
        std::sort(values.begin(), values.end());
        const auto rank = size_t(std::ceil(rule.percentile / 100.0 * double(values.size())));
        return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
    }
    case AlertReducer::Change: {
        const qint64 baselineFrom = from - rule.baselineMs;
        if (countBetween(window.samples, baselineFrom, from) < MinimumBaselineSamples)
            return qQNaN();
        const double baseline = meanBetween(window.samples, baselineFrom, from);
        const double now = meanBetween(window.samples, from, tsMs);
        if (!(baseline > 0))
            return qQNaN(); // no ratio to a zero or negative baseline
        return now / baseline;
    }
    }
    return qQNaN();
}

QList<AlertEvent> AlertEvaluator::evaluate(SeriesWindow &window, qint64 tsMs)
{
    QList<AlertEvent> events;
    const QString seriesText = window.info.key.toString();
    for (int index : std::as_const(window.rules)) {
        const AlertRule &rule = m_rules[index];
        Instance &instance = m_instances[{ rule.id, seriesText }];
        instance.info = window.info;
        if (instance.lastSampleMs > 0)
            instance.spacingMs = tsMs - instance.lastSampleMs;
        instance.lastSampleMs = tsMs;
        instance.silent = false;
        const double value = reduce(rule, window, tsMs);
        if (qIsNaN(value))
            continue; // not enough data in the window yet: no verdict either way
        instance.value = value;
        bool guardHolds = true;
        if (rule.also.isSet()) {
            const auto sibling = m_latest.find(rule.also.siblingOf(window.info.key).toString());
            guardHolds = sibling != m_latest.end() && sibling->second.tsMs > tsMs - rule.windowMs
                && rule.also.holds(sibling->second.value);
        }
        transition(rule, instance, rule.triggers(value) && guardHolds,
                   rule.recovers(value) || !guardHolds, value, tsMs, &events);
    }
    return events;
}

void AlertEvaluator::transition(const AlertRule &rule, Instance &instance, bool triggered,
                                bool recovered, double value, qint64 tsMs,
                                QList<AlertEvent> *events)
{
    switch (instance.state) {
    case AlertState::Ok:
    case AlertState::Resolved:
        if (!triggered)
            return;
        instance.pendingSinceMs = tsMs;
        move(rule, instance, rule.forMs > 0 ? AlertState::Pending : AlertState::Firing, value, tsMs,
             events);
        return;
    case AlertState::Pending:
        if (!triggered)
            move(rule, instance, AlertState::Ok, value, tsMs, events);
        else if (tsMs - instance.pendingSinceMs >= rule.forMs)
            move(rule, instance, AlertState::Firing, value, tsMs, events);
        return;
    case AlertState::Firing:
        if (recovered)
            move(rule, instance, AlertState::Resolved, value, tsMs, events);
        return;
    }
}

void AlertEvaluator::move(const AlertRule &rule, Instance &instance, AlertState state, double value,
                          qint64 tsMs, QList<AlertEvent> *events)
{
    instance.state = state;
    instance.sinceMs = tsMs;
    AlertEvent event;
    event.tsMs = tsMs;
    event.ruleId = rule.id;
    event.ruleName = rule.name;
    event.series = instance.info.key;
    event.state = state;
    event.value = value;
    event.severity = rule.severity;
    event.message = renderAlertMessage(rule, instance.info.key, instance.info.unit, value);
    event.hint = rule.hint;
    events->append(event);
}

QList<AlertEvent> AlertEvaluator::checkNoData(qint64 nowMs)
{
    QList<AlertEvent> events;
    for (auto &[key, instance] : m_instances) {
        const auto rule = std::find_if(m_rules.cbegin(), m_rules.cend(),
                                       [&](const AlertRule &r) { return r.id == key.first; });
        if (rule == m_rules.cend() || rule->noData == AlertNoData::KeepState
            || instance.lastSampleMs == 0)
            continue;
        const qint64 after = rule->noDataAfterMs > 0
            ? rule->noDataAfterMs
            : std::max(MinimumNoDataMs, 3 * instance.spacingMs);
        const qint64 silentSince = instance.lastSampleMs + after;
        if (nowMs < silentSince)
            continue;
        if (rule->noData == AlertNoData::Ok) {
            if (instance.state == AlertState::Firing)
                move(*rule, instance, AlertState::Resolved, qQNaN(), nowMs, &events);
            else if (instance.state == AlertState::Pending)
                move(*rule, instance, AlertState::Ok, qQNaN(), nowMs, &events);
        } else { // Alert: silence counts as the condition holding, `for` included
            if (!instance.silent
                && (instance.state == AlertState::Ok || instance.state == AlertState::Resolved)) {
                instance.pendingSinceMs = silentSince;
                move(*rule, instance, rule->forMs > 0 ? AlertState::Pending : AlertState::Firing,
                     qQNaN(), nowMs, &events);
            }
            if (instance.state == AlertState::Pending
                && nowMs - instance.pendingSinceMs >= rule->forMs)
                move(*rule, instance, AlertState::Firing, qQNaN(), nowMs, &events);
        }
        instance.silent = true;
    }
    return events;
}

void AlertEvaluator::restore(const QList<AlertEvent> &events, qint64 nowMs)
{
    for (const AlertEvent &event : events) {
        const auto rule = std::find_if(m_rules.cbegin(), m_rules.cend(),
                                       [&](const AlertRule &r) { return r.id == event.ruleId; });
        if (rule == m_rules.cend())
            continue;
        // An instance evaluated in this run knows better than the store, which lags.
        const InstanceKey key { event.ruleId, event.series.toString() };
        if (m_instances.contains(key))
            continue;
        Instance &instance = m_instances[key];
        // Silence is counted from now: its series gets the usual time to come back
        // before a no-data policy applies.
        instance.lastSampleMs = nowMs;
        instance.state = event.state;
        instance.sinceMs = event.tsMs;
        instance.pendingSinceMs = event.tsMs;
        instance.value = event.value;
        instance.info.key = event.series;
    }
}

QList<AlertInstanceStatus> AlertEvaluator::instances() const
{
    QList<AlertInstanceStatus> out;
    for (const auto &[key, instance] : m_instances) {
        const auto rule = std::find_if(m_rules.cbegin(), m_rules.cend(),
                                       [&](const AlertRule &r) { return r.id == key.first; });
        out.append({ key.first, instance.info.key, instance.info.resource, instance.info.kind,
                     instance.state,
                     rule != m_rules.cend() ? rule->severity : AlertSeverity::Warning,
                     instance.value, instance.sinceMs });
    }
    return out;
}

} // namespace Headroom
