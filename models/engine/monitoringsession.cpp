// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/monitoringsession.h"

#include "core/jsonreader.h"
#include "document/alertrulejson.h"
#include "document/dashboardtrust.h"
#include "engine/cache/samplecache.h"
#include "engine/sourceinstance.h"
#include "sessionlogging.h"

namespace Headroom {

using namespace Qt::StringLiterals;

MonitoringSession::MonitoringSession(QObject *parent)
    : QObject(parent)
    , m_bus(&m_registry)
    , m_live(3600) // one hour at 1 s: the usual live window without touching the cache
    , m_derived(&m_bus)
    , m_store(&m_live, nullptr)
    , m_alerts(new AlertEngine(&m_registry, this))
    , m_scheduler(new CollectorScheduler(&m_bus, this))
{
    m_bus.addSink(&m_live);
    m_bus.addSink(&m_derived);
    m_bus.addSink(m_alerts);
    m_store = SeriesStore(&m_live, nullptr, m_alerts->log());
    m_store.setPromqlEngines(&m_promql);
}

MonitoringSession::~MonitoringSession()
{
    stop();
    m_bus.removeSink(m_alerts);
    m_alerts->setCache(nullptr);
    if (m_cache && !m_cache->isReadOnly())
        m_bus.removeSink(m_cache.get());
}

bool MonitoringSession::openCache(const QString &path, QString *error, const CacheOptions &options)
{
    m_alerts->setCache(nullptr);
    if (m_cache) {
        if (!m_cache->isReadOnly())
            m_bus.removeSink(m_cache.get());
        m_cache.reset();
    }
    m_store = SeriesStore(&m_live, nullptr, m_alerts->log());
    m_store.setPromqlEngines(&m_promql);
    m_promql.setAnswerStore(nullptr);
    if (path.isEmpty())
        return true;
    m_cache = SampleCache::open(path, &m_registry, error, options);
    if (!m_cache)
        return false;
    m_bus.addSink(m_cache.get());
    m_store = SeriesStore(&m_live, m_cache.get(), m_alerts->log());
    m_store.setPromqlEngines(&m_promql);
    m_alerts->setCache(m_cache.get());
    // PromQL answers beside it; without them panels still work, from memory.
    auto answers = std::make_shared<PromqlAnswerStore>();
    QString answersError;
    if (answers->open(PromqlAnswerStore::pathBesideCache(path), &answersError))
        m_promql.setAnswerStore(std::move(answers));
    else
        qCWarning(lcSession) << answersError;
    return true;
}

bool MonitoringSession::openRecording(const QString &path, QString *error)
{
    stop();
    openCache(QString(), error); // closes what is open
    m_cache = SampleCache::openRecording(path, &m_registry, error);
    if (!m_cache)
        return false;
    // Not a sink of the bus: nothing is written to a recording. The alert engine reads
    // its last alert states and never writes (a read-only cache ignores writes).
    m_store = SeriesStore(&m_live, m_cache.get(), m_alerts->log());
    m_store.setPromqlEngines(&m_promql);
    m_alerts->setCache(m_cache.get());
    return true;
}

bool MonitoringSession::isRecording() const
{
    return m_cache && m_cache->isReadOnly();
}

QStringList MonitoringSession::loadPlugins(const QStringList &dirs)
{
    return m_collectors.loadPlugins(dirs);
}

void MonitoringSession::start(const Dashboard &dashboard, const QMap<QString, QString> &variables,
                              const QStringList &held, const QString &heldReason)
{
    stop();
    m_scheduler->clearStatuses();
    const auto values = dashboard.resolveVariables(variables);
    QList<DerivedSeriesDefinition> definitions;
    for (const DashboardDerived &d : dashboard.derived) {
        // Parsing succeeded when the file was loaded; a dashboard built in code is
        // checked here too, and an APDEX T from a variable the user just set.
        QString error;
        if (!d.apdexHistogram.isEmpty()) {
            if (const auto t = apdexTMs(d, values, &error))
                definitions.append({ d.source,
                                     d.metric,
                                     {},
                                     d.unit,
                                     QString(),
                                     d.kind,
                                     d.apdexHistogram,
                                     double(*t) });
            else
                qCWarning(lcSession) << "derived series" << d.metric << error;
        } else if (auto expression = Expression::parse(d.expression, &error)) {
            definitions.append(
                { d.source, d.metric, *expression, d.unit, QString(), d.kind, {}, 0 });
        } else {
            qCWarning(lcSession) << "derived series" << d.metric << error;
        }
    }
    m_derived.setDefinitions(definitions);
    m_alerts->setRules(effectiveAlertRules(dashboard.alertPack, dashboard.alerts));
    PromqlEngines::Snapshot engines;
    engines.variables = values;
    for (const DashboardVariable &variable : dashboard.variables) {
        if (variable.multi)
            engines.multi.insert(variable.name);
    }
    // A recording is studied, not added to: no source connects anywhere.
    for (qsizetype i = 0; i < (isRecording() ? 0 : dashboard.sources.size()); ++i) {
        const DashboardSource &source = dashboard.sources.at(i);
        if (held.contains(source.id)) {
            m_scheduler->addFailedSource(source.id, source.plugin, heldReason);
            continue;
        }
        SourceInstance instance = instantiateSource(m_collectors, dashboard, i, values);
        if (!instance.collector) {
            qCWarning(lcSession) << "source" << source.id << instance.error;
            m_scheduler->addFailedSource(source.id, source.plugin, instance.error);
            continue;
        }
        if (source.plugin == PromqlPlugin)
            engines.urls.insert(source.id,
                                QUrl(instance.config.options.value(u"url"_s).toString()));
        QString error;
        m_scheduler->addSource(source.plugin, instance.config, std::move(instance.collector),
                               &error);
    }
    // A promql source that was not started (held, refused) leaves its panels a message.
    m_promql.set(std::move(engines));
    m_scheduler->start();
}

void MonitoringSession::stop()
{
    // Called on the GUI thread when a variable or dashboard changes: healthy collectors
    // stop in milliseconds, and a hung one is abandoned safely, so do not wait long.
    m_scheduler->stop(1000);
}

void MonitoringSession::flushCache()
{
    m_alerts->waitIdle(); // events of samples already published go in with this flush
    if (m_cache)
        m_cache->flush();
}

} // namespace Headroom
