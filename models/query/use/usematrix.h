// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The USE matrix (Brendan Gregg's USE method as one table): a row per source and
// resource (CPU, memory, each disk, each NIC, each database, each shard set, ... of each
// host or server), a column each for Utilization, Saturation and Errors, each cell the
// worst figure of that kind on that resource over the range, judged against thresholds,
// and since when it is raised. GUI-free: built from the range of the series a
// "usematrix" panel selects (usematrixquery.h), shown by UseMatrixModel /
// UseMatrixPanel, exported as CSV rows.
//
// Rules, in one place:
// - Rows: every (source, resource) pair (SeriesKey::source, SeriesInfo::resource) with
//   at least one Utilization, Saturation or Errors series that has a sample in the
//   range. Order: by source (natural order, "host2" before "host10"), then within a
//   source cpu, memory, disks, filesystems (fs:*), file handles (fd), NICs, connection
//   slots (connections), databases (db:*), shard sets (shardset:*), WAL and checkpoints
//   (wal), standbys and replication (standby:*, replica, replica:*), replication slots
//   (slot:*), then everything else; natural order within a group ("disk:sda2" before
//   "disk:sda10").
// - Labels: the resource's ("CPU", "Disk sda"). When one resource has rows from two or
//   more sources (two hosts, two servers), every row's label starts with its source:
//   "web2 · CPU" (useRowLabel); with one source, or sources that share no resource (the
//   host and nic sources of one machine), the labels stay short. Series that name no
//   resource are labelled by their metrics ("pg.db.rows_per_block"): no row is unnamed.
// - Worst of a series (useWorstInRange): its largest value in the range (smallest for
//   higherIsWorse false); among equal values the latest. Its level is that value's.
// - Since when, for a raised worst (warning or critical): the raised stretch is the
//   longest run of consecutive samples at warning or worse that contains the worst
//   sample (any sample below warning ends it; a gap without samples does not). `since`
//   is the first sample of that stretch at the worst's level or beyond, `until` its
//   last sample. The stretch is ongoing when it reaches the series' last sample in
//   the range and the series is fresh; a cell then reads "92 % since 14:03", else
//   "92 % 14:03–14:10". On ranges longer than a day the older blocks come from their
//   summaries (SeriesStore::readForColumns): values stay exact, times are accurate to
//   a block (at most range / UseRangeColumns).
// - Headline of a cell, among its series with a sample in the range: the worst level,
//   then the one furthest towards its warning bound (value / warning), then the
//   largest worst value (for higherIsWorse false the smallest), then a fresh one. Every
//   series of the cell is kept in UseCellSeries, so a click can chart them all.
// - Fresh: the latest sample is at most useStaleAfterMs(spacing) older than the range
//   end: 3 x the series' own sample spacing (at least 1 s), or 10 s when a single
//   sample leaves the spacing unknown. A cell none of whose series is fresh is stale
//   (UseCell::stale): it still shows its worst figure and level (a resource that was
//   raised and then went away must not turn green or blank), drawn as stale. A cell
//   whose series have no sample in the range at all has level Stale and shows "—".
// - Default thresholds by column and unit (defaultUseThresholds), overridable per
//   column by the panel's options {"thresholds": {"utilization": {"warning": 70,
//   "critical": 90, "higherIsWorse": true}, "saturation": {...}, "errors": {...}}}; a
//   column given there uses exactly those bounds for every unit (a bound left out is
//   not checked). A value at or beyond a bound has that bound's level, as for
//   PanelThresholds everywhere.
#pragma once

#include "core/sample.h"
#include "core/series.h"
#include "core/valueformat.h"
#include "document/dashboard.h"
#include "document/panels/usematrixoptions.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <array>
#include <optional>
#include <vector>

namespace Headroom {

// Ordered so that a larger value is worse; Ok, Warning and Critical equal
// PanelThresholds::level().
enum class UseLevel
{
    NotMeasured = -2, // no series of this kind on this resource
    Stale = -1, // series exist, but none has a sample in the range
    Ok = 0,
    Warning = 1,
    Critical = 2
};

// The level as the CSV, the report and the tooltips name it: "stale", "ok", "warning",
// "critical"; empty for NotMeasured.
QString useLevelName(UseLevel level);

// How far back from the range end the latest samples (freshness and spacing) are
// looked for; the worst figure is looked for over the whole range.
inline constexpr qint64 UseLookbackMs = 10 * 60 * 1000;
// The columns SeriesStore::readForColumns() reduces the range to: on ranges longer
// than a day, a block spanning at most range / UseRangeColumns comes from its summary.
inline constexpr int UseRangeColumns = 1440;

// The worst sample of one series in the range and the stretch it is raised in (see the
// rules above; times are sample times).
struct UseWorst
{
    Sample sample;
    int level = 0; // thresholds.level(sample.value): 0 ok, 1 warning, 2 critical
    qint64 sinceMs = -1; // raised only: the stretch's first sample at `level` or beyond
    qint64 untilMs = -1; // raised only: the stretch's last sample
    bool toLastSample = false; // raised only: the stretch reaches the last sample in range
    qint64 lastMs = -1; // the last sample in range (summaries: a block's, roughly)

