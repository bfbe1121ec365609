// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// /proc/pressure/{cpu,memory,io} (PSI, Linux 4.20+):
//   some avg10=0.00 avg60=0.00 avg300=0.00 total=12345
//   full avg10=0.00 avg60=0.00 avg300=0.00 total=0
// Only the cumulative totals (microseconds stalled) are kept: the collector turns them
// into "% of the poll interval", which matches the interval the user sees, unlike the
// kernel's fixed 10/60/300 s averages.
#pragma once

#include <QStringList>
#include <optional>

class QByteArrayView;

namespace Headroom {

struct Pressure
{
    std::optional<quint64> someTotalUs;
    std::optional<quint64> fullTotalUs; // cpu "full" exists only since Linux 5.13
};

// nullopt when neither line has a readable total.
std::optional<Pressure> parsePressure(QByteArrayView content, QStringList *problems = nullptr);

} // namespace Headroom
