// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The compressed format of one sealed block of samples (one series, one UTC day).
//
// Packed (schema version 5 on), a bit stream after the sample count and first timestamp:
//  - timestamps are zigzag delta-of-deltas, every one in the same bit width chosen per
//    block (escaping the few that do not fit): a regular 1 s series costs no bits per
//    sample, a few ms of jitter 3-5 bits;
//  - values use one of two modes, chosen per block. Decimal: when every value is exactly
//    n / 10^e for a small e (counts, bytes, a percentage with two decimals), the zigzag
//    deltas of the integers n, coded like the timestamps (a slowly changing gauge takes
//    2-7 bits). XOR: otherwise Gorilla's XOR coding of each value's bits against the
//    previous one (an unchanged value costs one bit).
// Bytewise (versions 1-4, and blocks over 65,536 samples): the same ideas with varints
// and whole bytes, at least two bytes per sample. Both are decoded.
// Every mode reproduces every bit pattern exactly (NaN payloads, -0.0, infinities):
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
