// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/blockcodec.h"

#include "core/bytecoding.h"
#include "engine/cache/bitstream.h"

#include <bit>
#include <cmath>

namespace Headroom::BlockCodec {

using namespace ByteCoding;

namespace {

// First byte of a block: its format. The bytewise modes are what schema versions 1-4
// wrote (and what blocks beyond MaxPackedSamples still use); the packed ones came with
// version 5 and take about half the bytes.
constexpr quint8 ModeXor = 0x00;
constexpr quint8 ModeDecimal = 0x10; // low nibble: the number of decimals e
constexpr quint8 ModePackedDecimal = 0x20; // low nibble: e
constexpr quint8 ModePackedXor = 0x30;
constexpr int MaxDecimals = 6;
// A packed sample may take no bits at all (a regular timestamp, an unchanged value), so
// the count of a packed block is bounded by this instead of by its bytes: decoding a
// hostile block allocates at most 1 MiB.
constexpr quint64 MaxPackedSamples = 65'536;
// Bit fields of the packed format: a code width (0..64), an escaped code's bit length
// minus one, and the leading zero count and length minus one of an XOR window.
constexpr int WidthBits = 7;
constexpr int LengthBits = 6;
// Beyond 2^53 not every integer is a double, so n / 10^e could not round-trip.
constexpr double MaxExactInteger = 9007199254740992.0;

double powerOfTen(int e)
{
    double p = 1;
    for (int i = 0; i < e; ++i)
        p *= 10; // exact: every 10^e with e <= 22 is a double
    return p;
}

// The scaled integer of value with e decimals, or false when value is not exactly that.
bool scaledInteger(double value, double scale, qint64 *n)
{
    if (!std::isfinite(value))
        return false;
    const double scaled = std::nearbyint(value * scale);
    if (!(std::fabs(scaled) <= MaxExactInteger))
        return false;
    *n = qint64(scaled);
    return doubleBits(double(*n) / scale) == doubleBits(value); // -0.0 fails here: good
}

int decimalsFor(const std::vector<Sample> &samples)
{
    for (int e = 0; e <= MaxDecimals; ++e) {
        const double scale = powerOfTen(e);
        bool all = true;
        for (const Sample &s : samples) {
            qint64 n;
            if (!scaledInteger(s.value, scale, &n)) {
                all = false;
                break;
            }
        }
        if (all)
            return e;
    }
    return -1;
}

// Differences are taken in unsigned arithmetic: wrapping is defined there, and the
// decoder wraps back the same way, so any qint64 timestamps round-trip.
qint64 wrappingSub(qint64 a, qint64 b)
{
    return qint64(quint64(a) - quint64(b));
}

qint64 wrappingAdd(qint64 a, qint64 b)
{
    return qint64(quint64(a) + quint64(b));
}

bool fail(QString *error, const char *reason)
{
    if (error)
        *error = QString::fromLatin1(reason);
    return false;
}

// Packed integer codes. Every value of a section is written in the same width w, chosen
// per block for the fewest bits; a value that does not fit (or that equals the all-ones
// escape) is the escape, then its bit length, then its bits. w == 0 means every value
// is 0, so a regular 1 s timestamp series or a constant gauge costs nothing per sample.
quint64 escapeCode(int width)
{
    return width >= 64 ? ~quint64(0) : (quint64(1) << width) - 1;
}

bool fitsWidth(quint64 v, int width)
{
    if (width == 0)
        return v == 0; // no bits, no escape
    return width >= 64 || v < escapeCode(width);
}

quint64 codedBits(const std::vector<quint64> &values, int width)
{
    quint64 bits = 0;
    for (const quint64 v : values)
        bits += quint64(width) + (fitsWidth(v, width) ? 0 : LengthBits + BitStream::bitLength(v));
    return bits;
}

int bestWidth(const std::vector<quint64> &values)
{
    int longest = 0;
    for (const quint64 v : values)
        longest = std::max(longest, BitStream::bitLength(v));
    if (longest == 0)
        return 0;
    int best = 64;
    quint64 bestBits = codedBits(values, 64);
    for (int width = 1; width <= std::min(longest + 1, 63); ++width) {
        if (const quint64 bits = codedBits(values, width); bits < bestBits) {
            best = width;
            bestBits = bits;
        }
    }
    return best;
}

void putCodes(BitStream::Writer &out, const std::vector<quint64> &values)
{
    const int width = bestWidth(values);
    out.put(quint64(width), WidthBits);
    for (const quint64 v : values) {
        if (fitsWidth(v, width)) {
            out.put(v, width);
            continue;
        }
        const int length = BitStream::bitLength(v);
        out.put(escapeCode(width), width);
        out.put(quint64(length - 1), LengthBits);
        out.put(v, length);
    }
}

bool getCodes(BitStream::Reader &in, size_t count, std::vector<quint64> *values)
{
    quint64 width = 0;
    if (!in.get(WidthBits, &width) || width > 64)
        return false;
    values->resize(count);
    for (quint64 &v : *values) {
        if (!in.get(int(width), &v))
            return false;
        if (width > 0 && !fitsWidth(v, int(width))) {
            quint64 length = 0;
            if (!in.get(LengthBits, &length) || !in.get(int(length) + 1, &v))
                return false;
        }
    }
    return true;
}

// Packed XOR values, as in Gorilla (Pelkonen et al., VLDB 2015): '0' for an unchanged
// value; '10' and the changed bits when they fall inside the previous value's window of
// meaningful bits and that window is not much wider than they are; '11', a new window
// (leading zeros, length) and its bits otherwise.
void putXorValues(BitStream::Writer &out, const std::vector<Sample> &samples)
{
    quint64 previous = 0;
    int leading = -1, trailing = 0; // no window yet
    for (const Sample &s : samples) {
        const quint64 bits = doubleBits(s.value);
        const quint64 x = bits ^ previous;
        previous = bits;
        if (x == 0) {
            out.put(0, 1);
            continue;
        }
        out.put(1, 1);
        const int lead = std::countl_zero(x), trail = std::countr_zero(x);
        // A window reused costs its width; a new one 12 bits more than the changed bits.
        const int window = 64 - leading - trailing, changed = 64 - lead - trail;
        if (leading >= 0 && lead >= leading && trail >= trailing
            && window <= changed + 2 * LengthBits) {
            out.put(0, 1);
            out.put(x >> trailing, 64 - leading - trailing);
            continue;
        }
        out.put(1, 1);
        leading = lead;
        trailing = trail;
        out.put(quint64(lead), LengthBits);
        out.put(quint64(changed - 1), LengthBits);
        out.put(x >> trail, changed);
    }
}

bool getXorValues(BitStream::Reader &in, std::vector<Sample> *samples)
{
    quint64 bits = 0;
    int leading = -1, trailing = 0;
    for (Sample &s : *samples) {
        quint64 changed = 0, newWindow = 0;
        if (!in.get(1, &changed))
            return false;
        if (changed) {
            if (!in.get(1, &newWindow))
                return false;
            if (newWindow == 0 && leading < 0)
                return false; // a window reused before any was set
            if (newWindow == 1) {
                quint64 lead = 0, length = 0;
                if (!in.get(LengthBits, &lead) || !in.get(LengthBits, &length)
                    || lead + length + 1 > 64)
                    return false;
                leading = int(lead);
                trailing = 64 - leading - int(length + 1);
            }
            quint64 x = 0;
            if (!in.get(64 - leading - trailing, &x))
                return false;
            bits ^= x << trailing; // trailing <= 63: a window is at least 1 bit
        }
        s.value = bitsDouble(bits);
    }
    return true;
}

// The scaled integers of a decimal block.
std::vector<qint64> scaledIntegers(const std::vector<Sample> &samples, int decimals)
{
    const double scale = powerOfTen(decimals);
    std::vector<qint64> n(samples.size());
    for (size_t i = 0; i < samples.size(); ++i)
        scaledInteger(samples[i].value, scale, &n[i]);
    return n;
}

// Layout: mode, count, then as varints the first timestamp, the first delta (two or
// more samples) and the first scaled integer (decimal); then one bit field with the
// delta-of-deltas from the third sample on, and the values (decimal: the deltas from the
// second on; xor: all). Keeping the first delta and integer out of the codes lets a
// regular series or a constant gauge choose width 0.
QByteArray encodePacked(const std::vector<Sample> &samples, int decimals)
{
    QByteArray out;
    out.reserve(qsizetype(samples.size()) + 24);
    out.append(char(decimals >= 0 ? ModePackedDecimal | quint8(decimals) : ModePackedXor));
    putVarint(out, samples.size());
    putVarint(out, zigzag(samples.front().tsMs));
    const qint64 firstDelta
        = samples.size() > 1 ? wrappingSub(samples[1].tsMs, samples[0].tsMs) : 0;
    if (samples.size() > 1)
        putVarint(out, zigzag(firstDelta));
    std::vector<qint64> scaled;
    if (decimals >= 0) {
        scaled = scaledIntegers(samples, decimals);
        putVarint(out, zigzag(scaled.front()));
    }

    BitStream::Writer bits(&out);
    std::vector<quint64> codes;
    codes.reserve(samples.size());
    qint64 previousDelta = firstDelta;
    for (size_t i = 2; i < samples.size(); ++i) {
        const qint64 delta = wrappingSub(samples[i].tsMs, samples[i - 1].tsMs);
        codes.push_back(zigzag(wrappingSub(delta, previousDelta)));
        previousDelta = delta;
    }
    putCodes(bits, codes);

    if (decimals >= 0) {
        codes.clear();
        for (size_t i = 1; i < scaled.size(); ++i)
            codes.push_back(zigzag(scaled[i] - scaled[i - 1])); // |n| <= 2^53: no overflow
        putCodes(bits, codes);
    } else {
        putXorValues(bits, samples);
    }
    bits.flush();
    return out;
}

bool decodePacked(const QByteArray &data, qsizetype pos, quint8 mode, std::vector<Sample> *out,
                  QString *error)
{
    const bool decimal = (mode & 0xf0) == ModePackedDecimal;
    quint64 count = 0, first = 0, firstDelta = 0, firstInteger = 0;
    if (!getVarint(data, pos, count) || count == 0 || count > MaxPackedSamples)
        return fail(error, "bad sample count");
    if (!getVarint(data, pos, first) || (count > 1 && !getVarint(data, pos, firstDelta)))
        return fail(error, "truncated timestamps");
    if (decimal && !getVarint(data, pos, firstInteger))
        return fail(error, "truncated values");
    BitStream::Reader bits(data, &pos);

    std::vector<Sample> samples(count);
    std::vector<quint64> codes;
    if (!getCodes(bits, count > 2 ? size_t(count - 2) : 0, &codes))
        return fail(error, "truncated timestamps");
    qint64 ts = unzigzag(first), delta = unzigzag(firstDelta);
    samples[0].tsMs = ts;
    for (size_t i = 1; i < count; ++i) {
        if (i >= 2)
            delta = wrappingAdd(delta, unzigzag(codes[i - 2]));
        ts = wrappingAdd(ts, delta);
        samples[i].tsMs = ts;
    }

    if (decimal) {
        if (!getCodes(bits, size_t(count - 1), &codes))
            return fail(error, "truncated values");
        const double scale = powerOfTen(mode & 0x0f);
        qint64 n = unzigzag(firstInteger);
        samples[0].value = double(n) / scale;
        for (size_t i = 1; i < count; ++i) {
            n = wrappingAdd(n, unzigzag(codes[i - 1]));
            samples[i].value = double(n) / scale;
        }
    } else if (!getXorValues(bits, &samples)) {
        return fail(error, "truncated or bad values");
    }
    if (!bits.finish() || pos != data.size())
        return fail(error, "trailing bytes");
    out->insert(out->end(), samples.begin(), samples.end());
    return true;
}

} // namespace

QByteArray encode(const std::vector<Sample> &samples)
{
    const int decimals = decimalsFor(samples);
    if (!samples.empty() && samples.size() <= MaxPackedSamples)
        return encodePacked(samples, decimals);

    QByteArray out;
    out.reserve(qsizetype(samples.size()) * 3 + 16);
    out.append(char(decimals >= 0 ? ModeDecimal | quint8(decimals) : ModeXor));
    putVarint(out, samples.size());

    qint64 previousTs = 0, previousDelta = 0;
    for (size_t i = 0; i < samples.size(); ++i) {
        const qint64 ts = samples[i].tsMs;
        if (i == 0) {
            putVarint(out, zigzag(ts));
        } else {
            const qint64 delta = wrappingSub(ts, previousTs);
            putVarint(out, zigzag(wrappingSub(delta, previousDelta)));
            previousDelta = delta;
        }
        previousTs = ts;
    }

    if (decimals >= 0) {
        const double scale = powerOfTen(decimals);
        qint64 previous = 0;
        for (const Sample &s : samples) {
            qint64 n = 0;
            scaledInteger(s.value, scale, &n);
            putVarint(out, zigzag(n - previous)); // |n| <= 2^53: no overflow
            previous = n;
        }
        return out;
    }

    quint64 previousBits = 0;
    for (const Sample &s : samples) {
        const quint64 bits = doubleBits(s.value);
        const quint64 x = bits ^ previousBits;
        previousBits = bits;
        if (x == 0) {
            out.append(char(0x80)); // 8 leading zero bytes, nothing follows
            continue;
        }
        const int leading = std::countl_zero(x) / 8;
        const int trailing = std::countr_zero(x) / 8;
        out.append(char((leading << 4) | trailing));
        quint64 meaningful = x >> (8 * trailing);
        for (int i = 0; i < 8 - leading - trailing; ++i) {
            out.append(char(meaningful & 0xff));
            meaningful >>= 8;
        }
    }
    return out;
}

bool decode(const QByteArray &data, std::vector<Sample> *out, QString *error)
{
    qsizetype pos = 0;
    if (data.isEmpty())
        return fail(error, "empty block");
    const auto mode = quint8(data.at(pos++));
    const bool packedDecimal = (mode & 0xf0) == ModePackedDecimal && (mode & 0x0f) <= MaxDecimals;
    if (packedDecimal || mode == ModePackedXor)
        return decodePacked(data, pos, mode, out, error);
    const bool decimal = (mode & 0xf0) == ModeDecimal;
    const int decimals = mode & 0x0f;
    if (!(mode == ModeXor || (decimal && decimals <= MaxDecimals)))
        return fail(error, "unknown block mode");
    quint64 count = 0;
    // Every sample takes at least one byte, which bounds the allocation below.
    if (!getVarint(data, pos, count) || count == 0 || count > quint64(data.size()))
        return fail(error, "bad sample count");

    std::vector<Sample> samples(count);
    qint64 previousTs = 0, previousDelta = 0;
    for (quint64 i = 0; i < count; ++i) {
        quint64 v = 0;
        if (!getVarint(data, pos, v))
            return fail(error, "truncated timestamps");
        if (i == 0) {
            previousTs = unzigzag(v);
        } else {
            previousDelta = wrappingAdd(previousDelta, unzigzag(v));
            previousTs = wrappingAdd(previousTs, previousDelta);
        }
        samples[i].tsMs = previousTs;
    }

    if (decimal) {
        const double scale = powerOfTen(decimals);
        qint64 n = 0;
        for (quint64 i = 0; i < count; ++i) {
            quint64 v = 0;
            if (!getVarint(data, pos, v))
                return fail(error, "truncated values");
            n = wrappingAdd(n, unzigzag(v));
            samples[i].value = double(n) / scale;
        }
    } else {
        quint64 bits = 0;
        for (quint64 i = 0; i < count; ++i) {
            if (pos >= data.size())
                return fail(error, "truncated values");
            const auto header = quint8(data.at(pos++));
            const int leading = header >> 4;
            const int trailing = header & 0x0f;
            if (leading + trailing > 8 || (leading + trailing == 8 && header != 0x80))
                return fail(error, "bad value header");
            const int length = 8 - leading - trailing;
            if (pos + length > data.size())
                return fail(error, "truncated values");
            quint64 x = 0;
            for (int b = 0; b < length; ++b)
                x |= quint64(quint8(data.at(pos++))) << (8 * b);
            if (length > 0)
                x <<= 8 * trailing;
            bits ^= x;
            samples[i].value = bitsDouble(bits);
        }
    }
    if (pos != data.size())
        return fail(error, "trailing bytes");
    out->insert(out->end(), samples.begin(), samples.end());
    return true;
}

} // namespace Headroom::BlockCodec
