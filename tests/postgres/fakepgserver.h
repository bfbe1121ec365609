// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A fake PostgreSQL server for credential tests: it answers SSL and GSS encryption
// requests with 'N', reads the startup message, asks for a cleartext password
// (AuthenticationCleartextPassword) or an md5 one (AuthenticationMD5Password with a salt
// of its choosing) and records any answer a client sends: the password itself, or
// "md5" + md5(md5(password + user) + salt), which a dictionary cracks offline. That is
// all an attacker's server needs to do to collect a ~/.pgpass entry or PGPASSWORD.
// Runs on its own thread (the tests poll collectors and wait for processes on theirs);
// loopback only.
#pragma once

#include <QByteArray>
#include <QList>
#include <arpa/inet.h>
#include <atomic>
#include <mutex>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace Headroom::Test {

class FakePgServer
{
public:
    enum class Ask
    {
        Cleartext,
        Md5
    };
    static constexpr char Md5Salt[] = { 's', 'a', 'l', 't' };

    explicit FakePgServer(Ask ask = Ask::Cleartext)
        : m_ask(ask)
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (m_listen < 0 || ::bind(m_listen, reinterpret_cast<sockaddr *>(&address), length) != 0
            || ::listen(m_listen, 8) != 0
            || ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&address), &length) != 0)
            return;
        m_port = ntohs(address.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    ~FakePgServer()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        if (m_listen >= 0)
            ::close(m_listen);
    }
    FakePgServer(const FakePgServer &) = delete;
    FakePgServer &operator=(const FakePgServer &) = delete;

    int port() const { return m_port; }
    int connections() const { return m_connections; }
    int startups() const { return m_startups; }
    QList<QByteArray> passwords() const
    {
        std::lock_guard lock(m_mutex);
        return m_passwords;
    }

private:
    static bool readExactly(int fd, char *out, size_t size)
    {
        size_t done = 0;
        while (done < size) {
            pollfd pfd { fd, POLLIN, 0 };
            if (::poll(&pfd, 1, 3000) <= 0)
                return false;
            const ssize_t got = ::read(fd, out + done, size - done);
            if (got <= 0)
                return false;
            done += size_t(got);
        }
        return true;
    }
    static quint32 be32(const char *p)
    {
        return (quint32(quint8(p[0])) << 24) | (quint32(quint8(p[1])) << 16)
            | (quint32(quint8(p[2])) << 8) | quint32(quint8(p[3]));
    }

    void serve()
    {
        while (!m_stop) {
            pollfd pfd { m_listen, POLLIN, 0 };
            if (::poll(&pfd, 1, 50) <= 0)
                continue;
            const int client = ::accept(m_listen, nullptr, nullptr);
            if (client < 0)
                continue;
            ++m_connections;
            talk(client);
            ::close(client);
        }
    }

    void talk(int fd)
    {
        char header[8];
        while (true) { // SSLRequest and GSSENCRequest come before the startup message
            if (!readExactly(fd, header, 8))
                return;
            const quint32 code = be32(header + 4);
            if (code == 80877103 || code == 80877104) {
                if (::write(fd, "N", 1) != 1)
                    return;
                continue;
            }
            break;
        }
        const quint32 length = be32(header);
        if (length < 8 || length > 10000)
            return;
        QByteArray rest(int(length - 8), '\0');
        if (!readExactly(fd, rest.data(), size_t(rest.size())))
            return;
        ++m_startups;
        const char askCleartext[] = { 'R', 0, 0, 0, 8, 0, 0, 0, 3 };
        const char askMd5[]
            = { 'R', 0, 0, 0, 12, 0, 0, 0, 5, Md5Salt[0], Md5Salt[1], Md5Salt[2], Md5Salt[3] };
        const bool md5 = m_ask == Ask::Md5;
        const ssize_t askSize = md5 ? ssize_t(sizeof askMd5) : ssize_t(sizeof askCleartext);
        if (::write(fd, md5 ? askMd5 : askCleartext, size_t(askSize)) != askSize)
            return;
        char type = 0;
        if (!readExactly(fd, &type, 1) || type != 'p' || !readExactly(fd, header, 4))
            return;
        const quint32 size = be32(header);
        if (size < 4 || size > 10000)
            return;
        QByteArray password(int(size - 4), '\0');
        if (!readExactly(fd, password.data(), size_t(password.size())))
            return;
        if (password.endsWith('\0'))
            password.chop(1);
        std::lock_guard lock(m_mutex);
        m_passwords.append(password);
    }

    const Ask m_ask;
    int m_listen = -1;
    int m_port = 0;
    std::atomic<bool> m_stop { false };
    std::atomic<int> m_connections { 0 };
    std::atomic<int> m_startups { 0 };
    mutable std::mutex m_mutex;
    QList<QByteArray> m_passwords;
    std::thread m_thread;
};

} // namespace Headroom::Test
