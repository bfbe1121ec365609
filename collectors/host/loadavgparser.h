// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// /proc/loadavg: "0.86 0.72 0.33 2/99 16634".
#pragma once

#include <QStringList>
#include <optional>

class QByteArrayView;

namespace Headroom {

struct LoadAvg
{
    double load1 = 0;
    double load5 = 0;
    double load15 = 0;
};

std::optional<LoadAvg> parseLoadAvg(QByteArrayView content, QStringList *problems = nullptr);

} // namespace Headroom
