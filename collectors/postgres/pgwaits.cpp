// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgwaits.h"

#include "pgactivity.h"

#include <QMap>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

std::optional<QHash<PgWaitKey, double>>
PgWaitProfile::update(const QHash<PgWaitKey, double> &counts)
{
    std::optional<QHash<PgWaitKey, double>> deltas;
    if (m_last) {
        deltas.emplace();
        for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
            // A key not there last time counts from 0: it was created since.
            const double before = m_last->value(it.key(), 0);
            if (it.value() > before)
                deltas->insert(it.key(), it.value() - before);
        }
    }
    m_last = counts;
    return deltas;
}

PgWaitsPart::PgWaitsPart(PgSettings settings, int samplesPerSecond)
    : m_settings(std::move(settings))
    , m_samplesPerSecond(samplesPerSecond)
{
}

PgWaitsPart::~PgWaitsPart() = default;

int PgWaitsPart::samplerPid() const
{
    return m_sampler ? m_sampler->pid() : 0;
}

void PgWaitsPart::resetBaselines()
{
    m_profile.clear();
    m_extension.reset();
    m_checkedAtMs.reset();
}

QByteArray PgWaitsPart::profileQuery(const QString &schema)
{
    QString quoted = schema;
    quoted.replace(u'"', u"\"\""_s);
    return "SELECT coalesce(event_type, 'CPU'), coalesce(event, 'CPU'), coalesce(queryid, 0),"
           " sum(count)::float8 FROM \""
        + quoted.toUtf8()
        + "\".pg_wait_sampling_profile"
          " WHERE pid <> pg_backend_pid() AND coalesce(event_type, '') NOT IN ('Activity', "
          "'Client') GROUP BY 1, 2, 3";
}

void PgWaitsPart::lookUpExtension(PgPoll &poll)
{
    const bool due
        = !m_checkedAtMs || poll.ts < *m_checkedAtMs || poll.ts - *m_checkedAtMs >= RecheckMs;
    if (!due)
        return;
    m_checkedAtMs = poll.ts;
    const PgResult result = poll.tryRun(
        "SELECT n.nspname, current_setting('pg_wait_sampling.profile_period', true)"
        " FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace"
        " WHERE e.extname = 'pg_wait_sampling'");
    const std::optional<Extension> before = m_extension;
    m_extension.reset();
    if (result.ok() && result.rows() == 1) {
        bool ok = false;
        const double period = result.number(0, 1, &ok);
        m_extension = Extension { result.text(0, 0), ok && period > 0 ? period : 10 };
    }
    if (m_extension.has_value() != before.has_value())
        m_profile.clear();
}

void PgWaitsPart::collect(PgPoll &poll)
{
    lookUpExtension(poll);
    if (poll.failed())
        return;
    if (m_extension) {
        m_sampler.reset(); // the server samples finer
        collectProfile(poll);
    } else if (m_samplesPerSecond > 0) {
        collectSampler(poll);
    }
}

void PgWaitsPart::collectProfile(PgPoll &poll)
{
    const auto result = poll.run(u"pg_wait_sampling_profile"_s, profileQuery(m_extension->schema));
    if (!result)
        return;
    QHash<PgWaitKey, double> counts;
    for (int r = 0; r < result->rows(); ++r)
        counts[{ result->text(r, 0), result->text(r, 1), result->text(r, 2).toLongLong() }]
            += result->number(r, 3);
    const qint64 lastTs = std::exchange(m_lastProfileTs, poll.ts);
    const auto deltas = m_profile.update(counts);
    if (!deltas || poll.ts <= lastTs)
        return;
    const double perSecond = 1000.0 / m_extension->periodMs;
    const double samplesPerSession = perSecond * double(poll.ts - lastTs) / 1000.0;
    QHash<PgWaitKey, double> sessions;
    for (auto it = deltas->cbegin(); it != deltas->cend(); ++it)
        sessions.insert(it.key(), it.value() / samplesPerSession);
    poll.result.notes << u"waits: pg_wait_sampling, every %1 ms"_s.arg(m_extension->periodMs);
    publish(sessions, u"pg_wait_sampling"_s, perSecond, poll.source(), poll.result.batch);
}

