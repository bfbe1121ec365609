// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/causefindings.h"

#include "core/valueformat.h"
#include "query/analysis/causechain.h"
#include "query/analysis/contributors.h"
#include "query/analysis/timeleft.h"

#include <QHash>
#include <QStringList>
#include <algorithm>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace Headroom::Analysis {

namespace {

// collector/blockingtree.h's names, which this layer cannot include.
constexpr QLatin1StringView RootBlocked(".locks.root_blocked");
constexpr QLatin1StringView RootBlockedDirect(".locks.root_blocked_direct");
constexpr QLatin1StringView RootXactAge(".locks.root_xact_age_s");

QString engineName(const QString &metric)
{
    QString prefix = metric.section(u'.', 0, 0);
    if (prefix == "pg"_L1)
        return u"PostgreSQL"_s;
    if (prefix == "mariadb"_L1)
        return u"MariaDB"_s;
    return prefix;
}

// "a duration as a person says it": 45 s, 12 min, 3.5 h.
QString duration(double seconds)
{
    if (seconds < 120)
        return u"%1 s"_s.arg(qRound(seconds));
    if (seconds < 7200)
        return u"%1 min"_s.arg(qRound(seconds / 60));
    return u"%1 h"_s.arg(seconds / 3600, 0, 'f', 1);
}

} // namespace

bool isRootBlockerSeries(const SeriesInfo &info)
{
    const QString &m = info.key.metric;
    return info.key.labels.contains(u"pid"_s)
        && (m.endsWith(RootBlocked) || m.endsWith(RootBlockedDirect) || m.endsWith(RootXactAge));
}

std::vector<Finding> rootBlockerFindings(std::span<const SeriesTrack> tracks,
                                         const QHash<QString, qint64> &dataStartMs)
{
    struct Root
    {
        const SeriesTrack *blocked = nullptr; // the root_blocked series that held up most
        double peak = 0;
        qint64 firstMs = 0;
        qint64 untilMs = 0;
        double xactAgeS = -1;
        QList<int> ids;
        QList<SeriesKey> keys;
    };
    QHash<QString, Root> roots; // by source and pid
    QStringList order;
    const auto rootOf = [&](const SeriesInfo &info) -> Root & {
        const QString id = info.key.source + u'\x1f' + info.key.labels.value(u"pid"_s);
        auto it = roots.find(id);
        if (it == roots.end()) {
            it = roots.insert(id, Root {});
            order.append(id);
        }
        return *it;
    };
    for (const SeriesTrack &track : tracks) {
        if (track.isEmpty() || !isRootBlockerSeries(track.info))
            continue;
        Root &root = rootOf(track.info);
        root.ids.append(track.seriesId);
        root.keys.append(track.info.key);
        const double peak = *std::max_element(track.values.cbegin(), track.values.cend());
        if (track.info.key.metric.endsWith(RootXactAge)) {
            root.xactAgeS = std::max(root.xactAgeS, peak);
            continue;
        }
        if (!track.info.key.metric.endsWith(RootBlocked))
            continue;
        if (!root.blocked || track.times.front() < root.firstMs)
            root.firstMs = track.times.front();
        root.untilMs = std::max(root.untilMs, track.binEnd(track.values.size() - 1));
        if (!root.blocked || peak > root.peak) {
            root.blocked = &track;
            root.peak = std::max(root.peak, peak);
        }
    }
    std::vector<Finding> findings;
    for (const QString &id : std::as_const(order)) {
        const Root &root = roots.value(id);
        // A root seen in one poll only is a lock taken and given back: no storm.
        if (!root.blocked || root.blocked->values.size() < 2 || !(root.peak >= 1))
            continue;
        const SeriesInfo &info = root.blocked->info;
        const Labels &labels = info.key.labels;
        Finding f;
        f.source = info.key.source;
        f.resource = engineName(info.key.metric) + u" session pid "_s + labels.value(u"pid"_s);
        f.resourceId = info.resource;
        f.signal = signalName(info);
        f.signalSeriesId = root.blocked->seriesId;
        f.unit = info.unit;
        f.sinceMs = root.firstMs;
        f.untilMs = std::min(root.untilMs, root.blocked->toMs + 1);
        f.before = 0;
        f.peak = root.peak;
        const qint64 start = dataStartMs.value(f.source, root.firstMs);
        f.sinceBefore = root.firstMs <= start + MaxGapBins * root.blocked->binMs;
        QStringList who;
        if (!labels.value(u"application"_s).isEmpty())
            who << labels.value(u"application"_s);
        if (!labels.value(u"user"_s).isEmpty())
            who << u"user "_s + labels.value(u"user"_s);
        if (!labels.value(u"client"_s).isEmpty())
            who << u"from "_s + labels.value(u"client"_s);
        const int sessions = qRound(root.peak);
        f.summary = u"%1 %2 wait%3 behind pid %4%5 %6"_s.arg(
            QString::number(sessions), sessions == 1 ? u"session"_s : u"sessions"_s,
            sessions == 1 ? u"s"_s : QString(), labels.value(u"pid"_s),
            who.isEmpty() ? QString() : u" ("_s + who.join(u", "_s) + u')',
            f.sinceBefore ? u"since before %1 (start of the data)"_s.arg(clockText(f.sinceMs))
                          : u"since "_s + clockText(f.sinceMs));
        const QString query = labels.value(u"query"_s).simplified();
        if (!query.isEmpty())
            f.summary += u", which runs: "_s + query;
        if (root.xactAgeS > 0)
            f.summary += u" (its transaction open %1)"_s.arg(duration(root.xactAgeS));
        f.kind = FindingKind::Change;
        f.score = 0.45;
        f.evidenceSeriesIds = { root.blocked->seriesId };
        f.evidenceKeys = { info.key };
        for (qsizetype i = 0; i < root.ids.size(); ++i) {
            if (!f.evidenceSeriesIds.contains(root.ids[i])) {
                f.evidenceSeriesIds.append(root.ids[i]);
                f.evidenceKeys.append(root.keys[i]);
            }
        }
        findings.push_back(std::move(f));
    }
    std::stable_sort(findings.begin(), findings.end(),
                     [](const Finding &a, const Finding &b) { return a.peak > b.peak; });
    return findings;
}

