// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/recordingaccess.h"

#include "cachelogging.h"
#include "engine/cache/cachefiles.h"
#include "engine/cache/cacheschema.h"
#include "engine/cache/sqlitedb.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QSysInfo>
#include <QUrl>
#include <cerrno>
#include <csignal>
#include <sqlite3.h>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

QString fileUri(const QString &path, const char *query)
{
    return QUrl::fromLocalFile(QFileInfo(path).absoluteFilePath()).toString(QUrl::FullyEncoded)
        + QLatin1StringView(query);
}

// The lock SampleCache::open holds for a whole session names a process of this host
// that still runs. Only reads the lock file (QLockFile::getLockInfo never creates it).
bool heldByLiveWriter(const QString &path)
{
    QLockFile lock(path + QLatin1StringView(".lock"));
    qint64 pid = 0;
    QString host, app;
    if (!lock.getLockInfo(&pid, &host, &app) || pid <= 0)
        return false;
    if (!host.isEmpty() && host != QSysInfo::machineHostName())
        return false;
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

// Copies path (and its -wal when there is one) into dir, then migrates and checkpoints
// the copy: what the readers expect, made without touching the original.
std::optional<QString> makeWorkingCopy(const QString &path, const QTemporaryDir &dir,
                                       qint64 *version, QString *error)
{
    QString copy = dir.filePath(u"recording.sqlite"_s);
    const auto copyFile = [&](const QString &from, const QString &to) {
        QFile source(from);
        if (source.copy(to))
            return true;
        *error = CacheFiles::withPath(
            path, u"cannot make a private copy to read it from (%1)"_s.arg(source.errorString()));
        return false;
    };
    if (!copyFile(path, copy))
        return std::nullopt;
    if (QFileInfo::exists(path + u"-wal"_s) && !copyFile(path + u"-wal"_s, copy + u"-wal"_s))
        return std::nullopt;
    // The refusals (newer schema, not a cache, corrupt) name the user's file, not the copy.
    QString reason;
    if (!CacheSchema::inspect(copy, &reason, version)) {
        *error
            = CacheFiles::withPath(path, reason.mid(reason.indexOf(QLatin1StringView(": ")) + 2));
        return std::nullopt;
    }
    Sqlite::Db db = Sqlite::open(copy, SQLITE_OPEN_READWRITE, &reason);
    if (!db || !Sqlite::configure(db.get(), true, &reason)
        || !CacheSchema::createOrMigrate(db.get(), &reason)) {
        *error = CacheFiles::withPath(path, u"cannot be read (%1); not modified"_s.arg(reason));
        return std::nullopt;
    }
    return copy; // the connection closes here: the copy's WAL is checkpointed away
}

} // namespace

std::optional<RecordingAccess> prepareRecordingAccess(const QString &path, QString *error)
{
    const QFileInfo info(path);
    if (!info.exists()) {
        *error = CacheFiles::withPath(path, u"no such file"_s);
        return std::nullopt;
    }
    if (!info.isFile()) {
        *error = CacheFiles::withPath(path, u"not a regular file"_s);
        return std::nullopt;
    }
    if (info.size() == 0) {
        *error = CacheFiles::withPath(path, u"empty: not a recording"_s);
        return std::nullopt;
    }

    RecordingAccess access;
    const bool walPresent = QFileInfo::exists(path + u"-wal"_s);
    if (walPresent && heldByLiveWriter(path)) {
        if (!CacheSchema::inspect(path, error, &access.schemaVersion))
            return std::nullopt;
        access.uri = fileUri(path, "?mode=ro");
        access.openFlags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
        access.how = u"read-only, beside the Headroom that is writing it"_s;
        return access;
    }
    if (!walPresent) {
        // immutable=1: no lock, no -wal, no -shm (inspect reads it the same way).
        if (!CacheSchema::inspect(path, error, &access.schemaVersion))
            return std::nullopt;
        if (access.schemaVersion == 0) {
            *error = CacheFiles::withPath(path, u"an empty cache: not a recording"_s);
            return std::nullopt;
        }
        if (access.schemaVersion >= CacheSchema::OldestReadInPlace) {
            access.uri = fileUri(path, "?mode=ro&immutable=1");
            access.openFlags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
            access.how = u"read-only, in place"_s;
            return access;
        }
    }

    // An older schema, or the last commits of a writer that is gone in a -wal.
    auto dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + u"/headroom-recording-XXXXXX"_s);
    if (!dir->isValid()) {
        *error = CacheFiles::withPath(
            path, u"cannot make a private copy to read it from (%1)"_s.arg(dir->errorString()));
        return std::nullopt;
    }
    const auto copy = makeWorkingCopy(path, *dir, &access.schemaVersion, error);
    if (!copy)
        return std::nullopt;
    if (access.schemaVersion == 0) {
        *error = CacheFiles::withPath(path, u"an empty cache: not a recording"_s);
        return std::nullopt;
    }
    access.uri = fileUri(*copy, "?mode=ro&immutable=1");
    access.openFlags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    access.how = walPresent
        ? u"read-only, from a private copy with the commits its writer left in %1"_s.arg(
              QFileInfo(path + u"-wal"_s).fileName())
        : u"read-only, from a private copy migrated from cache schema %1 to %2"_s
              .arg(access.schemaVersion)
              .arg(CacheSchema::Version);
    access.workingCopy = std::move(dir);
    qCInfo(lcCache) << "recording" << path << access.how;
    return access;
}

} // namespace Headroom
