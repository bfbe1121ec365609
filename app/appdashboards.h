// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Where the app's dashboards come from: a file, or the shipped default.
#pragma once

#include "document/dashboardfile.h"

namespace Headroom {

inline const QString DefaultDashboardResource = QStringLiteral(":/dashboards/host-use.json");
// A dashboard with no sources yet: a USE matrix of every source and the alert list.
inline const QString NewDashboardResource = QStringLiteral(":/templates/new-dashboard.json");

// Loads path, or the shipped "This host — USE" dashboard when path is empty. A bare
// file name that is not in the current folder may name a shipped dashboard.
DashboardLoadResult loadDashboardOrDefault(const QString &path);
// The dashboard a recording opens with: path when given, else the first dashboard the
// recording holds (read like any file: it is untrusted input), else the shipped
// default. *name gets the name a saved recording stores it under.
DashboardLoadResult loadRecordingDashboard(const QString &path,
                                           const QList<std::pair<QString, QByteArray>> &held,
                                           QString *name);
// The dashboard as a saved recording stores it: the variables' values this run used
// become their defaults (so it opens showing the same series), any password in a value
// left out (conninfoWithoutPassword: no secret goes into a file).
Dashboard dashboardForRecording(const Dashboard &dashboard, const QMap<QString, QString> &values);
// The name a saved recording stores the dashboard of path under: its file name.
QString recordedDashboardName(const QString &path);
// The file or resource loadDashboardOrDefault(path) reads.
QString resolveDashboardPath(const QString &path);

// Every NAME in values must be a variable of the dashboard; returns the first that is not.
QString unknownVariable(const Dashboard &dashboard, const QMap<QString, QString> &values);

} // namespace Headroom
