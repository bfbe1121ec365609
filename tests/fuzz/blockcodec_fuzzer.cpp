// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// libFuzzer target: the cache's block codec (blockcodec.h). A cache file or a recording
// from someone else is untrusted, so decode must survive any bytes: it either refuses
// with a reason and leaves its output as it was, or yields samples that encode and
// decode back to the same bits. The input read as samples (16 bytes each: timestamp,
// value bits) must also round-trip exactly, whatever the values. Built with clang by
// tests/run-fuzz; tst_fuzzreplay_blockcodec runs it over the seed corpus in every ctest run.
#include "core/bytecoding.h"
#include "engine/cache/blockcodec.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {

bool sameBits(const std::vector<Headroom::Sample> &a, const std::vector<Headroom::Sample> &b)
{
    using Headroom::ByteCoding::doubleBits;
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].tsMs != b[i].tsMs || doubleBits(a[i].value) != doubleBits(b[i].value))
            return false;
    }
    return true;
}

void roundTrip(const std::vector<Headroom::Sample> &samples)
{
    std::vector<Headroom::Sample> back;
    if (!Headroom::BlockCodec::decode(Headroom::BlockCodec::encode(samples), &back)
        || !sameBits(back, samples))
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace Headroom;
    const QByteArray block(reinterpret_cast<const char *>(data), qsizetype(size));
    const Sample sentinel { 1, 1 };
    std::vector<Sample> decoded { sentinel };
    QString error;
    if (BlockCodec::decode(block, &decoded, &error)) {
        if (decoded.size() < 2 || decoded.front().tsMs != sentinel.tsMs)
            std::abort();
        decoded.erase(decoded.begin());
        roundTrip(decoded);
    } else if (decoded.size() != 1 || error.isEmpty()) {
        std::abort();
    }

    std::vector<Sample> samples(size / 16);
    for (size_t i = 0; i < samples.size(); ++i) {
        quint64 bits = 0;
        std::memcpy(&samples[i].tsMs, data + 16 * i, 8);
        std::memcpy(&bits, data + 16 * i + 8, 8);
        samples[i].value = ByteCoding::bitsDouble(bits);
    }
    if (!samples.empty())
        roundTrip(samples);
    return 0;
}
