// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/alerts/alertcsv.h"

#include "core/csvcell.h"

#include <QDateTime>
#include <QSaveFile>
#include <QTimeZone>

namespace Headroom {

using namespace Qt::StringLiterals;

QByteArray alertCsv(const QList<AlertEvent> &events)
{
    QString out = u"time,rule,series,state,value,severity,message\r\n"_s;
    for (const AlertEvent &e : events) {
        const QString value = csvNumber(e.value); // empty for no-data (NaN)
        out += QDateTime::fromMSecsSinceEpoch(e.tsMs, QTimeZone::UTC).toString(Qt::ISODateWithMs)
            + u',' + csvText(e.ruleId) + u',' + csvText(e.series.toString()) + u','
            + alertStateName(e.state) + u',' + value + u',' + alertSeverityName(e.severity) + u','
            + csvText(e.message) + u"\r\n"_s;
    }
    return out.toUtf8();
}

bool writeAlertCsvFile(const QList<AlertEvent> &events, const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(alertCsv(events)) < 0 || !file.commit()) {
        *error = u"%1: cannot write: %2"_s.arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace Headroom
