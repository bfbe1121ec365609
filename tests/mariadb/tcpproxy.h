// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A TCP forwarder on 127.0.0.1 in a thread of its own, to take a server away from a
// collector and bring it back (the collector blocks in poll(2) on the test's thread):
// stop() drops every connection and stops listening, start() listens on the same port.
#pragma once

#include <QMetaObject>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

namespace Headroom::Test {

class TcpForwarder : public QObject
{
    Q_OBJECT

public:
    explicit TcpForwarder(quint16 upstreamPort)
        : m_upstreamPort(upstreamPort)
        , m_server(this) // a child, so that it moves to the forwarder's thread with it
    {
        connect(&m_server, &QTcpServer::newConnection, this, &TcpForwarder::accept);
    }

    Q_INVOKABLE bool listen(quint16 port) { return m_server.listen(QHostAddress::LocalHost, port); }
    Q_INVOKABLE void stop()
    {
        m_server.close();
        const auto sockets = findChildren<QTcpSocket *>();
        for (QTcpSocket *socket : sockets) {
            socket->abort();
            socket->deleteLater();
        }
    }
    quint16 port() const { return m_server.serverPort(); }

private:
    void accept()
    {
        while (QTcpSocket *client = m_server.nextPendingConnection()) {
            client->setParent(this);
            auto *upstream = new QTcpSocket(this);
            QPointer<QTcpSocket> c(client);
            QPointer<QTcpSocket> u(upstream);
            connect(client, &QTcpSocket::readyRead, upstream, [c, u] {
                if (c && u)
                    u->write(c->readAll());
            });
            connect(upstream, &QTcpSocket::readyRead, client, [c, u] {
                if (c && u)
                    c->write(u->readAll());
            });
            connect(client, &QTcpSocket::disconnected, upstream, &QTcpSocket::disconnectFromHost);
            connect(upstream, &QTcpSocket::disconnected, client, &QTcpSocket::disconnectFromHost);
            connect(upstream, &QTcpSocket::connected, client, [c, u] {
                if (c && u && c->bytesAvailable())
                    u->write(c->readAll());
            });
            upstream->connectToHost(QHostAddress::LocalHost, m_upstreamPort);
        }
    }

    quint16 m_upstreamPort;
    QTcpServer m_server;
};

// The forwarder and its thread.
class TcpProxy
{
public:
    explicit TcpProxy(quint16 upstreamPort)
        : m_forwarder(new TcpForwarder(upstreamPort))
    {
        m_forwarder->moveToThread(&m_thread);
        QObject::connect(&m_thread, &QThread::finished, m_forwarder, &QObject::deleteLater);
        m_thread.start();
    }
    ~TcpProxy()
    {
        stop();
        m_thread.quit();
        m_thread.wait();
    }
    bool start(quint16 port = 0)
    {
        bool ok = false;
        QMetaObject::invokeMethod(m_forwarder, "listen", Qt::BlockingQueuedConnection,
                                  qReturnArg(ok), port);
        if (ok)
            m_port = m_forwarder->port();
        return ok;
    }
    void stop() { QMetaObject::invokeMethod(m_forwarder, "stop", Qt::BlockingQueuedConnection); }
    quint16 port() const { return m_port; }

private:
    QThread m_thread;
    TcpForwarder *m_forwarder;
    quint16 m_port = 0;
};

} // namespace Headroom::Test
