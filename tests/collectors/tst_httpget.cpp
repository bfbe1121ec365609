// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The HTTP reader against a loopback server that answers what a broken or hostile
// exporter might: chunk sizes that overflow a signed sum, chunk sizes that are not hex,
// a negative Content-Length; the Host header of a URL with credentials; names that
// resolve to several addresses (localhost) or to none.
#include "collector/httpget.h"
#include "loopbackhttpserver.h"

#include <QElapsedTimer>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {
constexpr qsizetype MaxBody = 1 << 20;

std::optional<HttpResponse> get(const QString &url, QString *error)
{
    return httpGet(QUrl(url), "text/plain", QDeadlineTimer(3000), MaxBody, error);
}
} // namespace

class TestHttpGet : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void chunkSizes_data()
    {
        QTest::addColumn<QByteArray>("sizeLine");
        QTest::addColumn<QString>("error"); // empty: the body arrives
        QTest::newRow("plain") << QByteArray("5") << QString();
        QTest::newRow("upper case") << QByteArray("05") << QString();
        QTest::newRow("extension") << QByteArray("5;name=value") << QString();
        QTest::newRow("int64 max")
            << QByteArray("7fffffffffffffff")
            << u"chunk size \"7fffffffffffffff\" is over the body limit of 1 MiB"_s;
        QTest::newRow("over int64")
            << QByteArray("ffffffffffffffffffff")
            << u"chunk size \"ffffffffffffffffffff\" is over the body limit of 1 MiB"_s;
        QTest::newRow("just over the limit") // 5 + 0xffffc = 1 MiB + 1
            << QByteArray("ffffc") << u"chunk size \"ffffc\" is over the body limit of 1 MiB"_s;
        QTest::newRow("negative") << QByteArray("-1") << u"bad chunk size \"-1\""_s;
        QTest::newRow("0x prefix") << QByteArray("0x5") << u"bad chunk size \"0x5\""_s;
        QTest::newRow("not hex") << QByteArray("zz") << u"bad chunk size \"zz\""_s;
        QTest::newRow("empty") << QByteArray("") << u"bad chunk size \"\""_s;
        QTest::newRow("control bytes") << QByteArray("5\x01\x02") << u"bad chunk size \"5??\""_s;
        QTest::newRow("placeholder") << QByteArray("%2") << u"bad chunk size \"%2\""_s;
    }

    void chunkSizes()
    {
        QFETCH(QByteArray, sizeLine);
        QFETCH(QString, error);
        LoopbackHttpServer server;
        // The size under test comes second: with 5 bytes of body already, a sum of the
        // sizes would overflow.
        server.setRawReply("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"
                           + sizeLine + "\r\nhello\r\n0\r\n\r\n");
        QString actual;
        const auto response = get(u"http://127.0.0.1:%1/metrics"_s.arg(server.port()), &actual);
        QCOMPARE(actual, error);
        QCOMPARE(response.has_value(), error.isEmpty());
        if (response)
            QCOMPARE(response->body, QByteArray("hellohello"));
    }

    void contentLength_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("error");
        QTest::newRow("exact") << QByteArray("5") << QString();
        QTest::newRow("negative") << QByteArray("-5") << u"bad Content-Length \"-5\""_s;
        QTest::newRow("not a number") << QByteArray("five") << u"bad Content-Length \"five\""_s;
        QTest::newRow("huge") << QByteArray("9223372036854775807") << u"response over 1 MiB"_s;
        QTest::newRow("beyond int64") << QByteArray("99999999999999999999")
                                      << u"bad Content-Length \"99999999999999999999\""_s;
    }

    void contentLength()
    {
        QFETCH(QByteArray, value);
        QFETCH(QString, error);
        LoopbackHttpServer server;
        server.setRawReply("HTTP/1.1 200 OK\r\nContent-Length: " + value + "\r\n\r\nhello");
        QString actual;
        const auto response = get(u"http://127.0.0.1:%1/"_s.arg(server.port()), &actual);
        QCOMPARE(actual, error);
        QCOMPARE(response.has_value(), error.isEmpty());
    }

    // user:password@ never reaches the wire: the Host header is host and port only.
    void hostHeaderHasNoCredentials_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QByteArray>("host");
        QTest::newRow("user and password")
            << u"http://scraper:s3cret@127.0.0.1:%1/metrics"_s << QByteArray("127.0.0.1:%1");
        QTest::newRow("user only")
            << u"http://scraper@127.0.0.1:%1/metrics"_s << QByteArray("127.0.0.1:%1");
        QTest::newRow("none") << u"http://127.0.0.1:%1/metrics?x=1"_s << QByteArray("127.0.0.1:%1");
        QTest::newRow("name") << u"http://ops:pw@localhost:%1/metrics"_s
                              << QByteArray("localhost:%1");
    }

    void hostHeaderHasNoCredentials()
    {
        QFETCH(QString, url);
        QFETCH(QByteArray, host);
        LoopbackHttpServer server;
        server.setReply({ 200, "text/plain", "m 1\n", false, false });
        const QByteArray port = QByteArray::number(server.port());
        QString error;
        const auto response = get(url.arg(server.port()), &error);
        QVERIFY2(response, qPrintable(error));
        const QByteArray request = server.lastRequest();
        const QByteArray header = "\r\nHost: " + host.replace("%1", port) + "\r\n";
        QVERIFY2(request.contains(header), request.constData());
        QVERIFY(!request.contains("s3cret") && !request.contains("scraper")
                && !request.contains("pw@"));
    }

    // Extra headers (an engine's Authorization) are sent as given; one whose value
    // would start a header of its own is refused before anything is sent.
    void extraHeaders()
    {
        LoopbackHttpServer server;
        server.setReply({ 200, "text/plain", "m 1\n", false, false });
        const QUrl url(u"http://127.0.0.1:%1/"_s.arg(server.port()));
        QString error;
        QVERIFY2(httpGet(url, "text/plain", QDeadlineTimer(3000), MaxBody, &error,
                         { { "Authorization", "Bearer abc" } }),
                 qPrintable(error));
        QVERIFY(server.lastRequest().contains("\r\nAuthorization: Bearer abc\r\n"));
        const int before = server.requests();
        QVERIFY(!httpGet(url, "text/plain", QDeadlineTimer(3000), MaxBody, &error,
                         { { "Authorization", "Bearer abc\r\nX-Evil: 1" } }));
        QCOMPARE(error, u"header Authorization: contains a line break"_s);
        QCOMPARE(server.requests(), before);
    }

    // localhost has ::1 and 127.0.0.1; the server listens on IPv4 only, so the reader
    // must go on to the next address.
    void localhostTriesEveryAddress()
    {
        LoopbackHttpServer server;
        server.setReply({ 200, "text/plain", "m 1\n", true, false });
        QString error;
        const auto response = get(u"http://localhost:%1/metrics"_s.arg(server.port()), &error);
        QVERIFY2(response, qPrintable(error));
        QCOMPARE(response->body, QByteArray("m 1\n"));
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void nameThatDoesNotResolve()
    {
        QString error;
        QElapsedTimer took;
        took.start();
        QVERIFY(!httpGet(QUrl(u"http://nosuchhost.invalid:9100/metrics"_s), "text/plain",
                         QDeadlineTimer(2000), MaxBody, &error));
        QVERIFY2(error.startsWith(u"cannot resolve \"nosuchhost.invalid\": "_s), qPrintable(error));
        QVERIFY(took.elapsed() < 2000 + 200);
    }
};

QTEST_GUILESS_MAIN(TestHttpGet)
#include "tst_httpget.moc"
