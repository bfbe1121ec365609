#include "engine/cache/blockcodec.h"

#include "core/bytecoding.h"

#include <bit>
#include <cmath>

namespace Headroom::BlockCodec {

using namespace ByteCoding;

namespace {

// First byte of a block: which value mode follows.
constexpr quint8 ModeXor = 0x00;
constexpr quint8 ModeDecimal = 0x10; // low nibble: the number of decimals e
constexpr int MaxDecimals = 6;
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

} // namespace

QByteArray encode(const std::vector<Sample> &samples)
{
    QByteArray out;
    out.reserve(qsizetype(samples.size()) * 3 + 16);
    const int decimals = decimalsFor(samples);
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
