// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "sshfilesource.h"

#include "remotereadbatch.h"

namespace Headroom {

struct SshFileSource::Fetched
{
    FileReadResult files;
    QHash<QString, DirectoryListing> directories;
};

SshFileSource::SshFileSource(std::shared_ptr<SshConnection> connection)
    : m_connection(std::move(connection))
{
}

QString SshFileSource::description() const
{
    return m_connection->target().url();
}

SshFileSource::Fetched SshFileSource::fetch(const FileReadRequest &request,
                                            const QStringList &directories,
                                            const QDeadlineTimer &deadline)
{
    const RemoteReadBatch batch { request.files, directories, request.entryCounts,
                                  request.filesystems };
    const QByteArray boundary = newBatchBoundary();
    const SshConnection::Output output
        = m_connection->converse(RemoteReadShell, remoteReadScript(batch, boundary),
                                 endMarker(boundary), deadline, MaxAnswerBytes);
    Fetched fetched;
    if (!output.error.isEmpty()) {
        // Nothing of a failed round trip is used, not even what arrived before the
        // failure: a poll's figures all come from one moment or none.
        for (const QString &path : request.files)
            fetched.files.errors.insert(path, output.error);
        for (const QString &path : request.entryCounts)
            fetched.files.entryCountErrors.insert(path, output.error);
        for (const QString &path : request.filesystems)
            fetched.files.filesystemErrors.insert(path, output.error);
        for (const QString &path : directories)
            fetched.directories.insert(path, DirectoryListing { {}, output.error });
        return fetched;
    }
    RemoteReadReply reply = parseRemoteReadOutput(batch, output.standardOutput, boundary);
    fetched.files = std::move(reply.files);
    fetched.directories = std::move(reply.directories);
    for (DirectoryListing &listing : fetched.directories)
        capListing(&listing);
    return fetched;
}

FileReadResult SshFileSource::read(const FileReadRequest &request, const QDeadlineTimer &deadline)
{
    const QStringList directories(m_listingsWanted.cbegin(), m_listingsWanted.cend());
    m_listingsWanted.clear();
    Fetched fetched = fetch(request, directories, deadline);
    for (auto it = fetched.directories.cbegin(); it != fetched.directories.cend(); ++it) {
        // A failed refresh forgets the old listing: the next poll lists afresh.
        if (it->error.isEmpty())
            m_listings.insert(it.key(), *it);
        else
            m_listings.remove(it.key());
    }
    return std::move(fetched.files);
}

DirectoryListing SshFileSource::listDirectory(const QString &path, const QDeadlineTimer &deadline)
{
    m_listingsWanted.insert(path);
    const auto cached = m_listings.constFind(path);
    if (cached != m_listings.cend())
        return *cached;
    Fetched fetched = fetch(FileReadRequest {}, { path }, deadline);
    const DirectoryListing listing = fetched.directories.value(path);
    if (listing.error.isEmpty())
        m_listings.insert(path, listing);
    m_listingsWanted.remove(path); // fresh now
    return listing;
}

} // namespace Headroom