    bool raised() const { return level > 0; }
};

// The worst of samples (oldest first) judged by thresholds; nullopt without a sample
// (NaN values are skipped).
std::optional<UseWorst> useWorstInRange(const std::vector<Sample> &samples,
                                        const PanelThresholds &thresholds);

// One selected series as read by the query: the latest sample in the range and the
// spacing of its recent samples (0 when unknown), and its worst in the range by the
// thresholds of its column and unit.
struct UseSeriesReading
{
    int seriesId = 0;
    SeriesInfo info;
    std::optional<Sample> latest;
    qint64 spacingMs = 0;
    std::optional<UseWorst> worst; // none: no sample in the range
};

struct UseCellSeries
{
    int seriesId = 0;
    SeriesInfo info;
    std::optional<Sample> latest; // none: no sample near the range end
    std::optional<UseWorst> worst; // none: no sample in the range
    // Range end - latest sample time (the last in range when none is near the end); -1
    // without a sample in the range.
    qint64 ageMs = -1;
    bool stale = true;
    PanelThresholds thresholds; // the bounds that judged this series (column and unit)
    UseLevel level = UseLevel::Stale; // Stale without a sample in range, else its worst's
};

struct UseCell
{
    UseLevel level = UseLevel::NotMeasured;
    // A figure is shown but no series of the cell has a current sample.
    bool stale = false;
    int headline = -1; // index into series: the figure shown; -1 when NotMeasured
    QList<UseCellSeries> series; // every series of the cell, ordered by key
    // Raised cells: since when (the headline's stretch, or the firing alert's start
    // when an alert raised the level), the stretch's last sample, and whether it holds
    // at the range end. -1 / false otherwise.
    qint64 sinceMs = -1;
    qint64 untilMs = -1;
    bool ongoing = false;
    // Message of the worst alert firing on one of the cell's series (or its resource
    // and column) at the matrix's time; its severity raised `level` (applyFiringAlerts).
    QString alert;

    const UseCellSeries *headlineSeries() const
    {
        return headline >= 0 && headline < series.size() ? &series.at(headline) : nullptr;
    }
    // The headline's worst sample, when the cell has a figure.
    const UseWorst *worst() const
    {
        const UseCellSeries *s = headlineSeries();
        return s && s->worst ? &*s->worst : nullptr;
    }
    // A figure is shown (the worst in range; it may be stale).
    bool hasValue() const { return level >= UseLevel::Ok; }
    bool raised() const { return level >= UseLevel::Warning; }
    QList<SeriesKey> seriesKeys() const;
};

struct UseMatrixRow
{
    QString source; // e.g. "host"
    QString resource; // e.g. "disk:sda"
    QString label; // e.g. "Disk sda", or "web2 · Disk sda" (see the rules)
    std::array<UseCell, UseColumnCount> cells;

    const UseCell &cell(UseColumn column) const { return cells.at(size_t(column)); }
};

struct UseMatrix
{
    qint64 atMs = 0; // the range end the ages are measured from
    QList<UseMatrixRow> rows;

    int rowOf(const QString &source, const QString &resource) const; // -1 when absent
    // The first row of that resource, whatever its source; -1 when absent.
    int rowOf(const QString &resource) const;
};

// How old a sample may be and still count as current (see the rules above).
qint64 useStaleAfterMs(qint64 spacingMs);

// The matrix from the selected series' readings, ages measured from atMs (the range
// end). Series of other kinds (throughput, latency, info) and histogram series are
// ignored.
UseMatrix buildUseMatrix(const QList<UseSeriesReading> &readings, const UseMatrixOptions &options,
                         qint64 atMs);

// "CPU", "Memory", "Disk sda", "Filesystem /var/lib/postgresql", "File handles",
// "NIC eth0", "Connections", "Database app", "Shard set public.orders", "WAL and
// checkpoints", "Standby replica1", "Replication" (this server as a replica),
// "Replication slot s1", "TCP", "PostgreSQL server"; anything else as written.
QString useResourceLabel(const QString &resource);
// The resource order within a source described above.
bool useResourceLess(const QString &a, const QString &b);
// The row order: by source, then useResourceLess.
bool useRowLess(const UseMatrixRow &a, const UseMatrixRow &b);
// The "worst" row order of a fleet (UseRowOrder::Worst): rows with a critical cell
// first, then warning, then ok, then stale and unmeasured ones; among rows at the
// same level, the one whose raised cells' headlines lie furthest beyond their warning
// bound (value / warning; for higherIsWorse false warning / value) first, then more
// raised cells, then useRowLess. Stable: equal rows keep their order.
void orderUseRowsWorstFirst(QList<UseMatrixRow> *rows);

// "CPU" or, withSource, "web2 · CPU".
QString useRowLabel(const QString &source, const QString &resource, bool withSource);
// Sets every row's label by the rule above (after rows were added or removed).
void labelUseRows(QList<UseMatrixRow> *rows);

// A timeseries panel charting every series of one cell (exact selectors), titled
// "Disk sda — Saturation", with the bounds that judged the cell's headline series; for
// a fleet matrix, the PromQL query that gave the cell, kept to the row's host.
DashboardPanel useCellChart(const DashboardPanel &matrixPanel, const UseMatrixRow &row,
                            UseColumn column);

// The cells whose level changed between two matrices (UseMatrixModel::levelChanged
// emits them), by source, resource and column. A row that appears counts as changing
// from NotMeasured, one that disappears as changing to NotMeasured.
struct UseLevelChange
{
    QString source;
    QString resource;
    UseColumn column = UseColumn::Utilization;
    UseLevel from = UseLevel::NotMeasured;
    UseLevel to = UseLevel::NotMeasured;
    friend bool operator==(const UseLevelChange &, const UseLevelChange &) = default;
};
QList<UseLevelChange> useLevelChanges(const UseMatrix &before, const UseMatrix &after);

} // namespace Headroom

Q_DECLARE_METATYPE(Headroom::UseMatrix)
Q_DECLARE_METATYPE(Headroom::UseLevelChange)
