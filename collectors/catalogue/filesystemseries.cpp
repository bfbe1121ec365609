// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "filesystemseries.h"

#include "hostmetrics.h"

#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

void FilesystemSeries::add(SampleBatch *batch, const Labels &labels,
                           const FilesystemFigures &figures)
{
    if (figures.sizeBytes == 0)
        return; // nothing to fill (an empty pseudo filesystem that passed the filter)
    const double size = double(figures.sizeBytes);
    const double free = double(std::min(figures.freeBytes, figures.sizeBytes));
    const double available = double(std::min(figures.availableBytes, figures.freeBytes));
    const double used = size - free;
    // As df: the blocks kept for root are neither used nor available to a writer.
    if (used + available > 0)
        addValue(*batch, HostMetrics::FsUsed, labels,
                 std::clamp(used / (used + available) * 100.0, 0.0, 100.0));
    addValue(*batch, HostMetrics::FsFree, labels, available);
    addValue(*batch, HostMetrics::FsSize, labels, size);
    if (figures.inodes > 0) {
        const double inodesUsed
            = double(figures.inodes - std::min(figures.inodesFree, figures.inodes));
        addValue(*batch, HostMetrics::FsInodesUsed, labels,
                 inodesUsed / double(figures.inodes) * 100.0);
    }
    const QString key = labels.value(u"mountpoint"_s) + u'\x1f' + labels.value(u"device"_s);
    const auto forecast = m_forecast.update(key, batch->tsMs, used, available, size);
    if (forecast.growthBytesPerSecond)
        addValue(*batch, HostMetrics::FsGrowth, labels, *forecast.growthBytesPerSecond);
    if (forecast.hoursToFull)
        addValue(*batch, HostMetrics::FsTimeToFull, labels, *forecast.hoursToFull);
}

} // namespace Headroom
