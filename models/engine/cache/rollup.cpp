// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/rollup.h"

#include "core/bytecoding.h"
#include "engine/cache/blockcodec.h"

#include <algorithm>
#include <array>

namespace Headroom {

using namespace Qt::StringLiterals;

std::vector<Sample> aggregatePoints(const std::vector<Aggregate> &aggregates)
{
    std::vector<Sample> points;
    points.reserve(2 * aggregates.size());
    for (const Aggregate &a : aggregates) {
        if (a.count == 1 && a.startMs == a.endMs) {
            points.push_back({ a.startMs, a.min });
            continue;
        }
        const qint64 quarter = (a.endMs - a.startMs) / 4;
        points.push_back({ a.startMs + quarter, a.min });
        points.push_back({ a.endMs - quarter, a.max });
    }
    return points;
}

namespace RollupCodec {

namespace {

// Format byte: the low bit says every slot has the same count (one varint then, which
// a series polled regularly always has), instead of a packed column of counts.
constexpr quint8 FormatV1 = 0x10;
constexpr quint8 SameCount = 0x01;

// One column of the row as samples (slot index, value): BlockCodec packs an unbroken
// run of slots in no bits for the indexes and decimal values as scaled deltas.
template<typename Value>
QByteArray packColumn(const std::vector<Aggregate> &slots, qint64 rowStartMs, qint64 stepMs,
                      Value value)
{
    std::vector<Sample> column;
    column.reserve(slots.size());
    for (const Aggregate &a : slots)
        column.push_back({ (a.startMs - rowStartMs) / stepMs, value(a) });
    return BlockCodec::encode(column);
}

void putBlob(QByteArray &out, const QByteArray &blob)
{
    ByteCoding::putVarint(out, quint64(blob.size()));
    out.append(blob);
}

bool getBlob(const QByteArray &in, qsizetype &pos, QByteArray *blob)
{
    quint64 size = 0;
    if (!ByteCoding::getVarint(in, pos, size) || size > quint64(in.size() - pos))
        return false;
    *blob = in.mid(pos, qsizetype(size));
    pos += qsizetype(size);
    return true;
}

} // namespace

double storedSum(double sum)
{
    if (!std::isfinite(sum))
        return sum;
    double scale = 1;
    for (int e = 0; e <= 6; ++e, scale *= 10) {
        const double scaled = sum * scale;
        if (!(std::fabs(scaled) < 9007199254740992.0)) // 2^53: past it, no decimal is exact
            return sum;
        const double rounded = std::nearbyint(scaled);
        if (std::fabs(rounded - scaled) <= 1e-9 * std::max(std::fabs(scaled), 1e-300))
            return rounded / scale;
    }
    return sum;
}

QByteArray encode(RollupTier tier, qint64 rowStartMs, const std::vector<Aggregate> &slots)
{
    const qint64 step = rollupStepMs(tier);
    bool sameCount = true;
    for (const Aggregate &a : slots)
        sameCount = sameCount && a.count == slots.front().count;
    QByteArray out;
    out.append(char(FormatV1 | (sameCount ? SameCount : 0)));
    ByteCoding::putVarint(out, quint64(slots.size()));
    if (slots.empty())
        return out;
    if (sameCount)
        ByteCoding::putVarint(out, quint64(slots.front().count));
    else
        putBlob(out, packColumn(slots, rowStartMs, step, [](const Aggregate &a) {
                    return double(a.count);
                }));
    putBlob(out, packColumn(slots, rowStartMs, step, [](const Aggregate &a) {
                return storedSum(a.sum);
            }));
    putBlob(out, packColumn(slots, rowStartMs, step, [](const Aggregate &a) { return a.min; }));
    putBlob(out, packColumn(slots, rowStartMs, step, [](const Aggregate &a) { return a.max; }));
    return out;
}

bool decode(RollupTier tier, qint64 rowStartMs, const QByteArray &data, std::vector<Aggregate> *out,
            QString *error)
{
    const auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (data.isEmpty() || (quint8(data.at(0)) & 0xf0) != FormatV1)
        return fail(u"unknown rollup row format"_s);
    const bool sameCount = quint8(data.at(0)) & SameCount;
    qsizetype pos = 1;
    quint64 n = 0;
    const int slotsPerRow = rollupSlotsPerRow(tier);
    if (!ByteCoding::getVarint(data, pos, n) || n > quint64(slotsPerRow))
        return fail(u"rollup row: bad slot count"_s);
    if (n == 0)
        return pos == data.size() ? true : fail(u"rollup row: trailing bytes"_s);

    quint64 count = 0;
    std::array<std::vector<Sample>, 4> columns; // counts, sums, minima, maxima
    const int first = sameCount ? 1 : 0;
    if (sameCount && (!ByteCoding::getVarint(data, pos, count) || count == 0))
        return fail(u"rollup row: bad count"_s);
    for (int c = first; c < 4; ++c) {
        QByteArray blob;
        QString why;
        if (!getBlob(data, pos, &blob))
            return fail(u"rollup row: truncated"_s);
        if (!BlockCodec::decode(blob, &columns[c], &why))
            return fail(u"rollup row: "_s + why);
        if (columns[c].size() != n)
            return fail(u"rollup row: columns of different lengths"_s);
    }
    if (pos != data.size())
        return fail(u"rollup row: trailing bytes"_s);

    const qint64 step = rollupStepMs(tier);
    std::vector<Aggregate> decoded;
    decoded.reserve(n);
    for (quint64 i = 0; i < n; ++i) {
        const qint64 slot = columns[1][i].tsMs;
        bool sameSlot = true;
        for (int c = first; c < 4; ++c)
            sameSlot = sameSlot && columns[c][i].tsMs == slot;
        if (!sameSlot || slot < 0 || slot >= slotsPerRow
            || (i > 0 && slot <= columns[1][i - 1].tsMs))
            return fail(u"rollup row: bad slot index"_s);
        const double slotCount = sameCount ? double(count) : columns[0][i].value;
        if (!(slotCount >= 1 && slotCount <= 1e15) || slotCount != std::floor(slotCount))
            return fail(u"rollup row: bad count"_s);
        Aggregate a;
        a.startMs = rowStartMs + slot * step;
        a.endMs = a.startMs + step - 1;
        a.count = qint64(slotCount);
        a.sum = columns[1][i].value;
        a.min = columns[2][i].value;
        a.max = columns[3][i].value;
        decoded.push_back(a);
    }
    out->insert(out->end(), decoded.begin(), decoded.end());
    return true;
}

} // namespace RollupCodec

} // namespace Headroom
