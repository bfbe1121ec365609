// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The alert state machine, GUI-free, single-threaded and deterministic: the same
// samples in the same order give the same events. The engine (alertengine.h) runs one
// on its own thread as data arrives; the rule editor runs one over stored data for its
// preview.
//
// Per instance (one rule x one matched series), evaluated at every sample of the series:
//   value = reducer over the samples with ts in (t - window, t]
//   ok/resolved --triggers--> pending (firing at once when `for` is 0)
//   pending --still triggers for `for`--> firing;  pending --stops triggering--> ok
//   firing --recovers (crosses the recovery threshold)--> resolved
// Between the threshold and the recovery threshold a firing instance stays firing, so
// a value flapping around the threshold gives one firing and one resolved event. A rule
// with a guard (AlertRule::also) triggers only while the guard holds and resolves when
// it stops holding.
#pragma once

#include "core/sample.h"
#include "engine/runtime/alertevent.h"

#include <deque>
#include <map>
#include <vector>

namespace Headroom {

struct AlertInstanceStatus
{
    QString ruleId;
    SeriesKey series;
    QString resource;
    UseKind kind = UseKind::Info;
    AlertState state = AlertState::Ok;
    AlertSeverity severity = AlertSeverity::Warning;
    double value = qQNaN();
    qint64 sinceMs = 0; // when it entered its state
};

class AlertEvaluator
{
public:
    // Replaces the rules; instances of rules that kept their id and definition keep their
    // state, everything else starts over. Disabled rules are dropped.
    void setRules(const QList<AlertRule> &rules);
    const QList<AlertRule> &rules() const { return m_rules; }

    // Whether any rule watches this series (the engine skips the rest cheaply).
    bool watches(const SeriesKey &key) const;

    // Samples must arrive in time order per series; older or equal ones are ignored.
    QList<AlertEvent> addSample(const SeriesInfo &info, Sample sample);
    QList<AlertEvent> addHistogram(const SeriesInfo &info, qint64 tsMs,
                                   const LogHistogram &histogram);
    // Applies each rule's no-data policy to instances silent for their no-data time.
    QList<AlertEvent> checkNoData(qint64 nowMs);

    // Instances continue from stored events (the newest per instance wins), so an alert
    // firing when the app stopped can resolve after a restart instead of firing twice.
    // Instances this evaluator already has are kept. nowMs starts their no-data clock.
    void restore(const QList<AlertEvent> &events, qint64 nowMs);

    QList<AlertInstanceStatus> instances() const;

private:
    struct SeriesWindow
    {
        SeriesInfo info;
        std::deque<Sample> samples;
        std::deque<TimedHistogram> histograms;
        qint64 keepMs = 0; // the longest span a rule on it reads
        QList<int> rules; // indexes into m_rules
    };
    struct Instance
    {
        AlertState state = AlertState::Ok;
        qint64 sinceMs = 0;
        qint64 pendingSinceMs = 0;
        qint64 lastSampleMs = 0;
        qint64 spacingMs = 0;
        double value = qQNaN();
        bool silent = false; // the no-data policy was applied; cleared by the next sample
        SeriesInfo info;
    };
    using InstanceKey = std::pair<QString, QString>; // rule id, series key text

    SeriesWindow &windowFor(const SeriesInfo &info);
    QList<AlertEvent> evaluate(SeriesWindow &window, qint64 tsMs);
    double reduce(const AlertRule &rule, const SeriesWindow &window, qint64 tsMs) const;
    void transition(const AlertRule &rule, Instance &instance, bool triggered, bool recovered,
                    double value, qint64 tsMs, QList<AlertEvent> *events);
    void move(const AlertRule &rule, Instance &instance, AlertState state, double value,
              qint64 tsMs, QList<AlertEvent> *events);

    QList<AlertRule> m_rules;
    std::map<QString, SeriesWindow> m_windows; // by series key text
    std::map<InstanceKey, Instance> m_instances;
    std::map<QString, Sample> m_latest; // newest sample of every series seen, by key text
};

} // namespace Headroom
