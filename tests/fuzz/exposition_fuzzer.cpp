// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// libFuzzer target: the Prometheus exposition parser must survive any input, in both
// formats, and what it returns must be consistent (counts add up, no sample over the
// cap). Built with clang by tests/run-fuzz; tst_fuzzreplay runs the same function over
// the seed corpus (and mutations of it) in every ctest run.
#include "expositionparser.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace Headroom;
    const QByteArrayView text(reinterpret_cast<const char *>(data), qsizetype(size));
    for (const ExpositionFormat format :
         { ExpositionFormat::Text004, ExpositionFormat::OpenMetrics }) {
        const Exposition e = parseExposition(text, format);
        qsizetype samples = 0;
        for (const ExpositionFamily &f : e.families)
            samples += f.samples.size();
        int skipped = 0;
        for (int n : e.skippedByReason)
            skipped += n;
        if (samples != e.samples || skipped != e.skippedLines || e.samples > Exposition::MaxSamples
            || (e.skippedLines > 0) == e.firstProblem.isEmpty())
            std::abort(); // an inconsistency is a bug like a crash
        (void)e.summary();
    }
    return 0;
}
