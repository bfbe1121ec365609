// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// /proc/self/mountinfo (proc(5)): one mount per line,
//   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
//   id parent major:minor root mount-point options [optional fields] - type source super-options
// The mount point and source escape space, tab, newline and backslash as \040, \011,
// \012 and \134; they are given back unescaped.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

class QByteArrayView;

namespace Headroom {

struct MountEntry
{
    QString device; // major:minor ("8:2"; "0:52" for tmpfs, btrfs subvolumes...)
    QString root; // the mounted directory of the filesystem ("/" unless a bind mount)
    QString mountPoint;
    QString type; // "ext4", "tmpfs", "fuse.sshfs"
    QString source; // "/dev/sda2", "tmpfs", "server:/export"
    bool readOnly = false; // the mount's own options say "ro"
};

QList<MountEntry> parseMountInfo(QByteArrayView content, QStringList *problems = nullptr);

} // namespace Headroom
