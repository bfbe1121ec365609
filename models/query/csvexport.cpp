// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/csvexport.h"

#include "document/dashboard.h"
#include "query/panels/paneldescriptor.h"

#include <QDateTime>
#include <QSaveFile>
#include <QTimeZone>

namespace Headroom {

using namespace Qt::StringLiterals;

QByteArray csvHeader()
{
    return QByteArrayLiteral("time,panel,source,metric,labels,value,unit\r\n");
}

QString csvRow(qint64 tsMs, const QString &panel, const QString &source, const QString &metric,
               const Labels &labels, double value, const QString &unit)
{
    return QDateTime::fromMSecsSinceEpoch(tsMs, QTimeZone::UTC).toString(Qt::ISODateWithMs) + u','
        + csvText(panel) + u',' + csvText(source) + u',' + csvText(metric) + u','
        + csvText(labelsToString(labels)) + u',' + csvNumber(value) + u',' + csvText(unit)
        + u"\r\n"_s;
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

QByteArray csvRows(const PanelData &data)
{
    QString out;
    appendSeriesRows(&out, data.panelId, data.series, 0, {});
    // Compare mode's earlier range: at the times it was measured, told apart by a
    // "compare" label holding the offset ("1h": one hour before the range).
    appendSeriesRows(&out, data.panelId, data.compare, data.compareOffsetMs,
                     { { u"compare"_s, formatDuration(data.compareOffsetMs) } });
    // Then the rows of the type's own view (their format: query/panels/<type>panel.h,
    // or the query file it names).
    if (const auto viewRows = panelDescriptor(data.type()).csvRows)
        out += viewRows(data);
    return out.toUtf8();
}

bool writeCsvFile(const QList<PanelData> &panels, const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = u"%1: cannot write: %2"_s.arg(path, file.errorString());
        return false;
    }
    file.write(csvHeader());
    for (const PanelData &panel : panels)
        file.write(csvRows(panel));
    if (!file.commit()) {
        *error = u"%1: cannot write: %2"_s.arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace Headroom
