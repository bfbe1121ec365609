// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "commandline.h"

#include "commandlinehelp.h"
#include "document/dashboard.h"
#include "metricsserver.h"
#include "query/report/incidentreportdata.h"
#include "retentionsetting.h"
#include "timebounds.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstring>

namespace Headroom {

using namespace Qt::StringLiterals;

bool argumentsAskForExport(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--export-png", 12) == 0
            || std::strncmp(argv[i], "--export-csv", 12) == 0
            || std::strncmp(argv[i], "--export-alerts", 15) == 0
            || std::strncmp(argv[i], "--export-findings", 17) == 0
            || std::strncmp(argv[i], "--export-report", 15) == 0
            || std::strncmp(argv[i], "--save-recording", 16) == 0
            || std::strcmp(argv[i], "--explain") == 0)
            return true;
    }
    return false;
}

bool argumentsNeedNoDisplay(int argc, char **argv)
{
    if (argumentsAskForExport(argc, argv))
        return true;
    for (int i = 1; i < argc; ++i) {
        for (const char *option : { "--version", "-v", "--help", "-h", "--help-all", "--man-page",
                                    "--list-collectors" }) {
            if (std::strcmp(argv[i], option) == 0)
                return true;
        }
        if (std::strncmp(argv[i], "--serve-metrics", 15) == 0)
            return true;
    }
    return false;
}

