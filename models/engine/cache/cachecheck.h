// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// What a cache file or recording must hold before anything reads it: every one is
// untrusted input (a recording comes from someone else; a cache file may have been
// edited). CacheSchema::inspect runs both checks on every open, of the cache and of a
// recording, before the first read; a file that fails is refused with the reason and
// left as it is.
//
// The shape: only the tables the file's schema version has (plus its day tables and
// SQLite's own statistics), each with exactly the columns and plain definition Headroom
// writes, indexes on columns only: no view, trigger, virtual table, generated column,
// CHECK, expression or partial index, which would run code of the file's choosing on a
// read or a write (a view over an endless recursive query hangs every read).
//
// The claims: the values the readers and the analysis turn into loops and allocations
// are within what a real cache holds: every timestamp within [EarliestMs, LatestMs),
// every span with its end not before its start, a block's count of samples at most one
// per millisecond of a day, series ids from 1 to MaxSeriesId, and names and labels of
// at most MaxNameBytes and MaxLabelsBytes. The writer stores nothing outside them, so a
// cache it wrote always opens again.
#pragma once

#include "core/series.h"

#include <QString>

struct sqlite3;

namespace Headroom::CacheCheck {

// 1900-01-01T00:00:00Z and 2200-01-01T00:00:00Z: room for any clock and any import,
// and far enough from the ends of qint64 that no difference or sum of two overflows.
constexpr qint64 EarliestMs = -2208988800000;
constexpr qint64 LatestMs = 7258118400000;
constexpr qint64 MaxSeriesId = qint64(1) << 30;
// Source, metric, unit, resource and kind, in UTF-8 bytes: a Prometheus line is at most
// 64 KiB (expositionparser.h).
constexpr qint64 MaxNameBytes = 64 * 1024;
// The labels as stored ("{a=1,b=x}", escaped): a statement's text as a label is at most
// 4000 characters; 256 KiB leaves room for any exporter's label set.
constexpr qint64 MaxLabelsBytes = 256 * 1024;
// Samples in one block: its timestamps are distinct and inside one UTC day.
constexpr qint64 MaxBlockSamples = 24 * 60 * 60 * 1000;

constexpr bool inTimeRange(qint64 ms)
{
    return ms >= EarliestMs && ms < LatestMs;
}

// Whether the cache may store this series: its names and labels within the bounds
// above. Otherwise false with *why saying which is too long.
bool storable(const SeriesInfo &info, QString *why = nullptr);

// The objects of the open database against those of schema `version` (see above).
// false with *reason (without the path) at the first difference.
bool checkShape(sqlite3 *db, qint64 version, QString *reason);

// The rows of a database whose shape passed checkShape, against the bounds above.
// false with *reason (without the path) naming the table, the row and the value.
bool checkClaims(sqlite3 *db, qint64 version, QString *reason);

} // namespace Headroom::CacheCheck
