// The compressed format of one sealed block of samples (one series, one UTC day).
//
// Timestamps are delta-of-delta zigzag varints: a regular 1 s series costs one byte
// per sample, jitter of a few ms too. Values use one of two modes, chosen per block:
//  - decimal: when every value is exactly n / 10^e for a small e (counts, bytes, a
//    percentage with two decimals), the integers n are stored as zigzag varint deltas,
//    typically 1-2 bytes for a slowly changing gauge;
//  - xor: otherwise each value's bits are XOR'd with the previous value's, stored as a
//    header byte (leading and trailing zero byte counts) plus the bytes in between;
//    an unchanged value costs one byte.
// Both modes reproduce every bit pattern exactly (NaN payloads, -0.0, infinities):
// decimal mode is only chosen after checking that each value decodes to the same bits.
#pragma once

#include "core/sample.h"

#include <QByteArray>
#include <QString>
#include <vector>

namespace Headroom::BlockCodec {

// Samples sorted by timestamp (not required for correctness, only for compactness).
QByteArray encode(const std::vector<Sample> &samples);

// Appends the decoded samples to *out. On malformed input returns false, sets *error
// and leaves *out as it was; never reads outside data.
bool decode(const QByteArray &data, std::vector<Sample> *out, QString *error = nullptr);

} // namespace Headroom::BlockCodec
