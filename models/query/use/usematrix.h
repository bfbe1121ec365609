// The USE matrix (Brendan Gregg's USE method as one table): a row per resource (CPU,
// memory, each disk, each NIC, each database, each shard set, ...), a column each for
// Utilization, Saturation and Errors, each cell the current figure of the worst series
// of that kind on that resource, judged against thresholds. GUI-free: built from the
// latest samples of the series a "usematrix" panel selects (usematrixquery.h), shown by
// UseMatrixModel / UseMatrixPanel, exported as CSV rows.
//
// Rules, in one place:
// - Rows: every resource (SeriesInfo::resource) with at least one Utilization,
//   Saturation or Errors series that has a sample in the look-back window (the last
//   UseLookbackMs of the range). Order: cpu, memory, disks, NICs, databases (db:*),
//   shard sets (shardset:*), then everything else; natural order within a group
//   ("disk:sda2" before "disk:sda10").
// - Headline of a cell, among its fresh series: the worst level, then the one furthest
//   towards its warning bound (value / warning), then the largest value (for
//   higherIsWorse false the smallest). Every series of the cell is kept in
//   UseCell::series, so a click can chart them all.
// - Fresh: the latest sample is at most useStaleAfterMs(spacing) older than the range
//   end: 3 x the series' own sample spacing (at least 1 s), or 10 s when a single
//   sample leaves the spacing unknown. A cell whose series are all stale shows "—".
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

namespace Headroom {

// Ordered so that a larger value is worse; Ok, Warning and Critical equal
// PanelThresholds::level().
enum class UseLevel
{
    NotMeasured = -2, // no series of this kind on this resource
    Stale = -1, // series exist, but none has a recent sample
    Ok = 0,
    Warning = 1,
    Critical = 2
};

// How far back the latest sample of a series is looked for.
inline constexpr qint64 UseLookbackMs = 10 * 60 * 1000;

// The latest sample of one selected series and the spacing of its recent samples
// (0 when unknown), as read by the query.
struct UseSeriesReading
{
    int seriesId = 0;
    SeriesInfo info;
    std::optional<Sample> latest;
    qint64 spacingMs = 0;
};

struct UseCellSeries
{
    int seriesId = 0;
    SeriesInfo info;
    std::optional<Sample> latest; // none: no sample in the look-back window
    qint64 ageMs = -1; // range end - latest sample time; -1 without a sample
    bool stale = true;
    PanelThresholds thresholds; // the bounds that judged this series (column and unit)
    UseLevel level = UseLevel::Stale; // Stale, or the level of its latest value
};

struct UseCell
{
    UseLevel level = UseLevel::NotMeasured;
    int headline = -1; // index into series: the figure shown; -1 when NotMeasured
    QList<UseCellSeries> series; // every series of the cell, ordered by key
    // Message of the worst alert firing on one of the cell's series (or its resource
    // and column) at the matrix's time; its severity raised `level` (applyFiringAlerts).
    QString alert;

    const UseCellSeries *headlineSeries() const
    {
        return headline >= 0 && headline < series.size() ? &series.at(headline) : nullptr;
    }
    // A current figure is shown (not stale, not unmeasured).
    bool hasValue() const { return level >= UseLevel::Ok; }
    QList<SeriesKey> seriesKeys() const;
};

struct UseMatrixRow
{
    QString resource; // e.g. "disk:sda"
    QString label; // e.g. "Disk sda"
    std::array<UseCell, UseColumnCount> cells;

    const UseCell &cell(UseColumn column) const { return cells.at(size_t(column)); }
};

struct UseMatrix
{
    qint64 atMs = 0; // the range end the ages are measured from
    QList<UseMatrixRow> rows;

    int rowOf(const QString &resource) const; // -1 when absent
};

// How old a sample may be and still count as current (see the rules above).
qint64 useStaleAfterMs(qint64 spacingMs);

// The matrix from the selected series' readings, ages measured from atMs. Series of
// other kinds (throughput, latency, info) and histogram series are ignored.
UseMatrix buildUseMatrix(const QList<UseSeriesReading> &readings, const UseMatrixOptions &options,
                         qint64 atMs);

// "CPU", "Memory", "Disk sda", "NIC eth0", "Database app", "Shard set public.orders",
// "TCP", "PostgreSQL server"; anything else as written.
QString useResourceLabel(const QString &resource);
// The row order described above.
bool useResourceLess(const QString &a, const QString &b);

// A timeseries panel charting every series of one cell (exact selectors), titled
// "Disk sda — Saturation", with the bounds that judged the cell's headline series.
DashboardPanel useCellChart(const DashboardPanel &matrixPanel, const UseMatrixRow &row,
                            UseColumn column);

// Where alert rules (a later issue) hook in: the cells whose level changed between
// two matrices, by resource and column. A resource that appears counts as changing
// from NotMeasured, one that disappears as changing to NotMeasured.
struct UseLevelChange
{
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
