// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A fake MySQL server for credential tests: it greets with a scramble and the
// authentication plugin it is told to ask for (mysql_native_password,
// caching_sha2_password), reads the client's handshake response, asks for that plugin
// again by name (AuthSwitchRequest) when the client answered with another one, and
// records every byte of authentication data the client sent. For
// mysql_native_password those bytes are SHA1(password) XOR SHA1(scramble +
// SHA1(SHA1(password))): a dictionary cracks them offline, and anyone holding the
// account's stored hash turns them into a login. That is all an attacker's server needs
// to do. Runs on its own thread; loopback only; no TLS offered.
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

class FakeMysqlServer
{
public:
    explicit FakeMysqlServer(QByteArray plugin)
        : m_plugin(std::move(plugin))
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
    ~FakeMysqlServer()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        if (m_listen >= 0)
            ::close(m_listen);
    }
    FakeMysqlServer(const FakeMysqlServer &) = delete;
    FakeMysqlServer &operator=(const FakeMysqlServer &) = delete;

    int port() const { return m_port; }
    // Handshake responses read (one per connection that got that far).
    int responses() const { return m_responses; }
    // The client plugin each handshake response named.
    QList<QByteArray> clientPlugins() const
    {
        std::lock_guard lock(m_mutex);
        return m_clientPlugins;
    }
    // Every non-empty piece of authentication data a client sent.
    QList<QByteArray> authData() const
    {
        std::lock_guard lock(m_mutex);
        return m_authData;
    }

private:
    static constexpr quint32 Capabilities = 0x1 // CLIENT_LONG_PASSWORD: a MySQL server
        | 0x8 // CLIENT_CONNECT_WITH_DB
        | 0x200 // CLIENT_PROTOCOL_41
        | 0x8000 // CLIENT_SECURE_CONNECTION
        | 0x80000; // CLIENT_PLUGIN_AUTH

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
    static bool readPacket(int fd, QByteArray *payload, quint8 *sequence)
    {
        char header[4];
        if (!readExactly(fd, header, 4))
            return false;
        const quint32 size = quint32(quint8(header[0])) | (quint32(quint8(header[1])) << 8)
            | (quint32(quint8(header[2])) << 16);
        *sequence = quint8(header[3]);
        if (size > 100000)
            return false;
        payload->resize(qsizetype(size));
        return readExactly(fd, payload->data(), size);
    }
    static bool writePacket(int fd, const QByteArray &payload, quint8 sequence)
    {
        QByteArray packet;
        packet.append(char(payload.size() & 0xff));
        packet.append(char((payload.size() >> 8) & 0xff));
        packet.append(char((payload.size() >> 16) & 0xff));
        packet.append(char(sequence));
        packet += payload;
        return ::write(fd, packet.constData(), size_t(packet.size())) == ssize_t(packet.size());
    }
    static QByteArray le(quint32 value, int bytes)
    {
        QByteArray out;
        for (int i = 0; i < bytes; ++i)
            out.append(char((value >> (8 * i)) & 0xff));
        return out;
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
            talk(client);
            ::close(client);
        }
    }

    void record(const QByteArray &data)
    {
        if (data.isEmpty())
            return;
        std::lock_guard lock(m_mutex);
        m_authData.append(data);
    }

    void talk(int fd)
    {
        const QByteArray scramble = "abcdefghijklmnopqrst"; // 20 bytes
        QByteArray greeting;
        greeting.append(char(10));
        greeting.append("8.0.36-fake");
        greeting.append('\0');
        greeting += le(7, 4); // connection id
        greeting += scramble.left(8);
        greeting.append('\0');
        greeting += le(Capabilities & 0xffff, 2);
        greeting.append(char(45)); // utf8mb4_general_ci
        greeting += le(2, 2); // SERVER_STATUS_AUTOCOMMIT
        greeting += le(Capabilities >> 16, 2);
        greeting.append(char(scramble.size() + 1));
        greeting += QByteArray(10, '\0');
        greeting += scramble.mid(8);
        greeting.append('\0');
        greeting += m_plugin;
        greeting.append('\0');
        if (!writePacket(fd, greeting, 0))
            return;

        QByteArray response;
        quint8 sequence = 0;
        if (!readPacket(fd, &response, &sequence) || response.size() < 32)
            return;
        ++m_responses;
        // caps(4) max packet(4) charset(1) filler(23), user NUL, length-prefixed auth
        // data, database NUL (when the client flags CLIENT_CONNECT_WITH_DB), plugin NUL.
        const quint32 clientCaps = quint32(quint8(response[0]))
            | (quint32(quint8(response[1])) << 8) | (quint32(quint8(response[2])) << 16)
            | (quint32(quint8(response[3])) << 24);
        qsizetype at = response.indexOf('\0', 32);
        if (at < 0 || at + 1 >= response.size())
            return;
        const int authLength = quint8(response[at + 1]);
        record(response.mid(at + 2, authLength));
        at += 2 + authLength;
        if (clientCaps & 0x8) {
            at = response.indexOf('\0', at);
            if (at < 0)
                return;
            ++at;
        }
        const qsizetype pluginEnd = response.indexOf('\0', at);
        const QByteArray clientPlugin = response.mid(at, pluginEnd < 0 ? -1 : pluginEnd - at);
        {
            std::lock_guard lock(m_mutex);
            m_clientPlugins.append(clientPlugin);
        }
        if (clientPlugin != m_plugin) {
            // Ask for our plugin by name, as a server whose account uses it does.
            QByteArray switchRequest;
            switchRequest.append(char(0xfe));
            switchRequest += m_plugin;
            switchRequest.append('\0');
            switchRequest += scramble;
            switchRequest.append('\0');
            if (!writePacket(fd, switchRequest, quint8(sequence + 1)))
                return;
            QByteArray answer;
            if (!readPacket(fd, &answer, &sequence))
                return;
            record(answer);
        }
        QByteArray denied;
        denied.append(char(0xff));
        denied += le(1045, 2);
        denied += "#28000Access denied (fake server)";
        writePacket(fd, denied, quint8(sequence + 1));
    }

    const QByteArray m_plugin;
    int m_listen = -1;
    int m_port = 0;
    std::atomic<bool> m_stop { false };
    std::atomic<int> m_responses { 0 };
    mutable std::mutex m_mutex;
    QList<QByteArray> m_clientPlugins;
    QList<QByteArray> m_authData;
    std::thread m_thread;
};

} // namespace Headroom::Test
