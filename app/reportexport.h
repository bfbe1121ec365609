// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// File ▸ Export Incident Report…: asks for a file (HTML or PDF by the chosen filter),
// gathers the report of the range shown in the pool and writes it on the GUI thread
// (the evidence charts are widgets rendered offscreen). Errors go to a message box
// naming the file.
#pragma once

#include "document/dashboard.h"

#include <QMap>
#include <QString>

class QWidget;

namespace Headroom {

class MonitoringSession;

void exportIncidentReport(QWidget *parent, const Dashboard &dashboard, const QString &dashboardFile,
                          const QMap<QString, QString> &variables, const MonitoringSession *session,
                          qint64 fromMs, qint64 toMs);

} // namespace Headroom
