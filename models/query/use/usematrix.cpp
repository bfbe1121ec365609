// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/use/usematrix.h"

#include "core/legendtemplate.h"
#include "core/naturalsort.h"
#include "query/promql/promqlpanelquery.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <limits>

namespace Headroom {

using namespace Qt::StringLiterals;

QString useLevelName(UseLevel level)
{
    switch (level) {
    case UseLevel::NotMeasured:
        break;
    case UseLevel::Stale:
        return u"stale"_s;
    case UseLevel::Ok:
        return u"ok"_s;
    case UseLevel::Warning:
        return u"warning"_s;
    case UseLevel::Critical:
        return u"critical"_s;
    }
    return QString();
}

namespace {

constexpr qint64 UnknownSpacingStaleMs = 10'000;
constexpr qint64 MinimumStaleMs = 1'000; // scheduling jitter of a fast source

// Group of a resource in the row order.
int resourceRank(const QString &resource)
{
    if (resource == "cpu"_L1)
        return 0;
    if (resource == "memory"_L1)
        return 1;
    if (resource == "disk"_L1 || resource.startsWith("disk:"_L1))
        return 2;
    if (resource.startsWith("fs:"_L1))
        return 3;
    if (resource == "fd"_L1)
        return 4;
    if (resource.startsWith("nic:"_L1))
        return 5;
    if (resource == "connections"_L1)
        return 6;
    if (resource.startsWith("db:"_L1))
        return 7;
    if (resource.startsWith("shardset:"_L1))
        return 8;
    if (resource == "wal"_L1)
        return 9;
    if (resource.startsWith("standby:"_L1) || resource == "replica"_L1
        || resource.startsWith("replica:"_L1))
        return 10;
    if (resource.startsWith("slot:"_L1))
        return 11;
    return 12;
}

double worstValue(const UseCellSeries &s)
{
    return s.worst ? s.worst->sample.value : 0;
}

// How far a value has gone towards (or past) its first bound; comparable across units.
// nullopt when the series has no positive bound to measure against.
std::optional<double> pressure(const UseCellSeries &s)
{
    const PanelThresholds &t = s.thresholds;
    const double bound = !qIsNaN(t.warning) ? t.warning : t.critical;
    if (qIsNaN(bound) || !(bound > 0) || !s.worst)
        return std::nullopt;
    const double v = worstValue(s);
    if (t.higherIsWorse)
        return v / bound;
    return v > 0 ? bound / v : std::numeric_limits<double>::infinity();
}

// The headline rule: worst level, then furthest towards its bound (series with a bound
// before those without), then the largest worst value (smallest for higherIsWorse
// false), then a fresh series before a stale one.
bool worse(const UseCellSeries &a, const UseCellSeries &b)
{
    if (a.level != b.level)
        return a.level > b.level;
    const auto pa = pressure(a);
    const auto pb = pressure(b);
    if (pa.has_value() != pb.has_value())
        return pa.has_value();
    if (pa && *pa != *pb)
        return *pa > *pb;
    const double va = worstValue(a);
    const double vb = worstValue(b);
    if (va != vb)
        return a.thresholds.higherIsWorse ? va > vb : va < vb;
    return !a.stale && b.stale;
}

void chooseHeadline(UseCell &cell)
{
    std::sort(cell.series.begin(), cell.series.end(),
              [](const UseCellSeries &a, const UseCellSeries &b) {
                  return a.info.key.toString() < b.info.key.toString();
              });
    if (cell.series.isEmpty()) {
        cell.level = UseLevel::NotMeasured;
        cell.headline = -1;
        return;
    }
    int best = -1;
    bool anyFresh = false;
    for (int i = 0; i < cell.series.size(); ++i) {
        const UseCellSeries &s = cell.series.at(i);
        anyFresh = anyFresh || !s.stale;
        if (!s.worst)
            continue;
        if (best < 0 || worse(s, cell.series.at(best)))
            best = i;
    }
    cell.stale = !anyFresh;
    if (best < 0) {
        // Nothing in the range: "—", the first series is what the tooltip tells about.
        cell.level = UseLevel::Stale;
        cell.headline = 0;
        return;
    }
    cell.headline = best;
    const UseCellSeries &headline = cell.series.at(best);
    cell.level = headline.level;
    if (headline.worst->raised()) {
        cell.sinceMs = headline.worst->sinceMs;
        cell.untilMs = headline.worst->untilMs;
        cell.ongoing = headline.worst->toLastSample && !headline.stale;
    }
}

} // namespace

QList<SeriesKey> UseCell::seriesKeys() const
{
    QList<SeriesKey> keys;
    keys.reserve(series.size());
    for (const UseCellSeries &s : series)
        keys.append(s.info.key);
    return keys;
}

int UseMatrix::rowOf(const QString &source, const QString &resource) const
{
    for (int i = 0; i < rows.size(); ++i) {
        if (rows.at(i).source == source && rows.at(i).resource == resource)
            return i;
    }
    return -1;
}

int UseMatrix::rowOf(const QString &resource) const
{
    for (int i = 0; i < rows.size(); ++i) {
        if (rows.at(i).resource == resource)
            return i;
    }
    return -1;
}

qint64 useStaleAfterMs(qint64 spacingMs)
{
    if (spacingMs <= 0)
        return UnknownSpacingStaleMs;
    return std::max(MinimumStaleMs, 3 * spacingMs);
}

std::optional<UseWorst> useWorstInRange(const std::vector<Sample> &samples,
                                        const PanelThresholds &thresholds)
{
    // The worst sample: the largest value (smallest for higherIsWorse false), the
    // latest among equals.
    qsizetype worst = -1;
    qsizetype last = -1;
    for (qsizetype i = 0; i < qsizetype(samples.size()); ++i) {
        const double v = samples[size_t(i)].value;
        if (qIsNaN(v))
            continue;
        last = i;
        if (worst < 0)
            worst = i;
        const double w = samples[size_t(worst)].value;
        if (thresholds.higherIsWorse ? v >= w : v <= w)
            worst = i;
    }
    if (worst < 0)
        return std::nullopt;
    UseWorst out;
    out.sample = samples[size_t(worst)];
    out.lastMs = samples[size_t(last)].tsMs;
    out.level = thresholds.level(out.sample.value);
    if (!out.raised())
        return out;
    // The raised stretch around it: consecutive samples at warning or worse (NaN
    // values, which judge nothing, neither end nor extend it).
    const auto levelAt = [&](qsizetype i) {
        const double v = samples[size_t(i)].value;
        return qIsNaN(v) ? -1 : thresholds.level(v);
    };
    qsizetype first = worst;
    for (qsizetype i = worst - 1; i >= 0; --i) {
        const int l = levelAt(i);
        if (l < 0)
            continue;
        if (l < 1)
            break;
        first = i;
    }
    qsizetype end = worst;
    for (qsizetype i = worst + 1; i < qsizetype(samples.size()); ++i) {
        const int l = levelAt(i);
        if (l < 0)
            continue;
        if (l < 1)
            break;
        end = i;
    }
    // Within the stretch, the first sample that reached the worst's level.
    qsizetype since = worst;
    for (qsizetype i = first; i <= worst; ++i) {
        if (levelAt(i) >= out.level) {
            since = i;
            break;
        }
    }
    out.sinceMs = samples[size_t(since)].tsMs;
    out.untilMs = samples[size_t(end)].tsMs;
    out.toLastSample = end == last;
    return out;
}

UseMatrix buildUseMatrix(const QList<UseSeriesReading> &readings, const UseMatrixOptions &options,
                         qint64 atMs)
{
    using RowKey = std::pair<QString, QString>; // source, resource
    QHash<RowKey, UseMatrixRow> rows;
    QSet<RowKey> seen; // rows with a sample in the range
    for (const UseSeriesReading &reading : readings) {
        const auto column = useColumnOf(reading.info.kind);
        if (!column || reading.info.histogram)
            continue;
        const RowKey key { reading.info.key.source, reading.info.resource };
        UseCellSeries s;
        s.seriesId = reading.seriesId;
        s.info = reading.info;
        s.latest = reading.latest;
        s.worst = reading.worst;
        s.thresholds = options.thresholdsFor(*column, reading.info.unit, reading.info.resource);
        if (s.latest) {
            s.ageMs = std::max<qint64>(0, atMs - s.latest->tsMs);
            s.stale = s.ageMs > useStaleAfterMs(reading.spacingMs);
        } else if (s.worst) {
            s.ageMs = std::max<qint64>(0, atMs - s.worst->lastMs); // stale: nothing recent
        }
        if (s.worst)
            seen.insert(key);
        s.level = s.worst ? UseLevel(s.worst->level) : UseLevel::Stale;
        UseMatrixRow &row = rows[key];
        row.cells.at(size_t(*column)).series.append(std::move(s));
    }

    UseMatrix matrix;
    matrix.atMs = atMs;
    for (auto it = rows.begin(); it != rows.end(); ++it) {
        if (!seen.contains(it.key()))
            continue;
        UseMatrixRow row = std::move(it.value());
        row.source = it.key().first;
        row.resource = it.key().second;
        for (UseCell &cell : row.cells)
            chooseHeadline(cell);
        matrix.rows.append(std::move(row));
    }
    std::sort(matrix.rows.begin(), matrix.rows.end(), useRowLess);
    labelUseRows(&matrix.rows);
    return matrix;
}

QString useResourceLabel(const QString &resource)
{
    static const QHash<QString, QString> whole = {
        { u"cpu"_s, u"CPU"_s },
        { u"memory"_s, u"Memory"_s },
        { u"disk"_s, u"Disks (all)"_s }, // host.io.psi: I/O pressure of the whole host
        { u"tcp"_s, u"TCP"_s },
        { u"pg"_s, u"PostgreSQL server"_s },
        { u"fd"_s, u"File handles"_s },
        { u"connections"_s, u"Connections"_s },
        { u"wal"_s, u"WAL and checkpoints"_s },
        { u"replica"_s, u"Replication"_s },
    };
    if (const auto it = whole.constFind(resource); it != whole.constEnd())
        return *it;
    static const std::pair<QLatin1StringView, QString> prefixes[] = {
        { "disk:"_L1, u"Disk "_s },
        { "fs:"_L1, u"Filesystem "_s },
        { "nic:"_L1, u"NIC "_s },
        { "db:"_L1, u"Database "_s },
        { "shardset:"_L1, u"Shard set "_s },
        { "standby:"_L1, u"Standby "_s },
        { "slot:"_L1, u"Replication slot "_s },
        { "replica:"_L1, u"Replication "_s },
    };
    for (const auto &[prefix, label] : prefixes) {
        if (resource.startsWith(prefix) && resource.size() > prefix.size())
            return label + resource.mid(prefix.size());
    }
    return resource;
}

bool useResourceLess(const QString &a, const QString &b)
{
    const int ra = resourceRank(a);
    const int rb = resourceRank(b);
    if (ra != rb)
        return ra < rb;
    return naturalLess(a, b, Qt::CaseSensitive); // "sda2" < "sda10"
}

bool useRowLess(const UseMatrixRow &a, const UseMatrixRow &b)
{
    if (a.source != b.source)
        return naturalLess(a.source, b.source, Qt::CaseSensitive);
    return useResourceLess(a.resource, b.resource);
}

namespace {

// How a row ranks in the worst-first order (see orderUseRowsWorstFirst).
struct RowSeverity
{
    int level = int(UseLevel::NotMeasured);
    double beyond = 0; // the largest raised headline's value / warning
    int raised = 0;
};

RowSeverity severityOf(const UseMatrixRow &row)
{
    RowSeverity s;
    for (const UseCell &cell : row.cells) {
        s.level = std::max(s.level, int(cell.level));
        if (!cell.raised())
            continue;
        ++s.raised;
        const UseCellSeries *headline = cell.headlineSeries();
        const UseWorst *worst = cell.worst();
        if (!headline || !worst)
            continue;
        const PanelThresholds &t = headline->thresholds;
        const double value = worst->sample.value;
        if (qIsNaN(t.warning) || t.warning <= 0 || value <= 0)
            continue;
        s.beyond = std::max(s.beyond, t.higherIsWorse ? value / t.warning : t.warning / value);
    }
    return s;
}

} // namespace

void orderUseRowsWorstFirst(QList<UseMatrixRow> *rows)
{
    QList<std::pair<RowSeverity, UseMatrixRow>> ranked;
    ranked.reserve(rows->size());
    for (UseMatrixRow &row : *rows)
        ranked.append({ severityOf(row), std::move(row) });
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) {
        if (a.first.level != b.first.level)
            return a.first.level > b.first.level;
        if (a.first.beyond != b.first.beyond)
            return a.first.beyond > b.first.beyond;
        if (a.first.raised != b.first.raised)
            return a.first.raised > b.first.raised;
        return useRowLess(a.second, b.second);
    });
    rows->clear();
    for (auto &[severity, row] : ranked)
        rows->append(std::move(row));
}

