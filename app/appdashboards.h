// Where the app's dashboards come from: a file, or the shipped default.
#pragma once

#include "document/dashboardfile.h"

namespace Headroom {

inline const QString DefaultDashboardResource = QStringLiteral(":/dashboards/host-use.json");

// Loads path, or the shipped "This host — USE" dashboard when path is empty. A bare
// file name that is not in the current folder may name a shipped dashboard.
DashboardLoadResult loadDashboardOrDefault(const QString &path);
// The file or resource loadDashboardOrDefault(path) reads.
QString resolveDashboardPath(const QString &path);

// Every NAME in values must be a variable of the dashboard; returns the first that is not.
QString unknownVariable(const Dashboard &dashboard, const QMap<QString, QString> &values);

} // namespace Headroom
