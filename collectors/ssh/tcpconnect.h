// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A TCP connection made by Headroom rather than by libssh, so that both the name lookup
// (hostresolver.h) and the connect are bounded by the poll's deadline: libssh's own
// connect resolves with a blocking getaddrinfo that no timeout of its own bounds. The
// socket is then handed to libssh (SSH_OPTIONS_FD), which keeps using the host *name*
// for known_hosts.
#pragma once

#include <QDeadlineTimer>
#include <QHostAddress>
#include <QList>
#include <QString>

namespace Headroom {

// A connected, non-blocking, close-on-exec socket to the first of the addresses that
// answers on port (each attempt gets an equal share of what is left of the deadline),
// or -1 and *error ("Connection refused", "no answer before the poll's deadline"; with
// several addresses the last one's reason, naming it).
int connectTcp(const QList<QHostAddress> &addresses, quint16 port, const QDeadlineTimer &deadline,
               QString *error);

} // namespace Headroom
