// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// libpq connection strings as text: a password in one must never reach logs, error
// messages, the status line or a saved dashboard file. Pure string functions (no libpq),
// so the postgres collector and the dashboard document share one reading of the syntax.
#pragma once

#include <QList>
#include <QString>
#include <optional>
#include <utility>

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

// The keyword/value pairs of a connection string in their order, values without quotes
// and backslash escapes, as libpq reads them ("host=db dbname='my db'" gives host: db,
// dbname: my db); nullopt for a URI or text that does not parse (a lone "${pg}").
std::optional<QList<std::pair<QString, QString>>> conninfoKeywords(const QString &conninfo);

// One pair as libpq reads it back: the value quoted, with backslash escapes, when it is
// empty or holds a blank, a quote or a backslash ("dbname='my db'"). No value can add a
// keyword of its own.
QString conninfoPair(const QString &key, const QString &value);

} // namespace Headroom
