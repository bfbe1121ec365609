// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "firstrun.h"

#include "appdashboards.h"

#include <QDir>
#include <QSettings>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
const QString WelcomeDoneKey = u"welcomeDone"_s;
} // namespace

bool showWelcomeAtStart(const QString &dashboardFile, const QString &recordingFile)
{
    return dashboardFile.isEmpty() && recordingFile.isEmpty()
        && !QSettings().value(WelcomeDoneKey).toBool();
}

void markWelcomeDone()
{
    QSettings().setValue(WelcomeDoneKey, true);
}

QStringList shippedDashboards()
{
    const QDir dir(u":/dashboards"_s);
    QStringList paths { DefaultDashboardResource };
    for (const auto names = dir.entryList({ u"*.json"_s }, QDir::Files, QDir::Name);
         const QString &name : names) {
        const QString path = dir.filePath(name);
        if (path != DefaultDashboardResource)
            paths.append(path);
    }
    return paths;
}

} // namespace Headroom
