// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "tcpconnect.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// The address as a sockaddr; false for a null address.
bool toSockaddr(const QHostAddress &address, quint16 port, sockaddr_storage *storage,
                socklen_t *length)
{
    *storage = {};
    if (address.protocol() == QAbstractSocket::IPv4Protocol) {
        auto *in = reinterpret_cast<sockaddr_in *>(storage);
        in->sin_family = AF_INET;
        in->sin_port = htons(port);
        in->sin_addr.s_addr = htonl(address.toIPv4Address());
        *length = sizeof(sockaddr_in);
        return true;
    }
    if (address.protocol() == QAbstractSocket::IPv6Protocol) {
        auto *in6 = reinterpret_cast<sockaddr_in6 *>(storage);
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons(port);
        const Q_IPV6ADDR bytes = address.toIPv6Address();
        std::memcpy(&in6->sin6_addr, bytes.c, sizeof bytes.c);
        in6->sin6_scope_id = address.scopeId().toUInt();
        *length = sizeof(sockaddr_in6);
        return true;
    }
    return false;
}

QString systemError(int code)
{
    return QString::fromLocal8Bit(strerror(code));
}

// One attempt: the socket, or -1 and *error.
int connectOne(const QHostAddress &address, quint16 port, const QDeadlineTimer &attempt,
               QString *error)
{
    sockaddr_storage storage;
    socklen_t length = 0;
    if (!toSockaddr(address, port, &storage, &length)) {
        *error = u"not an IP address"_s;
        return -1;
    }
    const int fd = socket(storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error = systemError(errno);
        return -1;
    }
    if (connect(fd, reinterpret_cast<const sockaddr *>(&storage), length) == 0)
        return fd;
    if (errno != EINPROGRESS) {
        *error = systemError(errno);
        close(fd);
        return -1;
    }
    for (;;) {
        pollfd waitFor { fd, POLLOUT, 0 };
        const int ready
            = poll(&waitFor, 1, int(std::clamp<qint64>(attempt.remainingTime(), 0, 3'600'000)));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0) {
            *error = ready == 0 ? u"no answer before the poll's deadline"_s : systemError(errno);
            close(fd);
            return -1;
        }
        break;
    }
    int failure = 0;
    socklen_t size = sizeof failure;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &size) != 0)
        failure = errno;
    if (failure != 0) {
        *error = systemError(failure);
        close(fd);
        return -1;
    }
    return fd;
}

} // namespace

int connectTcp(const QList<QHostAddress> &addresses, quint16 port, const QDeadlineTimer &deadline,
               QString *error)
{
    if (addresses.isEmpty())
        *error = u"no address"_s;
    for (qsizetype i = 0; i < addresses.size(); ++i) {
        const qint64 left = std::max<qint64>(deadline.remainingTime(), 0);
        const QDeadlineTimer attempt(deadline.isForever() ? 30'000 : left / (addresses.size() - i));
        QString reason;
        const int fd = connectOne(addresses.at(i), port, attempt, &reason);
        if (fd >= 0)
            return fd;
        *error = addresses.size() > 1 ? addresses.at(i).toString() + u": "_s + reason : reason;
    }
    return -1;
}

} // namespace Headroom
