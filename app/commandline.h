// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The command line contract (also used by scripts and our own checks):
//   headroom --dashboard FILE [--var NAME=VALUE ...] [--cache FILE] [--collect-for SECONDS]
//            [--range DURATION] --export-png OUT.png [--export-csv OUT.csv] [--scale N]
//            [--export-alerts ALERTS.csv] [--export-findings FINDINGS.csv] [--explain]
//            [--export-report REPORT.html|REPORT.pdf] [--trust]
//   (and --retention DAYS for the cache collected into)
//   headroom --recording FILE [--from WHEN] [--to WHEN] [--dashboard FILE] [exports...]
//   headroom [--cache FILE | --recording FILE] --save-recording OUT [--from ...] [--to ...]
//   headroom --import FILE [--import-map MAP.json] [...as --recording]
//   headroom --serve-metrics ADDRESS:PORT [--serve-host NAME ...] [--dashboard FILE]
//            [--var ...] [--cache FILE | --no-cache] [--trust]   collects until
//            SIGINT/SIGTERM, serving /metrics
//   headroom --list-collectors   the collector plugins found, and any that failed to load
// Any of the exports (and --explain) makes it headless. Alerts never change the exit code.
#pragma once

#include "retentionsetting.h"

#include <QMap>
#include <QString>
#include <QStringList>

namespace Headroom {

struct CommandLine
{
    QString dashboardFile; // empty: the shipped default dashboard
    QMap<QString, QString> variables;
    QString cacheFile; // empty: the default cache
    bool noCache = false;
    // A cache opened as a recording: read-only, nothing collected (recordingaccess.h).
    QString recordingFile;
    // A file of another tool's metrics (CSV, OpenMetrics text), imported into a private
    // temporary cache and then opened as a recording (importedfile.h), with its map.
    QString importFile;
    QString importMap;
    QString fromSpec, toSpec; // --from/--to as given (timebounds.h)
    QString saveRecording; // --save-recording: the range as a self-contained recording
    // --retention, --minute-retention, --hour-retention; 0: the user's setting
    RetentionDays retention;
    int collectForSeconds = 0;
    qint64 rangeMs = 0; // 0: the dashboard's own range
    QString exportPng;
    QString exportCsv;
    QString exportAlerts;
    QString exportFindings;
    bool explain = false; // findings, readable, on stdout
    QString exportReport; // the incident report; .html/.htm or .pdf (checked when parsed)
    qreal scale = 1.0;
    // Headless: act on an untrusted file's own targets and SQL (dashboardtrust.h).
    bool trust = false;
    int width = 1600;
    // GUI checks (hidden options): grab the window to a PNG and/or quit after a delay.
    QString guiSnapshot;
    int quitAfterSeconds = 0;
    bool listCollectors = false;
    // --serve-metrics: where the exposition is served ("127.0.0.1:9187"; checked when
    // parsed); empty: not serving.
    QString serveMetrics;
    // --serve-host: Host header names answered besides the listening address.
    QStringList serveHosts;
    // --help, --man-page: the text to print on stdout; nothing else is done.
    QString printAndExit;

    bool headless() const
    {
        return !exportPng.isEmpty() || !exportCsv.isEmpty() || !exportAlerts.isEmpty()
            || !saveRecording.isEmpty() || !exportFindings.isEmpty() || explain
            || !exportReport.isEmpty();
    }
};

// Parses arguments (QCoreApplication must exist). On failure returns false with
// *error set; --version exits from within, as QCommandLineParser does; --help and
// --man-page set printAndExit.
bool parseCommandLine(const QStringList &arguments, CommandLine *out, QString *error);

// True when argv asks for a headless report; checked before QApplication exists so
// the offscreen platform can be chosen.
bool argumentsAskForExport(int argc, char **argv);
// True when argv needs no window at all: a headless report, or --version, --help or
// --list-collectors, which must also work on a machine without a display.
bool argumentsNeedNoDisplay(int argc, char **argv);

} // namespace Headroom
