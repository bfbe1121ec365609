// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// libFuzzer target: the import readers (wide and long CSV, OpenMetrics text) and the
// import map, on any bytes. An input is refused with a message naming the file (and its
// line where there is one), or read within the limits: no sample of a series not
// announced, no time outside what a cache holds, no more series or labels than allowed.
#include "../import/importtestutil.h"
#include "engine/import/importmap.h"
#include "engine/import/importreader.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace Headroom;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QByteArrayView text(reinterpret_cast<const char *>(data), qsizetype(size));
    Import::Options options;
    options.fileName = QStringLiteral("fuzz.csv");
    // Small limits, so that the fuzzer reaches them.
    options.limits.maxColumns = 20;
    options.limits.maxSeries = 30;
    options.limits.maxLabels = 4;
    options.limits.maxRows = 500;
    options.limits.maxLineBytes = 2000;
    // An input whose first line is a JSON object is a map and the file after it, so the
    // rules are fuzzed too.
    QString mapError;
    if (size > 0 && data[0] == '{') {
        const qsizetype end = text.indexOf('\n');
        options.map = Import::parseImportMap(text.first(end < 0 ? text.size() : end).toByteArray(),
                                             &mapError);
        text = end < 0 ? QByteArrayView() : text.sliced(end + 1);
    }
    Test::MemorySink sink;
    const Import::Result result = Import::readImport(text, options, &sink);
    const auto fail = [](const char *why) {
        std::fprintf(stderr, "import_fuzzer: %s\n", why);
        std::abort();
    };
    if (!result.ok) {
        if (!result.error.startsWith(QStringLiteral("fuzz.csv: ")))
            fail("an error that does not name the file");
        return 0;
    }
    if (int(sink.infos.size()) != result.series || result.series > options.limits.maxSeries)
        fail("series miscounted or beyond the cap");
    if (qint64(sink.points.size()) != result.samples)
        fail("samples miscounted");
    for (const SeriesInfo &info : sink.infos)
        if (info.key.labels.size() > options.limits.maxLabels || info.key.metric.isEmpty())
            fail("a series beyond the label cap, or without a name");
    for (const Test::MemorySink::Point &p : sink.points) {
        if (p.series < 0 || p.series >= int(sink.infos.size()))
            fail("a sample of a series never announced");
        if (p.tsMs < -2208988800000LL || p.tsMs > 7258118400000LL)
            fail("a time outside 1900-2200");
    }
    return 0;
}
