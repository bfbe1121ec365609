// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// `headroom --serve-metrics ADDRESS:PORT`: collect the dashboard's sources until stopped
// (SIGINT/SIGTERM, as systemd stops a service) and serve the newest value of every
// series at http://ADDRESS:PORT/metrics (metricsexposition.h, metricsserver.h), recording into
// the cache as a headless run does. Source state changes are logged to stderr (the
// journal, under systemd), once per change.
#pragma once

#include "commandline.h"

namespace Headroom {

// The process exit code: 0 when stopped by a signal with every cache write done,
// headlessrun.h's codes otherwise.
int runMetricsServer(const CommandLine &options);

} // namespace Headroom
