// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "headlessrun.h"

#include "appdashboards.h"
#include "document/dashboard.h"
#include "document/dashboardtrust.h"
#include "engine/cache/samplecache.h"
#include "engine/monitoringsession.h"
#include "retentionsetting.h"

#include <cstdio>

namespace Headroom {

using namespace Qt::StringLiterals;

void complain(const QString &message)
{
    std::fprintf(stderr, "headroom: %s\n", qUtf8Printable(message));
}

bool dashboardUsable(const DashboardLoadResult &loaded, const CommandLine &options)
{
    if (!loaded.ok()) {
        complain(loaded.error.toString());
        return false;
    }
    if (const QString unknown = unknownVariable(*loaded.dashboard, options.variables);
        !unknown.isEmpty()) {
        complain(u"--var %1: the dashboard has no variable \"%1\""_s.arg(unknown));
        return false;
    }
    return true;
}

bool mayCollect(const Dashboard &dashboard, const CommandLine &options,
                const QList<CollectorPluginInfo> &plugins)
{
    const TrustCheck trust
        = checkDashboardTrust(dashboard, resolveDashboardPath(options.dashboardFile), plugins,
                              dashboard.resolveVariables(options.variables), DashboardTrustStore());
    if (trust.trusted || options.trust)
        return true;
    complain(u"%1 is not trusted: it names targets and SQL of its own, which a "
             "headless run does not act on without --trust:"_s.arg(options.dashboardFile));
    for (const auto lines = trust.request.describe(); const QString &line : lines)
        complain(u"  "_s + line);
    complain(u"open it in the GUI and trust it, or pass --trust"_s);
    return false;
}

int openRunCache(MonitoringSession &session, const CommandLine &options)
{
    if (options.noCache)
        return ExitOk;
    QString error;
    const QString path
        = options.cacheFile.isEmpty() ? SampleCache::defaultPath() : options.cacheFile;
    if (session.openCache(path, &error, cacheOptionsWithRetention(options.retention)))
        return ExitOk;
    // A cache named on the command line is what the run is for (a cron job that
    // records): without it nothing would be kept, so stop before collecting. The
    // default cache is a convenience (and held by a running GUI): the run goes on with
    // live data, with this message.
    if (!options.cacheFile.isEmpty()) {
        complain(error + u" (--cache: nothing collected)"_s);
        return ExitCacheFailed;
    }
    complain(error + u" (continuing without the cache)"_s);
    return ExitOk;
}

int cacheWriteOutcome(const MonitoringSession &session)
{
    const SampleCache *cache = session.cache();
    if (!cache || !cache->status().hadWriteErrors())
        return ExitOk;
    // Also when it recovered: a disk that filled up once will again, and an old day may
    // have been dropped to make room.
    complain(cache->path() + u": writing the cache failed during this run: "_s
             + cache->status().summary());
    return ExitCacheFailed;
}

} // namespace Headroom
