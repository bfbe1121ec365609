// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// /proc/diskstats (Documentation/admin-guide/iostats.rst):
//   major minor name reads merged sectors ms_reading writes merged sectors ms_writing
//   in_flight io_ticks_ms weighted_io_ms [discards... (4.18+)] [flushes... (5.5+)]
// Sectors are always 512 bytes here, whatever the device's real sector size.
// Also /sys/block/<dev>/device/ioerr_cnt (SCSI), printed as hex ("0x3").
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

class QByteArrayView;

namespace Headroom {

struct DiskStat
{
    QString name;
    quint64 reads = 0;
    quint64 readSectors = 0;
    quint64 writes = 0;
    quint64 writeSectors = 0;
    quint64 ioTicksMs = 0; // time with at least one request in flight
    quint64 weightedIoMs = 0; // sum over requests of their time in flight
    quint64 discards = 0;

    // Devices never used (empty card readers, unused virtual disks) only add noise.
    bool everUsed() const { return reads + writes + discards > 0; }
};

// Lines that cannot be parsed are skipped and described in *problems.
QList<DiskStat> parseDiskStats(QByteArrayView content, QStringList *problems = nullptr);

std::optional<quint64> parseIoErrCount(QByteArrayView content);

} // namespace Headroom
