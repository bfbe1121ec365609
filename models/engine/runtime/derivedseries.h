// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Derived series: values computed from other series of the same source by an
// expression, e.g. rows per block = pg.db.tup_returned.rate / pg.db.blks_hit.rate.
// Operands are joined on their labels (one result per datname); an operand without
// labels (host.cpu.count) joins every label set. Or the APDEX of each histogram of a
// latency histogram series, with that histogram's labels (core/apdex.h). Results are
// published on the bus as ordinary series, so the cache, panels and alerts treat them
// like any other.
#pragma once

#include "document/expression.h"
#include "engine/runtime/samplebus.h"

#include <QReadWriteLock>

namespace Headroom {

struct DerivedSeriesDefinition
{
    QString source; // whose batches feed it, and the source of the result
    QString metric; // the result's metric name
    Expression expression; // unused when apdexHistogram is set
    QString unit;
    QString resource; // empty: that of the operands
    UseKind kind = UseKind::Info;
    QString apdexHistogram; // the histogram metric whose APDEX this is
    double apdexTMs = 0;
};

class DerivedSeries : public SampleSink
{
public:
    explicit DerivedSeries(SampleBus *bus);

    void setDefinitions(const QList<DerivedSeriesDefinition> &definitions);
    // Called on the publishing collector's thread.
    void consume(const ResolvedBatch &batch) override;

private:
    SampleBus *m_bus;
    mutable QReadWriteLock m_lock;
    QList<DerivedSeriesDefinition> m_definitions;
};

} // namespace Headroom
