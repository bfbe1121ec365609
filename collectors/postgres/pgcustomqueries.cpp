// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgcustomqueries.h"

#include "pgsqlguard.h"

#include <QSet>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
const QByteArray ReadOnlyTransaction = "25006";
}

PgCustomQueriesPart::PgCustomQueriesPart(QList<PgCustomQuery> queries)
    : m_queries(std::move(queries))
{
    // One row more than is used, to tell "exactly MaxRows" from "more".
    for (const PgCustomQuery &query : std::as_const(m_queries))
        m_sql.append(limitedQuerySql(query.sql, MaxRows + 1, MaxRowBytes));
}

void PgCustomQueriesPart::collect(PgPoll &poll)
{
    if (m_queries.isEmpty())
        return;
    if (!poll.run(u"queries"_s, "BEGIN TRANSACTION READ ONLY"))
        return;
    for (qsizetype i = 0; i < m_queries.size(); ++i) {
        if (!runOne(poll, m_queries.at(i), m_sql.at(i)))
            break;
    }
    if (!poll.failed())
        poll.run(u"queries"_s, "ROLLBACK");
    // Out of time: the collector ends the transaction at the start of the next poll
    // (PgConnection::inTransaction), before anything else runs.
}

bool PgCustomQueriesPart::runOne(PgPoll &poll, const PgCustomQuery &query, const QByteArray &sql)
{
    const QString view = u"query \"%1\""_s.arg(query.name);
    if (!poll.run(view, "SAVEPOINT headroom_query"))
        return false;
    const PgResult result = poll.tryRun(sql);
    if (result.ok()) {
        if (!poll.stillReadOnly(view))
            return false;
        const QStringList problems = addSeries(query, result, poll.source(), poll.result.batch);
        for (const QString &problem : problems)
            poll.warn(view + u": "_s + problem);
        return bool(poll.run(view, "RELEASE SAVEPOINT headroom_query"));
    }
    if (result.timedOut() || !poll.connection.isConnected()) {
        poll.result.error = view + u": "_s + result.error();
        return false;
    }
    if (result.sqlState() == ReadOnlyTransaction)
        poll.warn(u"%1: refused: Headroom's session is read-only and a dashboard query may "
                  "not write (%2)"_s.arg(view, result.error()));
    else
        poll.warn(u"%1: failed: %2"_s.arg(view, result.error()));
    return poll.run(view, "ROLLBACK TO SAVEPOINT headroom_query") && poll.stillReadOnly(view);
}

QStringList PgCustomQueriesPart::addSeries(const PgCustomQuery &query, const PgResult &result,
                                           const QString &source, SampleBatch &batch)
{
    QStringList problems;
    QList<int> labelColumns;
    QList<int> valueColumns;
    for (int c = 0; c < result.columns(); ++c)
        (result.isNumericColumn(c) ? valueColumns : labelColumns).append(c);
    if (valueColumns.isEmpty()) {
        problems << u"no numeric column, so no series (text columns are labels)"_s;
        return problems;
    }
    // Two columns of one name would be two values of one series at one instant.
    QSet<QString> columnNames;
    for (int c = 0; c < result.columns(); ++c) {
        const QString name = result.columnName(c);
        if (columnNames.contains(name)) {
            problems << u"two columns are named \"%1\"; give them distinct names with AS"_s.arg(
                name);
            return problems;
        }
        columnNames.insert(name);
    }
    const int rows = std::min(result.rows(), MaxRows);
    if (result.rows() > MaxRows)
        problems << u"more than %1 rows; only the first %1 are used"_s.arg(MaxRows);

    QSet<QString> seen;
    int duplicates = 0;
    for (int r = 0; r < rows; ++r) {
        Labels labels;
        for (int c : std::as_const(labelColumns))
            labels.insert(result.columnName(c), result.text(r, c));
        const QString identity = labelsToString(labels);
        if (seen.contains(identity)) {
            ++duplicates;
            continue;
        }
        seen.insert(identity);
        for (int c : std::as_const(valueColumns)) {
            bool ok = false;
            const double value = result.number(r, c, &ok);
            if (!ok)
                continue; // NULL: no sample, a gap
            SeriesInfo info;
            info.key
                = { source, u"pg.query.%1.%2"_s.arg(query.name, result.columnName(c)), labels };
            info.resource = u"pg"_s;
            info.kind = UseKind::Info;
            batch.add(info, value);
        }
    }
    if (duplicates > 0)
        problems << u"%1 rows repeat the text columns of an earlier row and were ignored; "
                    "make the text columns unique"_s.arg(duplicates);
    return problems;
}

} // namespace Headroom
