// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// /proc/vmstat: "name value" counters since boot. Fields absent on older kernels stay
// nullopt so the collector can omit the series rather than report a fake zero.
#pragma once

#include <QStringList>
#include <optional>

class QByteArrayView;

namespace Headroom {

struct VmStat
{
    std::optional<quint64> pswpin;
    std::optional<quint64> pswpout;
    std::optional<quint64> pgscanKswapd;
    std::optional<quint64> pgscanDirect;
    std::optional<quint64> pgscanKhugepaged; // Linux 5.17+
    std::optional<quint64> oomKill; // Linux 4.13+

    // Pages scanned by reclaim: the memory saturation signal (sum of what exists).
    std::optional<quint64> pageScan() const;
};

VmStat parseVmStat(QByteArrayView content, QStringList *problems = nullptr);

} // namespace Headroom
