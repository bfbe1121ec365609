// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "metricsserver.h"

#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <memory>
#include <optional>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 421:
        return "Misdirected Request";
    case 431:
        return "Request Header Fields Too Large";
    case 503:
        return "Service Unavailable";
    default:
        return "Error";
    }
}

// One connection's request head as it arrives, and whether it has been answered.
struct PendingRequest
{
    QByteArray head;
    bool answered = false;
};
} // namespace

MetricsServer::MetricsServer(Render render, QObject *parent)
    : QObject(parent)
    , m_render(std::move(render))
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &MetricsServer::accept);
}

MetricsServer::~MetricsServer() = default;

bool MetricsServer::listen(const QHostAddress &address, quint16 port, QString *error)
{
    m_address = address;
    if (m_server->listen(address, port))
        return true;
    const QString where = address.protocol() == QAbstractSocket::IPv6Protocol
        ? u"[%1]:%2"_s.arg(address.toString()).arg(port)
        : u"%1:%2"_s.arg(address.toString()).arg(port);
    *error = u"--serve-metrics %1: cannot listen: %2"_s.arg(where, m_server->errorString());
    return false;
}

quint16 MetricsServer::port() const
{
    return m_server->serverPort();
}

void MetricsServer::setAllowedHosts(const QStringList &names)
{
    m_allowedHosts.clear();
    for (const QString &name : names)
        m_allowedHosts.append(name.toLower());
}

bool MetricsServer::hostAllowed(QByteArrayView hostHeader) const
{
    // "name", "name:port", "1.2.3.4:port", "[::1]:port".
    const QString value = QString::fromLatin1(hostHeader).trimmed().toLower();
    QString name;
    QString rest;
    if (value.startsWith(u'[')) {
        const qsizetype close = value.indexOf(u']');
        if (close < 0)
            return false;
        name = value.mid(1, close - 1);
        rest = value.mid(close + 1);
    } else {
        const qsizetype colon = value.indexOf(u':');
        name = colon < 0 ? value : value.left(colon);
        rest = colon < 0 ? QString() : value.mid(colon);
    }
    if (name.isEmpty() || (!rest.isEmpty() && !rest.startsWith(u':')))
        return false;
    const bool everyInterface = m_address == QHostAddress::Any || m_address == QHostAddress::AnyIPv4
        || m_address == QHostAddress::AnyIPv6;
    if (QHostAddress address; address.setAddress(name)) {
        // An address literal cannot be a name a web page pointed here.
        return everyInterface || address.isEqual(m_address, QHostAddress::ConvertV4MappedToIPv4);
    }
    if (name == u"localhost"_s && (everyInterface || m_address.isLoopback()))
        return true;
    return m_allowedHosts.contains(name);
}

bool MetricsServer::checkHostName(const QString &name, QString *error)
{
    static const QRegularExpression hostName(
        u"^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$"_s);
    if (QHostAddress().setAddress(name) || hostName.match(name).hasMatch())
        return true;
    *error = u"--serve-host \"%1\": expected a host name (e.g. metrics.example.com) or an IP "
             "address, without a port"_s.arg(name);
    return false;
}

bool MetricsServer::parseListenAddress(const QString &text, QHostAddress *address, quint16 *port,
                                       QString *error)
{
    const qsizetype colon = text.lastIndexOf(u':');
    QString host = colon < 0 ? QString() : text.left(colon);
    const QString portText = colon < 0 ? QString() : text.mid(colon + 1);
    bool ok = false;
    const uint number = portText.toUInt(&ok);
    if (colon < 0 || !ok || number > 65535) {
        *error = u"--serve-metrics %1: expected ADDRESS:PORT, e.g. 127.0.0.1:9187"_s.arg(text);
        return false;
    }
    if (host.startsWith(u'[') && host.endsWith(u']'))
        host = host.mid(1, host.size() - 2);
    if (host.isEmpty())
        *address = QHostAddress::Any;
    else if (host == u"localhost"_s)
        *address = QHostAddress::LocalHost;
    else if (!address->setAddress(host)) {
        *error = u"--serve-metrics %1: \"%2\" is not an IP address (use 127.0.0.1 for this "
                 "machine only, or 0.0.0.0 for every interface)"_s.arg(text, host);
        return false;
    }
    *port = quint16(number);
    return true;
}

