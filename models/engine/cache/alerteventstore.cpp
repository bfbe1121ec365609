// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/alerteventstore.h"

#include "engine/cache/sqlitedb.h"

#include <sqlite3.h>

namespace Headroom::AlertEventStore {

namespace {

constexpr const char *Columns = "id, ts, rule_id, rule_name, source, metric, labels, state, value,"
                                " severity, message, hint, acked";

AlertEvent eventFromRow(const Sqlite::Statement &row)
{
    AlertEvent event;
    event.id = row.columnInt64(0);
    event.tsMs = row.columnInt64(1);
    event.ruleId = row.columnText(2);
    event.ruleName = row.columnText(3);
    event.series.source = row.columnText(4);
    event.series.metric = row.columnText(5);
    event.series.labels = labelsFromString(row.columnText(6));
    event.state = alertStateFromName(row.columnText(7)).value_or(AlertState::Ok);
    event.value = row.columnIsNull(8) ? qQNaN() : row.columnDouble(8);
    event.severity = alertSeverityFromName(row.columnText(9)).value_or(AlertSeverity::Warning);
    event.message = row.columnText(10);
    event.hint = row.columnText(11);
    event.acknowledged = row.columnInt64(12) != 0;
    return event;
}

bool readAll(sqlite3 *db, Sqlite::Statement &st, QList<AlertEvent> *events, QString *reason)
{
    bool done = false;
    while (st.step(&done))
        events->append(eventFromRow(st));
    if (!done && reason)
        *reason = Sqlite::errorText(db);
    return done;
}

} // namespace

bool insert(sqlite3 *db, const AlertEvent &event)
{
    Sqlite::Statement st(db,
                         "INSERT OR IGNORE INTO alert_events(ts, rule_id, rule_name, source,"
                         " metric, labels, state, value, severity, message, hint, acked)"
                         " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    st.bind(1, event.tsMs);
    st.bind(2, event.ruleId);
    st.bind(3, event.ruleName);
    st.bind(4, event.series.source);
    st.bind(5, event.series.metric);
    st.bind(6, labelsToString(event.series.labels));
    st.bind(7, alertStateName(event.state));
    st.bind(8, event.value);
    st.bind(9, alertSeverityName(event.severity));
    st.bind(10, event.message);
    st.bind(11, event.hint);
    st.bind(12, qint64(event.acknowledged ? 1 : 0));
    return st.run();
}

bool acknowledge(sqlite3 *db, const AlertAcknowledgement &ack)
{
    Sqlite::Statement st(db,
                         "UPDATE alert_events SET acked = 1 WHERE rule_id = ? AND source = ?"
                         " AND metric = ? AND labels = ? AND ts <= ?"
                         " AND state IN ('pending', 'firing') AND acked = 0");
    st.bind(1, ack.ruleId);
    st.bind(2, ack.series.source);
    st.bind(3, ack.series.metric);
    st.bind(4, labelsToString(ack.series.labels));
    st.bind(5, ack.upToMs);
    return st.run();
}

bool deleteBefore(sqlite3 *db, qint64 beforeMs)
{
    Sqlite::Statement st(db, "DELETE FROM alert_events WHERE ts < ?");
    st.bind(1, beforeMs);
    return st.run();
}

bool read(sqlite3 *db, qint64 fromMs, qint64 toMs, QList<AlertEvent> *events, QString *reason)
{
    Sqlite::Statement st(db,
                         QByteArray("SELECT ") + Columns
                             + " FROM alert_events WHERE ts BETWEEN ? AND ? ORDER BY ts, id");
    st.bind(1, fromMs);
    st.bind(2, toMs);
    return readAll(db, st, events, reason);
}

bool readLatestPerInstance(sqlite3 *db, QList<AlertEvent> *events, QString *reason)
{
    // The newest row of an instance is its largest id: rows are only ever appended.
    Sqlite::Statement st(db,
                         "SELECT id, ts, rule_id, rule_name, source, metric, labels, state, value,"
                         " severity, message, hint, acked FROM (SELECT max(id) AS latest"
                         " FROM alert_events GROUP BY rule_id, source, metric, labels)"
                         " JOIN alert_events ON id = latest ORDER BY ts, id");
    return readAll(db, st, events, reason);
}

} // namespace Headroom::AlertEventStore
