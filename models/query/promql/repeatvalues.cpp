// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/promql/repeatvalues.h"

#include "collector/promql/promqlclient.h"
#include "core/naturalsort.h"
#include "engine/promqlengines.h"
#include "query/promql/promqlpanelquery.h"

#include <QSet>
#include <algorithm>
#include <optional>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// The values the engine lists for the variable's labelValues over the range (its match
// with the dashboard's variables in), in natural order; nullopt (and why in *messages)
// when it cannot answer.
std::optional<QStringList> listedValues(const DashboardVariable &variable,
                                        const PromqlEngines *engines, qint64 fromMs, qint64 toMs,
                                        const QDeadlineTimer &deadline, QStringList *messages)
{
    QString message;
    const auto target = promqlTarget(variable.labelValues.source, engines, &message);
    if (!target) {
        messages->append(u"variable %1: %2"_s.arg(variable.name, message));
        return std::nullopt;
    }
    const PromqlLabelValues answer = promqlLabelValues(
        target->url, variable.labelValues.label,
        substitutePromqlVariables(variable.labelValues.match, target->variables), fromMs, toMs,
        deadline);
    if (!answer.error.isEmpty()) {
        messages->append(u"variable %1: %2"_s.arg(variable.name, answer.error));
        return std::nullopt;
    }
    QStringList values = answer.values;
    std::sort(values.begin(), values.end(), [](const QString &a, const QString &b) {
        return naturalLess(a, b, Qt::CaseSensitive);
    });
    return values;
}

VariableValues resolve(const Dashboard &dashboard, const PromqlEngines *engines, qint64 fromMs,
                       qint64 toMs, bool listAll, QStringList *messages)
{
    QSet<QString> repeated;
    for (const DashboardPanel &panel : dashboard.panels) {
        if (!panel.repeat.isEmpty())
            repeated.insert(panel.repeat);
    }
    for (const DashboardSection &section : dashboard.sections) {
        if (!section.repeat.isEmpty())
            repeated.insert(section.repeat);
    }
    const auto snapshot = engines ? engines->snapshot() : nullptr;
    const QDeadlineTimer deadline(PromqlPanelDeadlineMs);
    VariableValues out;
    for (const DashboardVariable &variable : dashboard.variables) {
        const QString value = snapshot && snapshot->variables.contains(variable.name)
            ? snapshot->variables.value(variable.name)
            : variable.defaultValue;
        const bool all = value.trimmed() == AllValues;
        const bool repeats = repeated.contains(variable.name);
        const bool fromEngine = !variable.labelValues.label.isEmpty();
        std::optional<QStringList> listed;
        if (fromEngine && (listAll || (repeats && all))) {
            listed = listedValues(variable, engines, fromMs, toMs, deadline, messages);
            if (listed && listAll)
                out.listed.insert(variable.name, *listed);
        }
        if (!repeats)
            continue;
        if (!all) {
            out.repeat.insert(variable.name, variableValues(value));
        } else if (!fromEngine) {
            QStringList options = variable.options;
            options.removeAll(AllValues);
            out.repeat.insert(variable.name, options);
        } else if (listed) {
            out.repeat.insert(variable.name, *listed);
        }
    }
    return out;
}

} // namespace

QMap<QString, QStringList> resolveRepeatValues(const Dashboard &dashboard,
                                               const PromqlEngines *engines, qint64 fromMs,
                                               qint64 toMs, QStringList *messages)
{
    return resolve(dashboard, engines, fromMs, toMs, false, messages).repeat;
}

QStringList variableChoices(const DashboardVariable &variable, const QStringList &listed)
{
    QStringList choices;
    if (variable.multi && !variable.labelValues.label.isEmpty())
        choices.append(AllValues);
    for (const QStringList &some : { variable.options, listed }) {
        for (const QString &one : some) {
            if (!choices.contains(one))
                choices.append(one);
        }
    }
    return choices;
}

VariableValues resolveVariableValues(const Dashboard &dashboard, const PromqlEngines *engines,
                                     qint64 fromMs, qint64 toMs, QStringList *messages)
{
    return resolve(dashboard, engines, fromMs, toMs, true, messages);
}

} // namespace Headroom
