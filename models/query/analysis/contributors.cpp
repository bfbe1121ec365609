// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/contributors.h"

#include "core/valueformat.h"
#include "query/analysis/causefindings.h"

#include <QHash>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace Headroom::Analysis {

namespace {

// The catalogue's names (collectors/catalogue/hostmetrics.h), which this layer cannot
// include: tst_findings checks that they agree.
const QString ProcessPrefix = u"host.process."_s;

// The metrics that carry a resource, whose means add up per process.
QStringList metricsFor(const QString &resource)
{
    if (resource == "cpu"_L1)
        return { u"host.process.cpu"_s };
    if (resource == "memory"_L1)
        return { u"host.process.rss"_s };
    if (resource == "disk"_L1 || resource.startsWith("disk:"_L1))
        return { u"host.process.read_bytes"_s, u"host.process.write_bytes"_s };
    if (resource == "fd"_L1)
        return { u"host.process.open_files"_s };
    return {};
}

double meanIn(const SeriesTrack &track, qint64 fromMs, qint64 untilMs)
{
    double sum = 0;
    int n = 0;
    for (size_t i = 0; i < track.values.size(); ++i) {
        if (track.times[i] >= fromMs && track.times[i] < untilMs) {
            sum += track.values[i];
            ++n;
        }
    }
    return n > 0 ? sum / n : 0;
}

} // namespace

bool isContributorSeries(const SeriesInfo &info)
{
    if (info.key.metric.startsWith(ProcessPrefix) && info.key.labels.contains(u"pid"_s))
        return true;
    if (isRootBlockerSeries(info))
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
    struct Process
    {
        Labels labels;
        double mean = 0;
        QString unit;
        QList<int> ids;
        QList<SeriesKey> keys;
    };
    QHash<QString, Process> byProcess; // by pid and start of the labels
    QStringList order;
    for (const SeriesTrack &track : tracks) {
        const SeriesInfo &info = track.info;
        if (info.key.source != source || !metrics.contains(info.key.metric)
            || !isContributorSeries(info))
            continue;
        const double mean = meanIn(track, fromMs, untilMs);
        if (!(mean > 0))
            continue;
        const QString id = labelsToString(info.key.labels);
        auto it = byProcess.find(id);
        if (it == byProcess.end()) {
            it = byProcess.insert(id, Process { info.key.labels, 0, info.unit, {}, {} });
            order.append(id);
        }
        it->mean += mean;
        it->ids.append(track.seriesId);
        it->keys.append(info.key);
    }
    QList<Process> ranked;
    for (const QString &id : std::as_const(order))
        ranked.append(byProcess.value(id));
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const Process &a, const Process &b) { return a.mean > b.mean; });
    QStringList named;
    for (qsizetype i = 0; i < ranked.size(); ++i) {
        const Process &p = ranked[i];
        found.seriesIds += p.ids;
        found.keys += p.keys;
        if (i >= top)
            continue;
        const QString user = p.labels.value(u"user"_s);
        QString figure = formatValue(p.mean, p.unit);
        if (resource == "cpu"_L1)
            figure += u" of one CPU"_s;
        named << u"%1 (pid %2%3) %4"_s.arg(p.labels.value(u"comm"_s), p.labels.value(u"pid"_s),
                                           user.isEmpty() ? QString() : u", user "_s + user,
                                           figure);
    }
    if (!named.isEmpty())
        found.text = u"carried by "_s + named.join(u", "_s);
    return found;
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
