#include "query/use/usematrix.h"

#include "core/naturalsort.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <limits>

namespace Headroom {

using namespace Qt::StringLiterals;

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
    if (resource.startsWith("nic:"_L1))
        return 3;
    if (resource.startsWith("db:"_L1))
        return 4;
    if (resource.startsWith("shardset:"_L1))
        return 5;
    return 6;
}

// How far a value has gone towards (or past) its first bound; comparable across units.
// nullopt when the series has no positive bound to measure against.
std::optional<double> pressure(const UseCellSeries &s)
{
    const PanelThresholds &t = s.thresholds;
    const double bound = !qIsNaN(t.warning) ? t.warning : t.critical;
    if (qIsNaN(bound) || !(bound > 0) || !s.latest)
        return std::nullopt;
    const double v = s.latest->value;
    if (t.higherIsWorse)
        return v / bound;
    return v > 0 ? bound / v : std::numeric_limits<double>::infinity();
}

// The headline rule: worst level, then furthest towards its bound (series with a bound
// before those without), then the largest value (smallest for higherIsWorse false).
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
    const double va = a.latest ? a.latest->value : 0;
    const double vb = b.latest ? b.latest->value : 0;
    if (va == vb)
        return false;
    return a.thresholds.higherIsWorse ? va > vb : va < vb;
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
    for (int i = 0; i < cell.series.size(); ++i) {
        if (cell.series.at(i).stale)
            continue;
        if (best < 0 || worse(cell.series.at(i), cell.series.at(best)))
            best = i;
    }
    if (best >= 0) {
        cell.headline = best;
        cell.level = cell.series.at(best).level;
        return;
    }
    // All stale: the most recent sample is what the tooltip tells about.
    cell.level = UseLevel::Stale;
    cell.headline = 0;
    qint64 newest = std::numeric_limits<qint64>::min();
    for (int i = 0; i < cell.series.size(); ++i) {
        const auto &latest = cell.series.at(i).latest;
        if (latest && latest->tsMs > newest) {
            newest = latest->tsMs;
            cell.headline = i;
        }
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

UseMatrix buildUseMatrix(const QList<UseSeriesReading> &readings, const UseMatrixOptions &options,
                         qint64 atMs)
{
    QHash<QString, UseMatrixRow> rows;
    QSet<QString> seen; // resources with a sample in the look-back window
    for (const UseSeriesReading &reading : readings) {
        const auto column = useColumnOf(reading.info.kind);
        if (!column || reading.info.histogram)
            continue;
        UseCellSeries s;
        s.seriesId = reading.seriesId;
        s.info = reading.info;
        s.latest = reading.latest;
        s.thresholds = options.thresholdsFor(*column, reading.info.unit);
        if (s.latest) {
            s.ageMs = std::max<qint64>(0, atMs - s.latest->tsMs);
            s.stale = s.ageMs > useStaleAfterMs(reading.spacingMs);
            seen.insert(reading.info.resource);
        }
        s.level = s.stale ? UseLevel::Stale : UseLevel(s.thresholds.level(s.latest->value));
        UseMatrixRow &row = rows[reading.info.resource];
        row.cells.at(size_t(*column)).series.append(std::move(s));
    }

    UseMatrix matrix;
    matrix.atMs = atMs;
    for (auto it = rows.begin(); it != rows.end(); ++it) {
        if (!seen.contains(it.key()))
            continue;
        UseMatrixRow row = std::move(it.value());
        row.resource = it.key();
        row.label = useResourceLabel(row.resource);
        for (UseCell &cell : row.cells)
            chooseHeadline(cell);
        matrix.rows.append(std::move(row));
    }
    std::sort(matrix.rows.begin(), matrix.rows.end(),
              [](const UseMatrixRow &a, const UseMatrixRow &b) {
                  return useResourceLess(a.resource, b.resource);
              });
    return matrix;
}

QString useResourceLabel(const QString &resource)
{
    static const QHash<QString, QString> whole = {
        { u"cpu"_s, u"CPU"_s },          { u"memory"_s, u"Memory"_s },
        { u"disk"_s, u"Disks (all)"_s }, // host.io.psi: I/O pressure of the whole host
        { u"tcp"_s, u"TCP"_s },          { u"pg"_s, u"PostgreSQL server"_s },
    };
    if (const auto it = whole.constFind(resource); it != whole.constEnd())
        return *it;
    static const std::pair<QLatin1StringView, QString> prefixes[] = {
        { "disk:"_L1, u"Disk "_s },
        { "nic:"_L1, u"NIC "_s },
        { "db:"_L1, u"Database "_s },
        { "shardset:"_L1, u"Shard set "_s },
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

DashboardPanel useCellChart(const DashboardPanel &matrixPanel, const UseMatrixRow &row,
                            UseColumn column)
{
    const UseCell &cell = row.cell(column);
    DashboardPanel chart;
    chart.id = matrixPanel.id + u'/' + row.resource + u'/' + useColumnKey(column);
    chart.type = PanelType::TimeSeries;
    chart.title = row.label + u" — "_s + useColumnTitle(column);
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
    const auto levelIn = [](const UseMatrix &m, const QString &resource, int column) {
        const int row = m.rowOf(resource);
        return row < 0 ? UseLevel::NotMeasured : m.rows.at(row).cells.at(size_t(column)).level;
    };
    QStringList resources;
    for (const UseMatrixRow &row : after.rows)
        resources.append(row.resource);
    for (const UseMatrixRow &row : before.rows) {
        if (after.rowOf(row.resource) < 0)
            resources.append(row.resource);
    }
    for (const QString &resource : std::as_const(resources)) {
        for (int c = 0; c < UseColumnCount; ++c) {
            const UseLevel from = levelIn(before, resource, c);
            const UseLevel to = levelIn(after, resource, c);
            if (from != to)
                changes.append({ resource, UseColumn(c), from, to });
        }
    }
    return changes;
}

} // namespace Headroom
