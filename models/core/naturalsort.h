// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Natural order for names with numbers in them: runs of digits compare by value, so
// "sda2" < "sda10" and "cpu=2" < "cpu=10". Written out rather than QCollator, whose
// numeric mode is ignored in the C locale (where tests and services run).
#pragma once

#include <QStringView>

namespace Headroom {

// < 0, 0 or > 0. Digit runs compare by value (leading zeros ignored); other characters
// compare as UTF-16 units, case-folded first with Qt::CaseInsensitive. Names equal by
// these rules ("a01" and "a1", "Eth" and "eth") are ordered by plain comparison, so the
// order is total and 0 means equal.
int naturalCompare(QStringView a, QStringView b, Qt::CaseSensitivity cs);

inline bool naturalLess(QStringView a, QStringView b, Qt::CaseSensitivity cs)
{
    return naturalCompare(a, b, cs) < 0;
}

} // namespace Headroom
