// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "servemetrics.h"

#include "appdashboards.h"
#include "engine/monitoringsession.h"
#include "headlessrun.h"
#include "metricsserver.h"
#include "query/openmetrics/metricsexposition.h"
#include "terminationsignals.h"

#include <QDateTime>
#include <QEventLoop>
#include <QHash>
#include <cstdio>

namespace Headroom {

using namespace Qt::StringLiterals;

int runMetricsServer(const CommandLine &options)
{
    QHostAddress address;
    quint16 port = 0;
    QString error;
    if (!MetricsServer::parseListenAddress(options.serveMetrics, &address, &port, &error)) {
        complain(error);
        return ExitBadInput;
    }
    const DashboardLoadResult loaded = loadDashboardOrDefault(options.dashboardFile);
    if (!dashboardUsable(loaded, options))
        return ExitBadInput;
    const Dashboard &dashboard = *loaded.dashboard;
    TerminationSignals terminations;
    MonitoringSession session;
    for (const auto problems = session.loadPlugins(); const QString &problem : problems)
        complain(problem);
    if (!mayCollect(dashboard, options, session.collectors().plugins()))
        return ExitBadInput;
    if (const int failed = openRunCache(session, options); failed != ExitOk)
        return failed;

    MetricsExposition exposition;
    MetricsServer server([&](bool openMetrics) {
        const auto format = openMetrics ? MetricsExposition::Format::OpenMetrics
                                        : MetricsExposition::Format::PrometheusText;
        return std::pair { exposition.render(session.registry(), session.live(),
                                             QDateTime::currentMSecsSinceEpoch(), format),
                           MetricsExposition::contentType(format) };
    });
    server.setAllowedHosts(options.serveHosts);
    // Listening before collecting: a port in use is a mistake to report at once.
    if (!server.listen(address, port, &error)) {
        complain(error);
        return ExitCannotListen;
    }
    if (terminations.caught() != 0)
        return ExitOk;
    // A line when a source's state changes; within a state a new message (a retry's
    // countdown, another error) at most once a minute, so a server that stays away does
    // not fill the journal.
    struct Logged
    {
        SourceState state = SourceState::Starting;
        QString message;
        qint64 atMs = 0;
    };
    QHash<QString, Logged> logged;
    QObject::connect(&session.scheduler(), &CollectorScheduler::statusChanged, &server,
                     [&logged](const SourceStatus &status) {
                         const qint64 now = QDateTime::currentMSecsSinceEpoch();
                         const auto last = logged.constFind(status.sourceId);
                         if (last != logged.constEnd() && last->state == status.state
                             && (last->message == status.message || now - last->atMs < 60'000))
                             return;
                         logged.insert(status.sourceId, { status.state, status.message, now });
                         complain(u"source %1: %2%3"_s.arg(
                             status.sourceId, sourceStateName(status.state),
                             status.message.isEmpty() ? QString() : u": "_s + status.message));
                     });
    session.start(dashboard, options.variables);
    const QString shown = address == QHostAddress::Any        ? u"*"_s
        : address.protocol() == QAbstractSocket::IPv6Protocol ? u"[%1]"_s.arg(address.toString())
                                                              : address.toString();
    complain(u"serving the series of %1 source(s) at http://%2:%3/metrics"_s.arg(
        QString::number(dashboard.sources.size()), shown, QString::number(server.port())));

    QEventLoop loop;
    QObject::connect(&terminations, &TerminationSignals::received, &loop, &QEventLoop::quit);
    if (terminations.caught() == 0)
        loop.exec();
    session.stop();
    session.flushCache();
    complain(u"stopped after %1 scrape(s)"_s.arg(server.scrapes()));
    return cacheWriteOutcome(session);
}

} // namespace Headroom
