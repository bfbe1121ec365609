// Statement texts become labels (pg_stat_statements' query), and labels go to the
// cache, CSV files and PNG legends. PostgreSQL 15 and older keep utility statements
// word for word, "ALTER ROLE app PASSWORD 'secret'" included, so literals that may be
// secrets are masked before a text becomes a label.
#pragma once

#include <QString>

namespace Headroom {

// Masks as '***': every string literal of a utility statement (anything but SELECT,
// INSERT, UPDATE, DELETE, MERGE, WITH, VALUES, TABLE), any literal after the word
// PASSWORD, any literal holding "password" (a conninfo passed to dblink), and a literal
// cut off by the 1,000-character limit. Everything else is kept as written.
QString redactStatementText(const QString &text);

} // namespace Headroom
