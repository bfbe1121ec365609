// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Short names that tell series apart where there is little room (a legend entry, a
// tile, a report's chart). Names of one panel usually share a schema, a metric or a
// database ("public.orders_p1" ... "public.orders_p8"); cutting each at its end then
// leaves every entry reading the same. Instead what all of them share at the start or
// the end is dropped (at a separator, so words stay whole), and what is still too long
// loses its middle, where names of one family differ least. Where that leaves two
// names alike, they show the part where they differ instead. The full name belongs in
// a tooltip or a table beside the short one.
#pragma once

#include <QStringList>

namespace Headroom {

// The ellipsis that marks a cut.
inline constexpr QChar ShortNameEllipsis { 0x2026 };
// The fewest characters a short name is cut to (an ellipsis and a few characters).
inline constexpr int MinShortNameChars = 5;

// The prefix and suffix every name shares, as lengths, each ending (prefix) or starting
// (suffix) at a separator (space . / : , = ;). Nothing for fewer than two distinct names; never
// so much that a name would be left empty.
struct SharedAffixes
{
    qsizetype prefix = 0;
    qsizetype suffix = 0;
};
SharedAffixes sharedAffixes(const QStringList &names);

// names (in their order) without their shared affixes, each at most maxChars long
// (at least MinShortNameChars), cut in the middle. Two different names never get the
// same short name; equal names stay equal.
QStringList distinctShortNames(const QStringList &names, int maxChars);

// text at most maxChars long: its start and end around an ellipsis.
QString elideMiddle(const QString &text, int maxChars);

} // namespace Headroom
