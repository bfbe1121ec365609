// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A blocking HTTP/1.1 GET with a deadline, for a collector's own worker thread (and the
// query pool's, for PromQL engines): no
// event loop (a nested one would let the scheduler's timer or stop request run inside
// a poll), every wait bounded by the poll's deadline, the body capped. Plain http and,
// when Qt has a TLS backend, https. Chunked and length-delimited bodies; no redirects.
#pragma once

#include <QByteArray>
#include <QDeadlineTimer>
#include <QList>
#include <QUrl>
#include <optional>

namespace Headroom {

struct HttpResponse
{
    int status = 0;
    QByteArray contentType;
    QByteArray body;
};

// nullopt with *error ("connection refused", "timed out after 2000 ms", "body over
// 64 MiB") when no complete response arrived.
// headers: more request headers (Authorization); a value with a line break is refused.
using HttpHeaders = QList<std::pair<QByteArray, QByteArray>>;
std::optional<HttpResponse> httpGet(const QUrl &url, const QByteArray &accept,
                                    const QDeadlineTimer &deadline, qsizetype maxBody,
                                    QString *error, const HttpHeaders &headers = {});

} // namespace Headroom
