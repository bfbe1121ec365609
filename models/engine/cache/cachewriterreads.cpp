// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// What CacheWriter reads back on its own connection for the rollup builder: a series'
// stored samples, whether it has blocks, its minute slots and its histograms over a
// range, so that a tier is built from what is in the file, committed or about to be.
#include "cachelogging.h"
#include "engine/cache/blockcodec.h"
#include "engine/cache/cachewriter.h"

#include <optional>
#include <sqlite3.h>

namespace Headroom {

using namespace Qt::StringLiterals;
using namespace CacheSchema;

bool CacheWriter::readStoredSamples(int id, qint64 fromMs, qint64 toMs, std::vector<Sample> *out)
{
    for (qint64 day = dayOf(fromMs); day <= dayOf(toMs - 1); ++day) {
        if (!m_days.contains(day))
            continue;
        Sqlite::Statement st(m_db.get(),
                             "SELECT data FROM " + blocksTable(day)
                                 + " WHERE series_id = ? AND start_ts < ? AND end_ts >= ?");
        st.bind(1, qint64(id));
        st.bind(2, toMs);
        st.bind(3, fromMs);
        bool done = false;
        while (st.step(&done)) {
            if (!BlockCodec::decode(st.columnBlob(0), out))
                qCWarning(lcCache) << "cache: rollup skips an unreadable block of series" << id;
        }
        if (!done)
            return false;
    }
    return true;
}

bool CacheWriter::hasStoredBlocks(int id, qint64 fromMs, qint64 toMs)
{
    for (qint64 day = dayOf(fromMs); day <= dayOf(toMs - 1); ++day) {
        if (!m_days.contains(day))
            continue;
        Sqlite::Statement st(m_db.get(),
                             "SELECT 1 FROM " + blocksTable(day)
                                 + " WHERE series_id = ? AND start_ts < ? AND end_ts >= ? LIMIT 1");
        st.bind(1, qint64(id));
        st.bind(2, toMs);
        st.bind(3, fromMs);
        if (st.step())
            return true;
    }
    return false;
}

bool CacheWriter::readMinuteSlots(int id, qint64 fromMs, qint64 toMs, std::vector<Aggregate> *out)
{
    Sqlite::Statement st(m_db.get(),
                         "SELECT start_ts, data FROM rollup WHERE tier = ? AND series_id = ?"
                         " AND start_ts >= ? AND start_ts < ?");
    st.bind(1, qint64(RollupTier::Minute));
    st.bind(2, qint64(id));
    st.bind(3, fromMs);
    st.bind(4, toMs);
    bool done = false;
    while (st.step(&done)) {
        QString error;
        if (!RollupCodec::decode(RollupTier::Minute, st.columnInt64(0), st.columnBlob(1), out,
                                 &error))
            qCWarning(lcCache) << "cache: rollup skips an unreadable row of series" << id << ":"
                               << error;
    }
    return done;
}

bool CacheWriter::readStoredHistograms(int id, std::optional<RollupTier> tier, qint64 fromMs,
                                       qint64 toMs, std::vector<TimedHistogram> *out)
{
    const auto readRows = [&](const QByteArray &sql) {
        Sqlite::Statement st(m_db.get(), sql);
        st.bind(1, qint64(id));
        st.bind(2, fromMs);
        st.bind(3, toMs);
        bool done = false;
        while (st.step(&done)) {
            bool ok = false;
            LogHistogram h = LogHistogram::deserialize(st.columnBlob(1), &ok);
            if (ok)
                out->emplace_back(st.columnInt64(0), std::move(h));
        }
        return done;
    };
    if (tier)
        return readRows("SELECT start_ts, data FROM rollup_hist WHERE tier = "
                        + QByteArray::number(int(*tier))
                        + " AND series_id = ? AND start_ts >= ? AND start_ts < ?");
    for (qint64 day = dayOf(fromMs); day <= dayOf(toMs - 1); ++day) {
        if (m_days.contains(day)
            && !readRows("SELECT ts, data FROM " + histTable(day)
                         + " WHERE series_id = ? AND ts >= ? AND ts < ?"))
            return false;
    }
    return true;
}

} // namespace Headroom
