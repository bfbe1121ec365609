// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "headlessreport.h"

#include "appdashboards.h"
#include "dashboardcsv.h"
#include "dashboardview.h"
#include "document/dashboardrepeat.h"
#include "document/dashboardtrust.h"
#include "engine/cache/recordingsaver.h"
#include "engine/cache/samplecache.h"
#include "engine/monitoringsession.h"
#include "exportrange.h"
#include "exportview.h"
#include "headlessrun.h"
#include "imageexport.h"
#include "query/alerts/alertcsv.h"
#include "query/analysis/analysisrun.h"
#include "query/analysis/findingsreport.h"
#include "query/promql/repeatvalues.h"
#include "query/report/incidentreportdata.h"
#include "report/incidentreportwriter.h"
#include "retentionsetting.h"
#include "terminationsignals.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QSaveFile>
#include <QTimer>
#include <csignal>
#include <cstdio>
#include <tuple>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
bool writeTextFile(const QString &path, const QString &text, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        *error = path + u": cannot write: "_s + file.errorString();
        return false;
    }
    return true;
}

QString signalName(int signalNumber)
{
    return signalNumber == SIGINT ? u"SIGINT"_s
        : signalNumber == SIGTERM ? u"SIGTERM"_s
                                  : u"signal %1"_s.arg(signalNumber);
}
} // namespace

