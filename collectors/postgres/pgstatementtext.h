// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Statement texts become labels (pg_stat_statements' query), and labels go to the
// cache, CSV files and PNG legends. PostgreSQL 15 and older keep utility statements
// word for word, "ALTER ROLE app PASSWORD 'secret'" included, so literals that may be
// secrets are masked before a text becomes a label.
#pragma once

#include <QString>

namespace Headroom {

// Every statement Headroom sends starts with this comment. pg_stat_statements keeps a
// leading comment in the text it stores, so the part reading it can tell Headroom's
// own statements from the workload and leave them out of the top statements (they had
// ranked first in a lock storm, Headroom watching itself).
inline constexpr char OwnStatementMarker[] = "/* headroom */ ";

// Whether a statement text (as pg_stat_statements or pg_stat_activity shows it) is one
// of Headroom's own.
bool isOwnStatement(const QString &text);

// Masks as '***': every string literal of a utility statement (anything but SELECT,
// INSERT, UPDATE, DELETE, MERGE, WITH, VALUES, TABLE), any literal after the word
// PASSWORD, any literal holding "password" (a conninfo passed to dblink), and a literal
// or comment cut off by the 1,000-character limit. Comments (/* */, --) become one
// space each: people put tokens in them. Everything else is kept as written.
QString redactStatementText(const QString &text);

// A statement as pg_stat_statements shows it: every constant (string or number literal)
// becomes a parameter numbered after the highest $n already in it, so that the text of
// a running session (pg_stat_activity's query, written as the client sent it) names
// the statement without its values, secrets among them. Comments and runs of white
// space become one space; a text cut inside a literal or a comment ends in "…" at that
// point, and so does one longer than maxChars.
QString normalizeStatementText(const QString &text, qsizetype maxChars = 200);

} // namespace Headroom
