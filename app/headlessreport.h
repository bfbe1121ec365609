// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The headless report: load a dashboard, optionally collect for a while, render every
// panel over the range and write PNG, CSV, findings and/or the incident report. Used
// from cron and by our own checks.
#pragma once

#include "commandline.h"
#include "headlessrun.h" // the exit codes

namespace Headroom {

// Returns the process exit code: 0 only when every requested file was written and
// every write to the cache succeeded.
int runHeadlessReport(const CommandLine &options);

} // namespace Headroom
