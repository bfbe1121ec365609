// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Which mounted filesystems a host's figures cover, and the forecast of when one fills,
// shared by the host collector (mountinfo and statvfs, locally or over SSH) and the
// node_exporter mapping (node_filesystem_*), so both watch the same ones alike.
//
// Watched: block and memory filesystems (ext4, xfs, btrfs, zfs, tmpfs, fuseblk, ...).
// Left out, by type: pseudo filesystems (proc, sysfs, cgroup, devtmpfs, overlay, squashfs
// ... which are full or meaningless by design), network and FUSE filesystems (statvfs of
// one whose server is gone blocks the poll), and by mount point what lies under /proc,
// /sys, /dev (but /dev/shm, where PostgreSQL keeps its dynamic shared memory),
// /run/credentials and container storage. Read-only mounts cannot fill and are left out.
//
// The forecast (FillForecast): per filesystem the used bytes of the last WindowPolls polls;
// the growth is the median of their per-poll rates (at least MinRates of them), so a
// file written and deleted again, or one burst, does not move it; the time to full is
// what unprivileged writers may still use divided by that growth, given only while the
// filesystem grows (and within a year), and 0 once nothing is left.
#pragma once

#include <QHash>
#include <QString>
#include <optional>
#include <vector>

namespace Headroom {

bool isWatchedFilesystemType(const QString &type);
bool isWatchedMountPoint(const QString &mountPoint);
// Both, for a read-write mount.
bool isWatchedFilesystem(const QString &type, const QString &mountPoint, bool readOnly = false);

class FillForecast
{
public:
    static constexpr int WindowPolls = 8;
    static constexpr int MinRates = 3;
    static constexpr double MaxHours = 24 * 365;
    static constexpr qint64 ForgetAfterMs = 10 * 60 * 1000;

    struct Reading
    {
        std::optional<double> growthBytesPerSecond;
        std::optional<double> hoursToFull;
    };

    // One poll's figures of the filesystem `key` (its mount point and device). A size
    // that changed, or a clock that did not move on, starts its window afresh.
    Reading update(const QString &key, qint64 tsMs, double usedBytes, double availableBytes,
                   double sizeBytes);

private:
    struct History
    {
        std::vector<std::pair<qint64, double>> used; // (ts, used bytes), oldest first
        double sizeBytes = 0;
        qint64 seenMs = 0;
    };
    QHash<QString, History> m_windows;
    qint64 m_sweptMs = 0;
};

} // namespace Headroom
