// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "csvexportcontroller.h"

#include "dashboardcsv.h"
#include "engine/monitoringsession.h"

#include <QFutureWatcher>
#include <QtConcurrentRun>

namespace Headroom {

CsvExportController::CsvExportController(const MonitoringSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
}

CsvExportController::~CsvExportController()
{
    waitForFinished();
}

void CsvExportController::exportCsv(const QList<DashboardPanel> &panels, qint64 fromMs, qint64 toMs,
                                    const QString &path)
{
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path] {
        const QString error = watcher->result();
        watcher->deleteLater();
        if (!error.isEmpty())
            Q_EMIT failed(error);
        else
            Q_EMIT written(path);
    });
    const SeriesRegistry *registry = &m_session->registry();
    const SeriesStore *store = m_session->store();
    m_export = QtConcurrent::run([panels, registry, store, fromMs, toMs, path] {
        QString error;
        writeDashboardCsv(panels, *registry, *store, fromMs, toMs, path, &error);
        return error;
    });
    watcher->setFuture(m_export);
}

void CsvExportController::waitForFinished()
{
    m_export.waitForFinished();
}

} // namespace Headroom
