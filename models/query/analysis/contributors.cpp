// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/contributors.h"

#include "core/valueformat.h"
#include "query/analysis/causefindings.h"
#include "query/analysis/seriestrack.h"

#include <QHash>
#include <QStringView>
#include <algorithm>
#include <array>
#include <optional>

using namespace Qt::StringLiterals;

namespace Headroom::Analysis {

namespace {

// The catalogue's names (collectors/catalogue/hostmetrics.h), which this layer cannot
// include: tst_findings checks that they agree.
const QString ProcessPrefix = u"host.process."_s;
const QString ProcessCpuMetric = u"host.process.cpu"_s;
const QString CpuCountMetric = u"host.cpu.count"_s;
const QString CpuUtilizationMetric = u"host.cpu.utilization"_s;

// The metrics that carry a resource, whose means add up per process.
QStringList metricsFor(const QString &resource)
{
    if (resource == "cpu"_L1)
        return { ProcessCpuMetric };
    if (resource == "memory"_L1)
        return { u"host.process.rss"_s };
    if (resource == "disk"_L1 || resource.startsWith("disk:"_L1))
        return { u"host.process.read_bytes"_s, u"host.process.write_bytes"_s };
    if (resource == "fd"_L1)
        return { u"host.process.open_files"_s };
    return {};
}

// The database engines whose sessions' CPU the collectors publish (collector/
// sessioncpu.h; the names of collectors/postgres/pgsessioncpu.h and
// collectors/mariadb/mariadbsessioncpu.h, which this layer cannot include), with the
// names of their server's processes as /proc shows them.
struct SessionEngine
{
    QLatin1StringView prefix; // of the metrics: "pg" for pg.session.cpu
    QLatin1StringView name;
    std::array<QLatin1StringView, 2> serverComms;
    QLatin1StringView sessionId; // the label that tells one session from another
    bool sessionIsProcess; // that label is a pid of the host's processes
    // The label naming the host's process that runs the session: its own (PostgreSQL's
    // backends) or the server's (MariaDB's threads).
    QLatin1StringView processLabel;
};

constexpr std::array<SessionEngine, 2> SessionEngines { {
    { QLatin1StringView("pg"),
      QLatin1StringView("PostgreSQL"),
      { QLatin1StringView("postgres"), QLatin1StringView("postmaster") },
      QLatin1StringView("pid"),
      true,
      QLatin1StringView("pid") },
    { QLatin1StringView("mariadb"),
      QLatin1StringView("MariaDB"),
      { QLatin1StringView("mariadbd"), QLatin1StringView("mysqld") },
      QLatin1StringView("os_thread"),
      false,
      QLatin1StringView("server_pid") },
} };

QString sessionCpuMetric(const SessionEngine &engine)
{
    return engine.prefix + ".session.cpu"_L1;
}

bool isSessionSeries(const QString &metric)
{
    for (const SessionEngine &engine : SessionEngines) {
        if (metric.size() <= engine.prefix.size() || !metric.startsWith(engine.prefix)
            || metric.at(engine.prefix.size()) != u'.')
            continue;
        const QStringView rest = QStringView(metric).mid(engine.prefix.size());
        if (rest == ".session.cpu"_L1 || rest == ".session.read_bytes"_L1
            || rest == ".application.cpu"_L1)
            return true;
    }
    return false;
}

} // namespace

bool isContributorSeries(const SeriesInfo &info)
{
    if (info.key.metric.startsWith(ProcessPrefix) && info.key.labels.contains(u"pid"_s))
        return true;
    if (isRootBlockerSeries(info) || isSessionSeries(info.key.metric))
        return true;
    return info.resource == "connections"_L1
        && (info.key.metric.endsWith(".connections.by_application"_L1)
            || info.key.metric.endsWith(".connections.by_user"_L1));
}

namespace {

double meanBefore(const SeriesTrack &track, qint64 fromMs, qint64 untilMs)
{
    // The holders before: over as long a time before fromMs as the finding lasts, a
    // holder absent there held nothing.
    // Every bin of that time counts, the empty ones as 0, from the track's start on.
    const qint64 span = std::max<qint64>(untilMs - fromMs, track.binMs);
    const qint64 from = std::max(fromMs - span, track.fromMs);
    double sum = 0;
    for (size_t i = 0; i < track.values.size(); ++i) {
        if (track.times[i] >= from && track.times[i] < fromMs)
            sum += track.values[i];
    }
    const qint64 bins = (fromMs - from + track.binMs - 1) / std::max<qint64>(track.binMs, 1);
    return bins > 0 ? sum / double(bins) : 0;
}

// Who holds a server's connections: the applications and roles whose sessions grew
// most over the finding, by their mean there against the time before.
Contributors connectionHolders(const QString &source, std::span<const SeriesTrack> tracks,
                               qint64 fromMs, qint64 untilMs, int top)
{
    struct Holder
    {
        const SeriesTrack *track;
        double now;
        double before;
    };
    QList<Holder> holders;
    for (const SeriesTrack &track : tracks) {
        if (track.info.key.source != source || !isContributorSeries(track.info)
            || track.info.resource != "connections"_L1)
            continue;
        const double now = meanIn(track, fromMs, untilMs);
        if (now > 0)
            holders.append({ &track, now, meanBefore(track, fromMs, untilMs) });
    }
    // The applications first, then the roles, each by growth (then by sessions).
    std::stable_sort(holders.begin(), holders.end(), [](const Holder &a, const Holder &b) {
        const bool appA = a.track->info.key.metric.endsWith("by_application"_L1);
        const bool appB = b.track->info.key.metric.endsWith("by_application"_L1);
        if (appA != appB)
            return appA;
        const double ga = a.now - a.before, gb = b.now - b.before;
        return ga != gb ? ga > gb : a.now > b.now;
    });
    Contributors found;
    QStringList named;
    int applications = 0, users = 0;
    for (const Holder &h : std::as_const(holders)) {
        found.seriesIds.append(h.track->seriesId);
        found.keys.append(h.track->info.key);
        const bool application = h.track->info.key.metric.endsWith("by_application"_L1);
        int &count = application ? applications : users;
        if (count >= top || h.now - h.before < 0.5)
            continue;
        ++count;
        const Labels &labels = h.track->info.key.labels;
        const QString name = application ? labels.value(u"application"_s) : labels.value(u"user"_s);
        named << u"%1 %2: %3 sessions (%4 before)"_s.arg(
            application ? u"application"_s : u"user"_s, name.isEmpty() ? u"(unnamed)"_s : name,
            QString::number(qRound(h.now)), QString::number(qRound(h.before)));
    }
    if (!named.isEmpty())
        found.text = u"grown: "_s + named.join(u", "_s);
    return found;
}

bool isServerProcess(const SessionEngine &engine, const QString &source, const SeriesInfo &info)
{
    if (info.key.source != source || info.key.metric != ProcessCpuMetric
        || !info.key.labels.contains(u"pid"_s))
        return false;
    const QString comm = info.key.labels.value(u"comm"_s);
    return std::find(engine.serverComms.cbegin(), engine.serverComms.cend(), comm)
        != engine.serverComms.cend();
}

// The sessions of `engine` that run on host `source`: by database source, the pids of
// the host's server processes (serverComms) that run them, where a session names its
// process (processLabel); a session that names none (recorded without it) is taken to
// run in every server process of the host.
QHash<QString, QSet<QString>> sessionSourcesOn(const SessionEngine &engine, const QString &source,
                                               std::span<const SeriesTrack> tracks)
{
    QSet<QString> serverPids;
    for (const SeriesTrack &track : tracks)
        if (isServerProcess(engine, source, track.info))
            serverPids.insert(track.info.key.labels.value(u"pid"_s));
    QHash<QString, QSet<QString>> sources;
    if (serverPids.isEmpty())
        return sources;
    const QString metric = sessionCpuMetric(engine);
    for (const SeriesTrack &track : tracks) {
        const SeriesKey &key = track.info.key;
        if (key.metric != metric || key.source == source)
            continue;
        const QString process = key.labels.value(QString(engine.processLabel));
        if (process.isEmpty())
            sources[key.source] += serverPids;
        else if (serverPids.contains(process))
            sources[key.source].insert(process);
    }
    return sources;
}

// What carries a resource: a process, or the sessions of one application, role and
// statement.
struct Carrier
{
    QString name; // "hrburn (pid 4242, user ops)"
    double mean = 0;
    QString unit;
    QList<int> ids;
    QList<SeriesKey> keys;
};

// The mean of a track over [fromMs, untilMs], its absent bins as 0: a session's series
// is there only while it is among the busiest.
double spanMean(const SeriesTrack &track, qint64 fromMs, qint64 untilMs)
{
    double sum = 0;
    for (size_t i = 0; i < track.values.size(); ++i)
        if (track.times[i] >= fromMs && track.times[i] < untilMs)
            sum += track.values[i];
    const qint64 bin = std::max<qint64>(track.binMs, 1);
    const qint64 bins = std::max<qint64>((untilMs - fromMs + bin - 1) / bin, 1);
    return sum / double(bins);
}

// The sessions of the database servers on host `source`, by application, role and
// statement: "3 PostgreSQL sessions (cpu-report, user app: `SELECT 1`)".
QList<Carrier> sessionCarriers(const QString &source, std::span<const SeriesTrack> tracks,
                               qint64 fromMs, qint64 untilMs)
{
    struct Group
    {
        const SessionEngine *engine = nullptr;
        Labels labels; // of its first session
        QSet<QString> sessions;
        Carrier carrier;
    };
    QHash<QString, Group> groups;
    QStringList order;
    for (const SessionEngine &engine : SessionEngines) {
        const QHash<QString, QSet<QString>> sources = sessionSourcesOn(engine, source, tracks);
        const QString metric = sessionCpuMetric(engine);
        for (const SeriesTrack &track : tracks) {
            const SeriesKey &key = track.info.key;
            if (key.metric != metric || !sources.contains(key.source))
                continue;
            const double mean = spanMean(track, fromMs, untilMs);
            if (!(mean > 0))
                continue;
            const QString id
                = QStringList { key.source, key.labels.value(u"application"_s),
                                key.labels.value(u"user"_s), key.labels.value(u"query"_s) }
                      .join(u'\x1f');
            auto it = groups.find(id);
            if (it == groups.end()) {
                it = groups.insert(id, Group { &engine, key.labels, {}, {} });
                it->carrier.unit = track.info.unit;
                order.append(id);
            }
            it->sessions.insert(key.labels.value(engine.sessionId));
            it->carrier.mean += mean;
            it->carrier.ids.append(track.seriesId);
            it->carrier.keys.append(key);
        }
    }
    QList<Carrier> carriers;
    for (const QString &id : std::as_const(order)) {
        Group group = groups.value(id);
        const Labels &labels = group.labels;
        const qsizetype n = group.sessions.size();
        QStringList who;
        const QString sessionId = labels.value(QString(group.engine->sessionId));
        if (n == 1 && group.engine->sessionIsProcess && !sessionId.isEmpty())
            who << u"pid "_s + sessionId;
        if (!labels.value(u"application"_s).isEmpty())
            who << labels.value(u"application"_s);
        if (!labels.value(u"user"_s).isEmpty())
            who << u"user "_s + labels.value(u"user"_s);
        QString inner = who.join(u", "_s);
        const QString query = labels.value(u"query"_s).simplified();
        if (!query.isEmpty())
            inner += (inner.isEmpty() ? QString() : u": "_s) + u'`' + query + u'`';
        group.carrier.name = u"%1 %2 session%3"_s.arg(
            QString::number(n), QString(group.engine->name), n == 1 ? QString() : u"s"_s);
        if (!inner.isEmpty())
            group.carrier.name += u" ("_s + inner + u')';
        carriers.append(group.carrier);
    }
    return carriers;
}

// The CPUs of host `source` over [fromMs, untilMs]: how many (host.cpu.count) and how
// busy all of them were together (host.cpu.utilization{cpu="all"}), in % of them all.
struct HostCpu
{
    int count = 0;
    double busy = 0;
};

std::optional<HostCpu> hostCpuOf(const QString &source, std::span<const SeriesTrack> tracks,
                                 qint64 fromMs, qint64 untilMs)
{
    std::optional<double> count, busy;
    for (const SeriesTrack &track : tracks) {
        const SeriesKey &key = track.info.key;
        if (key.source != source)
            continue;
        if (key.metric == CpuCountMetric)
            count = meanIn(track, fromMs, untilMs);
        else if (key.metric == CpuUtilizationMetric
                 && key.labels.value(u"cpu"_s, u"all"_s) == "all"_L1)
            busy = meanIn(track, fromMs, untilMs);
    }
    if (!count || !busy || qRound(*count) < 1)
        return std::nullopt;
    return HostCpu { qRound(*count), *busy };
}

// A CPU's carriers as shares of the host's CPUs, what they leave to the rest after
// them: "of its 2 CPUs: 93 % from 2 PostgreSQL sessions (cpu-report, user app: `...`),
// 4 % other processes". A carrier's figure is in % of one CPU, the host's in % of all.
QString cpuShares(const HostCpu &host, std::span<const Carrier> named)
{
    QStringList parts;
    double carried = 0;
    for (const Carrier &c : named) {
        const double share = c.mean / host.count;
        carried += share;
        parts << u"%1 % from %2"_s.arg(QString::number(qRound(share)), c.name);
    }
    parts << u"%1 % other processes"_s.arg(
        QString::number(qRound(std::max(0.0, host.busy - carried))));
    return u"of its %1 CPU%2: "_s.arg(QString::number(host.count),
                                      host.count == 1 ? QString() : u"s"_s)
        + parts.join(u", "_s);
}

} // namespace

Contributors contributorsOf(const QString &source, const QString &resource,
                            std::span<const SeriesTrack> tracks, qint64 fromMs, qint64 untilMs,
                            int top)
{
    if (resource == "connections"_L1)
        return connectionHolders(source, tracks, fromMs, untilMs, top);
    Contributors found;
    const QStringList metrics = metricsFor(resource);
    if (metrics.isEmpty())
        return found;
    const bool cpu = resource == "cpu"_L1;
    // A server's processes whose sessions stand for them are left to the sessions.
    const QSet<int> replaced = cpu ? serverProcessSeries(source, tracks) : QSet<int>();
    QHash<QString, Carrier> byProcess; // by pid and start of the labels
    QStringList order;
    for (const SeriesTrack &track : tracks) {
        const SeriesInfo &info = track.info;
        if (info.key.source != source || !metrics.contains(info.key.metric)
            || !isContributorSeries(info) || replaced.contains(track.seriesId))
            continue;
        const double mean = meanIn(track, fromMs, untilMs);
        if (!(mean > 0))
            continue;
        const QString id = labelsToString(info.key.labels);
        auto it = byProcess.find(id);
        if (it == byProcess.end()) {
            const Labels &labels = info.key.labels;
            const QString user = labels.value(u"user"_s);
            it = byProcess.insert(
                id,
                Carrier { u"%1 (pid %2%3)"_s.arg(labels.value(u"comm"_s), labels.value(u"pid"_s),
                                                 user.isEmpty() ? QString() : u", user "_s + user),
                          0,
                          info.unit,
                          {},
                          {} });
            order.append(id);
        }
        it->mean += mean;
        it->ids.append(track.seriesId);
        it->keys.append(info.key);
    }
    QList<Carrier> ranked;
    for (const QString &id : std::as_const(order))
        ranked.append(byProcess.value(id));
    if (cpu)
        ranked += sessionCarriers(source, tracks, fromMs, untilMs);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const Carrier &a, const Carrier &b) { return a.mean > b.mean; });
    for (const Carrier &c : std::as_const(ranked)) {
        found.seriesIds += c.ids;
        found.keys += c.keys;
    }
    const std::span<const Carrier> named(ranked.constData(),
                                         size_t(std::min<qsizetype>(ranked.size(), top)));
    if (named.empty())
        return found;
    if (cpu) {
        if (const std::optional<HostCpu> host = hostCpuOf(source, tracks, fromMs, untilMs)) {
            found.text = cpuShares(*host, named);
            return found;
        }
    }
    QStringList parts;
    for (const Carrier &c : named) {
        QString figure = formatValue(c.mean, c.unit);
        if (cpu)
            figure += u" of one CPU"_s;
        parts << c.name + u' ' + figure;
    }
    found.text = u"carried by "_s + parts.join(u", "_s);
    return found;
}

