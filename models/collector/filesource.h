// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Where collectors read /proc and /sys from: this machine (LocalFileSource) or a remote
// host over SSH (SshFileSource, collectors/ssh), so parsers and collectors never
// change. A poll asks for all it needs in one read() (files, the entry counts of
// directories such as /proc/PID/fd, and the figures of mounted filesystems, which no
// file holds: statvfs), so a remote source can fetch them in one round trip, and passes
// its deadline, which a remote source must honour.
#pragma once

#include "collector/hosttransport.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <memory>

namespace Headroom {

// statvfs(3) of one mounted filesystem, in bytes and inodes.
struct FilesystemFigures
{
    quint64 sizeBytes = 0; // f_blocks * f_frsize
    quint64 freeBytes = 0; // f_bfree: free, the blocks kept for root included
    quint64 availableBytes = 0; // f_bavail: what an unprivileged writer may still use
    quint64 inodes = 0; // f_files; 0 where the filesystem has no inode limit (btrfs)
    quint64 inodesFree = 0; // f_ffree

    friend bool operator==(const FilesystemFigures &, const FilesystemFigures &) = default;
};

// One poll's reads.
struct FileReadRequest
{
    QStringList files;
    // Directories whose entries are only counted, not listed (/proc/PID/fd: open files).
    QStringList entryCounts;
    // Mount points whose filesystem figures are wanted.
    QStringList filesystems;
};

struct FileReadResult
{
    QHash<QString, QByteArray> contents; // path -> bytes, for the files that could be read
    QHash<QString, QString> errors; // path -> reason, for those that could not
    QHash<QString, qint64> entryCounts; // directory -> entries (without . and ..)
    QHash<QString, QString> entryCountErrors; // directory -> reason
    QHash<QString, FilesystemFigures> filesystems; // mount point -> figures
    QHash<QString, QString> filesystemErrors; // mount point -> reason
};

struct DirectoryListing
{
    // A host with a million interfaces or disks must not make a poll read a million
    // files: a listing keeps the first MaxEntries names (by name) and says so.
    static constexpr int MaxEntries = 4096;

    QStringList entries; // names (not paths), not recursive, sorted
    QString error; // why the directory could not be listed; empty when it could
    qsizetype totalEntries = 0; // in the directory; more than entries when capped

    bool capped() const { return totalEntries > entries.size(); }
    // "/sys/class/net: 5000 entries, only the first 4096 by name are read (listing cap
    // 4096)", or empty when nothing was left out.
    QString capWarning(const QString &path) const;
};

// Sorts *entries, keeps the first `cap` and sets totalEntries: for a listing that
// arrived whole (over SSH, already bounded in bytes).
void capListing(DirectoryListing *listing, int cap = DirectoryListing::MaxEntries);

class FileSource
{
public:
    virtual ~FileSource() = default;
    // Human-readable location, e.g. "local" or "ssh://db1".
    virtual QString description() const = 0;
    virtual FileReadResult read(const FileReadRequest &request, const QDeadlineTimer &deadline) = 0;
    virtual DirectoryListing listDirectory(const QString &path, const QDeadlineTimer &deadline) = 0;

    // read() of files alone.
    FileReadResult readFiles(const QStringList &paths, const QDeadlineTimer &deadline)
    {
        return read(FileReadRequest { paths, {}, {} }, deadline);
    }
};

// Reads the local file system; rootPrefix lets tests point it at a captured tree
// (tests/fixtures/...) that mirrors /proc and /sys. Files are read with open(2) and
// read(2) (a poll of 2,000 processes reads thousands of small files); filesystem figures
// come from statvfs(3) of the mount point under the prefix.
class LocalFileSource : public FileSource
{
public:
    explicit LocalFileSource(QString rootPrefix = QString());
    QString description() const override;
    FileReadResult read(const FileReadRequest &request, const QDeadlineTimer &deadline) override;
    DirectoryListing listDirectory(const QString &path, const QDeadlineTimer &deadline) override;

private:
    QString m_root;
};

// The local FileSource of a Local transport (hosttransport.h): this machine, under its
// "root" prefix (fixture trees in tests). nullptr and *error for the other transports:
// collectors that read remote hosts go through hostFileSource() (collectors/ssh), which
// serves ssh:// and hands the rest here.
std::unique_ptr<FileSource> localFileSource(const HostTransport &transport, QString *error);
// parseHostTransport(options) and then localFileSource().
std::unique_ptr<FileSource> fileSourceFromOptions(const QJsonObject &options, QString *error);

} // namespace Headroom
