// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/charttext.h"

namespace Headroom {

QString chartText(const QString &text)
{
    if (text.size() <= MaxChartTextChars)
        return text;
    qsizetype keep = MaxChartTextChars - 1;
    if (text.at(keep - 1).isHighSurrogate())
        --keep;
    return text.left(keep) + QChar(0x2026);
}

} // namespace Headroom
