// The Prometheus-compatible engines of the running dashboard, for panels that read a
// PromQL `query` (query/promql/promqlpanelquery.h): each started promql source's base
// URL and the dashboard's variable values, set by MonitoringSession::start on the GUI
// thread and read on the query pool; and the answers already fetched, so a re-render
// of a range that is complete (older than the engines' ingest delay) asks nothing
// again. Thread-safe.
#pragma once

#include "collector/promql/promqlresponse.h"

#include <QCache>
#include <QHash>
#include <QMap>
#include <QMutex>
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
    };
    // Answers held: at most this many points in all (16 bytes each).
    static constexpr qint64 CachedPoints = 4'000'000;

    void set(Snapshot snapshot);
    std::shared_ptr<const Snapshot> snapshot() const;

    std::optional<PromqlResult> cached(const QString &key) const;
    // Logically const: a store hands the engines out const, and keeping an answer
    // changes nothing a reader sees.
    void cache(const QString &key, const PromqlResult &result) const;
    // Fetches answered from the cache and from the engine since the start.
    qint64 hits() const;
    qint64 misses() const;
    void countMiss() const;

private:
    mutable QMutex m_lock;
    std::shared_ptr<const Snapshot> m_snapshot = std::make_shared<Snapshot>();
    mutable QCache<QString, PromqlResult> m_answers { qsizetype(CachedPoints) };
    mutable qint64 m_hits = 0;
    mutable qint64 m_misses = 0;
};

} // namespace Headroom
