// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/findings.h"

#include "core/valueformat.h"
#include "document/panels/usematrixoptions.h"
#include "query/analysis/boundstretch.h"
#include "query/analysis/causechain.h"
#include "query/analysis/causefindings.h"
#include "query/analysis/contributors.h"
#include "query/analysis/onset.h"
#include "query/analysis/plateau.h"
#include "query/analysis/resourcename.h"
#include "query/analysis/timeleft.h"

#include <QDateTime>
#include <QHash>
#include <QTimeZone>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

using namespace Qt::StringLiterals;

namespace Headroom::Analysis {

QString findingKindName(FindingKind kind)
{
    switch (kind) {
    case FindingKind::Saturation:
        return u"saturation"_s;
    case FindingKind::Errors:
        return u"errors"_s;
    case FindingKind::Utilization:
        return u"utilization"_s;
    case FindingKind::Change:
        break;
    }
    return u"change"_s;
}

QString signalName(const SeriesInfo &info)
{
    return info.key.labels.isEmpty() ? info.key.metric
                                     : info.key.metric + labelsToString(info.key.labels);
}

QString clockText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::UTC).toString(u"HH:mm:ss"_s) + u" UTC"_s;
}

namespace {

QString value(double v, const QString &unit)
{
    return formatValue(v, unit);
}

} // namespace

int findingKindTier(FindingKind kind)
{
    switch (kind) {
    case FindingKind::Saturation:
    case FindingKind::Errors:
        return 0;
    case FindingKind::Utilization:
        return 1;
    case FindingKind::Change:
        break;
    }
    return 2;
}

