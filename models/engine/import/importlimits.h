// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Bounds on an imported file, which is untrusted: a file beyond one is refused with the
// line that crossed it, before it can make the cache or the memory grow without end.
#pragma once

#include <QtGlobal>

namespace Headroom::Import {

struct Limits
{
    qint64 maxLineBytes = 1 << 20; // one record (a quoted field may span lines)
    qint64 maxRows = 50'000'000; // records (lines) in the file
    int maxColumns = 5000; // columns of a wide CSV
    int maxSeries = 10'000; // distinct label sets (as a source's series cap)
    int maxLabels = 64; // labels of one series
    qint64 maxSamples = 200'000'000; // samples in all
};

} // namespace Headroom::Import