QSet<int> serverProcessSeries(const QString &source, std::span<const SeriesTrack> tracks)
{
    QSet<int> replaced;
    for (const SessionEngine &engine : SessionEngines) {
        QSet<QString> pids;
        for (const auto runningSessions = sessionSourcesOn(engine, source, tracks);
             const QSet<QString> &running : runningSessions)
            pids += running;
        for (const SeriesTrack &track : tracks)
            if (isServerProcess(engine, source, track.info)
                && pids.contains(track.info.key.labels.value(u"pid"_s)))
                replaced.insert(track.seriesId);
    }
    return replaced;
}

QString databasesOn(const QString &source, const QString &mountPoint,
                    std::span<const SeriesTrack> tracks)
{
    const auto under = [](const QString &path, const QString &mount) {
        return mount == "/"_L1 || path == mount || path.startsWith(mount + u'/');
    };
    QStringList mounts; // of the host
    for (const SeriesTrack &track : tracks) {
        const QString mount = track.info.key.labels.value(u"mountpoint"_s);
        if (track.info.key.source == source && track.info.resource.startsWith("fs:"_L1)
            && !mount.isEmpty() && !mounts.contains(mount))
            mounts.append(mount);
    }
    QStringList named;
    for (const SeriesTrack &track : tracks) {
        const SeriesInfo &info = track.info;
        const QString path = info.key.labels.value(u"path"_s);
        if (!info.key.metric.endsWith(".server.directory"_L1) || path.isEmpty()
            || !under(path, mountPoint))
            continue;
        const bool deeper = std::any_of(mounts.cbegin(), mounts.cend(), [&](const QString &m) {
            return m.size() > mountPoint.size() && under(m, mountPoint) && under(path, m);
        });
        const QString text = u"%1 (%2)"_s.arg(info.key.source, path);
        if (!deeper && !named.contains(text))
            named.append(text);
    }
    return named.isEmpty() ? QString() : u"holds the data directory of "_s + named.join(u", "_s);
}

