// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What every headless run shares (the report of headlessreport.h and the collector of
// servemetrics.h): its exit codes, its messages on stderr, the trust gate before it
// collects, and the cache it collects into.
#pragma once

#include "collector/collectorregistry.h"
#include "commandline.h"
#include "document/dashboardfile.h"

namespace Headroom {

struct Dashboard;
class MonitoringSession;

// Exit codes of headless runs (docs/command-line.md, "Exit status").
constexpr int ExitOk = 0;
constexpr int ExitFileNotWritten = 1; // a requested PNG/CSV/report could not be written
constexpr int ExitBadInput = 2; // bad arguments, an unreadable or untrusted dashboard
// The cache named by --cache cannot be used (nothing is collected), or a write to the
// cache failed during the run (disk full, I/O error), even if later ones succeeded.
constexpr int ExitCacheFailed = 3;
constexpr int ExitCannotListen = 4; // --serve-metrics: the address cannot be listened on
// SIGINT/SIGTERM end a report with 128 + the signal (130, 143), after the report of what
// was collected; they are how --serve-metrics is stopped, and it exits 0.

// "headroom: message" on stderr.
void complain(const QString &message);

// The dashboard a run loaded, and its --var names checked: false, having said why on
// stderr, when it did not load or names a variable it does not have.
bool dashboardUsable(const DashboardLoadResult &loaded, const CommandLine &options);

// Whether the run may connect to what the dashboard names: the file is trusted, or
// --trust was given. Otherwise says why on stderr (what the file would act on, and how
// to trust it) and returns false. Plugins must be loaded (their schemas say which
// options are targets).
bool mayCollect(const Dashboard &dashboard, const CommandLine &options,
                const QList<CollectorPluginInfo> &plugins);

// Opens the cache the run collects into (--cache, else the default; none with
// --no-cache). ExitOk, also when the default cache cannot be used (the run goes on
// with live data, saying so); ExitCacheFailed when the cache --cache names cannot:
// what the run is for would not be kept.
int openRunCache(MonitoringSession &session, const CommandLine &options);

// After the run: ExitCacheFailed, with the message, when a write to the cache failed.
int cacheWriteOutcome(const MonitoringSession &session);

} // namespace Headroom
