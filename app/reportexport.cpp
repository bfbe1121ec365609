// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "reportexport.h"

#include "engine/monitoringsession.h"
#include "literaltext.h"
#include "query/report/incidentreportdata.h"
#include "report/incidentreportwriter.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGuiApplication>
#include <QMessageBox>
#include <QPointer>
#include <QtConcurrentRun>

namespace Headroom {

using namespace Qt::StringLiterals;

void exportIncidentReport(QWidget *parent, const Dashboard &dashboard, const QString &dashboardFile,
                          const QMap<QString, QString> &variables, const MonitoringSession *session,
                          qint64 fromMs, qint64 toMs)
{
    const QString html = QCoreApplication::translate("MainWindow", "HTML, one file (*.html *.htm)");
    const QString pdf = QCoreApplication::translate("MainWindow", "PDF (*.pdf)");
    QString filter = html;
    QString path = QFileDialog::getSaveFileName(
        parent, QCoreApplication::translate("MainWindow", "Export incident report"),
        u"incident-report.html"_s, html + u";;"_s + pdf, &filter);
    if (path.isEmpty())
        return;
    // The filter chosen decides when the name has neither suffix.
    if (!incidentReportFormat(path))
        path += filter == pdf ? u".pdf"_s : u".html"_s;

    // The analysis reads the whole range: in the pool (the charts are widgets, so the
    // writing is not). Copies, not references: the user may open another dashboard
    // meanwhile.
    const SeriesRegistry *registry = &session->registry();
    const SeriesStore *store = session->store();
    auto *watcher = new QFutureWatcher<IncidentReportData>(parent);
    QGuiApplication::setOverrideCursor(Qt::BusyCursor);
    QObject::connect(
        watcher, &QFutureWatcher<IncidentReportData>::finished, parent,
        [parent = QPointer<QWidget>(parent), watcher, registry, store, path] {
            QGuiApplication::restoreOverrideCursor();
            watcher->deleteLater();
            QString error;
            if (!writeIncidentReport(watcher->result(), *registry, *store, path, &error) && parent)
                QMessageBox::warning(parent,
                                     QCoreApplication::translate("MainWindow", "Export failed"),
                                     literalAutoText(error));
        });
    QFuture<IncidentReportData> future
        = QtConcurrent::run([dashboard, dashboardFile, variables, registry, store, fromMs, toMs] {
              return gatherIncidentReport({ dashboard, dashboardFile, variables,
                                            QCoreApplication::applicationVersion(), fromMs, toMs },
                                          *registry, *store);
          });
    // The task reads the session's store: a window closed meanwhile waits for it (the
    // watcher is its child), before the session goes.
    QObject::connect(watcher, &QObject::destroyed,
                     [future]() mutable { future.waitForFinished(); });
    watcher->setFuture(future);
}

} // namespace Headroom
