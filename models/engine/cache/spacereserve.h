// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A file of allocated bytes next to the cache, given back to the file system when the
// disk is full so that the cache can still write the transaction that makes room.
//
// SQLite writes every change, a DROP TABLE included, as new WAL frames first. When the
// disk fills exactly at the end of the WAL, even the drop of the oldest day cannot be
// written, and nothing can ever be freed from inside the cache. Deleting this file
// first gives the drop (a few pages per day: the schema, freelist trunks) and the next
// commits the room they need. It is made again once the disk has room for it several
// times over, so that re-making it does not itself fill the disk.
#pragma once

#include <QString>

namespace Headroom {

class SpaceReserve
{
public:
    SpaceReserve(QString path, qint64 bytes);

    // Makes the file (0600, blocks allocated, not sparse) when missing and the file
    // system has at least FreeFactor times its size available. Quiet when it cannot:
    // the cache works without it, it is only less sure to recover from a full disk.
    // true when the file is in place afterwards.
    bool ensure();
    // Deletes the file; true when there was one to give back.
    bool release();
    bool present() const;
    QString path() const { return m_path; }

    static constexpr int FreeFactor = 4;

private:
    QString m_path;
    qint64 m_bytes;
};

} // namespace Headroom
