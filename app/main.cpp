// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Headroom: GUI by default; a headless report when --export-png/--export-csv is given.
#include "collector/collectorregistry.h"
#include "commandline.h"
#include "core/environmentsecrets.h"
#include "engine/cache/samplecache.h"
#include "engine/monitoringsession.h"
#include "firstrun.h"
#include "headlessreport.h"
#include "imageexport.h"
#include "importedfile.h"
#include "literaltext.h"
#include "mainwindow.h"
#include "retentionsetting.h"
#include "servemetrics.h"

#include <QApplication>
#include <QMessageBox>
#include <QTimer>
#include <algorithm>
#include <cstdio>

using namespace Qt::StringLiterals;

using namespace Headroom;

namespace {
QtMessageHandler previousHandler = nullptr;

// The offscreen platform of a headless report warns on every window it shows that it
// "does not support propagateSizeHints()": true, harmless, and noise in a cron mail.
void dropOffscreenSizeHintWarning(QtMsgType type, const QMessageLogContext &context,
                                  const QString &message)
{
    if (type == QtWarningMsg
        && message == QLatin1StringView("This plugin does not support propagateSizeHints()"))
        return;
    if (previousHandler)
        previousHandler(type, context, message);
    else
        std::fprintf(stderr, "%s\n", qUtf8Printable(qFormatLogMessage(type, context, message)));
}

// One line per plugin on stdout ("id<TAB>name<TAB>file"), one per problem on stderr;
// exit 1 when a plugin failed to load or none was found (a broken install).
int listCollectors()
{
    CollectorRegistry registry;
    const QStringList problems = registry.loadPlugins();
    QList<CollectorPluginInfo> plugins = registry.plugins();
    std::sort(plugins.begin(), plugins.end(),
              [](const auto &a, const auto &b) { return a.id < b.id; });
    for (const CollectorPluginInfo &plugin : std::as_const(plugins))
        std::printf("%s\t%s\t%s\n", qUtf8Printable(plugin.id), qUtf8Printable(plugin.name),
                    qUtf8Printable(plugin.fileName));
    for (const QString &problem : problems)
        std::fprintf(stderr, "headroom: %s\n", qUtf8Printable(problem));
    if (plugins.isEmpty())
        std::fprintf(stderr, "headroom: no collector plugins in %s\n",
                     qUtf8Printable(CollectorRegistry::defaultPluginDirs().join(u", "_s)));
    return problems.isEmpty() && !plugins.isEmpty() ? 0 : 1;
}

bool haveDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY")
        || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

int runGui(const CommandLine &options)
{
    MonitoringSession session;
    QString cacheError;
    const QString liveCachePath = options.noCache ? QString()
        : options.cacheFile.isEmpty()             ? SampleCache::defaultPath()
                                                  : options.cacheFile;
    if (!options.recordingFile.isEmpty()) {
        // A recording is studied, not recorded into: the live cache stays closed until
        // File → Close Recording. Opened before the window so nothing starts collecting.
        if (!session.openRecording(options.recordingFile, &cacheError)) {
            std::fprintf(stderr, "headroom: %s\n", qUtf8Printable(cacheError));
            QMessageBox::critical(
                nullptr, QObject::tr("Recording cannot be opened"),
                literalAutoText(cacheError + QObject::tr("\n\nThe file was not modified.")));
            return ExitCacheFailed;
        }
    } else if (!options.noCache) {
        const QString path
            = options.cacheFile.isEmpty() ? SampleCache::defaultPath() : options.cacheFile;
        if (!session.openCache(path, &cacheError, cacheOptionsWithRetention(options.retention)))
            std::fprintf(stderr, "headroom: %s\n", qUtf8Printable(cacheError));
        // A cache asked for by name is not silently replaced by live data only: the
        // user would believe it records. The default one falls back (below).
        if (!cacheError.isEmpty() && !options.cacheFile.isEmpty()) {
            QMessageBox::critical(
                nullptr, QObject::tr("Cache cannot be used"),
                literalAutoText(cacheError + QObject::tr("\n\nThe file was not modified.")));
            return ExitCacheFailed;
        }
    }
    const QStringList pluginProblems = session.loadPlugins();
    MainWindow window(&session);
    window.setLiveCache(liveCachePath, options.retention);
    window.show();
    if (!cacheError.isEmpty())
        QMessageBox::warning(
            &window, QObject::tr("Cache not used"),
            literalAutoText(cacheError
                            + QObject::tr("\n\nHeadroom keeps running with live data only; "
                                          "the file was not modified.")));
    for (const QString &problem : pluginProblems)
        std::fprintf(stderr, "headroom: %s\n", qUtf8Printable(problem));
    if (showWelcomeAtStart(options.dashboardFile, options.recordingFile))
        window.showWelcome(); // nothing collects until a dashboard is chosen on it
    else if (!window.openDashboard(options.dashboardFile, options.variables)
             && !options.dashboardFile.isEmpty())
        window.openDashboard(QString());
    if (!options.recordingFile.isEmpty()) {
        if (!window.openRecording(options.recordingFile, options.dashboardFile.isEmpty()))
            return ExitCacheFailed; // the message was shown
    } else if (options.rangeMs > 0) {
        window.setRange(options.rangeMs);
    }
    if (options.quitAfterSeconds > 0) {
        QTimer::singleShot(options.quitAfterSeconds * 1000, &window, [&window, &options] {
            QString error;
            if (!options.guiSnapshot.isEmpty()
                && !writePng(&window, window.devicePixelRatioF(), options.guiSnapshot, &error))
                std::fprintf(stderr, "headroom: %s\n", qUtf8Printable(error));
            window.close();
        });
    }
    return QApplication::exec();
}
} // namespace

