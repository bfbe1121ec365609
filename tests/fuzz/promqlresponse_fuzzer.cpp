// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// libFuzzer target: the readers of a PromQL engine's JSON answers (query results and
// label values) must survive any input, and what they return must be consistent: an
// error and nothing else, or no error; never more series, points or values than their
// caps; native histogram buckets sorted and well formed. Built with clang by tests/run-fuzz;
// tst_fuzzreplay_promqlresponse runs the same function over the seed corpus (and
// mutations of it) in every ctest run.
#include "collector/promql/promqlresponse.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace Headroom;
    const QByteArrayView body(reinterpret_cast<const char *>(data), qsizetype(size));
    for (const int status : { 200, 400 }) {
        const PromqlResult result = parsePromqlResponse(body, status);
        qint64 points = 0;
        for (const PromqlSeries &series : result.series) {
            points += qint64(series.points.size());
            // A native histogram value counts with its buckets; its buckets are sorted
            // by upper bound, each a well-formed interval with a count.
            for (const PromqlHistogramPoint &histogram : series.histograms) {
                points += 1 + qint64(histogram.buckets.size());
                if (histogram.buckets.size() > size_t(PromqlResult::MaxBucketsPerHistogram))
                    std::abort();
                double upper = -INFINITY;
                for (const HistogramBucket &bucket : histogram.buckets) {
                    if (!(bucket.lower <= bucket.upper) || !(bucket.count >= 0)
                        || bucket.upper < upper)
                        std::abort();
                    upper = bucket.upper;
                }
            }
        }
        if ((!result.error.isEmpty() && !result.series.isEmpty())
            || result.series.size() > PromqlResult::MaxSeries || points > PromqlResult::MaxPoints)
            std::abort(); // an inconsistency is a bug like a crash
        // The label values answer (a multi-value variable's values) from the same bytes.
        const PromqlLabelValues values = parsePromqlLabelValues(body, status);
        if ((!values.error.isEmpty() && !values.values.isEmpty())
            || values.values.size() > PromqlLabelValues::MaxValues)
            std::abort();
        for (const QString &value : values.values) {
            if (value.size() > PromqlLabelValues::MaxValueLength)
                std::abort();
        }
    }
    return 0;
}
