// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Everything that runs behind one open dashboard: the series registry, the bus, the
// live buffers, the cache, the collector registry and the scheduler. The GUI and the
// headless report both drive one of these; tests can too.
#pragma once

#include "collector/collectorregistry.h"
#include "document/dashboard.h"
#include "engine/alerts/alertengine.h"
#include "engine/cache/samplecache.h"
#include "engine/promqlengines.h"
#include "engine/runtime/collectorscheduler.h"
#include "engine/runtime/derivedseries.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/samplebus.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"

#include <QObject>
#include <memory>

namespace Headroom {

class MonitoringSession : public QObject
{
    Q_OBJECT
public:
    explicit MonitoringSession(QObject *parent = nullptr);
    ~MonitoringSession() override;

    // Opens the cache (empty path: no cache, live data only). Returns false with
    // *error when the file cannot be used; the session then runs without a cache.
    // Call before collecting and before views read the store.
    bool openCache(const QString &path, QString *error, const CacheOptions &options = {});
    // Opens the cache at path as a recording (SampleCache::openRecording): read-only,
    // not fed by the bus. The session then collects nothing: start() only sets the
    // dashboard's derived series and rules, and creates no source. false with *error
    // when it cannot be read; the session then has no cache.
    bool openRecording(const QString &path, QString *error);
    // A recording is open (the session shows stored data only).
    bool isRecording() const;
    // Loads collector plugins from the default directories; returns load problems.
    QStringList loadPlugins(const QStringList &dirs = CollectorRegistry::defaultPluginDirs());

    // Stops what runs, sets the dashboard's alert rules (its pack and its own), then
    // creates one collector per source of the dashboard with
    // variables resolved. Sources that cannot be created are listed with an error, and
    // so are the `held` ones (sources whose targets or SQL the user has not trusted yet,
    // dashboardtrust.h), with `heldReason`, without being created.
    void start(const Dashboard &dashboard, const QMap<QString, QString> &variables,
               const QStringList &held = {}, const QString &heldReason = {});
    void stop();
    void flushCache();

    SeriesRegistry &registry() { return m_registry; }
    const SeriesRegistry &registry() const { return m_registry; }
    SampleBus &bus() { return m_bus; }
    LiveBuffers &live() { return m_live; }
    CollectorRegistry &collectors() { return m_collectors; }
    CollectorScheduler &scheduler() { return *m_scheduler; }
    AlertEngine &alerts() { return *m_alerts; }
    SampleCache *cache() const { return m_cache.get(); }
    // The engines of the dashboard's promql sources, as started (also the store's).
    PromqlEngines &promqlEngines() { return m_promql; }
    // Reads live buffers and the cache; valid for the session's life.
    const SeriesStore *store() const { return &m_store; }

private:
    SeriesRegistry m_registry;
    SampleBus m_bus;
    LiveBuffers m_live;
    DerivedSeries m_derived;
    std::unique_ptr<SampleCache> m_cache;
    PromqlEngines m_promql;
    SeriesStore m_store;
    AlertEngine *m_alerts;
    CollectorRegistry m_collectors;
    CollectorScheduler *m_scheduler;
};

} // namespace Headroom