std::optional<Finding> processLead(const Finding &cpu, std::span<const SeriesTrack> tracks)
{
    // The host collector's name (collectors/catalogue/hostmetrics.h; tst_findings checks
    // that contributors.cpp's agree).
    const QString metric = u"host.process.cpu"_s;
    const auto meanOf = [](const SeriesTrack &t, qint64 from, qint64 to, double *out) {
        double sum = 0;
        int n = 0;
        for (size_t i = 0; i < t.values.size(); ++i)
            if (t.times[i] >= from && t.times[i] < to) {
                sum += t.values[i];
                ++n;
            }
        *out = n > 0 ? sum / n : 0;
        return n;
    };
    // A database server's processes whose sessions the dashboard has are named by their
    // sessions in the CPU's finding (contributors.h): no process of theirs leads it.
    const QSet<int> sessions = serverProcessSeries(cpu.source, tracks);
    const SeriesTrack *top = nullptr;
    double topMean = 0;
    for (const SeriesTrack &t : tracks) {
        if (t.info.key.source != cpu.source || t.info.key.metric != metric || t.isEmpty()
            || sessions.contains(t.seriesId))
            continue;
        double mean = 0;
        if (meanOf(t, cpu.sinceMs, cpu.untilMs, &mean) > 0 && mean > topMean) {
            top = &t;
            topMean = mean;
        }
    }
    if (!top)
        return std::nullopt;
    double before = 0; // a process that did not run before the onset took nothing
    meanOf(*top, top->fromMs, cpu.sinceMs, &before);
    if (topMean - before < 50 || topMean < 2 * before)
        return std::nullopt;
    // Where it got half way, from a few bins before the CPU's onset on.
    const double half = (before + topMean) / 2;
    const qint64 lookBack = qint64(MaxGapBins) * top->binMs;
    qint64 rise = -1;
    double peak = 0;
    for (size_t i = 0; i < top->values.size(); ++i) {
        if (top->times[i] >= cpu.sinceMs - lookBack && top->times[i] < cpu.untilMs) {
            if (rise < 0 && top->values[i] >= half)
                rise = top->times[i];
            peak = std::max(peak, top->values[i]);
        }
    }
    // Only a process that rose with the CPU caused it (causechain.h links them by the
    // same nearness); one that came later is carried, not the cause.
    if (rise < 0 || std::abs(rise - cpu.sinceMs) > qint64(ChainPolls) * top->binMs)
        return std::nullopt;
    const Labels &labels = top->info.key.labels;
    const QString user = labels.value(u"user"_s);
    Finding f;
    f.source = cpu.source;
    f.resource = u"process %1 (pid %2)"_s.arg(labels.value(u"comm"_s), labels.value(u"pid"_s));
    f.resourceId = u"process"_s;
    f.signal = signalName(top->info);
    f.signalSeriesId = top->seriesId;
    f.unit = top->info.unit;
    f.sinceMs = rise;
    f.untilMs = cpu.untilMs;
    f.before = before;
    f.peak = peak;
    f.summary = u"%1 (pid %2%3) rose from %4 to %5 of one CPU at %6"_s.arg(
        labels.value(u"comm"_s), labels.value(u"pid"_s),
        user.isEmpty() ? QString() : u", user "_s + user, formatValue(before, f.unit),
        formatValue(topMean, f.unit), clockText(rise));
    f.kind = FindingKind::Change;
    f.score = 0.45;
    f.evidenceSeriesIds = { top->seriesId };
    f.evidenceKeys = { top->info.key };
    return f;
}

} // namespace Headroom::Analysis
