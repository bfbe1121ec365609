// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Findings: which resource is the bottleneck, and since when. The onsets, shelves and
// USE roles of every analysed series combined into one ranked list.
//
// Per series (findings.cpp):
// - An onset (onset.h) on a Saturation, Errors or Latency series that rises, or on a
//   Utilization series that rises, is judged against the USE matrix's default bounds
//   for its column and unit (defaultUseThresholds): at or past warning it is a
//   saturation / errors / utilization finding scored from WarningScore up, at critical
//   from CriticalScore up. Latency (no bound by unit) counts as raised when it grew at
//   least 5x to at least 5 ms or 20x to at least 1 ms (critical from 50x). Both count
//   only once the rise has lasted FindingsOptions::minRaisedMs (until the next onset or
//   the range end): a shorter burst is a change whose summary says so. Any other onset (a
//   throughput that fell, a latency that halved, a rise that stays below the bounds) is a "change",
//   scored below WarningScore: evidence, not an alarm.
// - A shelf (plateau.h) on a throughput or utilization series is a saturation finding
//   when a saturation or error series of the same source, on the same resource or on a
//   source-wide one a hidden limit shows in ("tcp", "net", "pg"), rises past its
//   bounds (as above) around the shelf's start: from minBins before it to leadBins
//   after it, where the demand meets the limit. It is scored just above its best
//   witness so that it carries the merged finding of its resource; without a witness
//   it is a change.
// Findings of one (source, resource) merge: the highest score carries the kind, signal
// and summary, since is the earliest raised onset among them, and every series involved
// is evidence (the signal first). A merge of several raised signals adds 0.05 each.
// A time left (timeleft.h: a filesystem's time to full) is judged by its stretch at or
// beyond its bounds, not by onsets, and raised once it has lasted minRaisedMs and the
// growth behind it at least 1/MaxTimeLeftExtrapolation of the time it forecasts. So is a
// backlog (timeleft.h: a replication lag, the WAL a slot retains), which ramps rather
// than steps: raised once it has been rising into its bounds for minRaisedMs, since it
// began to rise. The bounds are those of the series' column, unit and resource
// (defaultUseThresholds: connection slots, lags, slots and forced checkpoints have
// their own). A raised finding of a server's connections names the applications and
// roles whose sessions grew, one of its WAL and checkpoints says what forced them
// (contributors.h). A raised finding
// of a host's CPU, memory, disks or file handles names the processes that carried it, one of a
// filesystem the databases whose data directory it holds (contributors.h); per-process series raise
// nothing. A series of a USE column that no onset raised is judged by its stretch past its bounds
// (boundstretch.h): past its critical bound for minRaisedMs it is raised (since before the data,
// sinceBefore, when it holds from the first bin), shorter a change; past its warning bound from the
// first bin a change noted since before the data (it may be the usual level), elsewhere nothing. A
// lock storm's root blocker and the process behind a raised CPU finding are findings of their own
// (causefindings.h), and findings of one fault are linked, the cause leading its consequences
// (causechain.h). Rank: findings at or above WarningScore first; among them saturation and errors
// before utilization before change; then the earlier onset (the first domino), then the higher
// score, then source and resource for a stable order. A finding since before the data follows those
// with an onset at its level and precedes those below it; a chain takes its best member's place,
// the lead first and its consequences right after it.
#pragma once

#include "core/series.h"
#include "query/analysis/seriestrack.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <span>
#include <vector>

namespace Headroom::Analysis {

enum class FindingKind
{
    Saturation,
    Errors,
    Utilization,
    Change
};
QString findingKindName(FindingKind kind); // "saturation", "errors", "utilization", "change"
// The ranking's tiers: saturation and errors 0, utilization 1, change 2.
int findingKindTier(FindingKind kind);

// A time left is raised only once the resource has been running out for at least a
// twentieth of the time it forecasts (timeleft.h).
inline constexpr double MaxTimeLeftExtrapolation = 20;

inline constexpr double WarningScore = 0.5;
inline constexpr double CriticalScore = 0.8;

struct Finding
{
    int rank = 0; // 1 = the first to look at
    QString source;
    QString resource; // resourceDisplayName of the signal
    QString resourceId; // SeriesInfo::resource of the signal ("db:app", "nic:eth0", "pg")
    FindingKind kind = FindingKind::Change;
    QString signal; // metric{labels} of the series that carries it
    int signalSeriesId = 0;
    QString unit;
    qint64 sinceMs = 0;
    qint64 untilMs = 0; // last bin of the evidence (the range end while it lasts)
    double before = 0; // the signal's level before the onset
    double peak = 0; // the worst value of the signal from since to until
    double score = 0; // 0..1
    QString summary; // one line, with the figures
    QList<int> evidenceSeriesIds; // the signal first
    QList<SeriesKey> evidenceKeys; // same order
    // Already past its bound at the first samples: sinceMs is the start of the data, and
    // the condition began before it.
    bool sinceBefore = false;
    // The cause chain (causechain.h): the rank of the finding that explains this one (0:
    // none, a lead or a finding on its own), and the ranks this one explains.
    int causedBy = 0;
    QList<int> consequences;

    bool aboveWarning() const { return score >= WarningScore; }
};

struct FindingsOptions
{
    int maxFindings = 50;
    // How long an onset must stay past its bounds to be raised (a shorter one is a
    // change that says how long it lasted): 15 s, three polls of a slow source, more
    // than a burst of a busy run queue.
    qint64 minRaisedMs = 15'000;
};

// How findings name a series ("metric{labels}") and a time ("23:12:11 UTC").
QString signalName(const SeriesInfo &info);
QString clockText(qint64 ms);

std::vector<Finding> findFindings(std::span<const SeriesTrack> tracks,
                                  const FindingsOptions &options = {});

} // namespace Headroom::Analysis

Q_DECLARE_METATYPE(Headroom::Analysis::Finding)
