// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The host collector's filesystems: the watched mounts of /proc/self/mountinfo
// (collector/filesystems.h says which) and their statvfs figures as host.fs.* series.
// Both come from the poll's one read: the figures of the mount points known from the
// previous poll's mountinfo, checked against the mountinfo read with them, since
// statvfs of a mount point that was unmounted meanwhile gives its parent's figures.
// So a new mount shows from the second poll on, and the first poll has none.
#pragma once

#include "filesystemseries.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace Headroom {

class PollBuilder;
struct MountEntry;

class HostFilesystems
{
public:
    // More than this many watched mounts (a host with thousands of bind mounts) are
    // left out, the first kept by mount point, and the poll says so.
    static constexpr int MaxFilesystems = 64;
    static const QString MountInfoPath;

    // The mount points whose figures this poll reads.
    QStringList mountPoints() const;
    // The series from poll.files; the mount table for the next poll.
    void collect(PollBuilder &poll);

    struct Watched
    {
        QString mountPoint;
        QString source; // the device label: "/dev/sda2", "tmpfs"
        QString type;
        QString device; // major:minor
    };
    // The watched mounts of a mount table, one per mount point (the last mounted, which
    // hides those below it) and per filesystem (bind mounts of one device count once),
    // sorted by mount point. *dropped: how many were left out by MaxFilesystems.
    static QList<Watched> watchedMounts(const QList<MountEntry> &mounts, int *dropped = nullptr);

private:
    QList<Watched> m_watched;
    FilesystemSeries m_series;
};

} // namespace Headroom
