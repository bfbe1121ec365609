// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgsizes.h"

#include <QSet>

namespace Headroom {

using namespace Qt::StringLiterals;

PgSizesPart::PgSizesPart(qint64 refreshMs, qint64 minGrowthSpanMs)
    : m_refreshMs(refreshMs)
    , m_minGrowthSpanMs(minGrowthSpanMs)
{
}

QByteArray PgSizesPart::databasesQuery()
{
    static_assert(MaxDatabases == 50);
    // pg_database_size needs CONNECT on the database (or pg_read_all_stats): the others
    // are left out rather than failing the query.
    return "SELECT datname, pg_database_size(oid)::float8 FROM pg_database"
           " WHERE datallowconn AND NOT datistemplate"
           " AND (has_database_privilege(oid, 'CONNECT')"
           "  OR pg_has_role('pg_read_all_stats', 'USAGE'))"
           " ORDER BY 2 DESC, 1 LIMIT 50";
}

QByteArray PgSizesPart::relationsQuery()
{
    static_assert(MaxRelations == 10 && MaxCandidates == 50);
    return "(SELECT 't', n.nspname, c.relname, '', pg_total_relation_size(c.oid)::float8"
           " FROM (SELECT oid, relnamespace, relname FROM pg_class WHERE relkind IN ('r', 'm')"
           "  ORDER BY relpages DESC, oid LIMIT 50) c"
           " JOIN pg_namespace n ON n.oid = c.relnamespace ORDER BY 5 DESC, 2, 3 LIMIT 10)"
           " UNION ALL"
           " (SELECT 'i', n.nspname, c.relname, t.relname, pg_relation_size(c.oid)::float8"
           " FROM (SELECT oid, relnamespace, relname FROM pg_class WHERE relkind = 'i'"
           "  ORDER BY relpages DESC, oid LIMIT 50) c"
           " JOIN pg_index x ON x.indexrelid = c.oid JOIN pg_class t ON t.oid = x.indrelid"
           " JOIN pg_namespace n ON n.oid = c.relnamespace ORDER BY 5 DESC, 2, 3 LIMIT 10)";
}

void PgSizesPart::resetBaselines()
{
    m_lastMs.reset();
    m_history.clear();
}

void PgSizesPart::update(const QList<PgRelationSize> &sizes, const QString &database, qint64 tsMs,
                         const QString &source, SampleBatch &batch)
{
    QSet<QString> present;
    for (const PgRelationSize &r : sizes) {
        QString metric;
        QString resource;
        Labels labels;
        QString key;
        switch (r.kind) {
        case PgRelationSize::Database:
            metric = u"pg.db.size"_s;
            resource = u"db:"_s + r.name;
            labels = { { u"datname"_s, r.name } };
            key = u"d\x1f"_s + r.name;
            break;
        case PgRelationSize::Table:
            metric = u"pg.table.size"_s;
            resource = u"db:"_s + database;
            labels = { { u"schema"_s, r.schema }, { u"table"_s, r.name } };
            key = u"t\x1f"_s + r.schema + u'\x1f' + r.name;
            break;
        case PgRelationSize::Index:
            metric = u"pg.index.size"_s;
            resource = u"db:"_s + database;
            labels = { { u"schema"_s, r.schema }, { u"table"_s, r.table }, { u"index"_s, r.name } };
            key = u"i\x1f"_s + r.schema + u'\x1f' + r.name;
            break;
        }
        present.insert(key);
        batch.add({ source, metric, labels }, u"B"_s, resource, UseKind::Info, r.bytes);
        auto &history = m_history[key];
        if (!history.empty() && tsMs <= history.back().first)
            history.clear(); // time went back: a new start
        history.emplace_back(tsMs, r.bytes);
        while (history.size() > 2 && history[1].first <= tsMs - GrowthWindowMs)
            history.pop_front();
        const qint64 span = tsMs - history.front().first;
        if (span >= m_minGrowthSpanMs && span > 0)
            batch.add({ source, metric + u"_growth"_s, labels }, u"B/h"_s, resource, UseKind::Info,
                      (r.bytes - history.front().second) * 3'600'000.0 / double(span));
    }
    m_history.removeIf([&](const auto &entry) { return !present.contains(entry.key()); });
}

void PgSizesPart::collect(PgPoll &poll)
{
    if (m_lastMs && poll.ts >= *m_lastMs && poll.ts - *m_lastMs < m_refreshMs)
        return;
    m_lastMs = poll.ts;
    QList<PgRelationSize> sizes;
    const auto databases = poll.run(u"database sizes"_s, databasesQuery());
    if (poll.failed())
        return;
    for (int r = 0; databases && r < databases->rows(); ++r) {
        PgRelationSize size;
        size.kind = PgRelationSize::Database;
        size.name = databases->text(r, 0);
        size.bytes = databases->number(r, 1);
        sizes.append(size);
    }
    const auto relations = poll.run(u"table and index sizes"_s, relationsQuery());
    if (poll.failed())
        return;
    for (int r = 0; relations && r < relations->rows(); ++r) {
        PgRelationSize size;
        size.kind = relations->text(r, 0) == "i"_L1 ? PgRelationSize::Index : PgRelationSize::Table;
        size.schema = relations->text(r, 1);
        size.name = relations->text(r, 2);
        size.table = relations->text(r, 3);
        size.bytes = relations->number(r, 4);
        sizes.append(size);
    }
    update(sizes, poll.connection.database(), poll.ts, poll.source(), poll.result.batch);
}

} // namespace Headroom
