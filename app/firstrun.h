// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The first start: the window opens on the welcome page (widgets/welcomepage.h) instead
// of the shipped host dashboard, until the user has chosen something from it once.
#pragma once

#include <QString>
#include <QStringList>

namespace Headroom {

// Whether the window starts on the welcome page: neither a dashboard nor a recording was
// asked for, and the welcome page has not been used on this account (QSettings).
bool showWelcomeAtStart(const QString &dashboardFile, const QString &recordingFile);
// Remembers that the welcome page was used: later starts open the shipped default.
void markWelcomeDone();

// The shipped dashboards (resources under :/dashboards/), the default first, then by
// file name.
QStringList shippedDashboards();

} // namespace Headroom
