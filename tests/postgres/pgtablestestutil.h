// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the table and shard tests share: the labels of a shard's and a table's series,
// and a count of one metric's series in a batch.
#pragma once

#include "core/sample.h"

#include <QString>
#include <algorithm>

namespace Headroom::Test {

inline Labels shardLabels(const QString &set, const QString &shard)
{
    return { { QStringLiteral("set"), set }, { QStringLiteral("shard"), shard } };
}

inline Labels tableLabels(const QString &schema, const QString &name, const QString &parent = {})
{
    Labels labels { { QStringLiteral("schema"), schema }, { QStringLiteral("table"), name } };
    if (!parent.isEmpty())
        labels.insert(QStringLiteral("parent"), parent);
    return labels;
}

inline int countMetric(const SampleBatch &batch, const QString &metric)
{
    return int(std::count_if(batch.values.cbegin(), batch.values.cend(),
                             [&](const SeriesValue &v) { return v.info.key.metric == metric; }));
}

} // namespace Headroom::Test
