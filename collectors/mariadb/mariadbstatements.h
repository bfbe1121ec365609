// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The busiest statements, from performance_schema.events_statements_summary_by_digest
// (performance_schema=ON; MariaDB 10.6+, MySQL 8.0+). Counters are read every poll
// without the texts; a digest's text is read once, when it first ranks among the
// busiest. Per statement of the top (labels {schema, queryid: the digest's first 16
// hex digits, query: the digest text, literals already ? and cut to 200 characters}):
//   mariadb.statements.calls.rate, mariadb.statements.exec_time.rate (ms/s),
//   mariadb.statements.mean_time_ms, mariadb.statements.rows_examined.rate,
//   mariadb.statements.rows_sent.rate, mariadb.statements.rows_examined_per_row_sent
//   (a statement that reads far more rows than it returns: the plan-flip signal after
//   an index drop; only while it sends rows), mariadb.statements.no_index_used.rate (executions
//   that scanned without an index)
// and server-wide mariadb.statements.total.calls.rate and .total.exec_time.rate.
// A reset (TRUNCATE of the summary, a digest evicted) gives a gap, never a spike; a
// statement first run since the last poll is rated from zero.
// Headroom's own statements (on performance_schema, information_schema, SHOW) are left
// out of the top.
#pragma once

#include "collector/rowcounterrates.h"
#include "core/sample.h"

#include <QHash>
#include <QList>
#include <QString>

namespace Headroom {

class MariadbStatements
{
public:
    struct Row
    {
        QString schema;
        QString digest; // hex
        double calls = 0;
        double timerWaitPs = 0; // picoseconds
        double rowsExamined = 0;
        double rowsSent = 0;
        double noIndexUsed = 0;
    };

    // Columns: SCHEMA_NAME, DIGEST, COUNT_STAR, SUM_TIMER_WAIT, SUM_ROWS_EXAMINED,
    // SUM_ROWS_SENT, SUM_NO_INDEX_USED + SUM_NO_GOOD_INDEX_USED.
    static QByteArray countersQuery();
    // Columns: DIGEST, DIGEST_TEXT for the given digests; digests that are not plain
    // hex (the server's answer is untrusted) are left out; empty when none remain.
    static QByteArray textsQuery(const QStringList &digests);

    explicit MariadbStatements(int top)
        : m_top(top)
    {
    }

    // Rates of this poll; returns the digests among the busiest whose text is not known
    // yet (read them with textsQuery and hand them to setText, then call publish).
    QStringList update(const QList<Row> &rows, qint64 tsMs);
    void setText(const QString &digest, const QString &text);
    void publish(const QString &source, SampleBatch &batch) const;
    void clear();

    static bool isOwnStatement(const QString &digestText);

private:
    struct Rated
    {
        QString schema;
        QString digest;
        double calls = 0;
        double timeMs = 0;
        double rowsExamined = 0;
        double rowsSent = 0;
        double noIndex = 0;
    };
    int m_top;
    RowCounterRates m_rates;
    QHash<QString, QString> m_texts; // digest -> text; own statements as empty text
    QList<Rated> m_busiest; // by time, this poll
    double m_totalCalls = -1;
    double m_totalTimeMs = -1;
};

} // namespace Headroom
