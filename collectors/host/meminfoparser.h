// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// /proc/meminfo: "MemTotal:       24683656 kB". Values are returned in bytes.
#pragma once

#include <QStringList>
#include <optional>

class QByteArrayView;

namespace Headroom {

struct MemInfo
{
    quint64 totalBytes = 0;
    // MemAvailable, or on kernels before 3.14 (which lack it) the usual approximation
    // MemFree + Buffers + Cached.
    quint64 availableBytes = 0;
    quint64 swapTotalBytes = 0;
    quint64 swapFreeBytes = 0;
};

// nullopt when MemTotal is missing or zero (nothing meaningful can be derived).
std::optional<MemInfo> parseMemInfo(QByteArrayView content, QStringList *problems = nullptr);

} // namespace Headroom
