// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgpoll.h"

#include "postgreslogging.h"

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
const QByteArray InsufficientPrivilege = "42501";
}

PgPoll::PgPoll(const CollectorConfig &sourceConfig, PgConnection &session, qint64 nowMs,
               QDeadlineTimer queryDeadline)
    : config(sourceConfig)
    , connection(session)
    , ts(nowMs)
    , deadline(queryDeadline)
{
    result.batch.source = config.sourceId;
    result.batch.tsMs = ts;
}

void PgPoll::warn(const QString &warning)
{
    qCDebug(lcPostgres).noquote() << config.sourceId << warning;
    result.warnings << warning;
}

PgResult PgPoll::tryRun(const QByteArray &sql, const QList<QByteArray> &params)
{
    return connection.exec(sql, params, deadline);
}

std::optional<PgResult> PgPoll::run(const QString &view, const QByteArray &sql,
                                    const QList<QByteArray> &params)
{
    PgResult answer = connection.exec(sql, params, deadline);
    if (answer.ok())
        return answer;
    if (answer.timedOut() || !connection.isConnected()) {
        // Out of time or the session is gone: nothing else can run in this poll.
        result.error = view + u": "_s + answer.error();
        return std::nullopt;
    }
    if (answer.sqlState() == InsufficientPrivilege)
        warn(u"%1: permission denied; grant pg_monitor (%2)"_s.arg(view, answer.error()));
    else
        warn(u"%1: skipped: %2"_s.arg(view, answer.error()));
    return std::nullopt;
}

std::optional<QString> PgPoll::timescaleDbSchema()
{
    if (!m_timescaleDbSchema) {
        const PgResult answer = tryRun("SELECT n.nspname FROM pg_catalog.pg_extension e"
                                       " JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace"
                                       " WHERE e.extname = 'timescaledb'");
        m_timescaleDbSchema = answer.ok() && answer.rows() == 1
            ? std::optional<QString>(answer.text(0, 0))
            : std::nullopt;
    }
    return *m_timescaleDbSchema;
}

bool PgPoll::stillReadOnly(const QString &view)
{
    QString broken;
    if (!connection.inOpenTransaction()) {
        broken = u"left Headroom's read-only transaction"_s;
    } else {
        const PgResult check = connection.exec("SELECT current_setting('transaction_read_only'), "
                                               "current_setting('default_transaction_read_only')",
                                               {}, deadline);
        if (!check.ok()) {
            result.error = view + u": "_s + check.error();
            return false;
        }
        if (check.text(0, 0) != "on"_L1 || check.text(0, 1) != "on"_L1)
            broken = u"made the session writable"_s;
    }
    if (broken.isEmpty())
        return true;
    result.error = u"%1 %2; the session was closed and will be opened afresh"_s.arg(view, broken);
    qCWarning(lcPostgres).noquote() << config.sourceId << result.error;
    connection.markBroken(result.error);
    return false;
}

} // namespace Headroom
