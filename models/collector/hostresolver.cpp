// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/hostresolver.h"

#include <QHash>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <netdb.h>
#include <sys/socket.h>
#include <system_error>
#include <thread>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// One getaddrinfo call, shared by every caller waiting for the same name.
struct Lookup
{
    std::mutex lock;
    std::condition_variable finished;
    bool done = false;
    QList<QHostAddress> addresses;
    QString reason; // getaddrinfo's words when it failed
};

// The lookups still running, by name. Never destroyed: a helper thread may still be
// inside getaddrinfo when the process exits, and must find it intact.
struct Running
{
    std::mutex lock;
    QHash<QString, std::shared_ptr<Lookup>> byName;
};

Running &running()
{
    static auto *instance = new Running;
    return *instance;
}

void lookUp(const QString &host, const std::shared_ptr<Lookup> &lookup)
{
    addrinfo hints {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *found = nullptr;
    const int rc = getaddrinfo(host.toUtf8().constData(), nullptr, &hints, &found);
    QList<QHostAddress> addresses;
    for (const addrinfo *a = found; rc == 0 && a; a = a->ai_next) {
        const QHostAddress address(a->ai_addr);
        if (!address.isNull() && !addresses.contains(address))
            addresses.append(address);
    }
    if (found)
        freeaddrinfo(found);
    {
        const std::lock_guard locker(running().lock);
        running().byName.remove(host);
    }
    const std::lock_guard locker(lookup->lock);
    lookup->addresses = std::move(addresses);
    if (rc != 0)
        lookup->reason = QString::fromLocal8Bit(gai_strerror(rc));
    else if (lookup->addresses.isEmpty())
        lookup->reason = u"no address"_s;
    lookup->done = true;
    lookup->finished.notify_all();
}

std::shared_ptr<Lookup> startOrJoin(const QString &host)
{
    Running &all = running();
    const std::lock_guard locker(all.lock);
    if (const auto it = all.byName.constFind(host); it != all.byName.cend())
        return it.value();
    auto lookup = std::make_shared<Lookup>();
    try {
        std::thread([host, lookup] { lookUp(host, lookup); }).detach();
    } catch (const std::system_error &) { // out of threads: a failed poll, not a crash
        return nullptr;
    }
    all.byName.insert(host, lookup);
    return lookup;
}

} // namespace

std::optional<QList<QHostAddress>> resolveHost(const QString &host, const QDeadlineTimer &deadline,
                                               QString *error)
{
    if (host.isEmpty()) {
        *error = u"no host name"_s;
        return std::nullopt;
    }
    if (QHostAddress numeric; numeric.setAddress(host))
        return QList<QHostAddress> { numeric };

    const qint64 budgetMs
        = deadline.isForever() ? -1 : std::max<qint64>(deadline.remainingTime(), 0);
    const std::shared_ptr<Lookup> lookup = startOrJoin(host);
    if (!lookup) {
        *error = u"cannot resolve \"%1\": no thread for the lookup"_s.arg(host);
        return std::nullopt;
    }
    std::unique_lock locker(lookup->lock);
    const auto done = [&] { return lookup->done; };
    if (deadline.isForever())
        lookup->finished.wait(locker, done);
    else if (!lookup->finished.wait_until(locker, deadline.deadline<std::chrono::steady_clock>(),
                                          done)) {
        *error = u"cannot resolve \"%1\": no answer from the name service before the poll's "
                 "deadline (%2 ms)"_s.arg(host, QString::number(budgetMs));
        return std::nullopt;
    }
    if (!lookup->reason.isEmpty()) {
        *error = u"cannot resolve \"%1\": %2"_s.arg(host, lookup->reason);
        return std::nullopt;
    }
    return lookup->addresses;
}

} // namespace Headroom
