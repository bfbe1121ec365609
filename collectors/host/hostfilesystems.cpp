// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "hostfilesystems.h"

#include "collector/filesystems.h"
#include "collector/pollbuilder.h"
#include "mountinfoparser.h"

#include <QHash>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

const QString HostFilesystems::MountInfoPath = u"/proc/self/mountinfo"_s;

QStringList HostFilesystems::mountPoints() const
{
    QStringList points;
    points.reserve(m_watched.size());
    for (const Watched &w : m_watched)
        points << w.mountPoint;
    return points;
}

QList<HostFilesystems::Watched> HostFilesystems::watchedMounts(const QList<MountEntry> &mounts,
                                                               int *dropped)
{
    // The last mount on a mount point hides the ones before it.
    QHash<QString, qsizetype> lastOnPoint;
    for (qsizetype i = 0; i < mounts.size(); ++i)
        lastOnPoint.insert(mounts[i].mountPoint, i);
    QList<Watched> watched;
    QList<bool> ofRoot; // per watched: it mounts its filesystem's root
    QHash<QString, qsizetype> byDevice; // major:minor -> index in watched
    for (qsizetype i = 0; i < mounts.size(); ++i) {
        const MountEntry &m = mounts[i];
        if (lastOnPoint.value(m.mountPoint) != i
            || !isWatchedFilesystem(m.type, m.mountPoint, m.readOnly))
            continue;
        const Watched w { m.mountPoint, m.source, m.type, m.device };
        const bool root = m.root == "/"_L1;
        // A bind mount shows its filesystem again: keep the mount of its root, else
        // the shortest mount point, else the first.
        const auto seen = byDevice.constFind(m.device);
        if (seen != byDevice.cend()) {
            Watched &kept = watched[*seen];
            if ((root && !ofRoot[*seen])
                || (root == ofRoot[*seen] && m.mountPoint.size() < kept.mountPoint.size())) {
                kept = w;
                ofRoot[*seen] = root;
            }
            continue;
        }
        byDevice.insert(m.device, watched.size());
        watched.append(w);
        ofRoot.append(root);
    }
    std::sort(watched.begin(), watched.end(),
              [](const Watched &a, const Watched &b) { return a.mountPoint < b.mountPoint; });
    if (dropped)
        *dropped = int(std::max<qsizetype>(0, watched.size() - MaxFilesystems));
    if (watched.size() > MaxFilesystems)
        watched.resize(MaxFilesystems);
    return watched;
}

void HostFilesystems::collect(PollBuilder &poll)
{
    const auto content = poll.file(MountInfoPath);
    if (!content) {
        m_watched.clear();
        return;
    }
    QStringList problems;
    const QList<MountEntry> mounts = parseMountInfo(*content, &problems);
    poll.reportProblems(MountInfoPath, problems);
    int dropped = 0;
    const QList<Watched> current = watchedMounts(mounts, &dropped);
    if (dropped > 0)
        poll.warn(u"%1 filesystems left out: at most %2 are watched (the first by mount point)"_s
                      .arg(dropped)
                      .arg(MaxFilesystems));

    QHash<QString, const Watched *> now;
    for (const Watched &w : current)
        now.insert(w.mountPoint, &w);
    QStringList unreadable;
    for (const Watched &asked : std::as_const(m_watched)) {
        const Watched *still = now.value(asked.mountPoint);
        // Unmounted or replaced since the figures were asked for: they may be another
        // filesystem's.
        if (!still || still->device != asked.device || still->source != asked.source)
            continue;
        const auto figures = poll.files.filesystems.constFind(asked.mountPoint);
        if (figures == poll.files.filesystems.cend()) {
            unreadable << u"%1 (%2)"_s.arg(
                asked.mountPoint,
                poll.files.filesystemErrors.value(asked.mountPoint, u"not read"_s));
            continue;
        }
        m_series.add(&poll.result.batch,
                     { { u"mountpoint"_s, asked.mountPoint },
                       { u"device"_s, asked.source },
                       { u"fstype"_s, asked.type } },
                     *figures);
    }
    if (!unreadable.isEmpty())
        poll.warn(u"no filesystem figures for %1"_s.arg(unreadable.join(u", "_s)));
    m_watched = current;
}

} // namespace Headroom