QString useRowLabel(const QString &source, const QString &resource, bool withSource)
{
    const QString label = useResourceLabel(resource);
    return withSource ? source + u" · "_s + label : label;
}

void labelUseRows(QList<UseMatrixRow> *rows)
{
    // Sources per resource: a resource seen under two sources needs them named.
    QHash<QString, QString> sourceOf;
    bool shared = false;
    for (const UseMatrixRow &row : std::as_const(*rows)) {
        const auto it = sourceOf.constFind(row.resource);
        if (it == sourceOf.constEnd())
            sourceOf.insert(row.resource, row.source);
        else if (*it != row.source)
            shared = true;
    }
    for (UseMatrixRow &row : *rows) {
        row.label = useRowLabel(row.source, row.resource, shared);
        if (!row.resource.isEmpty())
            continue;
        // Series that name no resource (a source's own figures) are named by their
        // metrics, so that no row goes without a name.
        QStringList metrics;
        for (const UseCell &cell : row.cells) {
            for (const UseCellSeries &series : cell.series) {
                if (!metrics.contains(series.info.key.metric))
                    metrics.append(series.info.key.metric);
            }
        }
        // Two names at most, so that the label leaves the cells room.
        QString what = metrics.isEmpty() ? row.source : metrics.mid(0, 2).join(u", "_s);
        if (metrics.size() > 2)
            what += u" and %1 more"_s.arg(metrics.size() - 2);
        row.label = shared ? row.source + u" · "_s + what : what;
    }
}

