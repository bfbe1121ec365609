#include "headlessreport.h"

#include "alerts/alertcsv.h"
#include "appdashboards.h"
#include "cache/samplecache.h"
#include "csvexport.h"
#include "dashboard/dashboardtrust.h"
#include "dashboardview.h"
#include "imageexport.h"
#include "monitoringsession.h"

#include <QApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QTimer>
#include <cstdio>

namespace Headroom {

namespace {
void complain(const QString &message)
{
    std::fprintf(stderr, "headroom: %s\n", qUtf8Printable(message));
}
} // namespace

int runHeadlessReport(const CommandLine &options)
{
    const DashboardLoadResult loaded = loadDashboardOrDefault(options.dashboardFile);
    if (!loaded.ok()) {
        complain(loaded.error.toString());
        return 2;
    }
    const Dashboard &dashboard = *loaded.dashboard;
    if (const QString unknown = unknownVariable(dashboard, options.variables); !unknown.isEmpty()) {
        complain(QStringLiteral("--var %1: the dashboard has no variable \"%1\"").arg(unknown));
        return 2;
    }

    MonitoringSession session;
    // Plugins first: their config schemas say which options are targets and SQL.
    const QStringList pluginProblems = session.loadPlugins();
    const TrustCheck trust = checkDashboardTrust(
        dashboard, resolveDashboardPath(options.dashboardFile), session.collectors().plugins(),
        dashboard.resolveVariables(options.variables), DashboardTrustStore());
    // Without --collect-for nothing connects anywhere: the report reads the cache only.
    if (options.collectForSeconds > 0 && !trust.trusted && !options.trust) {
        complain(QStringLiteral("%1 is not trusted: it names targets and SQL of its own, which a "
                                "headless run does not act on without --trust:")
                     .arg(options.dashboardFile));
        for (const QString &line : trust.request.describe())
            complain(QStringLiteral("  ") + line);
        complain(QStringLiteral("open it in the GUI and trust it, or pass --trust"));
        return 2;
    }
    if (!options.noCache) {
        QString error;
        const QString path
            = options.cacheFile.isEmpty() ? SampleCache::defaultPath() : options.cacheFile;
        if (!session.openCache(path, &error))
            complain(error + QStringLiteral(" (continuing without the cache)"));
    }
    for (const QString &problem : pluginProblems)
        complain(problem);

    if (options.collectForSeconds > 0) {
        session.start(dashboard, options.variables);
        QEventLoop loop;
        QTimer::singleShot(options.collectForSeconds * 1000, &loop, &QEventLoop::quit);
        loop.exec();
        session.stop();
        session.flushCache();
        for (const SourceStatus &status : session.scheduler().statuses()) {
            if (status.lastSuccessMs == 0 || !status.message.isEmpty())
                complain(QStringLiteral("source %1: %2%3")
                             .arg(status.sourceId,
                                  status.lastSuccessMs == 0 ? QStringLiteral("no samples")
                                                            : QStringLiteral("ok"),
                                  status.message.isEmpty()
                                      ? QString()
                                      : QStringLiteral(" (") + status.message + u')'));
        }
    }

    const qint64 to = QDateTime::currentMSecsSinceEpoch();
    const qint64 from = to - (options.rangeMs > 0 ? options.rangeMs : dashboard.rangeMs);
    int exitCode = 0;
    DashboardView view(&session.registry());
    view.setStore(session.store());
    view.setDashboard(dashboard);
    if (!options.exportPng.isEmpty()) {
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.resize(view.preferredSize(options.width));
        view.show();
        QApplication::processEvents(); // lay out so panels know their pixel widths
        view.refreshNow(from, to);
        QApplication::processEvents();
        QString error;
        if (!writePng(&view, options.scale, options.exportPng, &error)) {
            complain(error);
            exitCode = 1;
        }
    }
    if (!options.exportCsv.isEmpty()) {
        QString error;
        if (!writeCsvFile(view.queryAll(from, to), options.exportCsv, &error)) {
            complain(error);
            exitCode = 1;
        }
    }
    if (!options.exportAlerts.isEmpty()) {
        QString error;
        if (!writeAlertCsvFile(session.store()->readAlertEvents(from, to), options.exportAlerts,
                               &error)) {
            complain(error);
            exitCode = 1;
        }
    }
    return exitCode;
}

} // namespace Headroom
