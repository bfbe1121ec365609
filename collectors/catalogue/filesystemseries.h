// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A watched filesystem's statvfs figures as the host.fs.* series (hostmetrics.h), with
// its growth and time to full (collector/filesystems.h): one place for the host
// collector and the node_exporter mapping, so a filesystem reads the same from /proc,
// over SSH and from node_filesystem_*.
#pragma once

#include "collector/filesource.h"
#include "collector/filesystems.h"
#include "core/sample.h"

namespace Headroom {

class FilesystemSeries
{
public:
    // labels: {mountpoint, device, fstype}. Stamped with batch->tsMs.
    void add(SampleBatch *batch, const Labels &labels, const FilesystemFigures &figures);

private:
    FillForecast m_forecast;
};

} // namespace Headroom
