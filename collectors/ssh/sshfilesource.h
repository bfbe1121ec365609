// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// /proc and /sys of a remote Linux host, read over the host's shared SshConnection.
// Each read() (files, entry counts, filesystem figures) is one round trip: one script
// (remotereadbatch.h) to the host's long-running shell. Directory listings ride along:
// listDirectory() answers from the listing fetched with the previous read and asks for a fresh one
// with the next, so a steady poll (list, then read) costs one round trip; only the first listing of
// a directory costs one of its own.
#pragma once

#include "collector/filesource.h"
#include "sshconnection.h"

#include <QHash>
#include <QSet>
#include <memory>

namespace Headroom {

class SshFileSource : public FileSource
{
public:
    explicit SshFileSource(std::shared_ptr<SshConnection> connection);

    QString description() const override;
    FileReadResult read(const FileReadRequest &request, const QDeadlineTimer &deadline) override;
    DirectoryListing listDirectory(const QString &path, const QDeadlineTimer &deadline) override;

    // The whole answer of one poll is capped, against a server that sends without end.
    static constexpr qint64 MaxAnswerBytes = 32 * 1024 * 1024;

private:
    struct Fetched;
    Fetched fetch(const FileReadRequest &request, const QStringList &directories,
                  const QDeadlineTimer &deadline);

    std::shared_ptr<SshConnection> m_connection;
    QHash<QString, DirectoryListing> m_listings; // from the last round trip
    QSet<QString> m_listingsWanted; // to refresh with the next one
};

} // namespace Headroom
