// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// --from and --to: the absolute range of an export, given as ISO 8601 date-times
// ("2026-11-12T09:30:00Z"; without an offset, local time) or as a duration before the
// end of the data ("-2h": the recording's end, or now for a live cache), or "end".
// GUI-free so the rules can be tested.
#pragma once

#include <QString>
#include <optional>
#include <utility>

namespace Headroom {

// One bound: nullopt with *error saying what was expected when spec is none of the above.
std::optional<qint64> parseTimeBound(const QString &spec, qint64 endMs, QString *error);

// [from, to] of a report. Unset bounds: to is endMs, from is to - rangeMs when rangeMs > 0,
// else defaultFromMs. Refuses a from that is not before to.
std::optional<std::pair<qint64, qint64>> resolveTimeBounds(const QString &fromSpec,
                                                           const QString &toSpec, qint64 endMs,
                                                           qint64 rangeMs, qint64 defaultFromMs,
                                                           QString *error);

} // namespace Headroom
