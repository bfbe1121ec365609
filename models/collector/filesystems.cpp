// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/filesystems.h"

#include <QSet>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

bool isWatchedFilesystemType(const QString &type)
{
    // node_exporter's default exclusions, and the network filesystems.
    static const QSet<QString> left {
        u"autofs"_s,     u"binfmt_misc"_s, u"bpf"_s,
        u"cgroup"_s,     u"cgroup2"_s,     u"configfs"_s,
        u"debugfs"_s,    u"devpts"_s,      u"devtmpfs"_s,
        u"efivarfs"_s,   u"fusectl"_s,     u"hugetlbfs"_s,
        u"iso9660"_s,    u"mqueue"_s,      u"nsfs"_s,
        u"overlay"_s,    u"proc"_s,        u"procfs"_s,
        u"pstore"_s,     u"ramfs"_s,       u"rpc_pipefs"_s,
        u"securityfs"_s, u"selinuxfs"_s,   u"squashfs"_s,
        u"erofs"_s,      u"sysfs"_s,       u"tracefs"_s,
        u"nfs"_s,        u"nfs4"_s,        u"nfsd"_s,
        u"cifs"_s,       u"smb3"_s,        u"smbfs"_s,
        u"ceph"_s,       u"glusterfs"_s,   u"9p"_s,
        u"afs"_s,        u"lustre"_s,      u"virtiofs"_s,
        u"fuse"_s,       u"fuse.portal"_s, u"fuse.gvfsd-fuse"_s,
        u"fuse.lxcfs"_s, u"zonefs"_s,      u"none"_s,
        u"rootfs"_s,
    };
    if (type.isEmpty() || left.contains(type))
        return false;
    // FUSE filesystems but those on a block device (fuseblk: NTFS, exFAT).
    return !type.startsWith("fuse."_L1);
}

bool isWatchedMountPoint(const QString &mountPoint)
{
    const auto under = [&](QLatin1StringView dir) {
        return mountPoint == dir || mountPoint.startsWith(dir + u'/');
    };
    if (mountPoint == "/dev/shm"_L1)
        return true;
    return !(under("/proc"_L1) || under("/sys"_L1) || under("/dev"_L1)
             || under("/run/credentials"_L1) || under("/var/lib/docker"_L1)
             || under("/var/lib/containers/storage"_L1) || under("/run/containerd"_L1)
             || under("/run/netns"_L1) || under("/run/snapd/ns"_L1));
}

bool isWatchedFilesystem(const QString &type, const QString &mountPoint, bool readOnly)
{
    return !readOnly && isWatchedFilesystemType(type) && isWatchedMountPoint(mountPoint);
}

FillForecast::Reading FillForecast::update(const QString &key, qint64 tsMs, double usedBytes,
                                           double availableBytes, double sizeBytes)
{
    if (tsMs - m_sweptMs > ForgetAfterMs / 4) {
        m_sweptMs = tsMs;
        m_windows.removeIf([tsMs](const auto &it) { return tsMs - it->seenMs > ForgetAfterMs; });
    }
    History &window = m_windows[key];
    if (window.sizeBytes != sizeBytes || (!window.used.empty() && tsMs <= window.used.back().first))
        window.used.clear();
    window.sizeBytes = sizeBytes;
    window.seenMs = tsMs;
    window.used.emplace_back(tsMs, usedBytes);
    if (window.used.size() > size_t(WindowPolls))
        window.used.erase(window.used.begin());

    Reading reading;
    std::vector<double> rates;
    for (size_t i = 1; i < window.used.size(); ++i) {
        const double seconds = double(window.used[i].first - window.used[i - 1].first) / 1000.0;
        rates.push_back((window.used[i].second - window.used[i - 1].second) / seconds);
    }
    if (availableBytes <= 0)
        reading.hoursToFull = 0.0; // full already, growing or not
    if (rates.size() < size_t(MinRates))
        return reading;
    std::sort(rates.begin(), rates.end());
    const size_t mid = rates.size() / 2;
    const double growth = rates.size() % 2 ? rates[mid] : (rates[mid - 1] + rates[mid]) / 2.0;
    reading.growthBytesPerSecond = growth;
    if (availableBytes > 0 && growth > 0) {
        const double hours = availableBytes / growth / 3600.0;
        if (hours <= MaxHours)
            reading.hoursToFull = hours;
    }
    return reading;
}

} // namespace Headroom
