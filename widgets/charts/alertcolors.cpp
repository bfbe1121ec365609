// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "charts/alertcolors.h"

#include "panels/timeseriespanel.h"

namespace Headroom {

QColor alertSeverityColor(AlertSeverity severity)
{
    switch (severity) {
    case AlertSeverity::Critical:
        return TimeSeriesPanel::CriticalColor;
    case AlertSeverity::Warning:
        return TimeSeriesPanel::WarningColor;
    case AlertSeverity::Info:
        break;
    }
    return QColor(0x3b, 0x6e, 0xc4);
}

} // namespace Headroom
