// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/httpget.h"

#include "collector/hostresolver.h"

#include <QSslSocket>
#include <QTcpSocket>
#include <algorithm>
#include <functional>
#include <limits>
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

// Host and port only: never the URL's user info (user:password@), which is no part of
// the authority a server may see in a header.
QByteArray hostHeader(const QUrl &url)
{
    const QString host = url.host(QUrl::FullyEncoded);
    QByteArray header = host.contains(u':') ? "[" + host.toUtf8() + "]" : host.toUtf8();
    if (url.port() >= 0)
        header += ":" + QByteArray::number(url.port());
    return header;
}

// Connects to the first of the addresses that answers, in the resolver's order. Each
// attempt may take an equal share of what is left of the deadline, so an address that
// drops packets leaves time for the next one. TLS checks the certificate against the
// URL's host name, not the address.
std::unique_ptr<QTcpSocket> connectToAny(const QList<QHostAddress> &addresses, const QUrl &url,
                                         bool tls, const QDeadlineTimer &deadline, QString *error)
{
    const quint16 port = quint16(url.port(tls ? 443 : 80));
    for (qsizetype i = 0; i < addresses.size(); ++i) {
        const int share = std::max(remainingMs(deadline) / int(addresses.size() - i), 1);
        const QHostAddress &address = addresses.at(i);
        bool connected = false;
        std::unique_ptr<QTcpSocket> socket;
        if (tls) {
            auto ssl = std::make_unique<QSslSocket>();
            ssl->connectToHostEncrypted(address.toString(), port, url.host());
            connected = ssl->waitForEncrypted(share);
            socket = std::move(ssl);
        } else {
            socket = std::make_unique<QTcpSocket>();
            socket->connectToHost(address, port);
            connected = socket->waitForConnected(share);
        }
        if (connected) {
            error->clear(); // an earlier address's failure is no longer news
            return socket;
        }
        *error = deadline.hasExpired() ? u"timed out connecting"_s : socket->errorString();
        if (addresses.size() > 1)
            *error = address.toString() + u": "_s + *error;
    }
    return nullptr;
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// What the server sent, for a message: at most 40 bytes, control and non-ASCII bytes
// as '?'.
QString shown(QByteArrayView bytes)
{
    QString text = QString::fromLatin1(bytes.first(std::min<qsizetype>(bytes.size(), 40)));
    for (QChar &c : text)
        if (c.unicode() < 0x20 || c.unicode() > 0x7e)
            c = u'?';
    return text;
}

// A chunk-size line's number (RFC 9112 7.1: hex digits, then extensions after ';');
// a number too large for qsizetype gives its maximum; nullopt for anything but hex.
std::optional<qsizetype> chunkSize(QByteArrayView line)
{
    const qsizetype semicolon = line.indexOf(';');
    const QByteArrayView digits = (semicolon >= 0 ? line.first(semicolon) : line).trimmed();
    if (digits.isEmpty())
        return std::nullopt;
    qsizetype size = 0;
    for (const char c : digits) {
        const int digit = hexDigit(c);
        if (digit < 0)
            return std::nullopt;
        if (size > (std::numeric_limits<qsizetype>::max() - digit) / 16)
            size = std::numeric_limits<qsizetype>::max(); // checked: no signed overflow
        else
            size = size * 16 + digit;
    }
    return size;
}

} // namespace

std::optional<HttpResponse> httpGet(const QUrl &url, const QByteArray &accept,
                                    const QDeadlineTimer &deadline, qsizetype maxBody,
                                    QString *error, const HttpHeaders &headers)
{
    QByteArray extra;
    for (const auto &[name, value] : headers) {
        // A line break would let a value (a token from a file) add headers of its own.
        if (name.contains('\r') || name.contains('\n') || value.contains('\r')
            || value.contains('\n')) {
            *error = u"header %1: contains a line break"_s.arg(QString::fromLatin1(name));
            return std::nullopt;
        }
        extra += name + ": " + value + "\r\n";
    }
    const bool tls = url.scheme() == "https"_L1;
    if (!tls && url.scheme() != "http"_L1) {
        *error = u"not an http or https URL"_s;
        return std::nullopt;
    }
    if (tls && !QSslSocket::supportsSsl()) {
        *error = u"https is not available (Qt has no TLS backend here)"_s;
        return std::nullopt;
    }
    // Qt's own lookup would wait as long as the system's resolver likes.
    const auto addresses = resolveHost(url.host(), deadline, error);
    if (!addresses)
        return std::nullopt;
    std::unique_ptr<QTcpSocket> socket = connectToAny(*addresses, url, tls, deadline, error);
    if (!socket)
        return std::nullopt;
    const QByteArray path = url.path(QUrl::FullyEncoded).isEmpty()
        ? QByteArray("/")
        : url.path(QUrl::FullyEncoded).toUtf8();
    const QByteArray query
        = url.hasQuery() ? "?" + url.query(QUrl::FullyEncoded).toUtf8() : QByteArray();
    socket->write("GET " + path + query + " HTTP/1.1\r\nHost: " + hostHeader(url) + "\r\nAccept: "
                  + accept + "\r\nConnection: close\r\nUser-Agent: Headroom\r\n" + extra + "\r\n");
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
    for (const auto allLines = lines.mid(1); const QByteArray &line : allLines) {
        const qsizetype colon = line.indexOf(':');
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (name == "content-type")
            response.contentType = value;
        else if (name == "content-length") {
            contentLength = value.toLongLong(&ok);
            if (!ok || contentLength < 0) {
                *error = u"bad Content-Length \"%1\""_s.arg(shown(value));
                return std::nullopt;
            }
        } else if (name == "transfer-encoding")
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
        const QByteArrayView line = QByteArrayView(buffer).sliced(at, lineEnd - at);
        const auto size = chunkSize(line);
        if (!size) {
            *error = u"bad chunk size \"%1\""_s.arg(shown(line));
            return std::nullopt;
        }
        // Compared by subtraction: a size near 2^63 must not overflow a sum.
        if (*size > maxBody - response.body.size()) {
            *error = u"chunk size \"%1\" is over the body limit of %2 MiB"_s.arg(
                shown(line), QString::number(maxBody >> 20));
            return std::nullopt;
        }
        if (*size == 0)
            return response;
        const qsizetype dataStart = lineEnd + 2;
        if (!readUntil(
                *socket, buffer, deadline, maxBody + 1024,
                [&] { return buffer.size() - dataStart >= *size + 2; }, error)) {
            if (error->isEmpty())
                *error = u"the response ended inside a chunk"_s;
            return std::nullopt;
        }
        response.body += buffer.mid(dataStart, *size);
        at = dataStart + *size + 2;
    }
}

} // namespace Headroom
