// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The Prometheus-compatible engines of the running dashboard, for panels that read a
// PromQL `query` (query/promql/promqlpanelquery.h): each started promql source's base
// URL and the dashboard's variable values, set by MonitoringSession::start on the GUI
// thread and read on the query pool; and the answers already fetched, so a re-render
// of a range that is complete (older than the engines' ingest delay) asks nothing
// again: in memory, and on disk where the session has a cache (promqlanswerstore.h), so
// a dashboard reopened without its engine still draws them. Thread-safe.
#pragma once

#include "collector/promql/promqlresponse.h"
#include "engine/promqlanswerstore.h"

#include <QCache>
#include <QHash>
#include <QMap>
#include <QMutex>
#include <QSet>
#include <QUrl>
#include <memory>
#include <optional>

namespace Headroom {

class PromqlEngines
{
public:
    struct Snapshot
    {
        QHash<QString, QUrl> urls; // promql source id -> base URL (variables resolved)
        QMap<QString, QString> variables;
        QSet<QString> multi {}; // the multi-value variables among them
    };
    // Answers held: at most this many points in all (16 bytes each).
    static constexpr qint64 CachedPoints = 4'000'000;

    void set(Snapshot snapshot);
    std::shared_ptr<const Snapshot> snapshot() const;

    // Where answers are also kept on disk (null: memory only).
    void setAnswerStore(std::shared_ptr<PromqlAnswerStore> store);

    std::optional<PromqlResult> cached(const QString &key) const;
    // Logically const: a store hands the engines out const, and keeping an answer
    // changes nothing a reader sees.
    void cache(const QString &key, const PromqlResult &result) const;
    // Fetches answered from the cache and from the engine since the start.
    qint64 hits() const;
    qint64 misses() const;
    void countMiss() const;

private:
    static qsizetype cost(const PromqlResult &result); // in points

    mutable QMutex m_lock;
    std::shared_ptr<const Snapshot> m_snapshot = std::make_shared<Snapshot>();
    std::shared_ptr<PromqlAnswerStore> m_store;
    mutable QCache<QString, PromqlResult> m_answers { qsizetype(CachedPoints) };
    mutable qint64 m_hits = 0;
    mutable qint64 m_misses = 0;
};

} // namespace Headroom
