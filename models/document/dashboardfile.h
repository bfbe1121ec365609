// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Reading and writing dashboard files. Every problem names the file, the field
// (as a JSON path like panels[2].series[0].metric) and the reason. The reader is
// dashboardreader.* (panels: dashboardpanelreader.cpp), the writer dashboardwriter.cpp,
// what keeps passwords out of both dashboardsecrets.*.
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
