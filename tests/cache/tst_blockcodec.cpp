// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Block codec: exact round trips of awkward data, compactness, garbage rejection.
#include "cachetestutil.h"
#include "core/bytecoding.h"
#include "engine/cache/blockcodec.h"

#include <QRandomGenerator>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

using namespace Headroom;
using namespace Qt::StringLiterals;
using CacheTest::sameBits;

namespace {

constexpr qint64 Base = 1'700'000'000'000; // 2023-11-14, some day in ms

std::vector<Sample> regular(int n, const std::function<double(int)> &value, qint64 step = 1000)
{
    std::vector<Sample> s;
    s.reserve(size_t(std::max(n, 0)));
    for (int i = 0; i < n; ++i)
        s.push_back({ Base + i * step, value(i) });
    return s;
}

std::vector<Sample> randomWalk(int n, int decimals, quint32 seed)
{
    QRandomGenerator rng(seed);
    double v = 40;
    const double scale = std::pow(10.0, decimals);
    return regular(n, [&](int) {
        v = std::clamp(v + (rng.generateDouble() - 0.5), 0.0, 100.0);
        return decimals < 0 ? v : std::round(v * scale) / scale;
    });
}

} // namespace

class TestBlockCodec : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data();
    void roundTrip();
    void bytesPerSample();
    void bytewiseBlocksStillDecode_data();
    void bytewiseBlocksStillDecode();
    void packedCountIsBounded();
    void garbageIsRejected();
    void truncationIsRejected();
};

