// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "appdashboards.h"

#include "core/conninfo.h"

#include <QFileInfo>

namespace Headroom {

using namespace Qt::StringLiterals;

QString resolveDashboardPath(const QString &path)
{
    if (path.isEmpty())
        return DefaultDashboardResource;
    // A bare name of a shipped dashboard ("postgres-use.json") works from anywhere,
    // unless a file of that name is right here.
    QString shipped = u":/dashboards/"_s + path;
    if (!path.contains(u'/') && !QFileInfo::exists(path) && QFileInfo::exists(shipped))
        return shipped;
    return path;
}

DashboardLoadResult loadDashboardOrDefault(const QString &path)
{
    return loadDashboard(resolveDashboardPath(path));
}

Dashboard dashboardForRecording(const Dashboard &dashboard, const QMap<QString, QString> &values)
{
    Dashboard recorded = dashboard;
    const QMap<QString, QString> resolved = dashboard.resolveVariables(values);
    for (DashboardVariable &variable : recorded.variables)
        variable.defaultValue = conninfoWithoutPassword(resolved.value(variable.name));
    return recorded;
}

QString recordedDashboardName(const QString &path)
{
    return QFileInfo(resolveDashboardPath(path)).fileName();
}

DashboardLoadResult loadRecordingDashboard(const QString &path,
                                           const QList<std::pair<QString, QByteArray>> &held,
                                           QString *name)
{
    if (!path.isEmpty() || held.isEmpty()) {
        *name = recordedDashboardName(path);
        return loadDashboardOrDefault(path);
    }
    *name = held.constFirst().first;
    return parseDashboard(held.constFirst().second, u"recording: "_s + *name);
}

QString unknownVariable(const Dashboard &dashboard, const QMap<QString, QString> &values)
{
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        const bool known
            = std::any_of(dashboard.variables.cbegin(), dashboard.variables.cend(),
                          [&](const DashboardVariable &v) { return v.name == it.key(); });
        if (!known)
            return it.key();
    }
    return {};
}

} // namespace Headroom
