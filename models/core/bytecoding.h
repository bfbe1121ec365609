// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Small byte-level codecs shared by the histogram and cache block formats.
#pragma once

#include <QByteArray>
#include <QtEndian>
#include <cstring>

namespace Headroom::ByteCoding {

inline void putVarint(QByteArray &out, quint64 v)
{
    while (v >= 0x80) {
        out.append(char((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.append(char(v));
}

inline bool getVarint(const QByteArray &in, qsizetype &pos, quint64 &v)
{
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= in.size())
            return false;
        const auto byte = quint8(in.at(pos++));
        v |= quint64(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return true;
    }
    return false;
}

inline quint64 zigzag(qint64 v)
{
    return (quint64(v) << 1) ^ quint64(v >> 63);
}
inline qint64 unzigzag(quint64 v)
{
    return qint64(v >> 1) ^ -qint64(v & 1);
}

inline quint64 doubleBits(double d)
{
    quint64 bits;
    std::memcpy(&bits, &d, sizeof bits);
    return bits;
}

inline double bitsDouble(quint64 bits)
{
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

inline void putDouble(QByteArray &out, double d)
{
    char raw[8];
    qToLittleEndian(doubleBits(d), raw);
    out.append(raw, 8);
}

inline bool getDouble(const QByteArray &in, qsizetype &pos, double &d)
{
    if (pos + 8 > in.size())
        return false;
    d = bitsDouble(qFromLittleEndian<quint64>(in.constData() + pos));
    pos += 8;
    return true;
}

} // namespace Headroom::ByteCoding
