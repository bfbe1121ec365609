// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The [client] part of the user's ~/.my.cnf, where a MariaDB or MySQL password lives
// (never in a dashboard), and the rule for when Headroom may send it.
#pragma once

#include "mariadboptions.h"

#include <QByteArray>
#include <QString>

namespace Headroom {

struct MyCnfClient
{
    QString user;
    QString password;
    bool hasPassword = false;
    QString host;
    int port = 0; // 0: not given
    QString socket;
};

// The keys of the sections a MariaDB client reads ([client], [client-server],
// [client-mariadb]; later ones win), from the file's bytes. Other sections, comments
// (# and ;), !include lines and unknown keys are skipped; quotes around a value are
// taken off.
MyCnfClient parseMyCnf(const QByteArray &text);

// ~/.my.cnf ($HOME/.my.cnf); empty when there is none or it cannot be read.
MyCnfClient readUserMyCnf();

// Whether the password of `cnf` may go to `target`. A password in ~/.my.cnf is not tied
// to a host, so one written for the user's own server must not be sent wherever a
// dashboard file says: when the URL came from the file (not typed by the user), only to
// the socket the [client] section names (else the default /run/mysqld/mysqld.sock) or to
// its host and port (3306 when it names none). Not to any other socket or loopback
// port: on a shared machine anyone may listen there.
bool mayUsePassword(const MyCnfClient &cnf, const MariadbTarget &target, bool urlFromDashboard);

} // namespace Headroom
