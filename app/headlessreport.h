// The headless report: load a dashboard, optionally collect for a while, render every
// panel over the range and write PNG, CSV, findings and/or the incident report. Used
// from cron and by our own checks.
#pragma once

#include "commandline.h"

namespace Headroom {

// Exit codes of the headless report (README, "Reports without a display").
constexpr int ExitOk = 0;
constexpr int ExitFileNotWritten = 1; // a requested PNG/CSV/report could not be written
constexpr int ExitBadInput = 2; // bad arguments, an unreadable dashboard
// The cache named by --cache cannot be used (nothing is collected), or a write to the
// cache failed during the run (disk full, I/O error), even if later ones succeeded.
constexpr int ExitCacheFailed = 3;
// SIGINT/SIGTERM: 128 + the signal (130, 143), after the report of what was collected.

// Returns the process exit code: 0 only when every requested file was written and
// every write to the cache succeeded.
int runHeadlessReport(const CommandLine &options);

} // namespace Headroom
