// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What Dashboard ▸ Sources… asks of a source: the test behind its Test Connection (a
// probe, engine/sourceprobe.h, of the source as the dashboard would run it), and the
// words for how a running source is doing. GUI-free, so the tests link it.
#pragma once

#include "collector/sourcestatus.h"
#include "engine/sourceprobe.h"

#include <QMap>
#include <atomic>
#include <functional>
#include <memory>

namespace Headroom {

using SourceTest = std::function<SourceProbeResult(
    const DashboardSource &source, std::shared_ptr<const std::atomic<bool>> cancel)>;

// Tests a source as dashboard would run it, with the variables' values shown now, at its
// place among the sources (a new one after them), so errors name it as the file will.
// An untrusted dashboard tests nothing: its file chose the targets, the SQL and the
// variables' defaults, and nobody has agreed to them yet.
SourceTest sourceTest(const Dashboard &dashboard, const QMap<QString, QString> &values,
                      const CollectorRegistry *collectors, bool trusted);

// "ok, 12 series: a warning", the state and message of a running source.
QString sourceStatusText(const SourceStatus &status);

} // namespace Headroom