void PgWaitsPart::collectSampler(PgPoll &poll)
{
    if (!m_sampler) {
        // Starts counting now: the first poll publishes nothing.
        m_sampler = std::make_unique<PgWaitSampler>(m_settings, m_samplesPerSecond);
        return;
    }
    m_sampler->exclude(poll.connection.backendPid());
    const PgWaitCounts counts = m_sampler->take();
    if (counts.snapshots == 0) {
        if (!counts.error.isEmpty())
            poll.warn(u"wait sampling (pg_stat_activity, %1 a second): %2"_s.arg(m_samplesPerSecond)
                          .arg(counts.error));
        return;
    }
    QHash<PgWaitKey, double> sessions;
    for (auto it = counts.sessions.cbegin(); it != counts.sessions.cend(); ++it)
        sessions.insert(it.key(), it.value() / counts.snapshots);
    poll.result.notes << u"waits: pg_stat_activity %1 times a second (pg_wait_sampling is not "
                         "installed)"_s.arg(m_samplesPerSecond);
    publish(sessions, u"pg_stat_activity"_s, m_samplesPerSecond, poll.source(), poll.result.batch);
}

void PgWaitsPart::publish(const QHash<PgWaitKey, double> &sessions, const QString &method,
                          double samplesPerSecond, const QString &source, SampleBatch &batch)
{
    const QString resource = PgActivitySampler::Resource;
    const QString unit = PgActivitySampler::SessionsUnit;
    const auto kindOf = [](const QString &waitClass) {
        return waitClass == "CPU"_L1 ? UseKind::Utilization : UseKind::Saturation;
    };
    QMap<std::pair<QString, QString>, double> byEvent;
    QMap<QString, double> byClass;
    for (const QString &c : PgActivitySampler::contentionClasses())
        byClass.insert(c, 0);
    byClass.insert(u"CPU"_s, 0);
    QHash<qint64, double> byStatement;
    for (auto it = sessions.cbegin(); it != sessions.cend(); ++it) {
        byEvent[{ it.key().waitClass, it.key().event }] += it.value();
        byClass[it.key().waitClass] += it.value();
        if (it.key().queryid != 0 && it.key().waitClass != "CPU"_L1)
            byStatement[it.key().queryid] += it.value();
    }
    for (auto it = byEvent.cbegin(); it != byEvent.cend(); ++it)
        batch.add({ source,
                    u"pg.waits.sessions"_s,
                    { { u"class"_s, it.key().first }, { u"event"_s, it.key().second } } },
                  unit, resource, kindOf(it.key().first), it.value());
    for (auto it = byClass.cbegin(); it != byClass.cend(); ++it)
        batch.add({ source, u"pg.waits.class_sessions"_s, { { u"class"_s, it.key() } } }, unit,
                  resource, kindOf(it.key()), it.value());
    // The statements waiting most (running is no wait), with all they did.
    QList<std::pair<double, qint64>> statements;
    for (auto it = byStatement.cbegin(); it != byStatement.cend(); ++it)
        statements.append({ it.value(), it.key() });
    std::sort(statements.begin(), statements.end(), std::greater<>());
    statements.resize(std::min<qsizetype>(statements.size(), TopStatements));
    for (auto it = sessions.cbegin(); it != sessions.cend(); ++it) {
        const auto top = std::find_if(statements.cbegin(), statements.cend(),
                                      [&](const auto &s) { return s.second == it.key().queryid; });
        if (it.key().queryid == 0 || top == statements.cend())
            continue;
        batch.add({ source,
                    u"pg.waits.statement_sessions"_s,
                    { { u"queryid"_s, QString::number(it.key().queryid) },
                      { u"class"_s, it.key().waitClass },
                      { u"event"_s, it.key().event } } },
                  unit, resource, kindOf(it.key().waitClass), it.value());
    }
    batch.add({ source, u"pg.waits.samples_per_second"_s, { { u"method"_s, method } } }, u"1/s"_s,
              resource, UseKind::Info, samplesPerSecond);
}

} // namespace Headroom