void TestBlockCodec::roundTrip_data()
{
    QTest::addColumn<std::vector<Sample>>("samples");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();

    QTest::newRow("single") << std::vector<Sample> { { Base, 42.5 } };
    QTest::newRow("single negative ts") << std::vector<Sample> { { -123456789, -1.0 } };
    QTest::newRow("constant") << regular(120, [](int) { return 7.25; });
    QTest::newRow("zeros") << regular(120, [](int) { return 0.0; });
    QTest::newRow("ramp") << regular(120, [](int i) { return i * 0.5; });
    QTest::newRow("integer counter") << regular(120, [](int i) { return 1e12 + i * 4096.0; });
    QTest::newRow("random walk 2 decimals") << randomWalk(120, 2, 1);
    QTest::newRow("random walk full precision") << randomWalk(120, -1, 2);
    QTest::newRow("special values") << std::vector<Sample> {
        { Base, nan },
        { Base + 1000, -nan },
        { Base + 2000, ByteCoding::bitsDouble(0x7ff0'0000'dead'beefULL) }, // NaN payload
        { Base + 3000, inf },
        { Base + 4000, -inf },
        { Base + 5000, -0.0 },
        { Base + 6000, 0.0 },
        { Base + 7000, std::numeric_limits<double>::max() },
        { Base + 8000, std::numeric_limits<double>::lowest() },
        { Base + 9000, std::numeric_limits<double>::denorm_min() },
        { Base + 10000, std::numeric_limits<double>::epsilon() },
        { Base + 11000, 1e300 },
    };
    QTest::newRow("negative zero only") << regular(10, [](int) { return -0.0; });
    QTest::newRow("decimal then nan") << std::vector<Sample> { { Base, 1.5 }, { Base + 1, nan } };
    QTest::newRow("huge integers")
        << regular(5, [](int i) { return 9007199254740992.0 * (i + 1); });
    QTest::newRow("irregular timestamps") << std::vector<Sample> {
        { Base, 1 },
        { Base + 1, 2 },
        { Base + 997, 3 },
        { Base + 2004, 4 },
        { Base + 2005, 5 },
        { Base + 60'000, 6 },
        { Base + 86'399'999, 7 },
        { Base + 86'400'000, 8 },
    };
    QTest::newRow("extreme timestamps") << std::vector<Sample> {
        { std::numeric_limits<qint64>::min(), 1 },
        { std::numeric_limits<qint64>::max(), 2 },
        { 0, 3 },
        { std::numeric_limits<qint64>::min(), 4 },
    };
    QTest::newRow("unsorted timestamps") << std::vector<Sample> { { Base + 5000, 1 }, { Base, 2 } };
    // Packed codes: a width fits most values and escapes the rest, including the value
    // that equals the escape itself (zigzag 7 = -4 with a width of 3 bits).
    QTest::newRow("gauge with spikes") << regular(
        120, [](int i) { return i % 40 == 7 ? 1e6 : (i % 40 == 8 ? -4.0 : double(i % 3)); });
    QTest::newRow("escape code as a value")
        << regular(120, [](int i) { return i % 2 ? -4.0 : 0.0; });
    QTest::newRow("one late poll") << [] {
        auto s = regular(120, [](int i) { return double(i); });
        for (size_t i = 60; i < s.size(); ++i)
            s[i].tsMs += 30'000;
        return s;
    }();
    QTest::newRow("64-bit codes") << std::vector<Sample> {
        { std::numeric_limits<qint64>::max(), 1 },
        { std::numeric_limits<qint64>::min(), 2 },
        { std::numeric_limits<qint64>::max(), 3 },
        { std::numeric_limits<qint64>::min(), 4 },
    };
    // XOR windows: a new window, then values inside it, then a wider one.
    QTest::newRow("xor windows") << regular(12, [](int i) {
        const double values[]
            = { 0.1,    0.1,    0.2, 0.3, 0.30000000000000004,
                1e-300, -1e300, 0.1, 0.1, std::numeric_limits<double>::denorm_min(),
                -0.0,   0.7 };
        return values[i];
    });
    // Over 65,536 samples a block is written bytewise (the packed count bound).
    QTest::newRow("bytewise beyond the packed bound") << randomWalk(70'000, 2, 9);
    QTest::newRow("largest packed block") << randomWalk(65'536, 1, 10);
}

void TestBlockCodec::roundTrip()
{
    QFETCH(std::vector<Sample>, samples);
    const QByteArray encoded = BlockCodec::encode(samples);
    std::vector<Sample> decoded { { 1, 1 } }; // decode appends
    QString error;
    QVERIFY2(BlockCodec::decode(encoded, &decoded, &error), qPrintable(error));
    QCOMPARE(decoded.front(), (Sample { 1, 1 }));
    decoded.erase(decoded.begin());
    QVERIFY(sameBits(decoded, samples));
}

void TestBlockCodec::bytesPerSample()
{
    // A 1 s gauge with ~10 ms of collector jitter, like /proc percentages with two
    // decimals, and the worst realistic case: a full-precision random walk.
    QRandomGenerator rng(7);
    auto jittered = [&](std::vector<Sample> s) {
        for (auto &sample : s)
            sample.tsMs += rng.bounded(-10, 11);
        return s;
    };
    const auto gauge = jittered(randomWalk(120, 2, 3));
    const auto precise = jittered(randomWalk(120, -1, 4));
    const auto constant = regular(120, [](int) { return 1.0; });
    auto perSample = [](const std::vector<Sample> &s) {
        return double(BlockCodec::encode(s).size()) / double(s.size());
    };
    qInfo("bytes/sample, 1 s series: 2-decimal gauge %.2f, full-precision gauge %.2f, "
          "constant %.2f",
          perSample(gauge), perSample(precise), perSample(constant));
    // Packed: 1.75 and 0.11 (the bytewise format of schema 4: 2.08 and 2.07).
    QVERIFY(perSample(gauge) < 2.25);
    QVERIFY(perSample(constant) < 0.25);
    QVERIFY(perSample(precise) < 8); // 7.43 (bytewise 8.17): the mantissa is noise
}

void TestBlockCodec::bytewiseBlocksStillDecode_data()
{
    // Blocks as schema versions 1-4 wrote them, spelled out byte by byte (mode, count,
    // zigzag varint timestamps, then the values), so caches and recordings made before
    // the packed format stay readable.
    QTest::addColumn<QByteArray>("block");
    QTest::addColumn<std::vector<Sample>>("samples");
    QTest::newRow("decimal, 1 decimal")
        << QByteArray::fromHex("110380a0abfef962d00f001e0401")
        << std::vector<Sample> { { Base, 1.5 }, { Base + 1000, 1.7 }, { Base + 2000, 1.6 } };
    QTest::newRow("xor")
        << QByteArray::fromHex("000380a0abfef962d00fe807009a9999999999b93f80009a9999999999bfff")
        << std::vector<Sample> { { Base, 0.1 }, { Base + 1000, 0.1 }, { Base + 2500, -2.75 } };
}

void TestBlockCodec::bytewiseBlocksStillDecode()
{
    QFETCH(QByteArray, block);
    QFETCH(std::vector<Sample>, samples);
    std::vector<Sample> decoded;
    QString error;
    QVERIFY2(BlockCodec::decode(block, &decoded, &error), qPrintable(error));
    QVERIFY(sameBits(decoded, samples));
    // New blocks of the same samples are packed.
    QCOMPARE_NE(BlockCodec::encode(samples).at(0), block.at(0));
}

void TestBlockCodec::packedCountIsBounded()
{
    // A packed sample can take no bits at all, so the count, not the bytes, bounds the
    // allocation: a regular constant block of the largest count decodes, one more is
    // refused before anything is allocated.
    const QByteArray largest = BlockCodec::encode(regular(65'536, [](int) { return 1.0; }));
    QCOMPARE_LT(largest.size(), 64);
    std::vector<Sample> out;
    QVERIFY(BlockCodec::decode(largest, &out));
    QCOMPARE(out.size(), size_t(65'536));
    QByteArray tooMany = largest;
    QCOMPARE(tooMany.mid(1, 3), QByteArray::fromHex("808004")); // varint 65,536
    tooMany[1] = char(0x81);
    out.clear();
    QString error;
    QVERIFY(!BlockCodec::decode(tooMany, &out, &error));
    QCOMPARE(error, u"bad sample count"_s);
    QVERIFY(out.empty());
}

void TestBlockCodec::garbageIsRejected()
{
    // Random bytes, and valid blocks with random bytes flipped: decode must return
    // (true or false) without reading out of bounds; ASan/UBSan catch the rest.
    QRandomGenerator rng(12345);
    const QByteArray valid = BlockCodec::encode(randomWalk(120, -1, 5));
    const QByteArray validDecimal = BlockCodec::encode(randomWalk(120, 2, 6));
    int rejected = 0;
    for (int round = 0; round < 20000; ++round) {
        QByteArray data;
        if (round % 3 == 0) {
            data.resize(rng.bounded(0, 64));
            for (auto &c : data)
                c = char(rng.bounded(256));
        } else {
            data = round % 3 == 1 ? valid : validDecimal;
            const int flips = rng.bounded(1, 4);
            for (int f = 0; f < flips; ++f)
                data[rng.bounded(int(data.size()))] = char(rng.bounded(256));
        }
        std::vector<Sample> out;
        QString error;
        if (!BlockCodec::decode(data, &out, &error)) {
            ++rejected;
            QVERIFY(out.empty());
            QVERIFY(!error.isEmpty());
        }
    }
    QVERIFY(rejected > 1000);
}

void TestBlockCodec::truncationIsRejected()
{
    for (const QByteArray &valid :
         { BlockCodec::encode(randomWalk(50, -1, 8)), BlockCodec::encode(randomWalk(50, 2, 8)) }) {
        for (qsizetype n = 0; n < valid.size(); ++n) {
            std::vector<Sample> out;
            QVERIFY2(!BlockCodec::decode(valid.left(n), &out), qPrintable(QString::number(n)));
            QVERIFY(out.empty());
        }
        std::vector<Sample> out;
        QVERIFY(!BlockCodec::decode(valid + '\0', &out));
    }
}

QTEST_GUILESS_MAIN(TestBlockCodec)
#include "tst_blockcodec.moc"
