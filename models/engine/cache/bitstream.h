// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Bit-level writing and reading for the packed block format (blockcodec.cpp): fields of
// 0 to 64 bits, least significant bit first, packed without gaps into bytes. The reader
// never reads past its data and reports a short read instead.
#pragma once

#include <QByteArray>
#include <algorithm>
#include <bit>

namespace Headroom::BitStream {

// Bits a value needs: 0 for 0, 64 for values with the top bit set.
inline int bitLength(quint64 v)
{
    return 64 - std::countl_zero(v);
}

class Writer
{
public:
    explicit Writer(QByteArray *out)
        : m_out(out)
    {
    }
    Writer(const Writer &) = delete;
    Writer &operator=(const Writer &) = delete;
    ~Writer() { flush(); }

    // The low `bits` bits of value (bits 0..64).
    void put(quint64 value, int bits)
    {
        if (bits < 64)
            value &= (quint64(1) << bits) - 1;
        m_pending |= value << m_used; // m_used < 64 between calls
        const int room = 64 - m_used;
        if (bits < room) {
            m_used += bits;
            return;
        }
        append(m_pending, 8);
        m_pending = room == 64 ? 0 : value >> room;
        m_used = bits - room;
    }

    // Writes what is pending, the last byte padded with zero bits. Further puts start
    // on a new byte.
    void flush()
    {
        append(m_pending, (m_used + 7) / 8);
        m_pending = 0;
        m_used = 0;
    }

private:
    void append(quint64 bits, int bytes)
    {
        for (int b = 0; b < bytes; ++b)
            m_out->append(char((bits >> (8 * b)) & 0xff));
    }

    QByteArray *m_out;
    quint64 m_pending = 0;
    int m_used = 0; // bits of m_pending in use
};

class Reader
{
public:
    // Reads data from byte *pos on; *pos moves past every byte begun.
    Reader(const QByteArray &data, qsizetype *pos)
        : m_data(data)
        , m_pos(pos)
    {
    }

    // The next `bits` bits (0..64), or false (value untouched) when data ends first.
    bool get(int bits, quint64 *value)
    {
        if (bits < 0 || bits > 64 || qsizetype(bits) > available())
            return false;
        quint64 v = 0;
        for (int got = 0; got < bits;) {
            const auto byte = quint8(m_data.at(*m_pos + (m_bit >> 3)));
            const int offset = m_bit & 7;
            const int take = std::min(8 - offset, bits - got);
            v |= quint64((byte >> offset) & ((1u << take) - 1)) << got;
            got += take;
            m_bit += take;
        }
        *value = v;
        return true;
    }

    // Ends the bit field: moves *pos past its last byte, true when the padding bits of
    // that byte are zero (a canonical encoding has no stray bits).
    bool finish()
    {
        bool clean = true;
        if ((m_bit & 7) != 0)
            clean = (quint8(m_data.at(*m_pos + (m_bit >> 3))) >> (m_bit & 7)) == 0;
        *m_pos += (m_bit + 7) >> 3;
        m_bit = 0;
        return clean;
    }

private:
    qsizetype available() const { return (m_data.size() - *m_pos) * 8 - m_bit; }

    const QByteArray &m_data;
    qsizetype *m_pos;
    qsizetype m_bit = 0; // bits read since *m_pos
};

} // namespace Headroom::BitStream
