// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The range combo's "Custom…": a from and a to, to the second, starting at the range
// shown. An end not after the start is refused with a message.
#pragma once

#include <QtGlobal>
#include <optional>
#include <utility>

class QWidget;

namespace Headroom {

// [from, to] in ms since the epoch, or nullopt when cancelled or refused.
std::optional<std::pair<qint64, qint64>> askCustomRange(QWidget *parent, qint64 fromMs,
                                                        qint64 toMs);

} // namespace Headroom
