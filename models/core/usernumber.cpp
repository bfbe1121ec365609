// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/usernumber.h"

#include <cmath>

namespace Headroom {

std::optional<double> parseUserNumber(QStringView text, const QLocale &locale)
{
    const QStringView trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return std::nullopt;
    bool ok = false;
    double parsed = QLocale::c().toDouble(trimmed, &ok);
    if (!ok)
        parsed = locale.toDouble(trimmed, &ok);
    if (!ok || !std::isfinite(parsed))
        return std::nullopt;
    return parsed;
}

} // namespace Headroom
