// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Fan-out point between collectors and everything that consumes samples.
//
// publish() is called from collector threads. Sinks are called synchronously on the
// publishing thread, so each must be thread-safe and quick (append to a buffer, queue
// for a writer thread). The published() signal reaches GUI objects by queued call.
//
// Series are registered through SeriesRegistry::admit(): samples of a new series
// beyond its source's cap are dropped here, before any sink (live buffers, cache,
// derived series, alerts) sees them, and counted per source for the source status.
#pragma once

#include "core/sample.h"

#include <QHash>
#include <QList>
#include <QMutex>
#include <QObject>

namespace Headroom {

class SeriesRegistry;

// A batch after series resolution: ids parallel to batch.values / batch.histograms.
struct ResolvedBatch
{
    SampleBatch batch;
    QList<int> valueIds;
    QList<int> histogramIds;
    QList<int> newSeriesIds; // first seen in this batch
};

class SampleSink
{
public:
    virtual ~SampleSink() = default;
    virtual void consume(const ResolvedBatch &batch) = 0;
};

class SampleBus : public QObject
{
    Q_OBJECT
public:
    explicit SampleBus(SeriesRegistry *registry, QObject *parent = nullptr);

    void addSink(SampleSink *sink);
    void removeSink(SampleSink *sink);
    SeriesRegistry *registry() const { return m_registry; }

    void publish(const SampleBatch &batch);
    // New series of `source` refused by its series cap since the last call, derived
    // series published on the source's behalf included. The worker asks after each poll.
    int takeDroppedSeries(const QString &source);

Q_SIGNALS:
    void published(const QString &source, qint64 tsMs);

private:
    SeriesRegistry *m_registry;
    QMutex m_sinksLock;
    QList<SampleSink *> m_sinks;
    QMutex m_droppedLock;
    QHash<QString, int> m_droppedBySource; // only sources that dropped something
};

} // namespace Headroom
