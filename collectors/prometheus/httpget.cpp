#include "httpget.h"

#include <QSslSocket>
#include <QTcpSocket>
#include <algorithm>
#include <functional>
#include <memory>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

int remainingMs(const QDeadlineTimer &deadline)
{
    return int(std::clamp<qint64>(deadline.remainingTime(), 0, 3'600'000));
}

// Reads until `until` says the buffer is complete, the peer closes, or the deadline.
bool readUntil(QTcpSocket &socket, QByteArray &buffer, const QDeadlineTimer &deadline,
               qsizetype maxBytes, const std::function<bool()> &until, QString *error)
{
    while (!until()) {
        if (buffer.size() > maxBytes) {
            *error = u"response over %1 MiB"_s.arg(maxBytes >> 20);
            return false;
        }
        if (socket.bytesAvailable() == 0 && !socket.waitForReadyRead(remainingMs(deadline))) {
            if (deadline.hasExpired())
                *error = u"timed out"_s;
            else if (socket.state() != QAbstractSocket::ConnectedState)
                return until(); // closed: complete only if what we have is
            else
                *error = socket.errorString();
            return false;
        }
        buffer += socket.readAll();
    }
    return true;
}

} // namespace

std::optional<HttpResponse> httpGet(const QUrl &url, const QByteArray &accept,
                                    const QDeadlineTimer &deadline, qsizetype maxBody,
                                    QString *error)
{
    const bool tls = url.scheme() == "https"_L1;
    if (!tls && url.scheme() != "http"_L1) {
        *error = u"not an http or https URL"_s;
        return std::nullopt;
    }
    std::unique_ptr<QTcpSocket> socket;
    if (tls) {
        if (!QSslSocket::supportsSsl()) {
            *error = u"https is not available (Qt has no TLS backend here)"_s;
            return std::nullopt;
        }
        auto ssl = std::make_unique<QSslSocket>();
        ssl->connectToHostEncrypted(url.host(), quint16(url.port(443)));
        if (!ssl->waitForEncrypted(remainingMs(deadline))) {
            *error = deadline.hasExpired() ? u"timed out connecting"_s : ssl->errorString();
            return std::nullopt;
        }
        socket = std::move(ssl);
    } else {
        socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(url.host(), quint16(url.port(80)));
        if (!socket->waitForConnected(remainingMs(deadline))) {
            *error = deadline.hasExpired() ? u"timed out connecting"_s : socket->errorString();
            return std::nullopt;
        }
    }
    const QByteArray path = url.path(QUrl::FullyEncoded).isEmpty()
        ? QByteArray("/")
        : url.path(QUrl::FullyEncoded).toUtf8();
    const QByteArray query
        = url.hasQuery() ? "?" + url.query(QUrl::FullyEncoded).toUtf8() : QByteArray();
    socket->write("GET " + path + query + " HTTP/1.1\r\nHost: "
                  + url.authority(QUrl::FullyEncoded).toUtf8() + "\r\nAccept: " + accept
                  + "\r\nConnection: close\r\nUser-Agent: Headroom\r\n\r\n");
    if (!socket->waitForBytesWritten(remainingMs(deadline)) && socket->bytesToWrite() > 0) {
        *error = u"timed out sending the request"_s;
        return std::nullopt;
    }

    QByteArray buffer;
    qsizetype headerEnd = -1;
    if (!readUntil(
            *socket, buffer, deadline, 64 * 1024,
            [&] { return (headerEnd = buffer.indexOf("\r\n\r\n")) >= 0; }, error)) {
        if (error->isEmpty())
            *error = u"no HTTP response"_s;
        return std::nullopt;
    }
    const QList<QByteArray> lines = buffer.left(headerEnd).split('\n');
    const QList<QByteArray> statusLine = lines.value(0).trimmed().split(' ');
    HttpResponse response;
    bool ok = false;
    response.status = statusLine.value(1).toInt(&ok);
    if (!statusLine.value(0).startsWith("HTTP/") || !ok) {
        *error = u"not an HTTP response"_s;
        return std::nullopt;
    }
    qsizetype contentLength = -1;
    bool chunked = false;
    for (const QByteArray &line : lines.mid(1)) {
        const qsizetype colon = line.indexOf(':');
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (name == "content-type")
            response.contentType = value;
        else if (name == "content-length")
            contentLength = value.toLongLong();
        else if (name == "transfer-encoding")
            chunked = value.toLower().contains("chunked");
    }
    buffer.remove(0, headerEnd + 4);
    if (contentLength > maxBody) {
        *error = u"response over %1 MiB"_s.arg(maxBody >> 20);
        return std::nullopt;
    }
    if (!chunked) {
        // Length-delimited, or until the server closes (Connection: close).
        const bool complete = readUntil(
            *socket, buffer, deadline, maxBody,
            [&] { return contentLength >= 0 && buffer.size() >= contentLength; }, error);
        if (!complete && (contentLength >= 0 || !error->isEmpty()))
            return std::nullopt;
        response.body = contentLength >= 0 ? buffer.left(contentLength) : buffer;
        return response;
    }
    // Chunked: size line, data, CRLF, ... until a zero-size chunk.
    qsizetype at = 0;
    for (;;) {
        qsizetype lineEnd = -1;
        if (!readUntil(
                *socket, buffer, deadline, maxBody + 1024,
                [&] { return (lineEnd = buffer.indexOf("\r\n", at)) >= 0; }, error)) {
            if (error->isEmpty())
                *error = u"the response ended inside a chunk"_s;
            return std::nullopt;
        }
        const qsizetype size
            = buffer.mid(at, lineEnd - at).split(';').value(0).trimmed().toLongLong(&ok, 16);
        if (!ok || size < 0 || response.body.size() + size > maxBody) {
            *error = ok ? u"response over %1 MiB"_s.arg(maxBody >> 20) : u"bad chunk size"_s;
            return std::nullopt;
        }
        if (size == 0)
            return response;
        const qsizetype dataStart = lineEnd + 2;
        if (!readUntil(
                *socket, buffer, deadline, maxBody + 1024,
                [&] { return buffer.size() >= dataStart + size + 2; }, error)) {
            if (error->isEmpty())
                *error = u"the response ended inside a chunk"_s;
            return std::nullopt;
        }
        response.body += buffer.mid(dataStart, size);
        at = dataStart + size + 2;
    }
}

} // namespace Headroom
