// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The cache file's identity, schema and migrations, and the names of its day tables.
//
// Schema (version 6):
//   series(id, source, metric, labels, unit, resource, kind, histogram)  ids are the
//       SeriesRegistry ids, so they stay stable across restarts
//   chunks(day)                        catalogue of the day tables that exist
//   blocks_<day>(series_id, start_ts, end_ts, count, data, min, max, sum)  sealed
//       compressed blocks, written once, never updated (see blockcodec.h), with their
//       summary (the rollup long ranges are read from; NULL in blocks of version 1)
//   hist_<day>(series_id, ts, data)    serialized LogHistogram per interval
//   tail_chunks(series_id, seq, first_ts, last_ts, count, data)  the unsealed recent
//       samples, crash-safe: one compressed chunk per series per commit, in seq order
//   alert_events(id, ts, rule_id, rule_name, source, metric, labels, state, value,
//       severity, message, hint, acked)  alert state changes (alerts/alertevent.h)
//   dashboards(name, json)             the dashboards a saved recording was made with
//   rollup(tier, series_id, start_ts, first_slot, slots, data)  the minute and hour
//       tiers (rollup.h), covering slots [first_slot, slots), each with its own retention
//   rollup_hist(tier, series_id, start_ts, data)  a histogram series' merged histogram
//       per finished minute and hour
// Retention takes a day out of chunks, then frees blocks_<day> and hist_<day> in slices
// and drops them (DayReclaimer; story 5 in DESIGN.md).
#pragma once

#include <QByteArray>
#include <QString>
#include <optional>

struct sqlite3;

namespace Headroom::CacheSchema {

// PRAGMA application_id of every Headroom cache: "HDR1".
constexpr quint32 ApplicationId = 0x48445231;
constexpr int Version = 6; // PRAGMA user_version; SampleCache::SchemaVersion mirrors it
// The oldest schema the readers read as it is: 4 only adds the dashboards table and 6
// the rollup table, which a reader finds missing and takes as none (a recording of 3
// needs no migrated copy).
constexpr int OldestReadInPlace = 3;
constexpr qint64 DayMs = 24 * 60 * 60 * 1000;

// UTC day number of a timestamp, rounding towards minus infinity.
qint64 dayOf(qint64 tsMs);
QByteArray blocksTable(qint64 day);
QByteArray histTable(qint64 day);
// The day of a day table's name (blocks_<day> or hist_<day>); nullopt for any other name.
std::optional<qint64> dayOfTable(const QByteArray &name);

// Read-only inspection before anything may be written or read: true when path is
// missing, empty, or a Headroom cache this build can open (possibly after migration)
// whose tables and rows pass the checks of cachecheck.h. Otherwise false with *error
// naming the file and the reason. Never modifies the file, nor creates anything beside
// it. Every open of a cache or a recording goes through here first. *userVersion (when
// given) gets the file's schema version, 0 for a missing or empty file.
bool inspect(const QString &path, QString *error, qint64 *userVersion = nullptr);

// On the write connection: creates the schema in a new file or migrates an older one,
// in one transaction. *error gets the reason (without the path) on failure.
bool createOrMigrate(sqlite3 *db, QString *error);

// Creates in an empty database the tables a file of schema `version` holds, as the
// migrations made them (the reference the shape check of cachecheck.h compares with).
bool createVersion(sqlite3 *db, int version, QString *error);

// SQL creating the day tables of day and registering them in the catalogue.
QByteArray createDayTablesSql(qint64 day);
// SQL creating the series index of a day's blocks (series, time, summary).
QByteArray blocksIndexSql(qint64 day);

} // namespace Headroom::CacheSchema
