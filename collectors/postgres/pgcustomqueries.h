// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A dashboard's own queries (option "queries"). Each row of a query's result gives
// series pg.query.<name>.<numeric column>, labelled by its text columns. They run in
// one READ ONLY transaction per poll, each under a savepoint so one failing query
// does not take the others with it, and the transaction is rolled back at the end: a
// write is refused by the server (reported as such). Each runs as a limited sub-select
// (pgsqlguard.h) and the session's read-only state is checked after each.
#pragma once

#include "pgpoll.h"
#include "postgresoptions.h"

namespace Headroom {

class PgCustomQueriesPart : public PgPart
{
public:
    explicit PgCustomQueriesPart(QList<PgCustomQuery> queries);

    void collect(PgPoll &poll) override;
    void resetBaselines() override { }

    static constexpr int MaxRows = 1000;
    // Per row, as text: with MaxRows, at most ~8 MB of a result is ever buffered.
    static constexpr int MaxRowBytes = 8192;

    // Adds the series of one query's result; returns the problems found (duplicate
    // label sets, too many rows, no numeric column).
    static QStringList addSeries(const PgCustomQuery &query, const PgResult &result,
                                 const QString &source, SampleBatch &batch);

private:
    bool runOne(PgPoll &poll, const PgCustomQuery &query, const QByteArray &sql);

    QList<PgCustomQuery> m_queries;
    QList<QByteArray> m_sql; // as sent: limitedQuerySql() of each query
};

} // namespace Headroom
