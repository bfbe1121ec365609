// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The SQL of the cache's alert_events table (schema version 3), shared by the writer
// thread (inserts, acknowledgements, retention) and readers.
#pragma once

#include "engine/runtime/alertevent.h"

#include <QList>

struct sqlite3;

namespace Headroom {

// "Seen": the user acknowledged an instance's pending and firing events up to a time.
struct AlertAcknowledgement
{
    QString ruleId;
    SeriesKey series;
    qint64 upToMs = 0;
};

namespace AlertEventStore {

// On the writer's connection, inside its transaction. An event already stored (same
// rule, series, time and state: a restart repeating itself) is kept once.
bool insert(sqlite3 *db, const AlertEvent &event);
bool acknowledge(sqlite3 *db, const AlertAcknowledgement &ack);
bool deleteBefore(sqlite3 *db, qint64 beforeMs);

// Events with from <= ts <= to, oldest first (by time, then by row).
bool read(sqlite3 *db, qint64 fromMs, qint64 toMs, QList<AlertEvent> *events, QString *reason);
// The newest event of every instance, oldest first: what the engine restores.
bool readLatestPerInstance(sqlite3 *db, QList<AlertEvent> *events, QString *reason);

} // namespace AlertEventStore
} // namespace Headroom