namespace {

// A fleet cell's chart reads the query that gave the cell, kept to the row's host:
// `and on(instance)` a one-element vector carrying the host's label value, which works
// whatever the expression is.
void setFleetCellQuery(DashboardPanel *chart, const DashboardPanel &matrixPanel,
                       const UseMatrixOptions &options, const UseMatrixRow &row, UseColumn column)
{
    const UseCell &cell = row.cell(column);
    for (const UseMatrixQuery &query : options.queries) {
        if (query.column != column)
            continue;
        QString error;
        const auto resource = LegendTemplate::parse(query.resource, &error);
        const bool gaveThisRow
            = std::any_of(cell.series.cbegin(), cell.series.cend(), [&](const UseCellSeries &s) {
                  SeriesInfo info = s.info;
                  info.key.labels.insert(options.by, row.source);
                  return resource && resource->expand(info) == row.resource;
              });
        if (!gaveThisRow)
            continue;
        chart->query = u"(%1) and on(%2) label_replace(vector(1), %3, %4, \"\", \"\")"_s.arg(
            query.query, options.by, promqlQuoted(options.by), promqlQuoted(row.source));
        chart->querySource = matrixPanel.querySource;
        chart->unit = query.unit;
        if (const UseCellSeries *headline = cell.headlineSeries())
            chart->thresholds = headline->thresholds;
        return;
    }
}

} // namespace

