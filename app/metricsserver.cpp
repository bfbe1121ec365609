#include "metricsserver.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <memory>

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
