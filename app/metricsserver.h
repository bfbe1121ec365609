// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The HTTP side of `--serve-metrics`: answers `GET /metrics` with what a render function
// returns, for Prometheus and VictoriaMetrics scrape jobs.
//
// Every request is untrusted input from the network: the request head may be at most
// 16 KiB and must arrive within 10 s, a response not taken within 30 s is dropped,
// at most 32 connections are open at once (more are answered 503 and closed), and
// each connection serves one request (Connection: close). Only GET and HEAD of
// /metrics (200) and / (a pointer to /metrics) are answered; other paths 404, other
// methods 405, anything unreadable 400.
//
// A request is answered only when its Host header names this server (421 otherwise,
// 400 without one): the listening address (any IP address when listening on every
// interface), localhost when listening on loopback or every interface, or a name given
// with setAllowedHosts; the port in it is not looked at. So a web page in the user's
// browser cannot read the series through a name of its own that it points at this
// machine (DNS rebinding): the browser sends that name.
#pragma once

#include <QByteArrayView>
#include <QHostAddress>
#include <QObject>
#include <QStringList>
#include <functional>

class QTcpServer;
class QTcpSocket;

namespace Headroom {

class MetricsServer : public QObject
{
    Q_OBJECT
public:
    // Returns the exposition and its Content-Type; openMetrics says whether the client
    // asked for OpenMetrics (its Accept header names application/openmetrics-text).
    using Render = std::function<std::pair<QByteArray, QByteArray>(bool openMetrics)>;

    static constexpr qsizetype MaxRequestHead = 16 * 1024;
    static constexpr int RequestTimeoutMs = 10'000;
    static constexpr int ResponseTimeoutMs = 30'000;
    static constexpr int MaxConnections = 32;

    explicit MetricsServer(Render render, QObject *parent = nullptr);
    ~MetricsServer() override;

    // Listens on address:port (port 0: any free port). false with *error naming the
    // address when it cannot.
    bool listen(const QHostAddress &address, quint16 port, QString *error);
    // Host names answered besides the listening address (--serve-host), any case.
    void setAllowedHosts(const QStringList &names);
    // Whether a Host header's value names this server (see above).
    bool hostAllowed(QByteArrayView hostHeader) const;
    quint16 port() const;
    // Requests answered 200 on /metrics since the start.
    int scrapes() const { return m_scrapes; }

    // "127.0.0.1:9187", "[::1]:9187", ":9187" (every address): false with *error
    // when text is not one of these.
    static bool parseListenAddress(const QString &text, QHostAddress *address, quint16 *port,
                                   QString *error);
    // A --serve-host value: a host name (letters, digits, '-', '.') or an IP address;
    // false with *error otherwise.
    static bool checkHostName(const QString &name, QString *error);

private:
    void accept();
    void answer(QTcpSocket *socket, const QByteArray &head);
    void respond(QTcpSocket *socket, int status, const QByteArray &contentType,
                 const QByteArray &body, bool headOnly, const QByteArray &extraHeaders = {});

    Render m_render;
    QTcpServer *m_server;
    QHostAddress m_address;
    QStringList m_allowedHosts; // lower case
    int m_open = 0;
    int m_scrapes = 0;
};

} // namespace Headroom
