// Reading and writing dashboard files. Every problem names the file, the field
// (as a JSON path like panels[2].series[0].metric) and the reason.
#pragma once

#include "document/dashboard.h"

#include <QString>

namespace Headroom {

struct DashboardError
{
    QString file;
    QString field; // empty when the problem is the file as a whole
    QString reason;
    QString toString() const;
};

struct DashboardLoadResult
{
    std::optional<Dashboard> dashboard;
    DashboardError error;
    bool ok() const { return dashboard.has_value(); }
};

DashboardLoadResult parseDashboard(const QByteArray &json, const QString &fileName);
DashboardLoadResult loadDashboard(const QString &path);

QByteArray dashboardToJson(const Dashboard &dashboard);
// Writes atomically (QSaveFile): a failed save leaves the old file as it was.
bool saveDashboard(const Dashboard &dashboard, const QString &path, QString *error);

} // namespace Headroom
