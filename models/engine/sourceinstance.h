// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A dashboard source made into a collector: its variables substituted, the plugin's
// config schema enforced (refusals named as the file names them,
// "sources[2].config.url: ..."), the options the user set marked, then the plugin's
// factory. The session starts its sources this way, and the Sources dialog's test runs
// the same path, so a test says what the dashboard will do.
#pragma once

#include "collector/collector.h"
#include "collector/collectorregistry.h"
#include "document/dashboard.h"

#include <memory>

namespace Headroom {

struct SourceInstance
{
    CollectorConfig config;
    std::unique_ptr<Collector> collector; // nullptr: see error
    QString error;
};

SourceInstance instantiateSource(const CollectorRegistry &collectors, const Dashboard &dashboard,
                                 qsizetype index, const QMap<QString, QString> &values);

} // namespace Headroom
