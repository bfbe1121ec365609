// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgdashboardconninfo.h"

#include <QDir>
#include <QFileInfo>
#include <libpq-fe.h>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Inside ~/.postgresql once links and ".." are resolved (a file that does not exist
// yet is judged by its folder).
bool underUsersPostgresDir(const QString &path)
{
    const QString home = QDir(QDir::homePath() + "/.postgresql"_L1).canonicalPath();
    if (home.isEmpty())
        return false;
    QFileInfo info(path);
    QString resolved = info.canonicalFilePath();
    if (resolved.isEmpty())
        resolved = QFileInfo(info.absolutePath()).canonicalFilePath() + u'/' + info.fileName();
    return resolved.startsWith(home + u'/');
}

} // namespace

std::optional<QString> refuseDashboardConninfo(const QString &conninfo)
{
    if (conninfo.trimmed().isEmpty())
        return std::nullopt;
    char *parseError = nullptr;
    PQconninfoOption *options = PQconninfoParse(conninfo.toUtf8().constData(), &parseError);
    PQfreemem(parseError);
    if (!options)
        return std::nullopt; // parsePostgresOptions reports it, without the text
    const QString advice = u"; put it in a service file (~/.pg_service.conf) or give the "
                           "connection string yourself with --var"_s;
    std::optional<QString> refused;
    for (PQconninfoOption *option = options; option->keyword && !refused; ++option) {
        if (!option->val || !*option->val)
            continue;
        const QString keyword = QString::fromUtf8(option->keyword);
        const QString value = QString::fromUtf8(option->val);
        if (keyword == "hostaddr"_L1) {
            refused = u"hostaddr is not taken from a dashboard file: it connects somewhere "
                      "other than the host named, which would get that host's password"_s;
        } else if (keyword == "options"_L1) {
            refused = u"options is not taken from a dashboard file: it sets server settings "
                      "for the session"_s;
        } else if (keyword == "passfile"_L1) {
            refused = u"passfile is not taken from a dashboard file"_s;
        } else if (keyword == "sslkeylogfile"_L1) {
            refused = u"sslkeylogfile is not taken from a dashboard file: it writes the "
                      "session's keys to a file"_s;
        } else if (keyword == "gssdelegation"_L1 && value != "0"_L1) {
            refused = u"gssdelegation is not taken from a dashboard file: it hands your "
                      "Kerberos credentials to the server"_s;
        } else if ((keyword == "sslkey"_L1 || keyword == "sslcert"_L1 || keyword == "sslrootcert"_L1
                    || keyword == "sslcrl"_L1 || keyword == "sslcrldir"_L1)
                   && value != "system"_L1 && !underUsersPostgresDir(value)) {
            refused = u"%1 from a dashboard file must be a file in ~/.postgresql"_s.arg(keyword);
        }
    }
    PQconninfoFree(options);
    if (refused)
        *refused += advice;
    return refused;
}

} // namespace Headroom
