// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// CacheWriter after a failed commit: the status it reports, the pending data it keeps
// (within a memory bound) for the retry, and on a full disk the oldest day it drops to
// make room.
#include "cachelogging.h"
#include "engine/cache/cachewriter.h"
#include "engine/cache/cachewriterlimits.h"

#include <QDateTime>
#include <QTimeZone>
#include <algorithm>
#include <optional>
#include <sqlite3.h>

namespace Headroom {

using namespace Qt::StringLiterals;
using namespace CacheSchema;
using namespace CacheWriterLimits;

void CacheWriter::noteCommitFailure(const QString &error)
{
    if (!m_lastCommitFailed) {
        qCWarning(lcCache) << "cache: commit failed, will retry:" << error;
        m_ownStatus.failingSinceMs = QDateTime::currentMSecsSinceEpoch();
    }
    m_lastCommitFailed = true;
    ++m_ownStatus.failedCommits;
    m_ownStatus.reason = error;
    m_ownStatus.diskFull = (m_lastErrorCode & 0xff) == SQLITE_FULL;
}

void CacheWriter::updateStatus()
{
    m_ownStatus.reclaimingDays = m_reclaimer ? m_reclaimer->pendingDays() : 0;
    m_ownStatus.checkpoints = m_checkpointer.checkpoints();
    m_ownStatus.writeFailing = m_lastCommitFailed;
    if (!m_lastCommitFailed)
        m_ownStatus.diskFull = false;
    m_ownStatus.pendingBytes = m_pendingDataBytes;
    std::lock_guard lock(m_statusMutex);
    m_status = m_ownStatus;
}

void CacheWriter::recoverFromFailedCommit()
{
    // Room can only be made when space is what is missing; an I/O error is retried as is.
    if ((m_lastErrorCode & 0xff) != SQLITE_FULL)
        return;
    // One day per episode: when dropping one did not let a commit through, the disk is
    // filled by something else, and dropping the rest of the history would not help.
    if (m_expiryTriedThisEpisode)
        return;
    m_expiryTriedThisEpisode = true;
    if (expireOldestDayForSpace())
        commit();
}

bool CacheWriter::expireOldestDayForSpace()
{
    // Never the day being written: today, nor any day that still has samples waiting.
    qint64 protectedFrom = dayOf(QDateTime::currentMSecsSinceEpoch());
    if (m_newestTs != std::numeric_limits<qint64>::min())
        protectedFrom = std::min(protectedFrom, dayOf(m_newestTs));
    for (const PendingBlock &block : m_pendingBlocks)
        protectedFrom = std::min(protectedFrom, block.day);
    for (const PendingHistogram &h : m_pendingHistograms)
        protectedFrom = std::min(protectedFrom, h.day);
    for (const auto &[id, state] : m_series) {
        if (!state.open.empty())
            protectedFrom = std::min(protectedFrom, dayOf(state.open.front().tsMs));
    }
    std::optional<qint64> oldest;
    for (qint64 day : std::as_const(m_days)) {
        if (day < protectedFrom && (!oldest || day < *oldest))
            oldest = day;
    }
    if (!oldest) {
        qCWarning(lcCache) << "cache: disk full and no day older than the one being written"
                              " to drop; waiting for space";
        return false;
    }
    if (m_reserve && m_reserve->release())
        qCWarning(lcCache) << "cache: disk full: gave back the space reserve" << m_reserve->path()
                           << "so that the oldest day can be dropped";
    const int dropped = dropDays((*oldest + 1) * DayMs, Drop::Whole);
    if (dropped == 0)
        return false;
    m_ownStatus.daysExpiredForSpace += dropped;
    qCWarning(lcCache).noquote()
        << u"cache: disk full: dropped the oldest day chunk (%1) to make room"_s.arg(
               QDateTime::fromMSecsSinceEpoch(*oldest * DayMs, QTimeZone::UTC)
                   .date()
                   .toString(Qt::ISODate));
    // The freed pages are reused by the next commits; a WAL reset also gives its file's
    // space back when the checkpoint can complete.
    Sqlite::exec(m_db.get(), "PRAGMA wal_checkpoint(TRUNCATE)");
    return true;
}

void CacheWriter::capPendingMemory()
{
    if (m_pendingDataBytes <= m_options.maxPendingBytes)
        return;
    // Oldest first (blocks are sealed in time order). A block holding samples whose only
    // copy on disk is its series' tail chunks is kept: it is at most one per series, and
    // dropping it would let a later block's tail delete take committed samples along.
    qint64 blocks = 0, samples = 0, histograms = 0;
    std::erase_if(m_pendingBlocks, [&](const PendingBlock &block) {
        if (m_pendingDataBytes <= m_options.maxPendingBytes || block.holdsCommittedSamples)
            return false;
        m_pendingDataBytes -= PendingBlockOverhead + block.data.size();
        m_pendingBlockBytes -= 64 + qsizetype(block.count) * 2;
        ++blocks;
        samples += block.count;
        return true;
    });
    std::erase_if(m_pendingHistograms, [&](const PendingHistogram &h) {
        if (m_pendingDataBytes <= m_options.maxPendingBytes)
            return false;
        m_pendingDataBytes -= PendingBlockOverhead + h.data.size();
        ++histograms;
        return true;
    });
    if (blocks == 0 && histograms == 0)
        return;
    if (m_ownStatus.droppedBlocks == 0 && m_ownStatus.droppedHistograms == 0)
        qCWarning(lcCache) << "cache: writes failing; dropping the oldest pending blocks beyond"
                           << m_options.maxPendingBytes << "bytes (counted in the status)";
    m_ownStatus.droppedBlocks += blocks;
    m_ownStatus.droppedSamples += samples;
    m_ownStatus.droppedHistograms += histograms;
}

} // namespace Headroom
