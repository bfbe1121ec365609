// Helpers for libpq connection strings that must never leak a password into logs,
// error messages or the status line.
#pragma once

#include <QString>
#include <optional>

namespace Headroom {

// The conninfo with every password value replaced by "***": keyword/value form
// ("host=db password='s e c' user=x") and URI form ("postgresql://user:secret@host/db",
// "...?password=secret"). Everything else is kept verbatim so the text stays useful.
QString redactConninfo(const QString &conninfo);

// True when the conninfo carries a password (keyword or URI form). An unparsable
// conninfo counts as carrying none; libpq rejects it anyway.
bool conninfoHasPassword(const QString &conninfo);

// nullopt when a conninfo written in a dashboard file (untrusted input) may be used,
// else why not. Refused: hostaddr (it connects somewhere other than the host whose
// ~/.pgpass entry libpq would send), passfile, SSL key, certificate and CRL paths
// outside ~/.postgresql, sslkeylogfile, and gssdelegation=1 (it hands the user's
// Kerberos credentials to the server). Typed by the user (--var), all of these are
// fine.
std::optional<QString> refuseDashboardConninfo(const QString &conninfo);

} // namespace Headroom
