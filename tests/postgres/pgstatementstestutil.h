// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the pg_stat_statements tests share: the statements' series in a batch.
#pragma once

#include "core/sample.h"

#include <QLatin1StringView>
#include <QList>
#include <QString>

namespace Headroom::Test {

// The latency histogram of the statements of database datname.
inline const SeriesHistogram *latencyHistogram(const SampleBatch &batch, const QString &datname)
{
    for (const SeriesHistogram &h : batch.histograms) {
        if (h.info.key.metric == QLatin1StringView("pg.latency.statements")
            && h.info.key.labels == Labels { { QStringLiteral("datname"), datname } })
            return &h;
    }
    return nullptr;
}

// Statements listed by pg.statements.exec_time.rate, in the order emitted.
inline QList<SeriesValue> ranked(const SampleBatch &batch)
{
    QList<SeriesValue> list;
    for (const SeriesValue &v : batch.values) {
        if (v.info.key.metric == QLatin1StringView("pg.statements.exec_time.rate"))
            list << v;
    }
    return list;
}

} // namespace Headroom::Test
