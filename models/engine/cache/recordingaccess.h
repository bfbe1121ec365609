// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// How a recording (a cache file opened to study, not to record into) is read without
// writing a byte of it, or beside it.
//
// The usual case is a cache that was closed cleanly by a Headroom of this schema: it is
// read in place with SQLite's immutable=1, which takes no locks and creates no -wal or
// -shm next to the file (even a read-only WAL reader would), so it also works on
// read-only media and directories. Two cases cannot be read in place without writing:
// a file of an older schema (the readers expect the current one) and a file whose
// writer crashed and left its last commits in a -wal. Both are copied into a private
// temporary directory, where the migration code and SQLite's WAL recovery run on the
// copy; the original is only read. A cache that another Headroom is writing right now
// (its lock names a live process on this host) is read in place in SQLite's read-only
// mode: its -wal and -shm are that writer's, and sharing them is how WAL readers work.
#pragma once

#include <QString>
#include <QTemporaryDir>
#include <memory>
#include <optional>

namespace Headroom {

struct RecordingAccess
{
    QString uri; // the file: URI the readers open
    int openFlags = 0; // SQLITE_OPEN_* for sqlite3_open_v2
    // Set when the file is read from a private copy; the copy goes with it.
    std::unique_ptr<QTemporaryDir> workingCopy;
    qint64 schemaVersion = 0; // the file's own
    QString how; // one line for the status bar and the log: how it is read
};

// Prepares reading the recording at path. nullopt with *error naming the file and the
// reason when it cannot be read: missing, not a Headroom cache, written by a newer
// Headroom (with both versions), empty, corrupt, or no room for a needed copy.
std::optional<RecordingAccess> prepareRecordingAccess(const QString &path, QString *error);

} // namespace Headroom
