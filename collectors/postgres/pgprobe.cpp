#include "pgprobe.h"

#include "pgactivity.h"

#include <QElapsedTimer>

namespace Headroom {

using namespace Qt::StringLiterals;

PgProbePart::PgProbePart(PgProbeOptions options)
    : m_options(std::move(options))
    , m_sql(m_options.sql.toUtf8())
{
}

void PgProbePart::collect(PgPoll &poll)
{
    if (m_options.count <= 0)
        return;
    LogHistogram latencies;
    for (int i = 0; i < m_options.count; ++i) {
        QElapsedTimer timer;
        timer.start();
        const PgResult result = poll.tryRun(m_sql);
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        if (result.ok()) {
            latencies.add(ms);
            continue;
        }
        if (result.timedOut()) {
            // The wait is real information: the query took at least this long.
            latencies.add(ms);
            poll.warn(u"probe: run %1 of %2 hit the poll deadline after %3 ms; the rest were "
                      "not run"_s.arg(i + 1)
                          .arg(m_options.count)
                          .arg(ms, 0, 'f', 0));
        } else if (!poll.connection.isConnected()) {
            poll.result.error = u"probe: "_s + result.error();
        } else {
            poll.warn(u"probe: skipped: %1"_s.arg(result.error()));
        }
        break;
    }
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
