// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "mariadbstatements.h"

#include <QRegularExpression>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

constexpr int MaxKnownTexts = 5000;

bool isHexDigest(const QString &digest)
{
    static const QRegularExpression hex(u"^[0-9a-fA-F]{1,64}$"_s);
    return hex.match(digest).hasMatch();
}

} // namespace

QByteArray MariadbStatements::countersQuery()
{
    return "SELECT SCHEMA_NAME, DIGEST, COUNT_STAR, SUM_TIMER_WAIT, SUM_ROWS_EXAMINED,"
           " SUM_ROWS_SENT, SUM_NO_INDEX_USED + SUM_NO_GOOD_INDEX_USED"
           " FROM performance_schema.events_statements_summary_by_digest"
           " WHERE DIGEST IS NOT NULL";
}

QByteArray MariadbStatements::textsQuery(const QStringList &digests)
{
    QByteArrayList quoted;
    for (const QString &digest : digests) {
        if (isHexDigest(digest))
            quoted.append('\'' + digest.toLatin1() + '\'');
    }
    if (quoted.isEmpty())
        return {};
    return "SELECT DIGEST, LEFT(DIGEST_TEXT, 1000)"
           " FROM performance_schema.events_statements_summary_by_digest WHERE DIGEST IN ("
        + quoted.join(',') + ')';
}

bool MariadbStatements::isOwnStatement(const QString &digestText)
{
    const QString text = digestText.trimmed();
    return text.startsWith("SHOW "_L1, Qt::CaseInsensitive)
        || text.startsWith("SET SESSION"_L1, Qt::CaseInsensitive)
        || text.contains("performance_schema"_L1, Qt::CaseInsensitive)
        || text.contains("information_schema"_L1, Qt::CaseInsensitive);
}

QStringList MariadbStatements::update(const QList<Row> &rows, qint64 tsMs)
{
    m_busiest.clear();
    double totalCalls = 0;
    double totalTime = 0;
    bool anyRate = false;
    m_rates.beginRead(tsMs);
    for (const Row &row : rows) {
        const QString key = row.schema + u'\x1f' + row.digest;
        const auto calls = m_rates.update(key, u'c', row.calls);
        const auto time = m_rates.update(key, u't', row.timerWaitPs / 1e9);
        const auto examined = m_rates.update(key, u'e', row.rowsExamined);
        const auto sent = m_rates.update(key, u's', row.rowsSent);
        const auto noIndex = m_rates.update(key, u'n', row.noIndexUsed);
        if (!calls || !time || !examined || !sent || !noIndex)
            continue;
        anyRate = true;
        const auto own = m_texts.constFind(row.digest);
        if (own != m_texts.cend() && own->isEmpty())
            continue;
        totalCalls += *calls;
        totalTime += *time;
        if (*calls > 0)
            m_busiest.append({ row.schema, row.digest, *calls, *time, *examined, *sent, *noIndex });
    }
    m_rates.endRead();
    m_totalCalls = anyRate ? totalCalls : -1;
    m_totalTimeMs = anyRate ? totalTime : -1;
    std::sort(m_busiest.begin(), m_busiest.end(),
              [](const Rated &a, const Rated &b) { return a.timeMs > b.timeMs; });
    // A few more than the top: some may turn out to be our own.
    if (m_busiest.size() > m_top + 20)
        m_busiest.resize(m_top + 20);
    QStringList unknown;
    for (const Rated &r : std::as_const(m_busiest)) {
        if (!m_texts.contains(r.digest) && !unknown.contains(r.digest))
            unknown.append(r.digest);
    }
    return unknown;
}

void MariadbStatements::setText(const QString &digest, const QString &text)
{
    if (m_texts.size() >= MaxKnownTexts)
        m_texts.clear(); // read again as they rank; keeps a digest flood bounded
    // Own statements are remembered with an empty text and left out from now on.
    m_texts.insert(digest, isOwnStatement(text) ? QString() : text.simplified().left(200));
}

void MariadbStatements::publish(const QString &source, SampleBatch &batch) const
{
    const QString resource = u"mariadb"_s;
    if (m_totalCalls >= 0) {
        batch.add({ source, u"mariadb.statements.total.calls.rate"_s, {} }, u"1/s"_s, resource,
                  UseKind::Throughput, m_totalCalls);
        batch.add({ source, u"mariadb.statements.total.exec_time.rate"_s, {} }, u"ms/s"_s, resource,
                  UseKind::Utilization, m_totalTimeMs);
    }
    int published = 0;
    for (const Rated &r : m_busiest) {
        if (published >= m_top)
            break;
        const QString text = m_texts.value(r.digest);
        if (text.isEmpty())
            continue; // our own, or its text could not be read
        ++published;
        const Labels labels { { u"schema"_s, r.schema },
                              { u"queryid"_s, r.digest.left(16) },
                              { u"query"_s, text } };
        const auto add = [&](const QString &metric, const QString &unit, UseKind kind, double v) {
            batch.add({ source, metric, labels }, unit, resource, kind, v);
        };
        add(u"mariadb.statements.calls.rate"_s, u"1/s"_s, UseKind::Throughput, r.calls);
        add(u"mariadb.statements.exec_time.rate"_s, u"ms/s"_s, UseKind::Utilization, r.timeMs);
        add(u"mariadb.statements.mean_time_ms"_s, u"ms"_s, UseKind::Info, r.timeMs / r.calls);
        add(u"mariadb.statements.rows_examined.rate"_s, u"1/s"_s, UseKind::Throughput,
            r.rowsExamined);
        add(u"mariadb.statements.rows_sent.rate"_s, u"1/s"_s, UseKind::Throughput, r.rowsSent);
        // Only when it sent rows: an UPDATE or DELETE sends none, and its rows examined
        // per second are no plan flip.
        if (r.rowsSent > 0)
            add(u"mariadb.statements.rows_examined_per_row_sent"_s, u"rows"_s, UseKind::Info,
                r.rowsExamined / r.rowsSent);
        add(u"mariadb.statements.no_index_used.rate"_s, u"1/s"_s, UseKind::Info, r.noIndex);
    }
}

void MariadbStatements::clear()
{
    m_rates.clear();
    m_busiest.clear();
    m_totalCalls = m_totalTimeMs = -1;
}

} // namespace Headroom
