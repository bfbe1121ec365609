// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/filesource.h"

#include <QFile>
#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace Headroom {

using namespace Qt::StringLiterals;

LocalFileSource::LocalFileSource(QString rootPrefix)
    : m_root(std::move(rootPrefix))
{
}

QString LocalFileSource::description() const
{
    return m_root.isEmpty() ? u"local"_s : u"local:"_s + m_root;
}

namespace {

// The whole file, read until EOF (/proc and /sys files report size 0); false and the
// errno on failure.
bool readWholeFile(const QByteArray &path, QByteArray *data, int *error)
{
    const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        *error = errno;
        return false;
    }
    char buffer[8192];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0) {
            data->append(buffer, n);
        } else if (n == 0) {
            break;
        } else if (errno != EINTR) {
            *error = errno;
            ::close(fd);
            return false;
        }
    }
    ::close(fd);
    return true;
}

// Entries of a directory but . and ..; -1 and the errno when it cannot be read.
qint64 countEntries(const QByteArray &path, int *error)
{
    DIR *dir = ::opendir(path.constData());
    if (!dir) {
        *error = errno;
        return -1;
    }
    qint64 count = 0;
    errno = 0;
    while (const dirent *entry = ::readdir(dir)) {
        const char *name = entry->d_name;
        if (!(name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))))
            ++count;
    }
    const int readError = errno;
    ::closedir(dir);
    if (readError != 0) {
        *error = readError;
        return -1;
    }
    return count;
}

} // namespace

FileReadResult LocalFileSource::read(const FileReadRequest &request, const QDeadlineTimer &deadline)
{
    Q_UNUSED(deadline); // procfs and sysfs reads do not block
    FileReadResult result;
    result.contents.reserve(request.files.size());
    // Only the mount points a collector chose (block and memory filesystems): statvfs of
    // a network filesystem whose server is gone would block the poll's thread. Read
    // first: the poll's samples carry the time it started, and reading the files of a
    // few thousand processes can take a second on a busy host, which would show a
    // filesystem filling from then as filling that much earlier.
    for (const QString &path : request.filesystems) {
        struct statvfs figures {};
        if (::statvfs(QFile::encodeName(m_root + path).constData(), &figures) != 0) {
            result.filesystemErrors.insert(path, qt_error_string(errno));
            continue;
        }
        const quint64 unit = figures.f_frsize ? figures.f_frsize : figures.f_bsize;
        result.filesystems.insert(
            path,
            FilesystemFigures { quint64(figures.f_blocks) * unit, quint64(figures.f_bfree) * unit,
                                quint64(figures.f_bavail) * unit, quint64(figures.f_files),
                                quint64(figures.f_ffree) });
    }
    for (const QString &path : request.files) {
        QByteArray data;
        int error = 0;
        if (readWholeFile(QFile::encodeName(m_root + path), &data, &error))
            result.contents.insert(path, data);
        else
            result.errors.insert(path, qt_error_string(error));
    }
    for (const QString &path : request.entryCounts) {
        int error = 0;
        const qint64 count = countEntries(QFile::encodeName(m_root + path), &error);
        if (count >= 0)
            result.entryCounts.insert(path, count);
        else
            result.entryCountErrors.insert(path, qt_error_string(error));
    }
    return result;
}

DirectoryListing LocalFileSource::listDirectory(const QString &path, const QDeadlineTimer &deadline)
{
    Q_UNUSED(deadline);
    DirectoryListing listing;
    // readdir(3) itself: /proc of a busy host has thousands of entries, and QDirIterator
    // stats each.
    DIR *dir = ::opendir(QFile::encodeName(m_root + path).constData());
    if (!dir) {
        const int error = errno;
        listing.error = error == ENOENT || error == ENOTDIR ? u"no such directory: "_s + path
                                                            : qt_error_string(error);
        return listing;
    }
    // Never all names at once: keep at most twice the cap, cut back to the smallest
    // MaxEntries whenever it fills up.
    qsizetype total = 0;
    while (const dirent *entry = ::readdir(dir)) {
        const char *name = entry->d_name;
        if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0)))
            continue;
        listing.entries << QFile::decodeName(name);
        ++total;
        if (listing.entries.size() >= 2 * DirectoryListing::MaxEntries)
            capListing(&listing);
    }
    ::closedir(dir);
    capListing(&listing);
    listing.totalEntries = total;
    return listing;
}

QString DirectoryListing::capWarning(const QString &path) const
{
    if (!capped())
        return {};
    return u"%1: %2 entries, only the first %3 by name are read (listing cap %4)"_s.arg(path)
        .arg(totalEntries)
        .arg(entries.size())
        .arg(MaxEntries);
}

void capListing(DirectoryListing *listing, int cap)
{
    std::sort(listing->entries.begin(), listing->entries.end());
    listing->totalEntries = std::max(listing->totalEntries, listing->entries.size());
    if (listing->entries.size() > cap)
        listing->entries.resize(cap);
}

std::unique_ptr<FileSource> localFileSource(const HostTransport &transport, QString *error)
{
    if (transport.kind != HostTransport::Kind::Local) {
        if (error)
            *error = unreadableHostMessage(transport.address);
        return nullptr;
    }
    return std::make_unique<LocalFileSource>(transport.root);
}

std::unique_ptr<FileSource> fileSourceFromOptions(const QJsonObject &options, QString *error)
{
    const auto transport = parseHostTransport(options, error);
    return transport ? localFileSource(*transport, error) : nullptr;
}

} // namespace Headroom
