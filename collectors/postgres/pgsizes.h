// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Sizes and their growth, read once every RefreshMs (a minute; sizes move slowly and
// measuring them walks the data files): two queries then, none in the polls between.
//   pg.db.size{datname}                every database one may connect to, at most
//                                      MaxDatabases, the largest first (B, Info;
//                                      resource "db:<datname>")
//   pg.table.size{schema, table}       the MaxRelations largest tables and materialized
//                                      views of the connected database, with their
//                                      indexes and TOAST (pg_total_relation_size)
//   pg.index.size{schema, table, index}
//                                      the MaxRelations largest indexes of it
//                                      (resource "db:<connected database>")
//   pg.db.size_growth, pg.table.size_growth, pg.index.size_growth
//                                      the same labels: growth per hour over the last
//                                      hour of readings, once they span MinGrowthSpanMs
//                                      (B/h, Info; negative when it shrank)
// The largest relations are found by the planner's page count (relpages, which VACUUM
// and ANALYZE keep; MaxCandidates of each kind), then measured: no poll stats every file
// of a database with thousands of tables. A table never vacuumed nor analyzed has no
// page count yet and may be missed until autovacuum reaches it.
// Temp files per statement come with pg_stat_statements (pgstatements.h:
// pg.statements.temp_bytes.rate).
#pragma once

#include "pgpoll.h"

#include <QHash>
#include <QList>
#include <QString>
#include <deque>
#include <optional>

namespace Headroom {

struct PgRelationSize
{
    enum Kind
    {
        Database,
        Table,
        Index
    };
    Kind kind = Table;
    QString schema;
    QString name; // the database, table or index
    QString table; // an index's table
    double bytes = 0;
};

class PgSizesPart : public PgPart
{
public:
    static constexpr qint64 RefreshMs = 60'000;
    static constexpr qint64 GrowthWindowMs = 60 * 60'000;
    static constexpr qint64 MinGrowthSpanMs = 5 * 60'000;
    static constexpr int MaxDatabases = 50;
    static constexpr int MaxRelations = 10;
    static constexpr int MaxCandidates = 50;

    explicit PgSizesPart(qint64 refreshMs = RefreshMs, qint64 minGrowthSpanMs = MinGrowthSpanMs);

    // Columns: datname, bytes.
    static QByteArray databasesQuery();
    // Columns: kind ('t' table, 'i' index), schema, name, table (of an index), bytes.
    static QByteArray relationsQuery();

    // Publishes the sizes read at tsMs (with the connected database's name for the
    // tables' resource) and their growth.
    void update(const QList<PgRelationSize> &sizes, const QString &database, qint64 tsMs,
                const QString &source, SampleBatch &batch);

    void collect(PgPoll &poll) override;
    void resetBaselines() override;

private:
    qint64 m_refreshMs;
    qint64 m_minGrowthSpanMs;
    std::optional<qint64> m_lastMs;
    // Readings per relation ("d\x1fdb", "t\x1fschema\x1ftable", ...), oldest first, over
    // the last GrowthWindowMs; relations gone from a refresh are forgotten.
    QHash<QString, std::deque<std::pair<qint64, double>>> m_history;
};

} // namespace Headroom
