// One poll's files and directory listings as one remote shell command, and its output
// back into contents, listings and errors. The command is plain POSIX sh with cat and
// ls, so nothing has to be installed on the server. Each item's output follows a header
// line that starts with a random boundary chosen per batch; files from /proc and /sys
// hold text that cannot guess it, and a server that sends garbage only spoils its own
// figures: whatever does not parse is reported as an error of the paths concerned.
#pragma once

#include "filesource.h"

#include <QByteArray>
#include <QHash>
#include <QStringList>

namespace Headroom {

struct RemoteReadBatch
{
    QStringList files;
    QStringList directories;
};

struct RemoteReadReply
{
    FileReadResult files;
    QHash<QString, DirectoryListing> directories;
    // False when the output stopped before the end marker (connection lost, cap hit):
    // the items that had not arrived carry an error.
    bool complete = false;
};

// A fresh random boundary for one batch (hex, 32 characters).
QByteArray newBatchBoundary();

QByteArray remoteReadCommand(const RemoteReadBatch &batch, const QByteArray &boundary);

// stderrText is the command's standard error: cat's and ls's own messages
// ("cat: PATH: REASON") give each failed item its reason.
RemoteReadReply parseRemoteReadOutput(const RemoteReadBatch &batch, const QByteArray &output,
                                      const QByteArray &stderrText, const QByteArray &boundary);

} // namespace Headroom
