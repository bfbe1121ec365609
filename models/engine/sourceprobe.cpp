// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/sourceprobe.h"

#include "engine/sourceinstance.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QSet>
#include <QThread>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
void appendNew(QStringList *list, const QStringList &items)
{
    for (const QString &item : items) {
        if (!list->contains(item))
            list->append(item);
    }
}
} // namespace

SourceProbeResult probeSource(const CollectorRegistry &collectors, const Dashboard &dashboard,
                              qsizetype index, const QMap<QString, QString> &values, int polls,
                              const std::atomic<bool> *cancel)
{
    const auto cancelled = [cancel] { return cancel && cancel->load(); };
    SourceProbeResult result;
    QElapsedTimer clock;
    clock.start();
    SourceInstance instance = instantiateSource(collectors, dashboard, index, values);
    if (!instance.collector) {
        result.error = instance.error;
        result.tookMs = clock.elapsed();
        return result;
    }
    for (int i = 0; i < polls; ++i) {
        // Between polls in short steps, so a cancel is seen within 50 ms.
        QDeadlineTimer gap(i > 0 ? std::min(instance.config.intervalMs, MaxProbeGapMs) : 0);
        while (!gap.hasExpired() && !cancelled())
            QThread::msleep(quint64(std::clamp<qint64>(gap.remainingTime(), 1, 50)));
        if (cancelled()) {
            result.error = u"cancelled"_s;
            break;
        }
        const PollResult poll = instance.collector->poll(QDeadlineTimer(instance.config.timeoutMs));
        ++result.polls;
        appendNew(&result.warnings, poll.warnings);
        appendNew(&result.notes, poll.notes);
        if (!poll.error.isEmpty()) {
            result.error = poll.error;
            break;
        }
        QSet<QString> metrics;
        QSet<SeriesKey> keys;
        for (const SeriesValue &v : poll.batch.values) {
            keys.insert(v.info.key);
            metrics.insert(v.info.key.metric);
        }
        for (const SeriesHistogram &h : poll.batch.histograms) {
            keys.insert(h.info.key);
            metrics.insert(h.info.key.metric);
        }
        result.series = int(keys.size());
        result.metrics = QStringList(metrics.cbegin(), metrics.cend());
        result.metrics.sort();
    }
    result.tookMs = clock.elapsed();
    return result;
}

QString describeProbe(const SourceProbeResult &result)
{
    QString text;
    if (!result.error.isEmpty()) {
        text = u"Failed: %1"_s.arg(result.error);
    } else {
        constexpr int Shown = 8;
        QStringList shown = result.metrics.mid(0, Shown);
        if (result.metrics.size() > Shown)
            shown.append(u"…"_s);
        text = u"Works: %1 series, %2 metrics (%3), in %4 polls"_s.arg(result.series)
                   .arg(result.metrics.size())
                   .arg(shown.join(u", "_s))
                   .arg(result.polls);
    }
    for (const QString &warning : result.warnings)
        text += u"\nWarning: "_s + warning;
    for (const QString &note : result.notes)
        text += u"\nNote: "_s + note;
    return text;
}

} // namespace Headroom
