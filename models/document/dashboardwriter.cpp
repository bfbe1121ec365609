// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// dashboardToJson (dashboardfile.h): a Dashboard as the JSON of its file, always at the
// newest schemaVersion, without a password (dashboardsecrets.h).
#include "document/alertrulejson.h"
#include "document/dashboardfile.h"
#include "document/dashboardsecrets.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

namespace Headroom {

using namespace Qt::StringLiterals;
using namespace DashboardSecrets;

QByteArray dashboardToJson(const Dashboard &dashboard)
{
    QSet<QString> conninfoVariables;
    for (const DashboardSource &source : dashboard.sources)
        collectConninfoVariables(source.config, false, &conninfoVariables);
    QJsonArray variables;
    for (const DashboardVariable &variable : dashboard.variables) {
        const bool conninfo = conninfoVariables.contains(variable.name);
        QJsonArray options;
        for (const QString &option : variable.options)
            options.append(variableValueWithoutPassword(option, conninfo));
        QJsonObject object {
            { u"name"_s, variable.name },
            { u"label"_s, variable.label },
            { u"default"_s, variableValueWithoutPassword(variable.defaultValue, conninfo) },
            { u"options"_s, options },
        };
        if (variable.multi)
            object.insert(u"multi"_s, true);
        if (const VariableLabelValues &values = variable.labelValues; !values.label.isEmpty()) {
            QJsonObject labelValues { { u"label"_s, values.label } };
            if (!values.match.isEmpty())
                labelValues.insert(u"match"_s, values.match);
            if (!values.source.isEmpty())
                labelValues.insert(u"source"_s, values.source);
            object.insert(u"labelValues"_s, labelValues);
        }
        variables.append(object);
    }

    QJsonArray sources;
    for (const DashboardSource &source : dashboard.sources) {
        sources.append(QJsonObject {
            { u"id"_s, source.id },
            { u"plugin"_s, source.plugin },
            { u"intervalMs"_s, source.intervalMs },
            { u"timeoutMs"_s, source.timeoutMs },
            { u"config"_s, withoutPasswords(source.config) },
        });
    }

    QJsonArray derived;
    for (const DashboardDerived &d : dashboard.derived) {
        QJsonObject object {
            { u"source"_s, d.source },
            { u"metric"_s, d.metric },
            { u"unit"_s, d.unit },
            { u"kind"_s, useKindName(d.kind) },
        };
        if (d.apdexHistogram.isEmpty())
            object.insert(u"expression"_s, d.expression);
        else
            object.insert(
                u"apdex"_s,
                QJsonObject { { u"histogram"_s, d.apdexHistogram }, { u"t"_s, d.apdexT } });
        derived.append(object);
    }

    QJsonArray panels;
    for (const DashboardPanel &panel : dashboard.panels) {
        QJsonArray series;
        for (const SeriesSelector &selector : panel.series) {
            QJsonObject labels;
            for (auto it = selector.labels.cbegin(); it != selector.labels.cend(); ++it)
                labels.insert(it.key(), it.value());
            series.append(QJsonObject {
                { u"source"_s, selector.source },
                { u"metric"_s, selector.metric },
                { u"labels"_s, labels },
            });
        }
        QJsonObject panelObject {
            { u"id"_s, panel.id },
            { u"type"_s, panelTypeName(panel.type) },
            { u"title"_s, panel.title },
            { u"unit"_s, panel.unit },
            { u"series"_s, series },
            { u"layout"_s,
              QJsonObject {
                  { u"x"_s, panel.layout.x },
                  { u"y"_s, panel.layout.y },
                  { u"w"_s, panel.layout.w },
                  { u"h"_s, panel.layout.h },
              } },
            { u"options"_s, panel.options },
            { u"yScale"_s, yScaleName(panel.yScale) },
        };
        if (!panel.legend.isEmpty())
            panelObject.insert(u"legend"_s, panel.legend);
        if (!panel.query.isEmpty())
            panelObject.insert(u"query"_s, panel.query);
        if (!panel.querySource.isEmpty())
            panelObject.insert(u"querySource"_s, panel.querySource);
        if (!panel.repeat.isEmpty()) {
            panelObject.insert(u"repeat"_s, panel.repeat);
            if (panel.repeatVertical)
                panelObject.insert(u"repeatDirection"_s, u"v"_s);
        }
        // No field means the default percentiles; an empty list would be refused.
        if (!panel.percentiles.isEmpty()) {
            QJsonArray percentiles;
            for (double percentile : panel.percentiles)
                percentiles.append(percentile);
            panelObject.insert(u"percentiles"_s, percentiles);
        }
        if (!panel.thresholds.isEmpty()) {
            QJsonObject thresholds { { u"higherIsWorse"_s, panel.thresholds.higherIsWorse } };
            if (!qIsNaN(panel.thresholds.warning))
                thresholds.insert(u"warning"_s, panel.thresholds.warning);
            if (!qIsNaN(panel.thresholds.critical))
                thresholds.insert(u"critical"_s, panel.thresholds.critical);
            panelObject.insert(u"thresholds"_s, thresholds);
        }
        panels.append(panelObject);
    }

    QJsonArray alerts;
    for (const AlertRule &rule : dashboard.alerts)
        alerts.append(alertRuleToJson(rule));
    QJsonObject root {
        { u"schemaVersion"_s, Dashboard::SchemaVersion },
        { u"title"_s, dashboard.title },
        { u"variables"_s, variables },
        { u"sources"_s, sources },
        { u"derived"_s, derived },
        { u"timeRange"_s, formatDuration(dashboard.rangeMs) },
        { u"refreshMs"_s, dashboard.refreshMs },
        { u"panels"_s, panels },
    };
    if (!dashboard.sections.isEmpty()) {
        QJsonArray sections;
        for (const DashboardSection &section : dashboard.sections) {
            QJsonObject object { { u"title"_s, section.title },
                                 { u"y"_s, section.y },
                                 { u"collapsed"_s, section.collapsed } };
            if (!section.repeat.isEmpty())
                object.insert(u"repeat"_s, section.repeat);
            sections.append(object);
        }
        root.insert(u"sections"_s, sections);
    }
    if (!dashboard.alertPack.isEmpty())
        root.insert(u"alertPack"_s, dashboard.alertPack);
    if (!alerts.isEmpty())
        root.insert(u"alerts"_s, alerts);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace Headroom
