// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The reader behind parseDashboard (dashboardfile.h): one per file read, it keeps what
// later fields are checked against (the variables and sources declared). Its refusals
// name the field by its JSON path. dashboardreader.cpp reads the document, variables,
// sources, derived series, sections and alerts; dashboardpanelreader.cpp the panels.
#pragma once

#include "core/jsonreader.h"
#include "document/dashboard.h"
#include "document/dashboardfile.h"
#include "document/dashboardlimits.h"

#include <QHash>
#include <QSet>

namespace Headroom {

class DashboardReader : public JsonReader
{
public:
    explicit DashboardReader(const QString &fileName)
        : JsonReader(DashboardLimits::MaximumNameLength)
        , m_fileName(fileName)
    {
    }

    DashboardLoadResult parse(const QByteArray &json);

private:
    bool parseSchemaVersion(const QJsonObject &root);
    bool parseVariables(const QJsonObject &root, Dashboard *dashboard);
    bool parseLabelValues(const QJsonObject &object, const QString &path, VariableLabelValues *out);
    bool parseRepeat(const QJsonObject &object, const QString &path, DashboardPanel *panel);
    bool checkVariableEngines(const Dashboard &dashboard);
    bool checkRepeatVariable(const QString &name, const QString &field);
    bool parseSources(const QJsonObject &root, Dashboard *dashboard);
    bool parseSource(const QJsonObject &object, const QString &path, DashboardSource *source);
    bool checkConfig(const QJsonValue &value, const QString &path);
    bool checkReferences(const QString &text, const QString &path);
    bool parseDerived(const QJsonObject &root, Dashboard *dashboard);
    bool parseApdex(const QJsonObject &object, const QString &path, DashboardDerived *derived);
    bool parsePanels(const QJsonObject &root, Dashboard *dashboard);
    bool parseAlerts(const QJsonObject &root, Dashboard *dashboard);
    bool parseSections(const QJsonObject &root, Dashboard *dashboard);
    bool parsePanel(const QJsonObject &object, const QString &path, DashboardPanel *panel,
                    bool *hasLayout);
    bool parsePercentiles(const QJsonObject &object, const QString &path,
                          QList<double> *percentiles);
    bool parseLegend(const QJsonObject &object, const QString &path, QString *legend);
    bool parsePanelQuery(const QJsonObject &object, const QString &path, const Dashboard &dashboard,
                         DashboardPanel *panel);
    bool parseYScale(const QJsonObject &object, const QString &path, YScale *scale);
    bool parseThresholds(const QJsonObject &object, const QString &path,
                         PanelThresholds *thresholds);
    bool checkPanelOptions(const DashboardPanel &panel, const QString &path);
    bool parseSelector(const QJsonObject &object, const QString &path, SeriesSelector *selector);
    bool parseLayout(const QJsonObject &object, const QString &path, PanelLayout *layout);

    QString m_fileName;
    QSet<QString> m_variableNames;
    QSet<QString> m_multiVariables;
    QHash<QString, QString> m_variableDefaults;
    QSet<QString> m_sourceIds;
};

} // namespace Headroom
