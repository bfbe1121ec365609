// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Where the import readers put what they read: series once, when first met, then their
// samples in the order of the file. The readers know nothing of the cache, so they can
// be tested and fuzzed on their own (a test's sink keeps everything in memory).
#pragma once

#include "core/series.h"

namespace Headroom::Import {

class Sink
{
public:
    virtual ~Sink() = default;
    // A series met for the first time; returns the index its samples are given under.
    virtual int series(const SeriesInfo &info) = 0;
    virtual void sample(int series, qint64 tsMs, double value) = 0;
    // Told before the first sample when every series' samples come in time order (a wide
    // CSV's rows), so they can be passed on while the file is read instead of at its end.
    virtual void inTimeOrder() { }
};

} // namespace Headroom::Import
