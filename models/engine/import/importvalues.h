// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The numbers and times of imported text, parsed without allocating (a million rows of
// fifty columns pass through here).
#pragma once

#include <QByteArrayView>
#include <QtGlobal>

namespace Headroom::Import {

// A decimal number ("3", "-0.25", "1e-3", "+Inf", "NaN"); the whole field must be it.
bool parseNumber(QByteArrayView text, double *out);

// A time: epoch seconds or milliseconds (a number of magnitude 1e11 or more is read as
// milliseconds: 1e11 s lies in the year 5138), with a fraction allowed, or ISO 8601
// ("2026-03-01T12:00:00Z", "2026-03-01 12:00:00.250+01:00"; without a zone, UTC).
// *out in milliseconds since the epoch, between the years 1900 and 2200.
bool parseTime(QByteArrayView text, qint64 *out);

} // namespace Headroom::Import
