// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Importing a large wide CSV (--import): 1,000,000 rows of 50 columns (epoch
// milliseconds at 1 s, values with two decimals), read memory-mapped into a new cache
// through the writer's bulk runs. Prints the wall time (the budget: 10 s), the rate,
// the file's and the cache's size, and the process's peak RSS (the file's mapped pages
// count in it). HEADROOM_BENCH_IMPORT_ROWS lowers the rows.
#include "benchutil.h"
#include "engine/import/cacheimport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <sys/resource.h>

using namespace Qt::StringLiterals;
using namespace Headroom;

namespace {

double peakRssMb()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // kB on Linux
}

} // namespace

int main()
{
    const qint64 rows = qEnvironmentVariableIsSet("HEADROOM_BENCH_IMPORT_ROWS")
        ? qEnvironmentVariableIntValue("HEADROOM_BENCH_IMPORT_ROWS")
        : 1'000'000;
    constexpr int Columns = 50;
    QTemporaryDir dir;
    const QString csv = dir.filePath(u"wide.csv"_s);
    {
        QFile out(csv);
        if (!out.open(QIODevice::WriteOnly))
            return 1;
        QByteArray chunk = "time";
        for (int c = 0; c < Columns; ++c)
            chunk += ",service" + QByteArray::number(c) + "_cpu";
        chunk += '\n';
        const qint64 start = 1767225600000;
        quint32 state = 12345;
        for (qint64 r = 0; r < rows; ++r) {
            chunk += QByteArray::number(start + r * 1000);
            for (int c = 0; c < Columns; ++c) {
                state = state * 1664525u + 1013904223u; // a cheap, fixed noise
                chunk += ',' + QByteArray::number(20 + c + double(state >> 24) / 100.0, 'f', 2);
            }
            chunk += '\n';
            if (chunk.size() > (8 << 20)) {
                out.write(chunk);
                chunk.clear();
            }
        }
        out.write(chunk);
    }
    const double fileMb = double(QFileInfo(csv).size()) / 1e6;
    const double rssBefore = peakRssMb();

    Import::Options options;
    options.fileName = csv;
    const QString cache = dir.filePath(u"import.sqlite"_s);
    QString error;
    QElapsedTimer timer;
    timer.start();
    const auto imported = Import::importIntoCache(csv, options, cache, &error);
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    if (!imported) {
        std::fprintf(stderr, "bench_import: %s\n", qPrintable(error));
        return 1;
    }
    Bench::print("import_rows", double(rows));
    Bench::print("import_columns", Columns);
    Bench::print("import_file_mb", fileMb);
    Bench::print("import_wall_s", seconds);
    Bench::print("import_samples_per_s", double(imported->samples) / seconds);
    Bench::print("import_cache_mb", double(QFileInfo(cache).size()) / 1e6);
    Bench::print("import_peak_rss_before_mb", rssBefore);
    Bench::print("import_peak_rss_mb", peakRssMb());
    return imported->samples == rows * Columns ? 0 : 1;
}
