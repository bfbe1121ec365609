// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The collector plugin API. A plugin is a Qt plugin (MODULE library) whose root object
// implements CollectorFactory and whose JSON metadata names it (id, name, description,
// config schema). The scheduler creates one Collector per configured source instance
// and calls poll() on that instance's own worker thread, never on the GUI thread.
#pragma once

#include "core/sample.h"

#include <QDeadlineTimer>
#include <QJsonObject>
#include <QString>
#include <QtPlugin>
#include <memory>

namespace Headroom {

struct CollectorConfig
{
    QString sourceId; // the instance's id in the dashboard, used as SeriesKey::source
    QJsonObject options; // plugin-specific, variables already substituted
    int intervalMs = 1000;
    int timeoutMs = 5000; // a poll running longer marks the source stale
    // The options whose whole value the user typed (a --var or the variable bar), not
    // the dashboard file. Dashboard files are untrusted input: a plugin that sends
    // credentials treats every other option as the file's (pgconnection.h).
    QStringList userOptions;
};

struct PollResult
{
    SampleBatch batch;
    // Non-empty when the poll failed as a whole (source unreachable...): shown as the
    // source's error status. Partial problems go to warnings and leave status ok.
    QString error;
    // Samples that stand although the poll failed, published with the error (the batch
    // of a failed poll is dropped as partial): the postgres collector's count of its
    // own connection refused for want of a slot, an error of that resource. Stamped
    // and sourced like the batch when left unset.
    SampleBatch failed;
    QStringList warnings;
    // What the source status says besides warnings when all is well ("waits:
    // pg_wait_sampling, every 10 ms"): which of several methods a collector uses.
    QStringList notes;
};

class Collector
{
public:
    virtual ~Collector() = default;
    // Called on the worker thread. Must honour the deadline for anything that can block.
    virtual PollResult poll(const QDeadlineTimer &deadline) = 0;
};

class CollectorFactory
{
public:
    virtual ~CollectorFactory() = default;
    // nullptr and *error set when config is invalid.
    virtual std::unique_ptr<Collector> create(const CollectorConfig &config, QString *error) = 0;
};

} // namespace Headroom

#define HeadroomCollectorFactory_iid "org.headroom.CollectorFactory/1"
Q_DECLARE_INTERFACE(Headroom::CollectorFactory, HeadroomCollectorFactory_iid)
