// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A number as a user types it into an editor's field: "1.5" in every locale, and the
// user's own way as well ("1,5" in a German locale).
#pragma once

#include <QLocale>
#include <QStringView>
#include <optional>

namespace Headroom {

// text trimmed, read the C way first, so that what an editor wrote reads back the same
// in every locale, then in `locale`. nullopt for empty text and for text that is not a
// finite number (editors say what empty means: often "unset").
std::optional<double> parseUserNumber(QStringView text, const QLocale &locale = QLocale());

} // namespace Headroom