int main(int argc, char **argv)
{
    takeEnvironmentSecrets(); // before any thread: see environmentsecrets.h
    const bool headless = argumentsNeedNoDisplay(argc, argv);
    if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen"); // reports from cron or ssh need no display
    if (headless)
        previousHandler = qInstallMessageHandler(dropOffscreenSizeHintWarning);
    if (!headless && !haveDisplay()) {
        std::fprintf(stderr,
                     "headroom: no display (DISPLAY is not set). For a report without a "
                     "display use --export-png OUT.png and/or --export-csv OUT.csv.\n");
        return 2;
    }

    QApplication app(argc, argv);
    QApplication::setApplicationName(u"headroom"_s);
    QApplication::setOrganizationName(u"headroom"_s);
    QApplication::setApplicationDisplayName(u"Headroom"_s);
    QApplication::setApplicationVersion(QStringLiteral(HEADROOM_VERSION));
    QApplication::setDesktopFileName(u"org.headroom.Headroom"_s);

    CommandLine options;
    QString error;
    if (!parseCommandLine(QApplication::arguments(), &options, &error)) {
        std::fprintf(stderr, "headroom: %s\n", qUtf8Printable(error));
        return 2;
    }
    if (!options.printAndExit.isEmpty()) {
        std::fputs(options.printAndExit.toUtf8().constData(), stdout);
        return 0;
    }
    if (options.listCollectors)
        return listCollectors();
    // An import becomes a recording in a private temporary folder, removed at exit.
    ImportedFile imported;
    if (!options.importFile.isEmpty()) {
        if (!imported.import(options.importFile, options.importMap, &error)) {
            std::fprintf(stderr, "headroom: %s\n", qUtf8Printable(error));
            if (!options.headless())
                QMessageBox::critical(nullptr, QObject::tr("File cannot be imported"),
                                      literalAutoText(error));
            return 2;
        }
        std::fprintf(stderr, "headroom: %s: imported: %s\n", qUtf8Printable(options.importFile),
                     qUtf8Printable(imported.description()));
        options.recordingFile = imported.cachePath();
    }
    if (!options.serveMetrics.isEmpty())
        return runMetricsServer(options);
    return options.headless() ? runHeadlessReport(options) : runGui(options);
}
