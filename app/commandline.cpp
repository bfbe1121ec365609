#include "commandline.h"

#include "document/dashboard.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstring>

namespace Headroom {

bool argumentsAskForExport(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--export-png", 12) == 0
            || std::strncmp(argv[i], "--export-csv", 12) == 0
            || std::strncmp(argv[i], "--export-alerts", 15) == 0)
            return true;
    }
    return false;
}

bool parseCommandLine(const QStringList &arguments, CommandLine *out, QString *error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Headroom: which resource is the bottleneck, and since when? (USE method dashboard)"));
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    const QCommandLineOption dashboard(QStringLiteral("dashboard"),
                                       QStringLiteral("Dashboard file to open."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption var(QStringLiteral("var"),
                                 QStringLiteral("Set a dashboard variable (repeatable)."),
                                 QStringLiteral("NAME=VALUE"));
    const QCommandLineOption cache(QStringLiteral("cache"),
                                   QStringLiteral("Sample cache file to use."),
                                   QStringLiteral("FILE"));
    const QCommandLineOption noCache(QStringLiteral("no-cache"),
                                     QStringLiteral("Keep samples in memory only."));
    const QCommandLineOption collectFor(
        QStringLiteral("collect-for"),
        QStringLiteral("Headless: collect for SECONDS before exporting."),
        QStringLiteral("SECONDS"));
    const QCommandLineOption range(QStringLiteral("range"),
                                   QStringLiteral("Time range to show, e.g. 15m, 1h, 24h."),
                                   QStringLiteral("DURATION"));
    const QCommandLineOption png(QStringLiteral("export-png"),
                                 QStringLiteral("Headless: write the dashboard as PNG."),
                                 QStringLiteral("OUT.png"));
    const QCommandLineOption csv(QStringLiteral("export-csv"),
                                 QStringLiteral("Headless: write every panel's data as CSV."),
                                 QStringLiteral("OUT.csv"));
    const QCommandLineOption alerts(
        QStringLiteral("export-alerts"),
        QStringLiteral("Headless: write the range's alert events as CSV (time, rule, series, "
                       "state, value, severity, message)."),
        QStringLiteral("ALERTS.csv"));
    const QCommandLineOption scale(QStringLiteral("scale"),
                                   QStringLiteral("PNG scale factor (2 for HiDPI)."),
                                   QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption width(QStringLiteral("width"),
                                   QStringLiteral("PNG width in logical pixels."),
                                   QStringLiteral("PX"), QStringLiteral("1600"));
    const QCommandLineOption trust(
        QStringLiteral("trust"),
        QStringLiteral("Headless: connect to the hosts and run the SQL that the dashboard file "
                       "names, although you have not trusted it in the GUI (see README, "
                       "Security)."));
    QCommandLineOption snapshot(QStringLiteral("gui-snapshot"),
                                QStringLiteral("GUI: write a PNG of the window before quitting."),
                                QStringLiteral("FILE"));
    QCommandLineOption quitAfter(QStringLiteral("quit-after"),
                                 QStringLiteral("GUI: quit after SECONDS."),
                                 QStringLiteral("SECONDS"));
    snapshot.setFlags(QCommandLineOption::HiddenFromHelp);
    quitAfter.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({ dashboard, var, cache, noCache, collectFor, range, png, csv, alerts, scale,
                        width, trust, snapshot, quitAfter });
    // parse(), not process(): process() exits with 1 on a bad option, and our contract
    // is 2 for every usage error.
    if (!parser.parse(arguments)) {
        *error = parser.errorText();
        return false;
    }
    if (parser.isSet(helpOption))
        parser.showHelp(0);
    if (parser.isSet(versionOption))
        parser.showVersion();

    if (!parser.positionalArguments().isEmpty()) {
        *error = QStringLiteral("unexpected argument \"%1\"")
                     .arg(parser.positionalArguments().constFirst());
        return false;
    }
    out->dashboardFile = parser.value(dashboard);
    for (const QString &assignment : parser.values(var)) {
        const qsizetype eq = assignment.indexOf(u'=');
        if (eq <= 0) {
            *error = QStringLiteral("--var \"%1\": expected NAME=VALUE").arg(assignment);
            return false;
        }
        out->variables.insert(assignment.left(eq), assignment.mid(eq + 1));
    }
    out->cacheFile = parser.value(cache);
    out->noCache = parser.isSet(noCache);
    out->trust = parser.isSet(trust);
    if (parser.isSet(collectFor)) {
        bool ok = false;
        out->collectForSeconds = parser.value(collectFor).toInt(&ok);
        if (!ok || out->collectForSeconds < 0) {
            *error = QStringLiteral("--collect-for \"%1\": expected a whole number of seconds")
                         .arg(parser.value(collectFor));
            return false;
        }
    }
    if (parser.isSet(range)) {
        const auto ms = parseDuration(parser.value(range));
        if (!ms) {
            *error = QStringLiteral("--range \"%1\": expected a duration like 30s, 15m, 1h, 24h")
                         .arg(parser.value(range));
            return false;
        }
        out->rangeMs = *ms;
    }
    out->exportPng = parser.value(png);
    out->exportCsv = parser.value(csv);
    out->exportAlerts = parser.value(alerts);
    bool ok = false;
    out->scale = parser.value(scale).toDouble(&ok);
    if (!ok || out->scale < 0.25 || out->scale > 8) {
        *error = QStringLiteral("--scale \"%1\": expected a number from 0.25 to 8")
                     .arg(parser.value(scale));
        return false;
    }
    out->width = parser.value(width).toInt(&ok);
    if (!ok || out->width < 200 || out->width > 10000) {
        *error = QStringLiteral("--width \"%1\": expected 200 to 10000 pixels")
                     .arg(parser.value(width));
        return false;
    }
    out->guiSnapshot = parser.value(snapshot);
    if (parser.isSet(quitAfter)) {
        out->quitAfterSeconds = parser.value(quitAfter).toInt(&ok);
        if (!ok || out->quitAfterSeconds <= 0) {
            *error = QStringLiteral("--quit-after \"%1\": expected a positive number of seconds")
                         .arg(parser.value(quitAfter));
            return false;
        }
    }
    return true;
}

} // namespace Headroom