int runHeadlessReport(const CommandLine &options)
{
    MonitoringSession session;
    // A recording first: without --dashboard it brings its own.
    QList<std::pair<QString, QByteArray>> heldDashboards;
    if (!options.recordingFile.isEmpty()) {
        QString error;
        if (!session.openRecording(options.recordingFile, &error)) {
            complain(error);
            return ExitCacheFailed;
        }
        std::fprintf(stderr, "headroom: %s: recording, %s\n", qUtf8Printable(options.recordingFile),
                     qUtf8Printable(session.cache()->readMode()));
        heldDashboards = session.cache()->dashboards();
    }
    QString dashboardName;
    const DashboardLoadResult loaded
        = loadRecordingDashboard(options.dashboardFile, heldDashboards, &dashboardName);
    if (!dashboardUsable(loaded, options))
        return ExitBadInput;
    const Dashboard &dashboard = *loaded.dashboard;

    // From here on a SIGINT/SIGTERM ends the collection early; the report of what was
    // collected is still written and the exit code says the run was interrupted.
    TerminationSignals terminations;

    // Plugins first: their config schemas say which options are targets and SQL.
    const QStringList pluginProblems = session.loadPlugins();
    // Without --collect-for nothing connects anywhere: the report reads the cache only.
    if (options.collectForSeconds > 0
        && !mayCollect(dashboard, options, session.collectors().plugins()))
        return ExitBadInput;
    if (options.recordingFile.isEmpty()) { // a recording is open already
        if (const int failed = openRunCache(session, options); failed != ExitOk)
            return failed;
    }
    for (const QString &problem : pluginProblems)
        complain(problem);

    if (options.collectForSeconds > 0 && terminations.caught() == 0) {
        session.start(dashboard, options.variables);
        QEventLoop loop;
        QTimer::singleShot(options.collectForSeconds * 1000, &loop, &QEventLoop::quit);
        QObject::connect(&terminations, &TerminationSignals::received, &loop, &QEventLoop::quit);
        loop.exec();
        session.stop();
        session.flushCache();
        if (terminations.caught() != 0)
            complain(u"%1 received: collection stopped early, writing the report "
                     "of what was collected"_s.arg(signalName(terminations.caught())));
        for (const auto statuses = session.scheduler().statuses();
             const SourceStatus &status : statuses) {
            if (status.lastSuccessMs == 0 || !status.message.isEmpty())
                complain(u"source %1: %2%3"_s.arg(
                    status.sourceId, status.lastSuccessMs == 0 ? u"no samples"_s : u"ok"_s,
                    status.message.isEmpty() ? QString() : u" ("_s + status.message + u')'));
        }
    }

    // A live run ends now and shows the dashboard's range; a recording ends where its
    // data does and shows all of it. --from/--to/--range narrow either.
    qint64 endMs = QDateTime::currentMSecsSinceEpoch();
    qint64 defaultFromMs = endMs - dashboard.rangeMs;
    if (session.isRecording()) {
        QString error;
        const auto span = session.cache()->span(&error);
        if (!span) {
            complain(error.isEmpty() ? options.recordingFile + u": holds no samples"_s : error);
            return ExitCacheFailed;
        }
        std::tie(defaultFromMs, endMs) = *span;
        // Samples of one instant (a /federate dump): the second up to it, so the range
        // is not empty.
        if (defaultFromMs == endMs)
            defaultFromMs -= 1000;
    }
    // As the window does, a range longer than the data starts where the data does: the
    // PNG, the CSV and the report alike.
    QString rangeError;
    const auto bounds = exportRange(dashboard, options, session.registry(), *session.store(), endMs,
                                    defaultFromMs, &rangeError);
    if (!bounds) {
        complain(rangeError);
        return ExitBadInput;
    }
    const auto [from, to] = *bounds;
    int exitCode = ExitOk;
    // The panels as drawn: repeated ones once per value of their variable.
    Dashboard drawn = dashboard;
    if (hasRepeats(dashboard)) {
        QStringList messages;
        drawn = expandRepeats(
            dashboard,
            resolveRepeatValues(dashboard, session.store()->promqlEngines(), from, to, &messages));
        for (const QString &message : std::as_const(messages))
            complain(message); // such panels are drawn once
    }
    if (!options.saveRecording.isEmpty()) {
        QString error;
        if (!session.cache()) {
            complain(options.saveRecording
                     + u": no recording saved: there is no cache to save from (--no-cache, or "
                       "the cache could not be opened)"_s);
            exitCode = ExitFileNotWritten;
        } else if (const auto saved = saveRecording(
                       *session.cache(), session.registry(), from, to,
                       { { dashboardName,
                           dashboardToJson(dashboardForRecording(dashboard, options.variables)) } },
                       options.saveRecording, &error)) {
            std::fprintf(stderr,
                         "headroom: %s: %lld series, %lld samples, %lld histograms, "
                         "%lld alert events, %lld bytes\n",
                         qUtf8Printable(options.saveRecording), saved->series, saved->samples,
                         saved->histograms, saved->alertEvents, saved->bytes);
        } else {
            complain(error);
            exitCode = ExitFileNotWritten;
        }
    }
    if (!options.exportPng.isEmpty()) {
        DashboardView view(&session.registry());
        view.setStore(session.store());
        view.setDashboard(drawn);
        showForExport(&view, options.width, from, to);
        QString error;
        if (!writePng(&view, options.scale, options.exportPng, &error)) {
            complain(error);
            exitCode = ExitFileNotWritten;
        }
    }
    if (!options.exportCsv.isEmpty()) {
        QString error;
        QStringList panelMessages;
        const bool written = writeDashboardCsv(drawn.panels, session.registry(), *session.store(),
                                               from, to, options.exportCsv, &error, &panelMessages);
        for (const QString &message : std::as_const(panelMessages))
            complain(message); // the CSV holds what these panels could read
        if (!written) {
            complain(error);
            exitCode = ExitFileNotWritten;
        }
    }
    if (!options.exportAlerts.isEmpty()) {
        QString error;
        if (!writeAlertCsvFile(session.store()->readAlertEvents(from, to), options.exportAlerts,
                               &error)) {
            complain(error);
            exitCode = ExitFileNotWritten;
        }
    }
    if (!options.exportFindings.isEmpty() || options.explain || !options.exportReport.isEmpty()) {
        // Once for all three, so the report lists exactly the rows of the CSV.
        const Analysis::FindingsReport report
            = dashboardFindings(dashboard, session.registry(), *session.store(), from, to);
        QString error;
        if (!options.exportFindings.isEmpty()
            && !writeTextFile(options.exportFindings, Analysis::findingsCsv(report.findings),
                              &error)) {
            complain(error);
            exitCode = ExitFileNotWritten;
        }
        if (options.explain)
            std::fputs(Analysis::explainText(report).toUtf8().constData(), stdout);
        if (!options.exportReport.isEmpty()) {
            const IncidentReportData data
                = gatherIncidentReport({ dashboard, options.dashboardFile, options.variables,
                                         QCoreApplication::applicationVersion(), from, to },
                                       session.registry(), *session.store(), report);
            if (!writeIncidentReport(data, session.registry(), *session.store(),
                                     options.exportReport, &error)) {
                complain(error);
                exitCode = ExitFileNotWritten;
            }
        }
    }
    if (const int failed = cacheWriteOutcome(session); failed != ExitOk && exitCode == ExitOk)
        exitCode = failed;
    if (terminations.caught() != 0)
        return terminations.exitCode();
    return exitCode;
}

} // namespace Headroom
