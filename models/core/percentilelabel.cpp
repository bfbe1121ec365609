// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/percentilelabel.h"

#include <QLocale>

namespace Headroom {

using namespace Qt::StringLiterals;

QString percentileLabel(double percentile, PercentileLabelStyle style)
{
    switch (style) {
    case PercentileLabelStyle::Line:
        if (percentile >= 100)
            return u"max"_s;
        return u'p' + QString::number(percentile, 'g', QLocale::FloatingPointShortest);
    case PercentileLabelStyle::Reducer:
        return u'p' + QString::number(percentile, 'g', 6); // 99 -> "p99", 99.9 -> "p99.9"
    }
    return {};
}

} // namespace Headroom