void MetricsServer::accept()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        // Whatever ends the connection: answered, timed out, or gone.
        connect(socket, &QObject::destroyed, this, [this] { --m_open; });
        ++m_open;
        if (m_open > MaxConnections) {
            respond(socket, 503, "text/plain; charset=utf-8", "too many connections\n", false);
            continue;
        }
        auto pending = std::make_shared<PendingRequest>();
        connect(socket, &QTcpSocket::readyRead, this, [this, socket, pending] {
            if (pending->answered)
                return socket->readAll(), void();
            pending->head += socket->readAll();
            qsizetype end = pending->head.indexOf("\r\n\r\n");
            if (end < 0)
                end = pending->head.indexOf("\n\n");
            if (end >= 0 && end <= MaxRequestHead) {
                pending->answered = true;
                answer(socket, pending->head.left(end));
            } else if (end > MaxRequestHead || pending->head.size() > MaxRequestHead) {
                pending->answered = true;
                respond(socket, 431, "text/plain; charset=utf-8", "request head over 16 KiB\n",
                        false);
            }
        });
        QTimer::singleShot(RequestTimeoutMs, socket, [this, socket, pending] {
            if (pending->answered)
                return;
            pending->answered = true;
            respond(socket, 408, "text/plain; charset=utf-8", "request not complete in 10 s\n",
                    false);
        });
    }
}

void MetricsServer::answer(QTcpSocket *socket, const QByteArray &head)
{
    const QList<QByteArray> lines = head.split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    if (requestLine.size() != 3 || !requestLine.at(2).startsWith("HTTP/1.")) {
        respond(socket, 400, "text/plain; charset=utf-8", "not an HTTP/1.x request\n", false);
        return;
    }
    // The Host header names this server, or nothing is answered: a page in the user's
    // browser that points a name of its own at this address sends that name.
    std::optional<QByteArray> host;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        if (!line.toLower().startsWith("host:"))
            continue;
        if (host) {
            respond(socket, 400, "text/plain; charset=utf-8", "more than one Host header\n", false);
            return;
        }
        host = line.mid(5).trimmed();
    }
    if (!host) {
        respond(socket, 400, "text/plain; charset=utf-8", "no Host header\n", false);
        return;
    }
    if (!hostAllowed(*host)) {
        respond(socket, 421, "text/plain; charset=utf-8",
                "the Host header does not name this server (its address, or a name given "
                "with --serve-host)\n",
                false);
        return;
    }
    const QByteArray &method = requestLine.at(0);
    QByteArray path = requestLine.at(1);
    if (const qsizetype query = path.indexOf('?'); query >= 0)
        path.truncate(query);
    const bool headOnly = method == "HEAD";
    if (method != "GET" && !headOnly) {
        respond(socket, 405, "text/plain; charset=utf-8", "only GET and HEAD\n", false,
                "Allow: GET, HEAD\r\n");
        return;
    }
    if (path == "/") {
        respond(socket, 200, "text/plain; charset=utf-8",
                "Headroom: the collected series are at /metrics\n", headOnly);
        return;
    }
    if (path != "/metrics") {
        respond(socket, 404, "text/plain; charset=utf-8", "not found: the series are at /metrics\n",
                headOnly);
        return;
    }
    bool openMetrics = false;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        if (line.toLower().startsWith("accept:"))
            openMetrics = line.contains("application/openmetrics-text");
    }
    const auto [body, contentType] = m_render(openMetrics);
    ++m_scrapes;
    respond(socket, 200, contentType, body, headOnly);
}

void MetricsServer::respond(QTcpSocket *socket, int status, const QByteArray &contentType,
                            const QByteArray &body, bool headOnly, const QByteArray &extraHeaders)
{
    QByteArray response = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status)
        + "\r\nContent-Type: " + contentType + "\r\nContent-Length: "
        + QByteArray::number(body.size()) + "\r\nConnection: close\r\n" + extraHeaders + "\r\n";
    if (!headOnly)
        response += body;
    socket->write(response);
    socket->disconnectFromHost(); // after what was written has gone
    // A client that does not read its answer must not hold the connection for ever.
    QTimer::singleShot(ResponseTimeoutMs, socket, &QTcpSocket::abort);
}

} // namespace Headroom