QString findingNote(const QString &source, const QString &resource,
                    std::span<const SeriesTrack> tracks, qint64 fromMs, qint64 untilMs)
{
    if (resource != "wal"_L1)
        return {};
    // The figures behind it, where the collector gave them: the WAL rate over the
    // finding and the settings it is judged against.
    const auto mean = [&](const QString &suffix) -> double {
        for (const SeriesTrack &track : tracks)
            if (track.info.key.source == source && track.info.key.metric.endsWith(suffix)
                && track.info.key.labels.isEmpty())
                return meanIn(track, fromMs, untilMs);
        return 0;
    };
    const double walRate = mean(u".wal.bytes.rate"_s);
    const double timeout = mean(u".checkpoints.timeout_s"_s);
    const double forced = mean(u".checkpoints.wal_forced"_s);
    // Forced at least twice per timeout (the warning bound) over the finding.
    if (!(forced >= 2))
        return {};
    QString text = u"max_wal_size too small for this write rate"_s;
    if (walRate > 0 && timeout > 0 && forced > 0)
        text += u": WAL at %1 forces a checkpoint every %2 against checkpoint_timeout %3"_s.arg(
            formatValue(walRate, u"B/s"_s), formatValue(timeout / forced, u"s"_s),
            formatValue(timeout, u"s"_s));
    return text;
}

} // namespace Headroom::Analysis
