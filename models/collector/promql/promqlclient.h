// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Calls of a Prometheus-compatible engine's HTTP query API (Prometheus, VictoriaMetrics,
// Thanos, Mimir, Cortex) on the calling thread, through httpGet: every call bounded by
// its deadline, the answer by MaxBody, and read by parsePromqlResponse. The user's
// credentials for the engine (promqlcredentials.h) go with every call. Errors name the
// engine by scheme, host, port and path only (never user info or a query string).
#pragma once

#include "collector/httpget.h"
#include "collector/promql/promqlresponse.h"

#include <QDeadlineTimer>
#include <QUrl>
#include <optional>

namespace Headroom {

inline constexpr qsizetype PromqlMaxBody = qsizetype(256) << 20;

// The engine's base URL as a source option gives it ("http://host:9090", or
// "https://host/prometheus" behind a path): http(s) with a host, no user info (a
// password never comes from a dashboard), else nullopt with *error.
std::optional<QUrl> promqlBaseUrl(const QString &text, QString *error);
QString promqlUrlForMessages(const QUrl &url);

// /api/v1/query at atMs.
PromqlResult promqlInstantQuery(const QUrl &base, const QString &query, qint64 atMs,
                                const QDeadlineTimer &deadline, const HttpHeaders &headers = {});
// /api/v1/query_range over [fromMs, toMs] every stepMs.
PromqlResult promqlRangeQuery(const QUrl &base, const QString &query, qint64 fromMs, qint64 toMs,
                              qint64 stepMs, const QDeadlineTimer &deadline,
                              const HttpHeaders &headers = {});

// /api/v1/label/<label>/values of the series in [fromMs, toMs] (those matching match,
// a series selector, when it is not empty). label must be a label name.
PromqlLabelValues promqlLabelValues(const QUrl &base, const QString &label, const QString &match,
                                    qint64 fromMs, qint64 toMs, const QDeadlineTimer &deadline);

} // namespace Headroom
