// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// How the cache's writes are going, for the status bar and the headless exit code.
//
// The writer thread fills it after every commit attempt; SampleCache::status() hands
// out a copy. Counters run from open() on, so a headless run can tell afterwards that
// something it collected was not stored even when the disk had room again at the end.
#pragma once

#include <QString>

namespace Headroom {

struct CacheStatus
{
    bool writeFailing = false; // the last commit failed; what is pending waits in memory
    bool diskFull = false; // ... with SQLITE_FULL (no space on the file system)
    QString reason; // SQLite's message of the newest failure ("database or disk is full")
    qint64 failingSinceMs = 0; // wall clock of the first failure of the current episode
    int failedCommits = 0; // since open
    qint64 droppedBlocks = 0; // pending blocks dropped at the memory cap, since open
    qint64 droppedSamples = 0; // the samples in them
    qint64 droppedHistograms = 0; // pending histograms dropped at the cap
    int daysExpiredForSpace = 0; // oldest day chunks dropped to make room, since open
    qint64 pendingBytes = 0; // what waits for the next commit (blocks and histograms)
    int reclaimingDays = 0; // expired days whose tables are still being freed in slices
    int checkpoints = 0; // WAL checkpoints run off the writer's thread, since open

    // Something written to the cache since open was refused or lost.
    bool hadWriteErrors() const { return failedCommits > 0; }
    bool lostSamples() const { return droppedBlocks > 0 || droppedHistograms > 0; }
    // One line for the status bar and stderr, e.g. "disk full since 20:14:03 (database or
    // disk is full); 12 blocks (1440 samples) dropped; 1 old day dropped to make room".
    QString summary() const;
};

} // namespace Headroom