bool parseCommandLine(const QStringList &arguments, CommandLine *out, QString *error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Headroom: which resource is the bottleneck, and since when? (USE method dashboard)"_s);
    // Our own --help (commandlinehelp.h): grouped by task, with examples and the exit
    // status; --man-page prints the same as a manual page (headroom-manpage uses it).
    const QCommandLineOption helpOption({ u"h"_s, u"help"_s, u"help-all"_s },
                                        u"Show this help: the options by task."_s);
    QCommandLineOption manPage(u"man-page"_s, u"Print the manual page (roff)."_s);
    manPage.setFlags(QCommandLineOption::HiddenFromHelp);
    const QCommandLineOption versionOption({ u"v"_s, u"version"_s }, u"Show the version."_s);
    const QCommandLineOption dashboard(u"dashboard"_s, u"Dashboard file to open."_s, u"FILE"_s);
    const QCommandLineOption var(u"var"_s, u"Set a dashboard variable (repeatable)."_s,
                                 u"NAME=VALUE"_s);
    const QCommandLineOption cache(u"cache"_s, u"Sample cache file to use."_s, u"FILE"_s);
    const QCommandLineOption noCache(u"no-cache"_s, u"Keep samples in memory only."_s);
    const QCommandLineOption retention(
        u"retention"_s,
        u"Keep this much history in the cache, whole days from 1d to 400d (e.g. 30d, 8w); "
        "default: the setting (Settings > Keep History), else 30d."_s,
        u"DAYS"_s);
    const QCommandLineOption minuteRetention(
        u"minute-retention"_s,
        u"Keep the per-minute rollup tier this long (1d to 400d, at least --retention); "
        "default: the setting, else 90d."_s,
        u"DAYS"_s);
    const QCommandLineOption hourRetention(
        u"hour-retention"_s,
        u"Keep the per-hour rollup tier this long (1d to 400d, at least the minute tier's); "
        "default: the setting, else 400d."_s,
        u"DAYS"_s);
    const QCommandLineOption saveRecording(
        u"save-recording"_s,
        u"Headless: write the range (--from/--to, --range) of every series, its alert events "
        "and the dashboard to a new self-contained recording file."_s,
        u"OUT"_s);
    const QCommandLineOption recording(
        u"recording"_s,
        u"Open a cache file as a recording: read-only, nothing collected, nothing written "
        "to it or beside it; the range is the recording's span."_s,
        u"FILE"_s);
    const QCommandLineOption from(
        u"from"_s,
        u"Start of the range: ISO 8601 (2026-11-12T09:30:00Z) or a duration before the "
        "end of the data (-2h)."_s,
        u"WHEN"_s);
    const QCommandLineOption to(u"to"_s,
                                u"End of the range: ISO 8601, a duration before the end of the "
                                "data (-1h), or \"end\"."_s,
                                u"WHEN"_s);
    const QCommandLineOption collectFor(
        u"collect-for"_s, u"Headless: collect for SECONDS before exporting."_s, u"SECONDS"_s);
    const QCommandLineOption range(u"range"_s, u"Time range to show, e.g. 15m, 1h, 24h."_s,
                                   u"DURATION"_s);
    const QCommandLineOption png(u"export-png"_s, u"Headless: write the dashboard as PNG."_s,
                                 u"OUT.png"_s);
    const QCommandLineOption csv(u"export-csv"_s, u"Headless: write every panel's data as CSV."_s,
                                 u"OUT.csv"_s);
    const QCommandLineOption alerts(
        u"export-alerts"_s,
        u"Headless: write the range's alert events as CSV (time, rule, series, "
        "state, value, severity, message)."_s,
        u"ALERTS.csv"_s);
    const QCommandLineOption findings(
        u"export-findings"_s,
        u"Headless: write the range's findings (which resource is the bottleneck, since "
        "when) as CSV: rank, source, resource, kind, signal, since, until, peak, score, "
        "summary."_s,
        u"FINDINGS.csv"_s);
    const QCommandLineOption explain(
        u"explain"_s, u"Headless: print the range's findings, readable, to stdout."_s);
    const QCommandLineOption report(
        u"export-report"_s,
        u"Headless: write the incident report of the range: findings with their evidence "
        "charts, alert timeline, USE matrix, top statements and shards, and what was "
        "watched. One self-contained .html file, or a .pdf."_s,
        u"REPORT.html|REPORT.pdf"_s);
    const QCommandLineOption scale(u"scale"_s, u"PNG scale factor (2 for HiDPI)."_s, u"N"_s,
                                   u"1"_s);
    const QCommandLineOption width(u"width"_s, u"PNG width in logical pixels."_s, u"PX"_s,
                                   u"1600"_s);
    const QCommandLineOption trust(
        u"trust"_s,
        u"Headless: connect to the hosts and run the SQL that the dashboard file "
        "names, although you have not trusted it in the GUI (see docs/security.md)."_s);
    QCommandLineOption snapshot(u"gui-snapshot"_s,
                                u"GUI: write a PNG of the window before quitting."_s, u"FILE"_s);
    QCommandLineOption quitAfter(u"quit-after"_s, u"GUI: quit after SECONDS."_s, u"SECONDS"_s);
    snapshot.setFlags(QCommandLineOption::HiddenFromHelp);
    quitAfter.setFlags(QCommandLineOption::HiddenFromHelp);
    const QCommandLineOption listCollectors(
        u"list-collectors"_s,
        u"List the collector plugins found (id, name, file) and any that failed to load."_s);
    const QCommandLineOption serveMetrics(
        u"serve-metrics"_s,
        u"Headless: collect the dashboard's sources until stopped and serve their series "
        "at http://ADDRESS:PORT/metrics for Prometheus-compatible engines."_s,
        u"ADDRESS:PORT"_s);
    const QCommandLineOption serveHost(
        u"serve-host"_s,
        u"With --serve-metrics: also answer requests whose Host header is NAME (by default "
        "only the listening address, and localhost on loopback). Repeatable."_s,
        u"NAME"_s);
    const QCommandLineOption importFile(
        u"import"_s,
        u"Import a file of another tool's metrics (wide or long CSV, OpenMetrics text with "
        "timestamps; docs/import.md) and open it as a recording; nothing is written beside it."_s,
        u"FILE"_s);
    const QCommandLineOption importMap(
        u"import-map"_s, u"With --import: what the file's columns are (docs/import.md)."_s,
        u"MAP.json"_s);
    const QList<QCommandLineOption> options {
        dashboard,       var,           cache,      noCache,       retention,
        minuteRetention, hourRetention, recording,  from,          to,
        collectFor,      range,         png,        csv,           alerts,
        findings,        explain,       report,     saveRecording, scale,
        width,           trust,         snapshot,   quitAfter,     listCollectors,
        serveMetrics,    serveHost,     importFile, importMap,     helpOption,
        versionOption,   manPage,
    };
    parser.addOptions(options);
    // parse(), not process(): process() exits with 1 on a bad option, and our contract
    // is 2 for every usage error.
    if (!parser.parse(arguments)) {
        *error = parser.errorText();
        return false;
    }
    if (parser.isSet(helpOption)) {
        out->printAndExit = commandLineHelp(options);
        return true;
    }
    if (parser.isSet(manPage)) {
        out->printAndExit = commandLineManPage(options, QCoreApplication::applicationVersion());
        return true;
    }
    if (parser.isSet(versionOption))
        parser.showVersion();

    if (!parser.positionalArguments().isEmpty()) {
        *error = u"unexpected argument \"%1\""_s.arg(parser.positionalArguments().constFirst());
        return false;
    }
    out->listCollectors = parser.isSet(listCollectors);
    out->dashboardFile = parser.value(dashboard);
    for (const auto assignments = parser.values(var); const QString &assignment : assignments) {
        const qsizetype eq = assignment.indexOf(u'=');
        if (eq <= 0) {
            *error = u"--var \"%1\": expected NAME=VALUE"_s.arg(assignment);
            return false;
        }
        out->variables.insert(assignment.left(eq), assignment.mid(eq + 1));
    }
    out->cacheFile = parser.value(cache);
    out->noCache = parser.isSet(noCache);
    out->recordingFile = parser.value(recording);
    out->saveRecording = parser.value(saveRecording);
    out->fromSpec = parser.value(from);
    out->toSpec = parser.value(to);
    for (const auto &[spec, name] :
         { std::pair { out->fromSpec, "--from" }, { out->toSpec, "--to" } }) {
        QString reason;
        if (!spec.isEmpty() && !parseTimeBound(spec, 0, &reason)) {
            *error = QLatin1StringView(name) + u' ' + reason;
            return false;
        }
    }
    out->trust = parser.isSet(trust);
    if (parser.isSet(collectFor)) {
        bool ok = false;
        out->collectForSeconds = parser.value(collectFor).toInt(&ok);
        if (!ok || out->collectForSeconds < 0) {
            *error = u"--collect-for \"%1\": expected a whole number of seconds"_s.arg(
                parser.value(collectFor));
            return false;
        }
    }
    for (const auto &[option, days] : { std::pair { &retention, &out->retention.raw },
                                        std::pair { &minuteRetention, &out->retention.minute },
                                        std::pair { &hourRetention, &out->retention.hour } }) {
        if (!parser.isSet(*option))
            continue;
        QString reason;
        const auto parsed = parseRetention(parser.value(*option), &reason);
        if (!parsed) {
            *error = u"--"_s + option->names().constFirst() + u" "_s + reason;
            return false;
        }
        *days = *parsed;
    }
    if (!out->recordingFile.isEmpty()
        && (out->collectForSeconds > 0 || parser.isSet(cache) || out->noCache
            || out->retention != RetentionDays {})) {
        *error = u"--recording opens a file read-only: it cannot be combined with "
                 "--collect-for, --cache, --no-cache or --retention (nor the tiers')"_s;
        return false;
    }
    out->importFile = parser.value(importFile);
    out->importMap = parser.value(importMap);
    if (!out->importMap.isEmpty() && out->importFile.isEmpty()) {
        *error
            = u"--import-map says what the columns of an --import file are; --import is not given"_s;
        return false;
    }
    if (!out->importFile.isEmpty()
        && (!out->recordingFile.isEmpty() || out->collectForSeconds > 0 || parser.isSet(cache)
            || out->noCache || out->retention != RetentionDays {})) {
        *error
            = u"--import opens the file as a recording: it cannot be combined with "
              "--recording, --collect-for, --cache, --no-cache or --retention (nor the tiers')"_s;
        return false;
    }
    if (parser.isSet(range)) {
        const auto ms = parseDuration(parser.value(range));
        if (!ms) {
            *error = u"--range \"%1\": expected a duration like 30s, 15m, 1h, 24h"_s.arg(
                parser.value(range));
            return false;
        }
        out->rangeMs = *ms;
    }
    out->exportPng = parser.value(png);
    out->exportCsv = parser.value(csv);
    out->exportAlerts = parser.value(alerts);
    out->exportFindings = parser.value(findings);
    out->explain = parser.isSet(explain);
    out->exportReport = parser.value(report);
    if (!out->exportReport.isEmpty() && !incidentReportFormat(out->exportReport)) {
        *error = u"--export-report \"%1\": expected a file ending in .html, .htm or .pdf"_s.arg(
            out->exportReport);
        return false;
    }
    bool ok = false;
    out->scale = parser.value(scale).toDouble(&ok);
    if (!ok || out->scale < 0.25 || out->scale > 8) {
        *error = u"--scale \"%1\": expected a number from 0.25 to 8"_s.arg(parser.value(scale));
        return false;
    }
    out->width = parser.value(width).toInt(&ok);
    if (!ok || out->width < 200 || out->width > 10000) {
        *error = u"--width \"%1\": expected 200 to 10000 pixels"_s.arg(parser.value(width));
        return false;
    }
    out->serveMetrics = parser.value(serveMetrics);
    if (!out->serveMetrics.isEmpty()) {
        QHostAddress address;
        quint16 port = 0;
        if (!MetricsServer::parseListenAddress(out->serveMetrics, &address, &port, error))
            return false;
        if (out->headless() || !out->recordingFile.isEmpty() || !out->importFile.isEmpty()
            || out->collectForSeconds > 0) {
            *error = u"--serve-metrics collects until it is stopped: it cannot be combined with "
                     "the exports, --explain, --recording or --collect-for"_s;
            return false;
        }
    }
    out->serveHosts = parser.values(serveHost);
    if (!out->serveHosts.isEmpty() && out->serveMetrics.isEmpty()) {
        *error = u"--serve-host names a host for --serve-metrics, which is not given"_s;
        return false;
    }
    for (const QString &name : std::as_const(out->serveHosts)) {
        if (!MetricsServer::checkHostName(name, error))
            return false;
    }
    out->guiSnapshot = parser.value(snapshot);
    if (parser.isSet(quitAfter)) {
        out->quitAfterSeconds = parser.value(quitAfter).toInt(&ok);
        if (!ok || out->quitAfterSeconds <= 0) {
            *error = u"--quit-after \"%1\": expected a positive number of seconds"_s.arg(
                parser.value(quitAfter));
            return false;
        }
    }
    return true;
}

} // namespace Headroom
