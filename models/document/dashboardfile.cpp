// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Dashboard files on disk: loadDashboard opens one (bounded in size) for the reader
// (dashboardreader.*), saveDashboard writes the writer's JSON (dashboardwriter.cpp)
// atomically.
#include "document/dashboardfile.h"

#include "documentlogging.h"

#include <QFile>
#include <QSaveFile>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 MaximumFileSize = 16 * 1024 * 1024;

} // namespace

QString DashboardError::toString() const
{
    QStringList parts;
    if (!file.isEmpty())
        parts.append(file);
    if (!field.isEmpty())
        parts.append(field);
    parts.append(reason);
    return parts.join(u": ");
}

DashboardLoadResult loadDashboard(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        DashboardLoadResult result;
        result.error
            = DashboardError { path, QString(), u"cannot open: %1"_s.arg(file.errorString()) };
        return result;
    }
    if (file.size() > MaximumFileSize) {
        DashboardLoadResult result;
        result.error
            = DashboardError { path, QString(),
                               u"too large for a dashboard file (%1 bytes)"_s.arg(file.size()) };
        return result;
    }
    const QByteArray data = file.readAll();
    if (file.error() != QFileDevice::NoError) {
        DashboardLoadResult result;
        result.error
            = DashboardError { path, QString(), u"cannot read: %1"_s.arg(file.errorString()) };
        return result;
    }
    return parseDashboard(data, path);
}

bool saveDashboard(const Dashboard &dashboard, const QString &path, QString *error)
{
    auto failed = [&](const QString &reason) {
        const QString message = u"%1: cannot save: %2"_s.arg(path, reason);
        qCDebug(lcDashboard).noquote() << message;
        if (error)
            *error = message;
        return false;
    };
    const QByteArray data = dashboardToJson(dashboard);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return failed(file.errorString());
    if (file.write(data) != data.size()) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return failed(reason);
    }
    if (!file.commit())
        return failed(file.errorString());
    if (error)
        error->clear();
    qCDebug(lcDashboard) << "saved" << path;
    return true;
}

} // namespace Headroom
