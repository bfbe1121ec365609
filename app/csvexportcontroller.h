// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// File ▸ Export Data as CSV without a widget: the dashboard's CSV (dashboardcsv.h) of a
// range, written in the pool, since a day of many series is a lot of rows. GUI-free, so
// the tests link it; the window asks for the file and shows the outcome.
#pragma once

#include "document/dashboard.h"

#include <QFuture>
#include <QList>
#include <QObject>
#include <QString>

namespace Headroom {

class MonitoringSession;

class CsvExportController : public QObject
{
    Q_OBJECT
public:
    explicit CsvExportController(const MonitoringSession *session, QObject *parent = nullptr);
    ~CsvExportController() override; // waits for an export in flight: it reads the store

    // Writes every sample of panels over [fromMs, toMs] to path, in the pool; written()
    // or failed() when done. Copies, not the view: another dashboard may open meanwhile.
    void exportCsv(const QList<DashboardPanel> &panels, qint64 fromMs, qint64 toMs,
                   const QString &path);
    // Returns once no export reads the session's store any more.
    void waitForFinished();

Q_SIGNALS:
    void written(const QString &path);
    void failed(const QString &error);

private:
    const MonitoringSession *m_session;
    QFuture<QString> m_export; // the error, empty once written
};

} // namespace Headroom
