// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "sysfsvalueparser.h"

#include <QByteArrayView>

namespace Headroom {

std::optional<qint64> parseSysfsInteger(QByteArrayView content)
{
    const qsizetype end = content.indexOf('\n');
    const QByteArrayView text = (end < 0 ? content : content.first(end)).trimmed();
    if (text.isEmpty() || text.front() == '+')
        return std::nullopt;
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    return ok ? std::optional<qint64>(value) : std::nullopt;
}

std::optional<double> parseLinkSpeedMbps(QByteArrayView content)
{
    const auto value = parseSysfsInteger(content);
    // Drivers report SPEED_UNKNOWN as -1 (some older ones 0 or 65535 for unknown).
    if (!value || *value <= 0 || *value == 65535)
        return std::nullopt;
    return double(*value);
}

} // namespace Headroom
