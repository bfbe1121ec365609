// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "mariadbmycnf.h"

#include <QDir>
#include <QFile>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

QString unquoted(QString value)
{
    value = value.trimmed();
    if (value.size() >= 2
        && ((value.startsWith(u'"') && value.endsWith(u'"'))
            || (value.startsWith(u'\'') && value.endsWith(u'\''))))
        return value.mid(1, value.size() - 2);
    // An unquoted value ends at a comment.
    const qsizetype hash = value.indexOf(u" #"_s);
    return hash < 0 ? value : value.left(hash).trimmed();
}

} // namespace

MyCnfClient parseMyCnf(const QByteArray &text)
{
    MyCnfClient cnf;
    bool inClient = false;
    for (const auto rawLines = text.split('\n'); const QByteArray &rawLine : rawLines) {
        const QString line = QString::fromUtf8(rawLine).trimmed();
        if (line.isEmpty() || line.startsWith(u'#') || line.startsWith(u';')
            || line.startsWith(u'!'))
            continue;
        if (line.startsWith(u'[')) {
            const QString section = line.mid(1, line.indexOf(u']') - 1).trimmed().toLower();
            inClient = section == "client"_L1 || section == "client-server"_L1
                || section == "client-mariadb"_L1;
            continue;
        }
        if (!inClient)
            continue;
        const qsizetype eq = line.indexOf(u'=');
        // Option names may use - or _ alike.
        const QString key = (eq < 0 ? line : line.left(eq)).trimmed().toLower().replace(u'-', u'_');
        const QString value = eq < 0 ? QString() : unquoted(line.mid(eq + 1));
        if (key == "user"_L1) {
            cnf.user = value;
        } else if (key == "password"_L1) {
            cnf.password = value;
            cnf.hasPassword = eq >= 0;
        } else if (key == "host"_L1) {
            cnf.host = value;
        } else if (key == "port"_L1) {
            bool ok = false;
            const int port = value.toInt(&ok);
            cnf.port = ok && port > 0 && port < 65536 ? port : 0;
        } else if (key == "socket"_L1) {
            cnf.socket = value;
        }
    }
    return cnf;
}

MyCnfClient readUserMyCnf()
{
    QFile file(QDir::homePath() + u"/.my.cnf"_s);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    // A client option file is small; a huge one is not read past 64 KiB.
    return parseMyCnf(file.read(64 * 1024));
}

bool mayUsePassword(const MyCnfClient &cnf, const MariadbTarget &target, bool urlFromDashboard)
{
    if (!cnf.hasPassword)
        return false;
    if (!urlFromDashboard)
        return true;
    if (!target.socket.isEmpty()) // the user's own socket, not one anybody could make
        return target.socket == (cnf.socket.isEmpty() ? DefaultMariadbSocket : cnf.socket);
    if (cnf.host.isEmpty() || cnf.host.compare(target.host, Qt::CaseInsensitive) != 0)
        return false;
    return (cnf.port > 0 ? cnf.port : 3306) == target.port;
}

} // namespace Headroom
