// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The cache writer's timings and memory bounds, shared by the files that implement
// CacheWriter (cachewriter.cpp: the queue and the commit path; cachewriterretention.cpp;
// cachewriterrecovery.cpp: a failed commit and a full disk; cachewriterreads.cpp).
#pragma once

#include <QtGlobal>
#include <chrono>
#include <cstddef>

namespace Headroom::CacheWriterLimits {

using Clock = std::chrono::steady_clock;
constexpr auto MaintenanceInterval = std::chrono::hours(1);
// A collector flood wakes the writer before the interval so memory stays bounded.
constexpr size_t WakeAtQueuedBatches = 512;
// Samples of queued runs (an import) that wake the writer, and at which enqueueRuns()
// waits for it: about 32 MB of samples.
constexpr size_t WakeAtQueuedRunSamples = 1 << 20;
constexpr size_t MaxQueuedRunSamples = 2 << 20;
// Sealed blocks held for the next commit before it is forced (memory bound).
constexpr qsizetype MaxPendingBlockBytes = 32 << 20;
// Retries of a failing commit: 1, 2, 4 ... 30 s apart.
constexpr auto FirstRetryDelay = std::chrono::seconds(1);
constexpr auto MaxRetryDelay = std::chrono::seconds(30);
constexpr qsizetype PendingBlockOverhead = 96; // the struct and the QByteArray header

} // namespace Headroom::CacheWriterLimits
