// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// An HTTP server on loopback for the collector tests: a QTcpServer on its own thread
// answering every request with the reply set last (sized, chunked, silent, or raw bytes
// as a hostile exporter might send them) or a body made per request, and keeping the
// last request it read.
#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QMutex>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <functional>

namespace Headroom::Test {

class LoopbackHttpServer : public QThread
{
public:
    struct Reply
    {
        int status = 200;
        QByteArray contentType = "text/plain; version=0.0.4; charset=utf-8";
        QByteArray body;
        bool chunked = true;
        bool stall = false; // accept, read the request, say nothing
    };

    LoopbackHttpServer()
    {
        start();
        while (port() == 0)
            QThread::msleep(5);
    }
    ~LoopbackHttpServer() override
    {
        quit();
        wait();
    }
    quint16 port() const { return m_port.loadAcquire(); }
    void setReply(const Reply &reply)
    {
        QMutexLocker locker(&m_lock);
        m_reply = reply;
        m_raw.clear();
    }
    // Answers with these bytes as they are, whatever they say.
    void setRawReply(const QByteArray &bytes)
    {
        QMutexLocker locker(&m_lock);
        m_raw = bytes;
    }
    // Each request's body from `source` (called on the server's thread with the
    // request's number, 0, 1, ...), sent sized: a page that changes every scrape.
    void setBodySource(std::function<QByteArray(int)> source)
    {
        QMutexLocker locker(&m_lock);
        m_source = std::move(source);
        m_raw.clear();
    }
    int requests() const { return m_requests.loadAcquire(); }
    // Request line and headers of the last request, as received.
    QByteArray lastRequest() const
    {
        QMutexLocker locker(&m_lock);
        return m_lastRequest;
    }

protected:
    void run() override
    {
        QTcpServer server;
        server.listen(QHostAddress::LocalHost, 0);
        QObject::connect(&server, &QTcpServer::newConnection, &server, [&] {
            while (QTcpSocket *socket = server.nextPendingConnection()) {
                QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    if (!socket->peek(1 << 16).contains("\r\n\r\n"))
                        return;
                    const QByteArray request = socket->readAll();
                    Reply reply;
                    QByteArray raw;
                    std::function<QByteArray(int)> source;
                    {
                        QMutexLocker locker(&m_lock);
                        reply = m_reply;
                        raw = m_raw;
                        source = m_source;
                        m_lastRequest = request;
                    }
                    const int number = m_requests.fetchAndAddOrdered(1);
                    if (source) {
                        reply.body = source(number);
                        reply.chunked = false;
                    }
                    if (reply.stall && raw.isEmpty())
                        return;
                    socket->write(raw.isEmpty() ? response(reply) : raw);
                    socket->disconnectFromHost();
                });
                QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
        m_port.storeRelease(server.serverPort());
        exec();
    }

private:
    static QByteArray response(const Reply &reply)
    {
        QByteArray out = "HTTP/1.1 " + QByteArray::number(reply.status)
            + " X\r\nContent-Type: " + reply.contentType + "\r\n";
        if (reply.chunked) {
            out += "Transfer-Encoding: chunked\r\n\r\n";
            for (qsizetype at = 0; at < reply.body.size(); at += 1000) {
                const QByteArray chunk = reply.body.mid(at, 1000);
                out += QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n";
            }
            out += "0\r\n\r\n";
        } else {
            out += "Content-Length: " + QByteArray::number(reply.body.size()) + "\r\n\r\n"
                + reply.body;
        }
        return out;
    }

    QAtomicInteger<quint16> m_port = 0;
    QAtomicInteger<int> m_requests = 0;
    mutable QMutex m_lock;
    std::function<QByteArray(int)> m_source;
    Reply m_reply;
    QByteArray m_raw;
    QByteArray m_lastRequest;
};

} // namespace Headroom::Test
