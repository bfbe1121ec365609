#include "csvexport.h"

#include <QDateTime>
#include <QLocale>
#include <QSaveFile>
#include <QTimeZone>

namespace Headroom {

QString csvQuote(const QString &field)
{
    if (!field.contains(u',') && !field.contains(u'"') && !field.contains(u'\n')
        && !field.contains(u'\r'))
        return field;
    QString quoted = field;
    quoted.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return u'"' + quoted + u'"';
}

QByteArray csvHeader()
{
    return QByteArrayLiteral("time,panel,source,metric,labels,value,unit\r\n");
}

QByteArray csvRows(const PanelData &data)
{
    // Each panel type adds the rows of its own view after the series rows (none yet
    // for time charts, whose series are their view).
    QString out;
    for (const PanelSeriesData &s : data.series) {
        // Everything but time and value is the same on every row of a series.
        const QString fixed = u',' + csvQuote(data.panelId) + u',' + csvQuote(s.info.key.source)
            + u',' + csvQuote(s.info.key.metric) + u','
            + csvQuote(labelsToString(s.info.key.labels)) + u',';
        const QString unit = u',' + csvQuote(s.info.unit) + QStringLiteral("\r\n");
        for (const Sample &p : s.points) {
            out += QDateTime::fromMSecsSinceEpoch(p.tsMs, QTimeZone::UTC)
                       .toString(Qt::ISODateWithMs)
                + fixed + QString::number(p.value, 'g', QLocale::FloatingPointShortest) + unit;
        }
    }
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
