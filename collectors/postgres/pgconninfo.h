// Helpers for libpq connection strings that must never leak a password into logs,
// error messages or the status line.
#pragma once

#include <QString>

namespace Headroom {

// The conninfo with every password value replaced by "***": keyword/value form
// ("host=db password='s e c' user=x") and URI form ("postgresql://user:secret@host/db",
// "...?password=secret"). Everything else is kept verbatim so the text stays useful.
QString redactConninfo(const QString &conninfo);

// True when the conninfo carries a password (keyword or URI form). An unparsable
// conninfo counts as carrying none; libpq rejects it anyway.
bool conninfoHasPassword(const QString &conninfo);

} // namespace Headroom
