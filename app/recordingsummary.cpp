// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "recordingsummary.h"

#include <QDateTime>
#include <QFileInfo>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
// Up to this many sources by name, then "and N more".
constexpr qsizetype NamedSources = 4;

// The two largest whole units: "20 d 3 h", "3 h 12 min", "45 s".
QString spanText(qint64 ms)
{
    const qint64 s = ms / 1000, m = s / 60, h = m / 60, d = h / 24;
    if (d > 0)
        return u"%1 d %2 h"_s.arg(d).arg(h % 24);
    if (h > 0)
        return u"%1 h %2 min"_s.arg(h).arg(m % 60);
    if (m > 0)
        return u"%1 min %2 s"_s.arg(m).arg(s % 60);
    return u"%1 s"_s.arg(s);
}

QString when(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(u"yyyy-MM-dd HH:mm:ss"_s);
}
} // namespace

RecordingSummary summarizeRecording(const QString &path, const QStringList &sources,
                                    const std::optional<std::pair<qint64, qint64>> &span)
{
    RecordingSummary summary;
    summary.title = QFileInfo(path).fileName() + u" — recording, read-only"_s;
    QString watched = sources.isEmpty() ? u"no series"_s
                                        : QStringList(sources.mid(0, NamedSources)).join(u", "_s);
    if (sources.size() > NamedSources)
        watched += u" and %1 more"_s.arg(sources.size() - NamedSources);
    const QString covered = span ? u"%1 to %2 (%3)"_s.arg(when(span->first), when(span->second),
                                                          spanText(span->second - span->first))
                                 : u"no samples"_s;
    summary.status
        = u"Recording, read-only: %1 — %2 — %3"_s.arg(QFileInfo(path).fileName(), watched, covered);
    return summary;
}

} // namespace Headroom
