// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the nic collector tests share: the fixtures' times and the warning for an
// interface whose driver reports no link speed.
#pragma once

#include <QString>

namespace Headroom::Test {

inline constexpr qint64 T0 = 1'700'000'000'000;
inline constexpr qint64 Interval = 2000; // 2 s, so that a delta mistaken for a rate shows

inline QString speedWarning(const QString &name)
{
    return QStringLiteral("nic: %1: link speed unknown; set speedMbps to get utilization")
        .arg(name);
}

} // namespace Headroom::Test
