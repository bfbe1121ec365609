// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The range a headless export (PNG, CSV, findings, report) covers: --from, --to and
// --range as given (timebounds.h); without --from or --range, the window's rule: a
// range longer than the dashboard's data starts where the data does, at least a
// minute back (rangecontroller.h), so a short collection fills the charts.
#pragma once

#include "commandline.h"
#include "document/dashboard.h"

#include <optional>
#include <utility>

namespace Headroom {

class SeriesRegistry;
class SeriesStore;

// [from, to] for a run whose data ends at endMs and whose range would otherwise start
// at defaultFromMs; nullopt with *error when --from or --to cannot be read.
std::optional<std::pair<qint64, qint64>>
exportRange(const Dashboard &dashboard, const CommandLine &options, const SeriesRegistry &registry,
            const SeriesStore &store, qint64 endMs, qint64 defaultFromMs, QString *error);

} // namespace Headroom
