// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/findingsreport.h"

#include "core/csvcell.h"
#include "core/valueformat.h"

#include <QDateTime>
#include <QTimeZone>

using namespace Qt::StringLiterals;

namespace Headroom::Analysis {

QString isoUtc(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::UTC).toString(Qt::ISODateWithMs);
}

QString findingsCsv(const std::vector<Finding> &findings)
{
    QString out = u"rank,source,resource,kind,signal,since,until,peak,score,summary,caused_by\n"_s;
    for (const Finding &f : findings) {
        out += QString::number(f.rank) + u',' + csvText(f.source) + u',' + csvText(f.resource)
            + u',' + findingKindName(f.kind) + u',' + csvText(f.signal) + u',' + isoUtc(f.sinceMs)
            + u',' + isoUtc(f.untilMs) + u',' + csvNumber(f.peak) + u','
            + QString::number(f.score, 'f', 3) + u',' + csvText(f.summary) + u','
            + (f.causedBy > 0 ? QString::number(f.causedBy) : QString()) + u'\n';
    }
    return out;
}

QString sinceText(const Finding &finding)
{
    return finding.sinceBefore ? u"before %1 (start of the data)"_s.arg(isoUtc(finding.sinceMs))
                               : isoUtc(finding.sinceMs);
}

QString explainText(const FindingsReport &report)
{
    QString out = u"Findings for %1 to %2 (%3 series, bins of %4 s)\n"_s.arg(
        isoUtc(report.fromMs), isoUtc(report.toMs), QString::number(report.seriesAnalysed),
        QString::number(report.binMs / 1000));
    if (report.findings.empty()) {
        out += u"No finding: no series changed beyond its own noise.\n"_s;
        return out;
    }
    // A chain reads as a tree: the lead, then its consequences indented under it.
    for (const Finding &f : report.findings) {
        const QString level = f.score >= CriticalScore ? u"critical"_s
            : f.score >= WarningScore                  ? u"warning"_s
                                                       : u"note"_s;
        const QString indent = f.causedBy > 0 ? u"    "_s : QString();
        out += indent
            + u"%1. [%2] %3 %4: %5 since %6 (score %7)%8\n"_s.arg(
                QString::number(f.rank), level, f.source, f.resource, findingKindName(f.kind),
                sinceText(f), QString::number(f.score, 'f', 2),
                f.causedBy > 0 ? u", caused by #%1"_s.arg(f.causedBy) : QString())
            + indent + u"     "_s + f.summary + u'\n';
    }
    return out;
}

} // namespace Headroom::Analysis
