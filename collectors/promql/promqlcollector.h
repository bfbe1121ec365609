// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The promql source: a Prometheus-compatible engine named by its base URL. Panels read
// their queries from it over their own range (query/promql/promqlpanelquery.h); its
// poll asks the instant query `vector(1)`, so the status bar shows whether the engine
// answers (and with which error), and publishes promql.up (1 or 0) and promql.query_ms.
//
// Options: "url" (required; http:// or https://, no user info).
#pragma once

#include "collector/collector.h"

#include <QUrl>

namespace Headroom {

class PromqlCollector : public Collector
{
public:
    static std::unique_ptr<PromqlCollector> create(const CollectorConfig &config, QString *error);

    PollResult poll(const QDeadlineTimer &deadline) override;

private:
    PromqlCollector(QString source, QUrl url);

    const QString m_source;
    const QUrl m_url;
};

} // namespace Headroom
