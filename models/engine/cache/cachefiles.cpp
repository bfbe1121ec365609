// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/cachefiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace Headroom::CacheFiles {

namespace {
QString systemError(const char *what)
{
    return QString::fromUtf8(what) + u" ("_s + QString::fromLocal8Bit(std::strerror(errno)) + u')';
}
} // namespace

bool makePrivateDirectory(const QString &dir, QString *reason)
{
    const QString absolute = QDir::cleanPath(QDir(dir).absolutePath());
    if (QFileInfo(absolute).isDir())
        return true;
    // Parents first, so that each one created here is created 0700 (QDir::mkpath would
    // make them 0777 & ~umask).
    const QString parent = QFileInfo(absolute).path();
    if (parent != absolute && !makePrivateDirectory(parent, reason))
        return false;
    const QByteArray native = QFile::encodeName(absolute);
    if (::mkdir(native.constData(), 0700) != 0) {
        if (errno == EEXIST && QFileInfo(absolute).isDir())
            return true; // made meanwhile by someone else: theirs, left as it is
        *reason = systemError("cannot create the directory");
        return false;
    }
    // mkdir's mode goes through the umask; an unusual umask (0200) must not leave the
    // directory unusable, nor a lax one open.
    if (::chmod(native.constData(), 0700) != 0) {
        *reason = systemError("cannot make the directory private");
        return false;
    }
    return true;
}

bool createPrivateFile(const QString &path, QString *reason)
{
    const QByteArray native = QFile::encodeName(path);
    const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        const bool narrowed = ::fchmod(fd, 0600) == 0; // whatever the umask made of it
        ::close(fd);
        if (!narrowed) {
            *reason = systemError("cannot make the new cache file private");
            return false;
        }
        return true;
    }
    if (errno != EEXIST) {
        *reason = systemError("cannot create the cache file");
        return false;
    }
    struct stat main {};
    if (::stat(native.constData(), &main) != 0) {
        *reason = systemError("cannot read the cache file's mode");
        return false;
    }
    for (const char *suffix : { "-wal", "-shm" }) {
        const QByteArray side = native + suffix;
        struct stat st {};
        if (::stat(side.constData(), &st) != 0)
            continue;
        const mode_t mode = st.st_mode & 07777;
        if ((mode & ~(main.st_mode & 07777)) != 0)
            ::chmod(side.constData(), mode & main.st_mode & 07777);
    }
    return true;
}

QString withPath(const QString &path, const QString &reason)
{
    return QDir::toNativeSeparators(path) + QLatin1StringView(": ") + reason;
}

} // namespace Headroom::CacheFiles
