// libpq connection strings as text: a password in one must never reach logs, error
// messages, the status line or a saved dashboard file. Pure string functions (no libpq),
// so the postgres collector and the dashboard document share one reading of the syntax.
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

// The conninfo without its passwords: each keyword/value pair whose key names a password
// (password, sslpassword) is dropped, and so are a URI's ":secret" before the '@' and its
// password query parameters ("postgresql://u@db/erp?sslmode=require"). A string
// without a password comes back unchanged, and
// conninfoHasPassword(conninfoWithoutPassword(s)) is false for every s.
QString conninfoWithoutPassword(const QString &conninfo);

} // namespace Headroom