namespace {

// The worst value of a track over [from, to]: the largest (every role here is worse
// when higher), or for a change the one furthest from before.
double worstIn(const SeriesTrack &track, qint64 from, qint64 to, double before, bool furthest)
{
    double worst = qQNaN();
    for (size_t i = 0; i < track.values.size(); ++i) {
        if (track.times[i] < from || track.times[i] > to)
            continue;
        const double v = track.values[i];
        if (std::isnan(worst)
            || (furthest ? std::abs(v - before) > std::abs(worst - before) : v > worst))
            worst = v;
    }
    return worst;
}

// Bounds judging a role: the USE matrix's defaults for its column and unit.
std::optional<UseColumn> columnFor(UseKind kind)
{
    switch (kind) {
    case UseKind::Utilization:
        return UseColumn::Utilization;
    case UseKind::Saturation:
        return UseColumn::Saturation;
    case UseKind::Errors:
        return UseColumn::Errors;
    default:
        return std::nullopt;
    }
}

struct Candidate
{
    Finding finding;
    const SeriesTrack *track = nullptr;
    bool raised = false;
    std::optional<Onset> onset;
};

// 0..1 from how large and how clear a step is.
double strengthOf(const Onset &onset)
{
    return std::clamp(0.5 * std::min(1.0, onset.relative) + 0.5 * onset.confidence, 0.0, 1.0);
}

// An imported series names its resource by a label (engine/import/importreader.h:
// "service:checkout"); no collector does. One with no bounds for its unit ("errors per
// minute", a latency in "ticks") is judged by how it changed against its own past: the
// onset already is a clean step; doubled is a warning, ten times a critical. Collected
// series without bounds (counts of sessions or tasks) stay changes.
int levelAgainstItsPast(const SeriesInfo &info, const Onset &onset)
{
    const QString kind = info.resource.section(u':', 0, 0);
    if (kind != "service"_L1 && kind != "host"_L1 && kind != "instance"_L1 && kind != "pod"_L1
        && kind != "container"_L1)
        return 0;
    const double ratio = onset.after / std::max(std::abs(onset.before), 1e-9);
    return onset.before < 0 ? 0 : ratio >= 10 ? 2 : ratio >= 2 ? 1 : 0;
}

// A candidate for track's series from sinceMs to untilMs (cut at the end of the track).
Candidate candidateOf(const SeriesTrack &track, qint64 sinceMs, qint64 untilMs)
{
    const SeriesInfo &info = track.info;
    Candidate c;
    c.track = &track;
    Finding &f = c.finding;
    f.source = info.key.source;
    f.resource = resourceDisplayName(info);
    f.resourceId = info.resource;
    f.signal = signalName(info);
    f.signalSeriesId = track.seriesId;
    f.unit = info.unit;
    f.sinceMs = sinceMs;
    f.untilMs = std::min(untilMs, track.toMs + 1);
    return c;
}

// A count of tasks waiting for the CPUs (not a share of stalled time, as PSI is).
bool isCpuQueue(const SeriesInfo &info)
{
    return info.key.metric == "host.cpu.runqueue_per_cpu"_L1
        || info.key.metric == "host.load.per_cpu"_L1;
}

// A run queue past its bounds while the CPUs were mostly idle is no bottleneck: the
// tasks counted runnable at the instant of a poll found a free CPU within the second
// (a poll wakes the collectors' own threads together; the replay-stopped scenario read
// 2 per CPU with its 2 CPUs 5 % busy). The load average, which also counts tasks
// waiting for disks, says as little about the CPUs then. The CPUs' busy share in
// [fromMs, toMs) when it is below half for a CPU queue, else nullopt.
std::optional<double> idleCpusUnder(const SeriesInfo &info, const SeriesTrack *busyCpus,
                                    qint64 fromMs, qint64 toMs)
{
    constexpr double MinBusyPercent = 50;
    if (!busyCpus || !isCpuQueue(info))
        return std::nullopt;
    const double busy = meanIn(*busyCpus, fromMs, toMs, qQNaN());
    return !qIsNaN(busy) && busy < MinBusyPercent ? std::optional(busy) : std::nullopt;
}

// The track's value before ms, or `none` when nothing came before.
double valueBefore(const SeriesTrack &track, qint64 ms, double none)
{
    const auto at = std::lower_bound(track.times.cbegin(), track.times.cend(), ms);
    return at == track.times.cbegin() ? none : track.values[size_t(at - track.times.cbegin()) - 1];
}

// busyCpus: the all-CPU utilization of the track's source, when the data has it.
std::optional<Candidate> fromOnset(const SeriesTrack &track, const Onset &onset, qint64 minRaisedMs,
                                   const SeriesTrack *busyCpus)
{
    const SeriesInfo &info = track.info;
    Candidate c = candidateOf(track, onset.tsMs, onset.untilMs);
    c.onset = onset;
    Finding &f = c.finding;
    f.before = onset.before;
    const double strength = strengthOf(onset);

    int level = 0; // 0 below the bounds, 1 warning, 2 critical
    const bool worseUp = info.kind == UseKind::Saturation || info.kind == UseKind::Errors
        || info.kind == UseKind::Latency || info.kind == UseKind::Utilization;
    if (worseUp && onset.rising()) {
        if (const auto column = columnFor(info.kind)) {
            // Past a bound, not at it: a run queue of exactly 1 per CPU is every CPU
            // busy and none waiting (scenario_healthy on 2 CPUs read 1 to 1.5 as one).
            const PanelThresholds bounds = defaultUseThresholds(*column, info.unit, info.resource);
            const auto past = [&](double bound) { return !qIsNaN(bound) && onset.after > bound; };
            level = qIsNaN(bounds.warning) && qIsNaN(bounds.critical)
                ? levelAgainstItsPast(info, onset)
                : past(bounds.critical) ? 2
                : past(bounds.warning)  ? 1
                                        : 0;
        } else if (info.kind == UseKind::Latency && info.unit != "ms"_L1 && info.unit != "s"_L1) {
            level = levelAgainstItsPast(info, onset);
        } else if (info.kind == UseKind::Latency) {
            // Grown 5x to at least 5 ms, or 20x to at least 1 ms: a lookup that lost its
            // index goes from 0.03 ms to 4.5 ms here (x150), well past noise but under
            // 5 ms on a fast machine. Critical from 50x.
            const double ms = info.unit == "s"_L1 ? onset.after * 1000 : onset.after;
            const double ratio = onset.after / std::max(onset.before, 1e-9);
            if (((ratio >= 5 && ms >= 5) || (ratio >= 20 && ms >= 1))
                && (info.unit == "ms"_L1 || info.unit == "s"_L1))
                level = ratio >= 50 ? 2 : 1;
        }
    }
    QString idleCpus;
    if (level > 0) {
        if (const auto busy = idleCpusUnder(info, busyCpus, f.sinceMs, f.untilMs)) {
            idleCpus = u" (with the CPUs %1 % busy: none waited long)"_s.arg(qRound(*busy));
            level = 0;
        }
    }
    // A burst is not a bottleneck: past its bounds for less than minRaisedMs, a rise is
    // a change (scenario_healthy on 2 CPUs: a run queue noisy around 1 per CPU sat at 1.5
    // for the last 5 s of the range), as an alert rule's "for" would hold it back.
    const qint64 lasted = f.untilMs - f.sinceMs;
    QString tooShort;
    if (level > 0 && lasted < minRaisedMs) {
        tooShort = u" (past its %1 bound for only %2 s)"_s.arg(
            level >= 2 ? u"critical"_s : u"warning"_s, QString::number(lasted / 1000));
        level = 0;
    }
    c.raised = level > 0;
    f.peak = worstIn(track, f.sinceMs, f.untilMs, onset.before, !c.raised);
    const QString direction = onset.rising() ? u"rose"_s : u"fell"_s;
    f.summary
        = u"%1 %2 from %3 to %4 at %5"_s.arg(f.signal, direction, value(onset.before, info.unit),
                                             value(onset.after, info.unit), clockText(f.sinceMs))
        + idleCpus + tooShort;
    if (c.raised) {
        f.kind = info.kind == UseKind::Errors   ? FindingKind::Errors
            : info.kind == UseKind::Utilization ? FindingKind::Utilization
                                                : FindingKind::Saturation;
        const double base = level >= 2 ? CriticalScore : WarningScore;
        f.score = std::min(1.0, base + 0.15 * strength);
        f.summary += level >= 2 ? u" (critical)"_s : u" (warning)"_s;
    } else {
        f.kind = FindingKind::Change;
        f.score = 0.2 + 0.25 * strength;
    }
    f.evidenceSeriesIds = { track.seriesId };
    f.evidenceKeys = { info.key };
    return c;
}

// "43 s", "12 min", "5.2 h": a time left as a person says it.
QString timeLeftText(double hours)
{
    const double seconds = hours * 3600;
    if (seconds < 120)
        return u"%1 s"_s.arg(qRound(seconds));
    if (seconds < 7200)
        return u"%1 min"_s.arg(qRound(seconds / 60));
    return u"%1 h"_s.arg(hours, 0, 'f', 1);
}

// A time left (a filesystem's time to full) at or beyond its bounds: raised once the
// resource has been running out for minRaisedMs (from the start of its fall).
std::optional<Candidate> fromTimeLeft(const SeriesTrack &track, std::span<const SeriesTrack> tracks,
                                      qint64 minRaisedMs)
{
    const auto stretch = timeLeftStretch(track, tracks);
    if (!stretch)
        return std::nullopt;
    const SeriesInfo &info = track.info;
    Candidate c = candidateOf(track, stretch->sinceMs, stretch->untilMs);
    Finding &f = c.finding;
    f.before = qQNaN(); // no forecast before it ran out
    f.peak = stretch->worst;
    // The growth behind the forecast: the mean of the same series' B/s figure there.
    QString growth;
    for (const SeriesTrack &other : tracks) {
        if (other.info.key.source != info.key.source || other.info.key.labels != info.key.labels
            || other.info.unit != "B/s"_L1)
            continue;
        double sum = 0;
        int n = 0;
        for (size_t i = 0; i < other.values.size(); ++i)
            if (other.times[i] >= stretch->fromMs && other.times[i] < stretch->untilMs) {
                sum += other.values[i];
                ++n;
            }
        if (n > 0 && sum > 0)
            growth = u" at "_s + value(sum / n, other.info.unit);
    }
    f.summary = u"%1: full in %2%3; forecast from %4, running out since %5"_s.arg(
        f.signal, timeLeftText(stretch->worst), growth, clockText(stretch->fromMs),
        clockText(stretch->sinceMs));
    const qint64 lasted = f.untilMs - f.sinceMs;
    // A forecast far longer than the growth it extrapolates is weak evidence: a burst of
    // writes on a big disk ("full in 15 min" after 14 s of a build) is a change until
    // the growth has lasted a twentieth of the time it forecasts.
    const double leftMs = stretch->worst * 3600 * 1000;
    if (lasted < minRaisedMs || leftMs > MaxTimeLeftExtrapolation * double(lasted)) {
        f.kind = FindingKind::Change;
        f.score = 0.45;
        f.summary += lasted < minRaisedMs
            ? u" (past its %1 bound for only %2 s)"_s.arg(stretch->level >= 2 ? u"critical"_s
                                                                              : u"warning"_s,
                                                          QString::number(lasted / 1000))
            : u" (a forecast %1 times as long as the %2 s of growth behind it)"_s.arg(
                  QString::number(qRound(leftMs / double(lasted))), QString::number(lasted / 1000));
    } else {
        c.raised = true;
        f.kind = FindingKind::Saturation;
        // Nearer the end, stronger: 0.15 more at no time left.
        const PanelThresholds bounds = defaultUseThresholds(UseColumn::Saturation, info.unit);
        const double nearness = std::clamp(1.0 - stretch->worst / bounds.warning, 0.0, 1.0);
        f.score
            = std::min(1.0, (stretch->level >= 2 ? CriticalScore : WarningScore) + 0.15 * nearness);
        f.summary += stretch->level >= 2 ? u" (critical)"_s : u" (warning)"_s;
    }
    // Evidence: the forecast, then the figures of the same series labels (a filesystem's
    // free bytes, use and growth).
    f.evidenceSeriesIds = { track.seriesId };
    f.evidenceKeys = { info.key };
    for (const SeriesTrack &other : tracks) {
        if (&other != &track && other.info.key.source == info.key.source
            && other.info.key.labels == info.key.labels && !other.isEmpty()) {
            f.evidenceSeriesIds.append(other.seriesId);
            f.evidenceKeys.append(other.info.key);
        }
    }
    return c;
}

// A backlog (a replication lag) at or past its bounds: raised once it has been rising
// into them for minRaisedMs, since where it began to rise.
std::optional<Candidate> fromBacklog(const SeriesTrack &track, qint64 minRaisedMs)
{
    const auto stretch = backlogStretch(track);
    if (!stretch)
        return std::nullopt;
    const SeriesInfo &info = track.info;
    Candidate c = candidateOf(track, stretch->sinceMs, stretch->untilMs);
    Finding &f = c.finding;
    f.before = valueBefore(track, f.sinceMs, 0);
    f.peak = stretch->worst;
    // A lag is how far behind; a slot's WAL what it keeps.
    const bool retained = info.resource.startsWith("slot:"_L1);
    f.summary = u"%1: %2 %3 at worst, past %4 from %5, rising since %6"_s.arg(
        f.signal, value(stretch->worst, info.unit), retained ? u"retained"_s : u"behind"_s,
        value(defaultUseThresholds(UseColumn::Saturation, info.unit, info.resource).warning,
              info.unit),
        clockText(stretch->fromMs), clockText(f.sinceMs));
    const qint64 lasted = f.untilMs - f.sinceMs;
    if (lasted < minRaisedMs) {
        f.kind = FindingKind::Change;
        f.score = 0.45;
        f.summary += u" (past its %1 bound for only %2 s)"_s.arg(
            stretch->level >= 2 ? u"critical"_s : u"warning"_s, QString::number(lasted / 1000));
    } else {
        c.raised = true;
        f.kind = FindingKind::Saturation;
        // Further past the bound, stronger: 0.15 more at ten times the warning.
        const PanelThresholds bounds
            = defaultUseThresholds(UseColumn::Saturation, info.unit, info.resource);
        const double beyond = std::clamp((stretch->worst / bounds.warning - 1) / 9, 0.0, 1.0);
        f.score
            = std::min(1.0, (stretch->level >= 2 ? CriticalScore : WarningScore) + 0.15 * beyond);
        f.summary += stretch->level >= 2 ? u" (critical)"_s : u" (warning)"_s;
    }
    f.evidenceSeriesIds = { track.seriesId };
    f.evidenceKeys = { info.key };
    return c;
}

// A series past its bounds without a step (boundstretch.h): a condition the data starts
// in, "since before 23:12:11 UTC (start of the data)"; or a stretch the USE matrix would
// raise that no onset found (a slow climb). Raised once it has lasted minRaisedMs.
// Only for a series no onset raised: an onset says more (the level before, the step),
// and its time is where the USE matrix puts the worst level too.
std::optional<Candidate> fromStretch(const SeriesTrack &track, qint64 dataStartMs, bool onsetRaised,
                                     qint64 minRaisedMs, const SeriesTrack *busyCpus)
{
    const auto stretch = boundStretch(track);
    if (!stretch
        || idleCpusUnder(track.info, busyCpus, stretch->fromMs,
                         std::min(stretch->untilMs, track.toMs + 1)))
        return std::nullopt;
    const bool before = stretch->fromFirstBin
        && track.times.front() <= dataStartMs + qint64(MaxGapBins) * track.binMs;
    const qint64 lasted = std::min(stretch->untilMs, track.toMs + 1) - stretch->fromMs;
    // Past the critical bound it is raised (the USE matrix shows the cell red; shorter
    // than minRaisedMs, a change that says so). Past the warning bound only, with no step
    // to show that anything changed, it may be the resource's usual level (a busy but
    // unsaturated server, a load average of 1.3 per CPU): a change noted since before
    // the data when the data starts in it, else nothing. A warning bound of "any" (every
    // value above 0) marks that something began: a rate above 0 all along is a baseline
    // there (MariaDB's temporary tables on disk from the monitoring's own queries).
    const bool anyBound = stretch->warning <= std::numeric_limits<double>::min();
    if (onsetRaised || (stretch->level < 2 && (!before || lasted < minRaisedMs || anyBound)))
        return std::nullopt;
    const SeriesInfo &info = track.info;
    Candidate c = candidateOf(track, stretch->fromMs, stretch->untilMs);
    Finding &f = c.finding;
    f.before = valueBefore(track, f.sinceMs, qQNaN());
    f.peak = stretch->worst;
    const QString bound = stretch->level >= 2 ? u"critical"_s : u"warning"_s;
    const QString boundValue
        = value(stretch->level >= 2 ? stretch->critical : stretch->warning, info.unit);
    f.summary = before
        ? u"%1 at %2 at worst, past its %3 bound (%4) since before %5 (start of the data)"_s.arg(
              f.signal, value(stretch->worst, info.unit), bound, boundValue, clockText(f.sinceMs))
        : u"%1 past its %3 bound (%4) from %5, %2 at worst"_s.arg(
              f.signal, value(stretch->worst, info.unit), bound, boundValue, clockText(f.sinceMs));
    f.sinceBefore = before;
    if (lasted < minRaisedMs) {
        f.kind = FindingKind::Change;
        f.score = 0.3;
        f.summary
            += u" (past its %1 bound for only %2 s)"_s.arg(bound, QString::number(lasted / 1000));
    } else if (stretch->level < 2) {
        f.kind = FindingKind::Change;
        f.score = 0.45;
        f.summary += u" (maybe its usual level: raised past its critical bound)"_s;
    } else {
        c.raised = true;
        f.kind = info.kind == UseKind::Errors   ? FindingKind::Errors
            : info.kind == UseKind::Utilization ? FindingKind::Utilization
                                                : FindingKind::Saturation;
        // Further past the bound, stronger: 0.15 more at ten times the critical bound.
        const double beyond
            = std::clamp((stretch->worst / std::max(stretch->critical, 1e-12) - 1) / 9, 0.0, 1.0);
        f.score = std::min(1.0, CriticalScore + 0.15 * beyond);
        f.summary += u" (critical)"_s;
    }
    f.evidenceSeriesIds = { track.seriesId };
    f.evidenceKeys = { info.key };
    return c;
}

// The ranking: findings at or above warning first; saturation and errors, then
// utilization, then change; then the earlier onset, the higher score, source and
// resource. A finding since before the data has no onset to order it by: it goes by
// its level, after the findings with an onset at its level and before those below it
// (of its own block), and among its kind by score.
std::vector<size_t> rankOrder(const std::vector<Finding> &findings)
{
    const auto block = [](const Finding &f) {
        return std::pair(f.aboveWarning() ? 0 : 1, findingKindTier(f.kind));
    };
    const auto level = [](const Finding &f) {
        return f.score >= CriticalScore ? 2 : f.score >= WarningScore ? 1 : 0;
    };
    const auto tieBreak = [](const Finding &a, const Finding &b) {
        if (a.score != b.score)
            return a.score > b.score;
        if (a.source != b.source)
            return a.source < b.source;
        return a.resource < b.resource;
    };
    std::vector<size_t> withOnset, sinceBefore;
    for (size_t i = 0; i < findings.size(); ++i)
        (findings[i].sinceBefore ? sinceBefore : withOnset).push_back(i);
    std::sort(withOnset.begin(), withOnset.end(), [&](size_t x, size_t y) {
        const Finding &a = findings[x], &b = findings[y];
        if (block(a) != block(b))
            return block(a) < block(b);
        if (a.sinceMs != b.sinceMs)
            return a.sinceMs < b.sinceMs;
        return tieBreak(a, b);
    });
    std::sort(sinceBefore.begin(), sinceBefore.end(), [&](size_t x, size_t y) {
        const Finding &a = findings[x], &b = findings[y];
        if (block(a) != block(b))
            return block(a) < block(b);
        return tieBreak(a, b);
    });
    std::vector<size_t> order;
    order.reserve(findings.size());
    size_t i = 0, j = 0;
    while (i < withOnset.size() || j < sinceBefore.size()) {
        bool takeBefore = j < sinceBefore.size();
        if (takeBefore && i < withOnset.size()) {
            const Finding &b = findings[sinceBefore[j]], &o = findings[withOnset[i]];
            takeBefore = block(b) < block(o) || (block(b) == block(o) && level(b) > level(o));
        }
        order.push_back(takeBefore ? sinceBefore[j++] : withOnset[i++]);
    }
    return order;
}

bool isWitness(const SeriesInfo &shelf, const SeriesInfo &witness)
{
    // The same resource, or a source-wide one of the same source that a hidden limit
    // shows in: TCP retransmits behind a NIC ("tcp", "net"), the server's waits behind
    // a database ("pg"). A CPU or memory signal says nothing about a link.
    if (shelf.key.source != witness.key.source)
        return false;
    if (shelf.resource == witness.resource)
        return true;
    return witness.resource == "tcp"_L1 || witness.resource == "net"_L1
        || witness.resource == "pg"_L1;
}

} // namespace

