// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgprobe.h"

#include "pgactivity.h"
#include "pgsqlguard.h"

#include <QElapsedTimer>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

PgProbePart::PgProbePart(PgProbeOptions options)
    : m_options(std::move(options))
    , m_sql(probeSql(m_options.sql))
{
}

void PgProbePart::collect(PgPoll &poll)
{
    if (m_options.count <= 0)
        return;
    // Like the dashboard's queries: a READ ONLY transaction, rolled back, the session
    // checked after every run. Out of time, the collector ends it at the next poll.
    const QString view = u"probe"_s;
    if (!poll.run(view, "BEGIN TRANSACTION READ ONLY"))
        return;
    LogHistogram latencies;
    double slowestMs = 0;
    for (int i = 0; i < m_options.count; ++i) {
        // A run that cannot finish in time would only cost a cancel (or, where the
        // cancel fails, the session): stop while there is room, with twice the
        // slowest run so far as the margin.
        const qint64 remaining = poll.deadline.remainingTime(); // -1: no deadline
        if (remaining >= 0 && double(remaining) < std::max(5.0, 2 * slowestMs)) {
            poll.warn(
                u"probe: %1 of %2 runs fit in the poll's time (the slowest took %3 ms)"_s.arg(i)
                    .arg(m_options.count)
                    .arg(slowestMs, 0, 'f', 1));
            break;
        }
        QElapsedTimer timer;
        timer.start();
        const PgResult result = poll.tryRun(m_sql);
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        if (result.ok()) {
            if (!poll.stillReadOnly(view))
                return;
            latencies.add(ms);
            slowestMs = std::max(slowestMs, ms);
            continue;
        }
        if (result.timedOut()) {
            // The run took at least the time it had (the cancel that followed is not
            // the server's doing): a lower bound, still worth a place in the histogram.
            const double boundMs = remaining >= 0 ? double(remaining) : ms;
            latencies.add(boundMs);
            poll.warn(u"probe: run %1 of %2 hit the poll deadline after %3 ms; the rest were "
                      "not run"_s.arg(i + 1)
                          .arg(m_options.count)
                          .arg(boundMs, 0, 'f', 0));
        } else if (!poll.connection.isConnected()) {
            poll.result.error = u"probe: "_s + result.error();
        } else {
            poll.warn(u"probe: skipped: %1"_s.arg(result.error()));
        }
        break;
    }
    // End the transaction while there is time; past the deadline (a run that timed out)
    // the collector ends it at the start of the next poll.
    if (!poll.failed() && poll.connection.isConnected() && !poll.deadline.hasExpired())
        poll.run(view, "ROLLBACK");
    if (latencies.isEmpty())
        return;
    SeriesHistogram series;
    series.info.key = { poll.source(), Metric, {} };
    series.info.unit = u"ms"_s;
    series.info.resource = PgActivitySampler::Resource;
    series.info.kind = UseKind::Latency;
    series.info.histogram = true;
    series.histogram = std::move(latencies);
    poll.result.batch.histograms.append(std::move(series));
}

} // namespace Headroom
