#include "query/promql/repeatvalues.h"

#include "collector/promql/promqlclient.h"
#include "core/naturalsort.h"
#include "engine/promqlengines.h"
#include "query/promql/promqlpanelquery.h"

#include <QSet>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

QMap<QString, QStringList> resolveRepeatValues(const Dashboard &dashboard,
                                               const PromqlEngines *engines, qint64 fromMs,
                                               qint64 toMs, QStringList *messages)
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
    QMap<QString, QStringList> out;
    for (const DashboardVariable &variable : dashboard.variables) {
        if (!repeated.contains(variable.name))
            continue;
        const QString value = snapshot && snapshot->variables.contains(variable.name)
            ? snapshot->variables.value(variable.name)
            : variable.defaultValue;
        if (value.trimmed() != AllValues) {
            out.insert(variable.name, variableValues(value));
            continue;
        }
        if (variable.labelValues.label.isEmpty()) {
            QStringList options = variable.options;
            options.removeAll(AllValues);
            out.insert(variable.name, options);
            continue;
        }
        QString message;
        const auto target = promqlTarget(variable.labelValues.source, engines, &message);
        if (!target) {
            messages->append(u"variable %1: %2"_s.arg(variable.name, message));
            continue;
        }
        const PromqlLabelValues answer = promqlLabelValues(
            target->url, variable.labelValues.label,
            substitutePromqlVariables(variable.labelValues.match, target->variables), fromMs, toMs,
            deadline);
        if (!answer.error.isEmpty()) {
            messages->append(u"variable %1: %2"_s.arg(variable.name, answer.error));
            continue;
        }
        QStringList values = answer.values;
        std::sort(values.begin(), values.end(), [](const QString &a, const QString &b) {
            return naturalLess(a, b, Qt::CaseSensitive);
        });
        out.insert(variable.name, values);
    }
    return out;
}

} // namespace Headroom