DashboardPanel useCellChart(const DashboardPanel &matrixPanel, const UseMatrixRow &row,
                            UseColumn column)
{
    const UseCell &cell = row.cell(column);
    DashboardPanel chart;
    chart.id
        = matrixPanel.id + u'/' + row.source + u'/' + row.resource + u'/' + useColumnKey(column);
    chart.type = PanelType::TimeSeries;
    chart.title = row.label + u" — "_s + useColumnTitle(column);
    if (const UseMatrixOptions options = useMatrixOptions(matrixPanel.options);
        !options.queries.isEmpty()) {
        setFleetCellQuery(&chart, matrixPanel, options, row, column);
        return chart;
    }
    QSet<QString> units;
    for (const UseCellSeries &s : cell.series) {
        chart.series.append({ s.info.key.source, s.info.key.metric, s.info.key.labels });
        units.insert(s.info.unit);
    }
    if (units.size() == 1)
        chart.unit = *units.cbegin();
    if (const UseCellSeries *headline = cell.headlineSeries())
        chart.thresholds = headline->thresholds;
    return chart;
}

QList<UseLevelChange> useLevelChanges(const UseMatrix &before, const UseMatrix &after)
{
    QList<UseLevelChange> changes;
    const auto levelIn = [](const UseMatrix &m, const UseMatrixRow &key, int column) {
        const int row = m.rowOf(key.source, key.resource);
        return row < 0 ? UseLevel::NotMeasured : m.rows.at(row).cells.at(size_t(column)).level;
    };
    QList<const UseMatrixRow *> keys;
    for (const UseMatrixRow &row : after.rows)
        keys.append(&row);
    for (const UseMatrixRow &row : before.rows) {
        if (after.rowOf(row.source, row.resource) < 0)
            keys.append(&row);
    }
    for (const UseMatrixRow *key : std::as_const(keys)) {
        for (int c = 0; c < UseColumnCount; ++c) {
            const UseLevel from = levelIn(before, *key, c);
            const UseLevel to = levelIn(after, *key, c);
            if (from != to)
                changes.append({ key->source, key->resource, UseColumn(c), from, to });
        }
    }
    return changes;
}

} // namespace Headroom
