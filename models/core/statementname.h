// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// How a statement (a series with pg_stat_statements' "queryid" and "query" labels) is
// named where room is short: legends, hover titles. Tables and hover text show the
// whole "query" label as well.
#pragma once

#include "core/series.h"

#include <QString>

namespace Headroom {

// The first words of the query, at most ShortStatementChars of them and cut at a word
// ("SELECT pad FROM flip WHERE id = $1" stays whole; a longer one ends in "…"), then
// " #" and the queryid, which tells two statements that start alike apart and is what
// pg_stat_statements is searched by. Empty when labels have no queryid.
QString statementShortName(const Labels &labels);

inline constexpr qsizetype ShortStatementChars = 40;

} // namespace Headroom
