#include "query/csvexport.h"

#include "document/dashboard.h"
#include "query/shards/shardquery.h"

#include <QDateTime>
#include <QLocale>
#include <QSaveFile>
#include <QTimeZone>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

QByteArray csvHeader()
{
    return QByteArrayLiteral("time,panel,source,metric,labels,value,unit\r\n");
}

namespace {
// Rows of lines drawn shiftMs later than measured (compare mode), with extra labels.
void appendSeriesRows(QString *out, const QString &panelId, const QList<PanelSeriesData> &series,
                      qint64 shiftMs, const Labels &extra)
{
    for (const PanelSeriesData &s : series) {
        Labels labels = s.info.key.labels;
        labels.insert(extra);
        // Everything but time and value is the same on every row of a series.
        const QString fixed = u',' + csvText(panelId) + u',' + csvText(s.info.key.source) + u','
            + csvText(s.info.key.metric) + u',' + csvText(labelsToString(labels)) + u',';
        const QString unit = u',' + csvText(s.info.unit) + u"\r\n"_s;
        for (const Sample &p : s.points) {
            *out += QDateTime::fromMSecsSinceEpoch(p.tsMs - shiftMs, QTimeZone::UTC)
                        .toString(Qt::ISODateWithMs)
                + fixed + csvNumber(p.value) + unit;
        }
    }
}
} // namespace

namespace {
// A heatmap panel's rows: one per non-empty cell, columns in time order, the fastest row
// first within a column. time = the column's start; source and metric = those of the
// panel's first matched series (PanelData::series); labels = {bucket=<heatmapRowLabel>,
// gt_ms=<lower bound>,le_ms=<upper bound>}, e.g. {bucket=4–8 ms,gt_ms=4,le_ms=8} (the
// catch-all row 0 has gt_ms=0), so scripts read the bounds without parsing the label;
// value = events per second in that cell, unit "1/s".
void appendHeatmapRows(QString *out, const PanelData &data)
{
    const HeatmapGrid &grid = data.heatmap;
    if (grid.rows() == 0 || grid.columns <= 0 || data.series.isEmpty())
        return;
    const SeriesKey &key = data.series.first().info.key;
    const QString prefix = u',' + csvText(data.panelId) + u',' + csvText(key.source) + u','
        + csvText(key.metric) + u',';
    QStringList rowFields; // labels and the separators around them, per row
    for (int r = 0; r < grid.rows(); ++r) {
        const Labels labels {
            { u"bucket"_s, heatmapRowLabel(grid, r) },
            { u"gt_ms"_s,
              QString::number(grid.lowerBoundMs(r), 'g', QLocale::FloatingPointShortest) },
            { u"le_ms"_s,
              QString::number(grid.upperBoundsMs.at(r), 'g', QLocale::FloatingPointShortest) },
        };
        rowFields.append(csvText(labelsToString(labels)) + u',');
    }
    const double columnMs = double(grid.toMs - grid.fromMs) / grid.columns;
    for (int c = 0; c < grid.columns; ++c) {
        const QString time = QDateTime::fromMSecsSinceEpoch(
                                 grid.fromMs + qint64(std::floor(c * columnMs)), QTimeZone::UTC)
                                 .toString(Qt::ISODateWithMs);
        for (int r = 0; r < grid.rows(); ++r) {
            const double value = grid.at(r, c);
            if (value > 0)
                *out += time + prefix + rowFields.at(r) + csvNumber(value) + u",1/s\r\n"_s;
        }
    }
}
} // namespace

namespace {
// A USE matrix panel's rows: one per cell showing a current figure (stale and
// unmeasured cells have none), rows in the matrix's order, columns U, S, E. time = the
// headline sample's time; source, metric, unit and value = the headline series';
// labels = its labels plus use=<utilization|saturation|errors> and resource=<resource>
// (e.g. {device=sda,resource=disk:sda,use=saturation}), which tell the cell apart.
void appendUseMatrixRows(QString *out, const PanelData &data)
{
    for (const UseMatrixRow &row : data.useMatrix.rows) {
        for (int c = 0; c < UseColumnCount; ++c) {
            const UseCell &cell = row.cells.at(size_t(c));
            const UseCellSeries *s = cell.headlineSeries();
            if (!cell.hasValue() || !s || !s->latest)
                continue;
            Labels labels = s->info.key.labels;
            labels.insert(u"use"_s, useColumnKey(UseColumn(c)));
            labels.insert(u"resource"_s, row.resource);
            *out += QDateTime::fromMSecsSinceEpoch(s->latest->tsMs, QTimeZone::UTC)
                        .toString(Qt::ISODateWithMs)
                + u',' + csvText(data.panelId) + u',' + csvText(s->info.key.source) + u','
                + csvText(s->info.key.metric) + u',' + csvText(labelsToString(labels)) + u','
                + csvNumber(s->latest->value) + u',' + csvText(s->info.unit) + u"\r\n"_s;
        }
    }
}
} // namespace

QByteArray csvRows(const PanelData &data)
{
    // Each panel type adds the rows of its own view after the series rows (none yet
    // for time charts, whose series are their view).
    QString out;
    appendSeriesRows(&out, data.panelId, data.series, 0, {});
    // Compare mode's earlier range: at the times it was measured, told apart by a
    // "compare" label holding the offset ("1h": one hour before the range).
    appendSeriesRows(&out, data.panelId, data.compare, data.compareOffsetMs,
                     { { u"compare"_s, formatDuration(data.compareOffsetMs) } });
    appendHeatmapRows(&out, data);
    appendUseMatrixRows(&out, data);
    // Shard panels: a histogram's bucket counts per column, a table's rows as shown
    // (formats next to shardHistogramCsvRows in shardquery.h).
    out += shardHistogramCsvRows(data);
    out += shardTableCsvRows(data);
    return out.toUtf8();
}

bool writeCsvFile(const QList<PanelData> &panels, const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    file.write(csvHeader());
    for (const PanelData &panel : panels)
        file.write(csvRows(panel));
    if (!file.commit()) {
        *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace Headroom
