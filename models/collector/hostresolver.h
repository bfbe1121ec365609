// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Name resolution bounded by a poll's deadline, for the collectors' network libraries
// (Qt sockets, libssh, libpq), which would otherwise wait in getaddrinfo for as long as
// the system's resolver likes: 5 s per name server and attempt by default, so half a
// minute and more when the DNS server is dead, far past any poll's deadline.
//
// A numeric address (IPv4, IPv6) is returned at once, without a lookup. A name is looked
// up by getaddrinfo on a helper thread. When the deadline passes first, the caller gets
// an error and the thread is left to finish on its own: it shares nothing with the
// caller but a reference-counted result. While a name's lookup is still running, later
// callers wait for that same lookup instead of starting another, so a dead DNS server
// costs one thread per name, not one per poll.
#pragma once

#include <QDeadlineTimer>
#include <QHostAddress>
#include <QList>
#include <QString>
#include <optional>

namespace Headroom {

// The host's addresses in the resolver's order of preference, or nullopt and *error
// ("cannot resolve \"db1\": Name or service not known", "... no answer from the name
// service before the poll's deadline (2000 ms)").
std::optional<QList<QHostAddress>> resolveHost(const QString &host, const QDeadlineTimer &deadline,
                                               QString *error);

} // namespace Headroom
