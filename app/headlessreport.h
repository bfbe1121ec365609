// The headless report: load a dashboard, optionally collect for a while, render every
// panel over the range and write PNG and/or CSV. Used from cron and by our own checks.
#pragma once

#include "commandline.h"

namespace Headroom {

// Returns the process exit code: 0 only when every requested file was written.
int runHeadlessReport(const CommandLine &options);

} // namespace Headroom