std::vector<Finding> findFindings(std::span<const SeriesTrack> tracks,
                                  const FindingsOptions &options)
{
    std::vector<Candidate> candidates;
    std::vector<std::vector<Onset>> onsets(tracks.size());
    // The start of each source's data: a condition already there holds since before it.
    QHash<QString, qint64> dataStart;
    qint64 binMs = 0;
    for (const SeriesTrack &track : tracks) {
        if (track.isEmpty())
            continue;
        binMs = std::max(binMs, track.binMs);
        const auto it = dataStart.constFind(track.info.key.source);
        if (it == dataStart.cend() || track.times.front() < *it)
            dataStart.insert(track.info.key.source, track.times.front());
    }
    // Each source's all-CPU utilization, which its CPU queues are read against.
    QHash<QString, const SeriesTrack *> busyCpus;
    for (const SeriesTrack &track : tracks) {
        if (!track.isEmpty() && track.info.key.metric == "host.cpu.utilization"_L1
            && track.info.key.labels.value(u"cpu"_s) == "all"_L1)
            busyCpus.insert(track.info.key.source, &track);
    }
    for (size_t t = 0; t < tracks.size(); ++t) {
        const SeriesInfo &info = tracks[t].info;
        if (info.histogram || tracks[t].isEmpty() || isContributorSeries(info))
            continue;
        if (isTimeLeft(info)) {
            if (auto c = fromTimeLeft(tracks[t], tracks, options.minRaisedMs))
                candidates.push_back(std::move(*c));
            continue;
        }
        if (isBacklog(info)) {
            if (auto c = fromBacklog(tracks[t], options.minRaisedMs))
                candidates.push_back(std::move(*c));
            continue;
        }
        onsets[t] = detectOnsets(tracks[t]);
        bool raised = false;
        for (const Onset &onset : onsets[t]) {
            if (auto c = fromOnset(tracks[t], onset, options.minRaisedMs,
                                   busyCpus.value(info.key.source))) {
                raised = raised || c->raised;
                candidates.push_back(std::move(*c));
            }
        }
        // Past its bounds without a step that was raised: from the start of the data, or
        // a slow climb (a critical cell of the USE matrix always has a finding).
        if (auto c = fromStretch(tracks[t], dataStart.value(info.key.source), raised,
                                 options.minRaisedMs, busyCpus.value(info.key.source)))
            candidates.push_back(std::move(*c));
    }

    // Shelves, each with its witnesses: rising saturation or error onsets of the same
    // resource or host, within the shelf or shortly before it.
    for (size_t t = 0; t < tracks.size(); ++t) {
        const SeriesTrack &track = tracks[t];
        if (!mayShelve(track.info) || track.isEmpty() || isContributorSeries(track.info))
            continue;
        const PlateauOptions plateauOptions;
        const auto shelf = detectPlateau(track, plateauOptions);
        if (!shelf)
            continue;
        // A limit shows where the demand meets it: the saturation or the errors rise as
        // the series runs into its shelf, not at some later moment of a long flat run
        // (a steady load is flat too, and something else may rise while it lasts).
        const qint64 lead = plateauOptions.minBins * track.binMs;
        const qint64 lag = plateauOptions.leadBins * track.binMs;
        // (track, onset, score) of each witness: its first rise, past its bounds, around
        // the shelf's start.
        struct Witness
        {
            size_t track;
            const Onset *onset;
            double score;
        };
        QList<Witness> witnesses;
        for (size_t w = 0; w < tracks.size(); ++w) {
            const SeriesInfo &info = tracks[w].info;
            if (w == t || (info.kind != UseKind::Saturation && info.kind != UseKind::Errors)
                || !isWitness(track.info, info))
                continue;
            for (const Onset &onset : onsets[w]) {
                if (!onset.rising() || onset.tsMs < shelf->fromMs - lead
                    || onset.tsMs > shelf->fromMs + lag)
                    continue;
                const auto judged = fromOnset(tracks[w], onset, options.minRaisedMs,
                                              busyCpus.value(info.key.source));
                if (judged && judged->raised) {
                    witnesses.append({ w, &onset, judged->finding.score });
                    break;
                }
            }
        }
        Candidate c = candidateOf(track, shelf->fromMs, shelf->toMs);
        Finding &f = c.finding;
        f.untilMs = shelf->toMs; // the shelf's own end, not cut at the track's
        f.before = shelf->before;
        f.peak = worstIn(track, shelf->fromMs, shelf->toMs, shelf->before, false);
        const qint64 seconds = (shelf->toMs - shelf->fromMs) / 1000;
        f.summary = u"%1 flat at %2 for %3 s from %4"_s.arg(
            f.signal, value(shelf->level, track.info.unit), QString::number(seconds),
            clockText(f.sinceMs));
        f.evidenceSeriesIds = { track.seriesId };
        f.evidenceKeys = { track.info.key };
        if (witnesses.isEmpty()) {
            f.kind = FindingKind::Change;
            f.score = 0.3;
            f.summary += u" (no saturation or error signal rose with it)"_s;
        } else {
            std::sort(witnesses.begin(), witnesses.end(), [](const Witness &a, const Witness &b) {
                return a.onset->tsMs < b.onset->tsMs;
            });
            const SeriesTrack &first = tracks[witnesses.first().track];
            const Onset &firstOnset = *witnesses.first().onset;
            f.kind = FindingKind::Saturation;
            // The shelf is the diagnosis and its witnesses the evidence: it outscores
            // each of them, so that it carries the merged finding of its resource.
            double witnessScore = 0;
            for (const Witness &witness : std::as_const(witnesses))
                witnessScore = std::max(witnessScore, witness.score);
            f.score = std::min(
                1.0, std::max(0.65 + 0.1 * double(witnesses.size()), witnessScore + 0.05));
            f.summary += u" while %1 rose from %2 to %3 at %4: a limit below what the "
                         "resource reports"_s.arg(
                             signalName(first.info), value(firstOnset.before, first.info.unit),
                             value(firstOnset.after, first.info.unit), clockText(firstOnset.tsMs));
            for (const Witness &witness : std::as_const(witnesses)) {
                f.evidenceSeriesIds.append(tracks[witness.track].seriesId);
                f.evidenceKeys.append(tracks[witness.track].info.key);
            }
            c.raised = true;
        }
        candidates.push_back(std::move(c));
    }

    // Merge by (source, resource): the best carries the finding, the rest are evidence.
    QHash<QString, std::vector<size_t>> groups;
    QStringList order;
    for (size_t i = 0; i < candidates.size(); ++i) {
        const QString key = candidates[i].finding.source + u'\x1f' + candidates[i].finding.resource;
        auto it = groups.find(key);
        if (it == groups.end()) {
            order.append(key);
            it = groups.insert(key, {});
        }
        it->push_back(i);
    }
    std::vector<Finding> findings;
    for (const QString &key : std::as_const(order)) {
        std::vector<size_t> members = groups.value(key);
        std::sort(members.begin(), members.end(), [&](size_t a, size_t b) {
            const Finding &fa = candidates[a].finding, &fb = candidates[b].finding;
            if (fa.score != fb.score)
                return fa.score > fb.score;
            return fa.sinceMs < fb.sinceMs;
        });
        Finding merged = candidates[members.front()].finding;
        int raisedOthers = 0;
        for (size_t m = 1; m < members.size(); ++m) {
            const Candidate &other = candidates[members[m]];
            if (other.raised) {
                ++raisedOthers;
                merged.sinceMs = std::min(merged.sinceMs, other.finding.sinceMs);
            }
            merged.untilMs = std::max(merged.untilMs, other.finding.untilMs);
            for (qsizetype e = 0; e < other.finding.evidenceSeriesIds.size(); ++e) {
                if (!merged.evidenceSeriesIds.contains(other.finding.evidenceSeriesIds[e])) {
                    merged.evidenceSeriesIds.append(other.finding.evidenceSeriesIds[e]);
                    merged.evidenceKeys.append(other.finding.evidenceKeys[e]);
                }
            }
        }
        // Since before the data when a raised member was past its bounds from its start.
        for (size_t m : members) {
            const Finding &member = candidates[m].finding;
            if ((candidates[m].raised || m == members.front()) && member.sinceBefore
                && member.sinceMs == merged.sinceMs)
                merged.sinceBefore = true;
        }
        if (merged.sinceBefore && !candidates[members.front()].finding.sinceBefore)
            merged.summary += u"; past its bounds since before %1 (start of the data)"_s.arg(
                clockText(merged.sinceMs));
        if (candidates[members.front()].raised && raisedOthers > 0) {
            merged.score = std::min(1.0, merged.score + 0.05 * raisedOthers);
            merged.summary += u"; %1 more signal(s) of %2 rose with it"_s.arg(raisedOthers)
                                  .arg(merged.resource);
        }
        // The databases on a filesystem that fills.
        const SeriesInfo &carrier = candidates[members.front()].track->info;
        if (carrier.resource.startsWith("fs:"_L1) && merged.kind != FindingKind::Change) {
            const QString tenants
                = databasesOn(merged.source, carrier.key.labels.value(u"mountpoint"_s), tracks);
            if (!tenants.isEmpty())
                merged.summary += u"; "_s + tenants;
        }
        // What a raised finding of WAL and checkpoints means.
        if (merged.aboveWarning() && merged.kind != FindingKind::Change) {
            const QString note = findingNote(merged.source, carrier.resource, tracks,
                                             merged.sinceMs, merged.untilMs);
            if (!note.isEmpty())
                merged.summary += u"; "_s + note;
        }
        // Who carries a raised finding of a host's CPU, memory, disks or file handles, or
        // holds a server's connections.
        if (merged.aboveWarning() && merged.kind != FindingKind::Change) {
            const Contributors carriers
                = contributorsOf(merged.source, candidates[members.front()].track->info.resource,
                                 tracks, merged.sinceMs, merged.untilMs);
            if (!carriers.text.isEmpty()) {
                merged.summary += u"; "_s + carriers.text;
                for (qsizetype e = 0; e < carriers.seriesIds.size(); ++e) {
                    if (!merged.evidenceSeriesIds.contains(carriers.seriesIds[e])) {
                        merged.evidenceSeriesIds.append(carriers.seriesIds[e]);
                        merged.evidenceKeys.append(carriers.keys[e]);
                    }
                }
            }
        }
        findings.push_back(std::move(merged));
    }

    // The causes that series of their own do not raise: the root blockers of lock
    // waits, the process behind a CPU saturation (causefindings.h).
    for (Finding &f : rootBlockerFindings(tracks, dataStart))
        findings.push_back(std::move(f));
    const size_t merged = findings.size();
    for (size_t i = 0; i < merged; ++i) {
        if (findings[i].aboveWarning() && findings[i].kind != FindingKind::Change
            && findings[i].resourceId == "cpu"_L1) {
            if (auto lead = processLead(findings[i], tracks))
                findings.push_back(std::move(*lead));
        }
    }
    // The cause before its symptoms (causechain.h).
    const std::vector<int> causeOf = linkCauses(findings, binMs);
    promoteLeads(&findings, causeOf);
    const std::vector<size_t> ranked = rankOrder(findings);
    return chainRanked(std::move(findings), causeOf, ranked, options.maxFindings);
}

} // namespace Headroom::Analysis
