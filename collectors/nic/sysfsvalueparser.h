// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// One-value sysfs attributes: /sys/class/net/<if>/speed ("1000", "-1" when the link
// is down or the driver cannot tell), type ("772" for loopback), statistics/* counters.
#pragma once

#include <QtGlobal>
#include <optional>

class QByteArrayView;

namespace Headroom {

// The decimal integer on the first line, surrounding whitespace ignored; nullopt for
// anything else (empty, truncated, text).
std::optional<qint64> parseSysfsInteger(QByteArrayView content);

// Link speed in Mbit/s; nullopt when unknown (missing, -1, 0 or unparsable).
std::optional<double> parseLinkSpeedMbps(QByteArrayView content);

} // namespace Headroom
