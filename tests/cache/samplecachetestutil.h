// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// What the SampleCache tests share (tst_samplecache, tst_cacheretention): a fixed UTC
// day of 2023 for timestamps, options that never expire on their own, known values, and
// read-only queries against the file to check the storage shape itself.
#pragma once

#include "cachetestutil.h"

#include <QString>
#include <cmath>
#include <sqlite3.h>

namespace CacheTest {

using namespace Headroom;

constexpr qint64 DayMs = 86'400'000;
constexpr qint64 Day = 19'700; // 2023-12-09, a UTC day number
constexpr qint64 Base = Day * DayMs + 10 * 3'600'000; // 10:00 UTC that day

inline CacheOptions testOptions(int flushIntervalMs = 1000)
{
    CacheOptions options;
    options.retentionDays = 0; // timestamps are from 2023: nothing may expire on its own
    options.flushIntervalMs = flushIntervalMs;
    return options;
}

inline double valueOf(int series, int i)
{
    return series * 1000 + std::round(std::sin(i / 10.0) * 5000) / 100.0;
}

// Small read-only queries against the file, to check the storage shape itself.
struct RawDb
{
    sqlite3 *db = nullptr;
    explicit RawDb(const QString &path)
    {
        sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
    }
    ~RawDb() { sqlite3_close(db); }
    qint64 scalar(const QByteArray &sql) const
    {
        sqlite3_stmt *st = nullptr;
        qint64 v = -1;
        if (sqlite3_prepare_v2(db, sql.constData(), -1, &st, nullptr) == SQLITE_OK
            && sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        return v;
    }
};

} // namespace CacheTest
